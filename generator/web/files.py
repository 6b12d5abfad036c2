"""Files in and out: bring in a scenario or fleet file the command line wrote (a fleet gets a
game night made around it), offer a game night's side as a fleet file and as plain text
for a forum post, and a game night's house-rules file: uploaded, replaced, removed and
offered back as it was uploaded.

Routes (docs/web.md): ``POST /nights/import`` (a form), ``GET
/api/scenarios/{id}/sides/{n}/fleet.yaml`` (or ``.json``) and ``GET
/api/scenarios/{id}/sides/{n}/fleet.txt``, `n` counting from 0 as a scenario's key paths do
(``sides[0]``); ``GET /nights/{id}/house-rules.yaml``, ``POST /nights/{id}/house-rules``
(a form with the file) and ``POST /nights/{id}/house-rules/remove``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from generator.app.saved import (
    GAME_FILE,
    bring_in_file,
    change_house_rules,
    check_number,
    house_rules_file_name,
    read_house_rules,
    side_file_name,
    side_fleet_text,
    side_listing,
)
from generator.app.store import NotFound, Saved
from generator.errors import CheckedProblems, DataError, InputError
from generator.web.state import state_of
from generator.yamlfile import MAX_FILE_BYTES

#: what the night page says of a file just brought in (``?brought=KIND``)
BROUGHT = {
    "scenario": "Brought in a scenario file: the game night is as the file has it.",
    "fleet": "Brought in a fleet file: it is the first side, and the other side was rolled "
    "to meet it, as fair as the rolls allow.",
}
#: what the night page says after its house rules changed (``?house=WHAT``)
HOUSE_SAID = {
    "set": "The game night now uses these house rules: its checks, the values the rules "
    "work out and its pages follow them.",
    "removed": "The game night now uses the built-in rules.",
}
#: the form field of a house-rules file (the new-night form's and the night page's)
HOUSE_FIELD = "house_rules"


async def house_upload(form: Any) -> tuple[bytes, str] | None:
    """Return the bytes and name of the house-rules file a posted form carries, or None
    when none was chosen."""
    file = form.get(HOUSE_FIELD)
    if not isinstance(file, UploadFile) or not file.filename:
        return None
    return await file.read(MAX_FILE_BYTES + 1), file.filename


@dataclass(frozen=True)
class Pages:
    """What the pages module (`generator.web.pages`, which lists every page's routes)
    lends the pages made elsewhere: its renderer, its reader of a posted form (which
    refuses one without the form token) and of the form's fields, the rulesets offered."""

    render: Callable[..., HTMLResponse]
    form: Callable[[Request], Awaitable[Any]]
    whole: Callable[[Any, str, str], int | None]
    text: Callable[[Any, str], str | None]
    rulesets: Callable[[], list[tuple[str, str]]]


class FilePages:
    """The upload of a scenario or fleet file, with the pages' form reader."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    async def upload(self, request: Request) -> Response:
        """Bring in the file of the home page's upload form; 303 to its game night."""
        form = await self.pages.form(request)
        file = form.get("file")
        if not isinstance(file, UploadFile) or not file.filename:
            raise InputError(f"file: choose {GAME_FILE} to bring in")
        raw = await file.read(MAX_FILE_BYTES + 1)
        seed = self.pages.whole(form, "seed", "seed")
        store, name = state_of(request).store, file.filename
        upload = await house_upload(form)

        def keep() -> tuple[str, Saved]:
            house = read_house_rules(*upload) if upload is not None else None
            return bring_in_file(store, raw, name, seed, house=house)

        try:
            kind, saved = await state_of(request).run_quick(keep)
        except CheckedProblems as exc:
            # a file's problems are told by line and key, as the command line tells them:
            # bad input (400); 422 and its key paths are for a scenario a form edits
            raise DataError(exc.problems) from None
        return RedirectResponse(f"/nights/{saved.id}?brought={kind}", status_code=303)

    async def set_house_rules(self, request: Request) -> Response:
        """Replace (or add) a game night's house rules with the file of the night page's
        form, or remove them (``.../remove``); 303 back to the night page."""
        form = await self.pages.form(request)
        number = check_number(request.path_params["id"], "game night")
        version = self.pages.whole(form, "version", "version")
        removing = request.url.path.endswith("/remove")
        upload = None if removing else await house_upload(form)
        if not removing and upload is None:
            raise InputError("house rules: choose a house-rules file (YAML) to use")
        store = state_of(request).store

        def change() -> Saved:
            house = read_house_rules(*upload) if upload is not None else None
            return change_house_rules(store, number, house, version)

        try:
            await state_of(request).run_quick(change)
        except CheckedProblems as exc:
            # the game night does not fit the new rules: told by line and key (bad input)
            raise DataError(exc.problems) from None
        said = "removed" if removing else "set"
        return RedirectResponse(f"/nights/{number}?house={said}", status_code=303)


def brought(request: Request) -> str | None:
    """Return what the night page says of a file just brought in, or None."""
    return BROUGHT.get(request.query_params.get("brought", ""))


def house_said(request: Request) -> str | None:
    """Return what the night page says of its house rules just changed, or None."""
    return HOUSE_SAID.get(request.query_params.get("house", ""))


async def house_rules_file(request: Request) -> Response:
    """Offer a game night's house-rules file, the bytes as they were uploaded."""
    number = check_number(request.path_params["id"], "game night")
    saved = state_of(request).store.scenario(number)
    if saved.house_rules is None:
        raise NotFound(f"game night {number} uses the built-in rules: it has no house rules")
    return Response(
        saved.house_rules.raw,
        media_type="application/yaml",
        headers={"content-disposition": f'attachment; filename="{house_rules_file_name(saved)}"'},
    )


async def fleet_file(request: Request) -> Response:
    number = check_number(request.path_params["id"], "game night")
    index = check_number(request.path_params["side"], "side")
    suffix = request.path_params["suffix"]
    saved = state_of(request).store.scenario(number)
    if suffix == "txt":
        text, kind = side_listing(saved, index), "text/plain; charset=utf-8"
        shown = "inline"  # to read and copy into a post; saved under its name if kept
    elif suffix in ("yaml", "json"):
        text = side_fleet_text(saved, index, as_yaml=suffix == "yaml")
        kind = "application/yaml" if suffix == "yaml" else "application/json"
        shown = "attachment"
    else:
        raise InputError(f"fleet.{suffix[:20]}: a side is offered as .yaml, .json or .txt")
    name = side_file_name(saved, index, suffix)
    return Response(
        text.encode("utf-8"),
        media_type=kind,
        headers={"content-disposition": f'{shown}; filename="{name}"'},
    )


def routes(pages: Pages) -> list[Route]:
    """Return the routes of files in and out, the pages' helpers lent by `pages`."""
    return [
        Route("/nights/import", FilePages(pages).upload, methods=["POST"]),
        Route("/nights/{id}/house-rules.yaml", house_rules_file, methods=["GET"]),
        Route("/nights/{id}/house-rules", FilePages(pages).set_house_rules, methods=["POST"]),
        Route(
            "/nights/{id}/house-rules/remove", FilePages(pages).set_house_rules, methods=["POST"]
        ),
        Route("/api/scenarios/{id}/sides/{side}/fleet.{suffix}", fleet_file, methods=["GET"]),
    ]
