"""A game's paper back in: the GM uploads a fillable ship's log (or the whole packet) filled
in any PDF reader, and every ship with a field in it gets her log as the file has it
(`generator.app.paper.read_filled`).

Route: ``POST /play/{token}/read``, a multipart form with the app's form ``token`` and the
file as ``filled``; the GM's link only (a side's answers 404, as a link that is none does).
It answers 303 to the game's page, saying what was read (``said=`` lines, `said.py`).
"""

from __future__ import annotations

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from generator.app import games
from generator.app.games import Game
from generator.app.paper import MAX_PDF_BYTES, FilledRead, read_filled
from generator.app.store import NotFound
from generator.errors import InputError
from generator.web.files import Pages
from generator.web.said import said_link
from generator.web.state import state_of

#: the form's file field
FILLED_FIELD = "filled"


def routes(pages: Pages) -> list[Route]:
    """Return the route that reads a filled log back into a game."""

    async def read(request: Request) -> Response:
        form = await pages.form(request)
        state = state_of(request)
        store = state.store
        token = request.path_params["token"]
        found, seat = await state.run_quick(lambda: games.seat_of(store, token))
        if not seat.is_gm:
            # the same words as a link that is none: a side's link learns nothing here
            raise NotFound("no game has this link: ask the GM for it again")
        file = form.get(FILLED_FIELD)
        if not isinstance(file, UploadFile) or not file.filename:
            raise InputError(f"{FILLED_FIELD}: choose a filled fillable ship's log (a PDF)")
        raw = await file.read(MAX_PDF_BYTES + 1)
        name = file.filename

        def read_in() -> tuple[Game, FilledRead]:
            # the game as it is when the file is read (it may have ended meanwhile)
            now = games.game(store, found.id)
            return now, read_filled(store, now, raw, name)

        _, done = await state.run_quick(read_in)
        # said.py signs the words for the night page's link: the same words go to the game's
        query = said_link(request, found.id, done.lines(), anchor="paper").partition("?")[2]
        return RedirectResponse(f"/play/{token}?{query}", status_code=303)

    return [Route("/play/{token}/read", read, methods=["POST"])]
