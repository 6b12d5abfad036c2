"""The web app's pages: plain HTML rendered on the server, forms that work without
JavaScript (static/app.js only adds live previews and checks on top).

Each handler reads the form or query, calls the application layer and renders a template
from generator/web/templates/.
"""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from generator.app.campaigns import campaign_of_night
from generator.app.games import night_games
from generator.app.requests import OrderOptions, ScenarioRequest
from generator.app.saved import (
    PacketOptions,
    check_number,
    has_fleets,
    house_rules_shown,
    new_game_night,
    read_house_rules,
    ruleset_titles,
)
from generator.app.store import Saved
from generator.errors import InputError, QuartermasterError, one_line
from generator.generate.base import get_generator
from generator.generate.show import columns
from generator.rulesets import default_ruleset, ruleset_ids
from generator.web import batches, files, forms, strength
from generator.web.api import packet_options
from generator.web.odds import odds_routes
from generator.web.state import state_of
from generator.yamlfile import MAX_FILE_BYTES

HERE = Path(__file__).resolve().parent
ENV = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html", "j2"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(request: Request, template: str, code: int = 200, **context: Any) -> HTMLResponse:
    """Render a page; every page gets the form token and the rulesets."""
    html = ENV.get_template(template).render(
        token=state_of(request).token, path=request.url.path, **context
    )
    return HTMLResponse(html, status_code=code)


def error_page(request: Request, status: int, error: Exception) -> HTMLResponse:
    """Render a refusal as a page with the command line's words, at `status`."""
    lines = getattr(error, "problems", None) or [str(error)]
    return render(
        request,
        "error.html.j2",
        status,
        title="Refused" if status < 500 else "Something went wrong",
        status=status,
        lines=[one_line(line) for line in lines],
    )


async def _form(request: Request) -> Any:
    """Return the posted form, refused unless it carries the app's form token."""
    # two files at most: a scenario or fleet file and the house rules it was made with
    form = await request.form(max_files=2, max_fields=2000, max_part_size=MAX_FILE_BYTES)
    token = form.get("token")
    if not isinstance(token, str) or not hmac.compare_digest(token, state_of(request).token):
        raise Forbidden("the form is out of date or from another site: reload the page")
    return form


class Forbidden(InputError):
    """A change without the app's form token (HTTP 403)."""

    http_status = 403


def _text(form: Any, name: str) -> str | None:
    value = form.get(name)
    if value is None or isinstance(value, UploadFile):
        return None
    value = str(value).strip()
    return value or None


def _whole(form: Any, name: str, label: str) -> int | None:
    value = _text(form, name)
    if value is None:
        return None
    if not value.lstrip("-").isdigit() or len(value) > 12:
        raise InputError(f"{label}: a whole number, not {value[:20]!r}")
    return int(value)


# --- game nights --------------------------------------------------------------------------


async def home(request: Request) -> Response:
    store = state_of(request).store
    nights = await state_of(request).run_quick(store.scenarios)
    return render(
        request,
        "home.html.j2",
        title="Game nights",
        nights=nights,
        rulesets=ruleset_choices(),
    )


def ruleset_choices() -> list[tuple[str, str]]:
    """Return each ruleset's id and title, the default one first (as the CLI takes it)."""
    titles = ruleset_titles()
    first = default_ruleset()
    ids = sorted(ruleset_ids(), key=lambda r: (r != first, r))
    return [(r, titles[r]) for r in ids]


async def create(request: Request) -> Response:
    form = await _form(request)
    order = OrderOptions(
        ships=_text(form, "ships"),
        navies=_text(form, "navies"),
        year=_whole(form, "year", "year"),
        balanced=form.get("balanced") == "1",
    )
    ruleset = _text(form, "ruleset") or ""
    asked = ScenarioRequest(ruleset=ruleset, seed=_whole(form, "seed", "seed"), order=order)
    upload = await files.house_upload(form)
    store = state_of(request).store

    def make() -> Saved:
        house = read_house_rules(*upload) if upload is not None else None
        return new_game_night(store, asked, house=house)

    saved = await state_of(request).run_quick(make)
    return RedirectResponse(f"/nights/{saved.id}", status_code=303)


def sides_shown(saved: Saved) -> list[dict[str, Any]]:
    """Return each side of a game night as its page shows it: name, strength, units."""
    gen = get_generator(saved.ruleset)
    shown = []
    for index, side in enumerate(saved.scenario.get("sides", [])):
        units = list(side.get(gen.units, []))
        cols = columns(units, gen.summary_fields)
        shown.append(
            {
                "index": index,
                "name": side.get("name", f"Side {index + 1}"),
                "strength": gen.strength(side),
                "measure": gen.strength_measure,
                "columns": cols,
                "rows": [[col.value(unit) for col in cols] for unit in units],
            }
        )
    return shown


async def night(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    saved = state_of(request).store.scenario(number)
    house = await state_of(request).run_quick(lambda: house_rules_shown(saved))
    options = packet_options(request)
    query = _packet_query(options)
    return render(
        request,
        "night.html.j2",
        title=saved.title,
        night=saved,
        sides=sides_shown(saved),
        options=options,
        query=query,
        unit_word=get_generator(saved.ruleset).unit_word,
        brought=files.brought(request),
        house=house,
        house_said=files.house_said(request),
        fleets=has_fleets(saved),
        forces=strength.night_forces(request, saved),
        units=forms.night_units(saved),
        games=night_games(state_of(request).store, saved.id),
        campaign=campaign_of_night(state_of(request).store, saved.id),
        playable=get_generator(saved.ruleset).units == "ships",
    )


async def night_pages(request: Request) -> Response:
    """The packet's pages as thumbnails, with the print options: a page of its own (the
    night page's print form leads here without JavaScript), or with ``part=1`` only the
    list, which the night page's script puts in place. The night page itself answers at
    once; laying the packet out waits for this."""
    number = check_number(request.path_params["id"], "game night")
    saved = state_of(request).store.scenario(number)
    options = packet_options(request)
    pages = await state_of(request).renderer.pages(saved, options)
    template = "page_list.html.j2" if request.query_params.get("part") == "1" else "pages.html.j2"
    return render(
        request,
        template,
        title=f"{saved.title}: the pages",
        night=saved,
        options=options,
        query=_packet_query(options),
        pages=pages,
    )


def _packet_query(options: PacketOptions) -> str:
    printing = options.printing
    values = {
        "paper": printing.paper.lower(),
        "mono": int(printing.mono),
        "fillable": int(printing.fillable),
    }
    return urlencode(values)


async def delete(request: Request) -> Response:
    await _form(request)
    number = check_number(request.path_params["id"], "game night")
    state_of(request).store.delete_scenario(number)
    return RedirectResponse("/", status_code=303)


# what the pages made in other modules (files, batches ...) render and read forms with
LENT = files.Pages(render, _form, _whole, _text, ruleset_choices)

ROUTES = [
    Route("/", home, methods=["GET"]),
    Route("/nights", create, methods=["POST"]),
    *files.routes(LENT),
    *batches.routes(LENT),
    Route("/nights/{id}", night, methods=["GET"]),
    Route("/nights/{id}/pages", night_pages, methods=["GET"]),
    Route("/nights/{id}/delete", delete, methods=["POST"]),
    *forms.routes(LENT),
    *strength.routes(LENT),
    *strength.API_ROUTES,
    *odds_routes(render),
]

__all__ = ["ROUTES", "QuartermasterError", "error_page"]
