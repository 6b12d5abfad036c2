"""Files in and out: bring in a scenario or fleet file the command line wrote (a fleet gets a
game night made around it), and offer a game night's side as a fleet file and as plain text
for a forum post.

Routes (docs/web.md): ``POST /nights/import`` (a form), ``GET
/api/scenarios/{id}/sides/{n}/fleet.yaml`` (or ``.json``) and ``GET
/api/scenarios/{id}/sides/{n}/fleet.txt``, `n` counting from 0 as a scenario's key paths do
(``sides[0]``).
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
    check_number,
    side_file_name,
    side_fleet_text,
    side_listing,
)
from generator.errors import CheckedProblems, DataError, InputError
from generator.web.state import state_of
from generator.yamlfile import MAX_FILE_BYTES

#: what the night page says of a file just brought in (``?brought=KIND``)
BROUGHT = {
    "scenario": "Brought in a scenario file: the game night is as the file has it.",
    "fleet": "Brought in a fleet file: it is the first side, and the other side was rolled "
    "to meet it, as fair as the rolls allow.",
}


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
        try:
            kind, saved = await state_of(request).run_quick(
                lambda: bring_in_file(store, raw, name, seed)
            )
        except CheckedProblems as exc:
            # a file's problems are told by line and key, as the command line tells them:
            # bad input (400); 422 and its key paths are for a scenario a form edits
            raise DataError(exc.problems) from None
        return RedirectResponse(f"/nights/{saved.id}?brought={kind}", status_code=303)


def brought(request: Request) -> str | None:
    """Return what the night page says of a file just brought in, or None."""
    return BROUGHT.get(request.query_params.get("brought", ""))


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
        Route("/api/scenarios/{id}/sides/{side}/fleet.{suffix}", fleet_file, methods=["GET"]),
    ]
