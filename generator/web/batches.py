"""Conventions: `quartermaster batch` as a page. A form of the batch's options starts it in
the background (`generator.app.batches`), one at a time, under the data folder; its page
shows a progress bar (refreshed by static/batch.js, or by the page itself without
JavaScript), then its index and a zip of its packets.

Routes (docs/web.md): ``GET /batches``, ``POST /batches`` (a form), ``GET /batches/{id}``,
``POST /api/batches``, ``GET /api/batches``, ``GET /api/batches/{id}`` and its
``index.pdf`` and ``packets.zip``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from generator.app.batches import (
    Batch,
    BatchOrder,
    NotNow,
    list_batches,
    read_batch,
    start_batch,
)
from generator.app.requests import OrderOptions, PrintOptions
from generator.app.saved import check_number
from generator.errors import InputError
from generator.web.api import read_json
from generator.web.files import Pages
from generator.web.state import state_of

#: the sections a batch may leave out, in the page's words
SECTION_WORDS = {
    "map": "Map",
    "counters": "Counters",
    "cards": "Cards",
    "playsheet": "Play sheet",
    "quick-reference": "Quick reference",
    "spares": "Spare logs",
    "gm-notes": "GM notes",
}
#: how often a running batch's page refreshes itself without JavaScript (seconds)
REFRESH = 3


def _data(request: Request) -> Path:
    """Return the data folder (where the store is): batches are kept there, never in a
    place a request names."""
    return state_of(request).store.path.parent


# --- pages ----------------------------------------------------------------------------------


class BatchPages:
    """The Conventions pages, rendered and read with the pages' helpers (`Pages`)."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    async def conventions(self, request: Request) -> Response:
        data = _data(request)
        made = await state_of(request).run_quick(lambda: list_batches(data))
        return self.pages.render(
            request,
            "batches.html.j2",
            title="Conventions",
            batches=made,
            rulesets=self.pages.rulesets(),
            titles=dict(self.pages.rulesets()),
            sections=SECTION_WORDS,
        )

    def order(self, form: Any) -> BatchOrder:
        """Read the Conventions form into a batch order, as `quartermaster batch` reads
        its options."""
        whole, text = self.pages.whole, self.pages.text
        chosen = [r for r in form.getlist("rulesets") if isinstance(r, str) and r]
        count = whole(form, "count", "count")
        if count is None:
            raise InputError("count: how many packets? (a whole number, 1 or more)")
        without = [s for s in form.getlist("without") if isinstance(s, str) and s]
        return BatchOrder(
            rulesets=",".join(chosen),
            count=count,
            seed=whole(form, "seed", "seed"),
            order=OrderOptions(
                ships=text(form, "ships"),
                navies=text(form, "navies"),
                year=whole(form, "year", "year"),
                balanced=form.get("balanced") == "1",
            ),
            without=",".join(without) or None,
            spares=whole(form, "spares", "spares"),
            printing=PrintOptions(
                text(form, "paper") or "a4",
                mono=form.get("mono") == "1",
                fillable=form.get("fillable") == "1",
            ),
        )

    async def start(self, request: Request) -> Response:
        order = self.order(await self.pages.form(request))
        data = _data(request)
        made = await state_of(request).run_quick(lambda: start_batch(data, order))
        return RedirectResponse(f"/batches/{made.id}", status_code=303)

    async def batch(self, request: Request) -> Response:
        number = check_number(request.path_params["id"], "batch")
        data = _data(request)
        made = await state_of(request).run_quick(lambda: read_batch(data, number))
        return self.pages.render(
            request,
            "batch.html.j2",
            title=f"Batch {made.id}",
            batch=made,
            refresh=REFRESH,
            titles=dict(self.pages.rulesets()),
            sections=SECTION_WORDS,
        )


# --- the JSON API ---------------------------------------------------------------------------


