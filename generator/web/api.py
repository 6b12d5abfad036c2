"""The JSON API: the web app's operations for scripts and tests (docs/web.md lists them).

Every route calls the application layer; a refusal answers 4xx with the command line's
words: ``{"error": "..."}``, and a scenario that fails its schema 422 with
``{"problems": [{"path", "message"}]}``; a house-rules file that fails its checks 400
with the same list, each problem at path ``house_rules``.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from generator.app.requests import OrderOptions, PrintOptions, ScenarioRequest
from generator.app.resolving import ResolveRequest, resolve_odds
from generator.app.rolls import dice_odds, versus_odds
from generator.app.saved import (
    PacketOptions,
    change_game_night,
    change_house_rules,
    check_game_night,
    check_number,
    file_name,
    game_night_text,
    new_game_night,
    read_house_rules,
)
from generator.app.store import Saved
from generator.dice.show import odds_json, versus_json
from generator.errors import DataError, InputError, one_line, shown
from generator.loading import HouseRules
from generator.resolve.show import odds_json as resolver_odds_json
from generator.web.forms import checked_form, json_fields, strengths_of
from generator.web.state import state_of

JSON_TYPES = ("application/json",)


async def read_json(request: Request) -> Any:
    """Return the request's JSON body, or refuse it in one line."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in JSON_TYPES:
        raise InputError("the body must be JSON (Content-Type: application/json)")
    raw = await request.body()
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"the body is not JSON: {exc}") from None


async def read_object(
    request: Request, shape: str, what: str, keys: tuple[str, ...]
) -> dict[str, Any]:
    """Return the request's JSON body, an object of `keys` at most, or refuse it in one line:
    not an object (it "must be `shape`"), or a key that is not a part of `what`."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise InputError(f"the body must be {shape}")
    extra = sorted(set(body) - set(keys))
    if extra:
        raise InputError(f"{extra[0]}: not a part of {what} ({', '.join(keys)})")
    return body


def scenario_json(saved: Saved) -> dict[str, Any]:
    """Return what the API says of a game night: its number, version and scenario, the
    scenario as `quartermaster scenario --json` prints it, and its house rules
    (``{"name", "text"}``, or null for the built-in rules)."""
    house = saved.house_rules
    return {
        "id": saved.id,
        "version": saved.version,
        "scenario": json.loads(game_night_text(saved, as_yaml=False)),
        "house_rules": None
        if house is None
        else {"name": house.name, "text": house.raw.decode("utf-8", errors="replace")},
    }


HOUSE_RULES_JSON = '{"name": "house.yaml", "text": "..."}'


def house_rules_body(value: Any) -> tuple[bytes, str] | None:
    """Return the bytes and name of house rules sent as ``{"name", "text"}`` (None: null),
    or refuse the shape in one line."""
    if value is None:
        return None
    if (
        not isinstance(value, dict)
        or set(value) != {"name", "text"}
        or not isinstance(value["name"], str)
        or not isinstance(value["text"], str)
    ):
        raise InputError(f"house_rules: {HOUSE_RULES_JSON}, or null for the built-in rules")
    try:
        return value["text"].encode("utf-8"), value["name"]
    except UnicodeEncodeError:
        raise InputError("house_rules: the text is not valid Unicode") from None


def house_refused(exc: DataError) -> JSONResponse:
    """Answer house rules that fail their checks: 400, every problem naming the file."""
    lines = [one_line(line) for line in exc.problems]
    return JSONResponse(
        {
            "error": f"{len(lines)} problem(s): {lines[0]}" if lines else "refused",
            "problems": [{"path": "house_rules", "message": line} for line in lines],
        },
        status_code=400,
    )


def _house_rules(sent: tuple[bytes, str] | None) -> HouseRules | None:
    """Return the house rules sent, checked (`read_house_rules`), or None."""
    return read_house_rules(*sent) if sent is not None else None


def _listed(body: dict[str, Any], key: str) -> str | None:
    """Return a list given in `key` (``[3, 4]``, or one value) as the command line's text."""
    value = body.get(key)
    if value is None:
        return None
    values = value if isinstance(value, list) else [value]
    if not values or len(values) > 2:
        raise InputError(f"{key}: one value, or one for each side (two)")
    for item in values:
        if isinstance(item, bool) or not isinstance(item, int | str):
            raise InputError(f"{key}: {json.dumps(item)} is neither a number nor a word")
    return ",".join(str(item) for item in values)


