"""Balance the sides, build a side to a strength: the night page's forms beside each side's
strength, and the same in the JSON API (`generator.app.forces` does the work).

Routes (docs/web.md): ``POST /nights/{id}/balance`` and ``POST /nights/{id}/sides/{n}/build``
(forms, answered by a redirect to the night page, which then says what was done), ``POST
/api/scenarios/{id}/balance`` ``{"side"?, "seed"?, "version"?}`` and ``POST
/api/scenarios/{id}/sides/{n}/build`` ``{"strength", "seed"?, "version"?}`` (the game night
as GET gives it, plus ``"said": [...]``); `n` counts from 0 as a scenario's key paths do.

What was done is said on the night page after the redirect (`generator.web.said`).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from generator.app.forces import (
    BALANCED_SIDE,
    ForcesChanged,
    balance_game_night,
    build_game_night,
    read_strength,
)
from generator.app.requests import fresh_seed
from generator.app.saved import check_number
from generator.app.store import Saved
from generator.errors import InputError
from generator.generate.base import get_generator
from generator.web.api import read_json, scenario_json
from generator.web.files import Pages
from generator.web.said import said_link, said_on_page
from generator.web.state import state_of


def night_forces(request: Request, saved: Saved) -> dict[str, Any]:
    """Return what the night page's forms beside the sides' strengths show: the words of
    the change just made, a fresh seed for the next rolls, and whether a side can be built
    to a strength (a side of ships)."""
    return {
        "said": said_on_page(request),
        "seed": fresh_seed(),
        "build": get_generator(saved.ruleset).units == "ships",
    }


def _side(text: str | None) -> int:
    """Return a side's number as a form gives it (0 the first; none: `BALANCED_SIDE`)."""
    return BALANCED_SIDE if text is None else check_number(text, "side")


def _whole(value: Any, key: str) -> int | None:
    """Return an optional whole number sent as JSON, or refuse it."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{key}: a whole number, not {json.dumps(value)[:20]}")
    return value


def _body(raw: Any, known: set[str], example: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InputError(f"the body must be a JSON object, e.g. {example}")
    unknown = sorted(set(raw) - known)
    if unknown:
        raise InputError(f"{unknown[0][:20]}: not an option (options: {', '.join(sorted(known))})")
    return raw


def _answer(changed: ForcesChanged) -> JSONResponse:
    return JSONResponse({**scenario_json(changed.saved), "said": changed.said})


async def balance_api(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    body = _body(await read_json(request), {"side", "seed", "version"}, '{"side": 1}')
    side = _whole(body.get("side"), "side")
    seed, version = _whole(body.get("seed"), "seed"), _whole(body.get("version"), "version")
    store = state_of(request).store
    changed = await state_of(request).run_quick(
        lambda: balance_game_night(
            store, number, BALANCED_SIDE if side is None else side, seed, version
        )
    )
    return _answer(changed)


async def build_api(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    side = check_number(request.path_params["side"], "side")
    body = _body(await read_json(request), {"strength", "seed", "version"}, '{"strength": 15}')
    strength = body.get("strength")
    if isinstance(strength, bool) or not isinstance(strength, int | float):
        raise InputError('strength: a number, e.g. {"strength": 15}')
    seed, version = _whole(body.get("seed"), "seed"), _whole(body.get("version"), "version")
    store = state_of(request).store
    changed = await state_of(request).run_quick(
        lambda: build_game_night(store, number, side, float(strength), seed, version)
    )
    return _answer(changed)


def routes(pages: Pages) -> list[Route]:
    """Return the night page's forms' routes (read with `pages`' form reader, which refuses
    a form without the token)."""

    async def balance(request: Request) -> Response:
        form = await pages.form(request)
        number = check_number(request.path_params["id"], "game night")
        side = _side(pages.text(form, "side"))
        seed = pages.whole(form, "seed", "seed")
        version = pages.whole(form, "version", "version")
        store = state_of(request).store
        changed = await state_of(request).run_quick(
            lambda: balance_game_night(store, number, side, seed, version)
        )
        return RedirectResponse(said_link(request, number, changed.said), status_code=303)

    async def build(request: Request) -> Response:
        form = await pages.form(request)
        number = check_number(request.path_params["id"], "game night")
        side = check_number(request.path_params["side"], "side")
        typed = pages.text(form, "strength")
        if typed is None:
            raise InputError("strength: type the strength to build the side to, e.g. 15")
        strength = read_strength(typed)
        seed = pages.whole(form, "seed", "seed")
        version = pages.whole(form, "version", "version")
        store = state_of(request).store
        changed = await state_of(request).run_quick(
            lambda: build_game_night(store, number, side, strength, seed, version)
        )
        return RedirectResponse(said_link(request, number, changed.said), status_code=303)

    return [
        Route("/nights/{id}/balance", balance, methods=["POST"]),
        Route("/nights/{id}/sides/{side}/build", build, methods=["POST"]),
    ]


API_ROUTES = [
    Route("/api/scenarios/{id}/balance", balance_api, methods=["POST"]),
    Route("/api/scenarios/{id}/sides/{side}/build", build_api, methods=["POST"]),
]