def _json_order(body: Any) -> BatchOrder:
    """Read ``{"rulesets", "count", "seed"?, "ships"?, "navies"?, "year"?, "balanced"?,
    "without"?, "spares"?, "paper"?, "mono"?, "fillable"?}`` into a batch order."""
    if not isinstance(body, dict):
        raise InputError("the body must be a JSON object")
    known = {"rulesets", "count", "seed", "ships", "navies", "year", "balanced", "without"}
    known |= {"spares", "paper", "mono", "fillable"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise InputError(f"{unknown[0]}: not an option (options: {', '.join(sorted(known))})")

    def listed(key: str) -> str | None:
        value = body.get(key)
        if value is None:
            return None
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, bool) or not isinstance(item, int | str):
                raise InputError(f"{key}: {json.dumps(item)} is neither a number nor a word")
        return ",".join(str(item) for item in values)

    def whole(key: str) -> int | None:
        value = body.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputError(f"{key}: a whole number, not {json.dumps(value)}")
        return value

    def flag(key: str, default: bool) -> bool:
        value = body.get(key, default)
        if not isinstance(value, bool):
            raise InputError(f"{key}: true or false")
        return value

    count = whole("count")
    if count is None:
        raise InputError("count: how many packets? (a whole number, 1 or more)")
    paper = body.get("paper", "a4")
    if not isinstance(paper, str):
        raise InputError("paper: a4 or letter")
    return BatchOrder(
        rulesets=listed("rulesets") or "",
        count=count,
        seed=whole("seed"),
        order=OrderOptions(
            listed("ships"), listed("navies"), whole("year"), flag("balanced", True)
        ),
        without=listed("without"),
        spares=whole("spares"),
        printing=PrintOptions(paper, flag("mono", False), flag("fillable", False)),
    )


async def api_start(request: Request) -> Response:
    order = _json_order(await read_json(request))
    data = _data(request)
    made = await state_of(request).run_quick(lambda: start_batch(data, order))
    return JSONResponse(made.status(), status_code=201)


async def api_list(request: Request) -> Response:
    data = _data(request)
    made = await state_of(request).run_quick(lambda: list_batches(data))
    return JSONResponse({"batches": [b.status() for b in made]})


async def api_status(request: Request) -> Response:
    number = check_number(request.path_params["id"], "batch")
    data = _data(request)
    made = await state_of(request).run_quick(lambda: read_batch(data, number))
    return JSONResponse(made.status(), headers={"cache-control": "no-store"})


def _finished(request: Request) -> Batch:
    number = check_number(request.path_params["id"], "batch")
    made = read_batch(_data(request), number)
    if made.state == "running":
        raise NotNow(f"batch {number}: not done yet ({made.done} of {made.total} packets)")
    if made.state != "done":
        raise NotNow(f"batch {number} failed ({made.error}): it has nothing to download")
    return made


async def index_pdf(request: Request) -> Response:
    made = _finished(request)
    name = made.download_name("pdf")
    return FileResponse(made.index, media_type="application/pdf", filename=name)


async def packets_zip(request: Request) -> Response:
    made = _finished(request)
    name = made.download_name("zip")
    return FileResponse(made.zip, media_type="application/zip", filename=name)


def routes(pages: Pages) -> list[Route]:
    """Return the Conventions pages' and the batch API's routes, the pages' helpers lent
    by `pages`."""
    shown = BatchPages(pages)
    return [
        Route("/batches", shown.conventions, methods=["GET"]),
        Route("/batches", shown.start, methods=["POST"]),
        Route("/batches/{id}", shown.batch, methods=["GET"]),
        Route("/api/batches", api_start, methods=["POST"]),
        Route("/api/batches", api_list, methods=["GET"]),
        Route("/api/batches/{id}", api_status, methods=["GET"]),
        Route("/api/batches/{id}/index.pdf", index_pdf, methods=["GET"]),
        Route("/api/batches/{id}/packets.zip", packets_zip, methods=["GET"]),
    ]