def order_request(body: Any) -> ScenarioRequest:
    """Read a scenario order (``{"ruleset", "seed"?, "ships"?, "navies"?, "year"?,
    "balanced"?}``) into the request `quartermaster scenario` makes of its options."""
    if not isinstance(body, dict):
        raise InputError("the body must be a JSON object")
    # house_rules: read beside the order (`house_rules_body`), listed as an option
    known = {"ruleset", "seed", "ships", "navies", "year", "balanced", "house_rules"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise InputError(f"{unknown[0]}: not an option (options: {', '.join(sorted(known))})")
    ruleset = body.get("ruleset")
    if not isinstance(ruleset, str) or not ruleset:
        raise InputError("ruleset: name the ruleset (e.g. tactical)")
    seed, year = body.get("seed"), body.get("year")
    for key, value in (("seed", seed), ("year", year)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputError(f"{key}: a whole number, not {json.dumps(value)}")
    balanced = body.get("balanced", True)
    if not isinstance(balanced, bool):
        raise InputError("balanced: true or false")
    order = OrderOptions(_listed(body, "ships"), _listed(body, "navies"), year, balanced)
    return ScenarioRequest(ruleset=ruleset, seed=seed, order=order)


def packet_options(request: Request) -> PacketOptions:
    """Read a packet's options from the query (``paper=a4|letter``, ``mono=0|1``,
    ``fillable=0|1``, ``without=map,cards``, ``spares=N``, ``handouts=0|1``)."""
    query = request.query_params

    def flag(name: str) -> bool:
        value = query.get(name, "0")
        if value not in ("0", "1"):
            raise InputError(f"{name}: 0 or 1, not {value[:20]!r}")
        return value == "1"

    spares = query.get("spares")
    if spares is not None and not (spares.isdigit() and len(spares) <= 3):
        raise InputError(f"spares: a whole number, not {spares[:20]!r}")
    return PacketOptions(
        printing=PrintOptions(query.get("paper", "a4"), flag("mono"), flag("fillable")),
        without=query.get("without") or None,
        spares=None if spares is None else int(spares),
        handouts=flag("handouts"),
    )


async def create_scenario(request: Request) -> Response:
    body = await read_json(request)
    sent = house_rules_body(body.pop("house_rules", None)) if isinstance(body, dict) else None
    order = order_request(body)
    store = state_of(request).store
    try:
        house = await state_of(request).run_quick(lambda: _house_rules(sent))
    except DataError as exc:
        return house_refused(exc)
    saved = await state_of(request).run_quick(lambda: new_game_night(store, order, house=house))
    return JSONResponse(scenario_json(saved), status_code=201)


async def put_house_rules(request: Request) -> Response:
    """Set a game night's house rules (``{"version"?, "house_rules": {"name", "text"}}``)
    or remove them (``"house_rules": null``): its units' derived values worked out again
    by the new rules and the scenario checked whole by them (422 with the problems when it
    does not fit them), 409 for a stale version; nothing is stored on a refusal."""
    number = check_number(request.path_params["id"], "game night")
    body = await read_json(request)
    known = {"house_rules", "version"}
    if not isinstance(body, dict) or "house_rules" not in body or not set(body) <= known:
        raise InputError(f'the body must be {{"house_rules": {HOUSE_RULES_JSON} or null}}')
    version = body.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise InputError("version: a whole number")
    sent = house_rules_body(body["house_rules"])
    store = state_of(request).store
    try:
        house = await state_of(request).run_quick(lambda: _house_rules(sent))
    except DataError as exc:
        return house_refused(exc)
    saved = await state_of(request).run_quick(
        lambda: change_house_rules(store, number, house, version)
    )
    return JSONResponse(scenario_json(saved))


async def get_scenario(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    return JSONResponse(scenario_json(state_of(request).store.scenario(number)))


async def put_scenario(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    body = await read_json(request)
    if not isinstance(body, dict) or "scenario" not in body:
        raise InputError('the body must be {"scenario": {...}} (and "version", to be safe)')
    version = body.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise InputError("version: a whole number")
    store = state_of(request).store
    saved = await state_of(request).run_quick(
        lambda: change_game_night(store, number, body["scenario"], version)
    )
    return JSONResponse(scenario_json(saved))


async def check_scenario_body(request: Request) -> Response:
    """Check a game night as PUT would change it, keeping nothing: ``{"scenario"}``, or one
    unit's form as JSON ``{"unit": {"side", "index", "fields": {name: value}}}`` (what
    static/edit.js sends, read as the form's POST reads it); 200 ``{"problems": [],
    "strengths": [...]}`` or 422 with the problems (for a unit's form, more:
    `generator.web.forms.checked_form`)."""
    number = check_number(request.path_params["id"], "game night")
    body = await read_json(request)
    saved = state_of(request).store.scenario(number)
    if isinstance(body, dict) and set(body) <= {"scenario", "version"} and "scenario" in body:
        scenario = body["scenario"]
        found = await state_of(request).run_quick(lambda: check_game_night(saved, scenario))
        answer = {
            "problems": [{"path": path, "message": message} for path, message in found.problems],
            "strengths": [] if found.problems else strengths_of(saved.ruleset, found.scenario),
        }
    elif isinstance(body, dict) and set(body) == {"unit"} and isinstance(body["unit"], dict):
        unit = body["unit"]
        if set(unit) != {"side", "index", "fields"}:
            raise InputError('unit: {"side": 0, "index": 1, "fields": {...}}, counted from 0')
        side, index = unit["side"], unit["index"]
        for key, value in (("side", side), ("index", index)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(f"unit.{key}: a whole number from 0")
        fields = json_fields(unit["fields"])
        answer = await state_of(request).run_quick(lambda: checked_form(saved, side, index, fields))
    else:
        raise InputError('the body must be {"scenario": {...}} or {"unit": {...}} (a unit\'s form)')
    return JSONResponse(answer, status_code=422 if answer["problems"] else 200)


async def delete_scenario(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    state_of(request).store.delete_scenario(number)
    return Response(status_code=204)


async def packet_pdf(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    saved = state_of(request).store.scenario(number)
    files = await state_of(request).renderer.packet(saved, packet_options(request))
    name = files[0].name.name
    return Response(
        files[0].pdf,
        media_type="application/pdf",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


async def page_png(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    page = check_number(request.path_params["page"], "page")
    width = request.query_params.get("width", "800")
    if not width.isdigit() or len(width) > 5:
        raise InputError(f"width: a number of pixels, not {width[:20]!r}")
    saved = state_of(request).store.scenario(number)
    png = await state_of(request).renderer.preview(saved, packet_options(request), page, int(width))
    return Response(png, media_type="image/png", headers={"cache-control": "private, max-age=300"})


async def scenario_file(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    saved = state_of(request).store.scenario(number)
    suffix = request.path_params["suffix"]
    if suffix not in ("yaml", "json"):
        raise InputError(f"scenario.{suffix[:20]}: a scenario is offered as .yaml or .json")
    text = game_night_text(saved, as_yaml=suffix == "yaml")
    kind = "application/yaml" if suffix == "yaml" else "application/json"
    return Response(
        text.encode("utf-8"),
        media_type=kind,
        headers={"content-disposition": f'attachment; filename="{file_name(saved, suffix)}"'},
    )


async def odds(request: Request) -> Response:
    body = await read_json(request)
    if not isinstance(body, dict) or not isinstance(body.get("expression"), str):
        raise InputError('the body must be {"expression": "2d6", "vs"?: "2d6"}')
    vs = body.get("vs")
    if vs is not None and not isinstance(vs, str):
        raise InputError("vs: a dice expression")
    answer = await state_of(request).run_quick(lambda: odds_answer(body["expression"], vs))
    return JSONResponse(answer)


def odds_answer(expression: str, vs: str | None) -> dict[str, Any]:
    """Return what ``quartermaster odds EXPRESSION [--vs VS] --json`` prints."""
    found = dice_odds(expression)
    if vs is None:
        return odds_json(found.expression, found.chances, found.mean)
    return versus_json(found.expression, found.chances, vs, versus_odds(vs))


async def resolver_odds(request: Request) -> Response:
    """Answer what ``quartermaster resolve RESOLVER NAME=VALUE ... --odds --json`` prints."""
    body = await read_json(request)
    if not isinstance(body, dict) or not isinstance(body.get("resolver"), str):
        raise InputError('the body must be {"resolver": "flob.broadside", "inputs"?: {...}}')
    inputs = body.get("inputs", {})
    if not isinstance(inputs, dict):
        raise InputError('inputs: an object of NAME: VALUE, e.g. {"attack": 5}')
    words = []
    for name, value in inputs.items():
        if "=" in name:
            raise InputError(f"inputs: {shown(name)!r} is not an input's name")
        if isinstance(value, bool):
            value = "yes" if value else "no"
        if not isinstance(value, int | str):
            raise InputError(f"{shown(name)}: {shown(json.dumps(value))} is not a number or a word")
        words.append(f"{name}={value}")
    asked = ResolveRequest(body["resolver"], tuple(words))
    made = await state_of(request).run_quick(lambda: resolve_odds(asked))
    return JSONResponse(resolver_odds_json(made.resolver, made.inputs, made.chances))


ROUTES = [
    Route("/api/scenarios", create_scenario, methods=["POST"]),
    Route("/api/scenarios/{id}", get_scenario, methods=["GET"]),
    Route("/api/scenarios/{id}", put_scenario, methods=["PUT"]),
    Route("/api/scenarios/{id}", delete_scenario, methods=["DELETE"]),
    Route("/api/scenarios/{id}/check", check_scenario_body, methods=["POST"]),
    Route("/api/scenarios/{id}/house-rules", put_house_rules, methods=["PUT"]),
    Route("/api/scenarios/{id}/packet.pdf", packet_pdf, methods=["GET"]),
    Route("/api/scenarios/{id}/pages/{page}.png", page_png, methods=["GET"]),
    Route("/api/scenarios/{id}/scenario.{suffix}", scenario_file, methods=["GET"]),
    Route("/api/odds", odds, methods=["POST"]),
    Route("/api/resolve/odds", resolver_odds, methods=["POST"]),
]
