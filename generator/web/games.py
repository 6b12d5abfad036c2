"""Games at the table: a page per link (the GM's, each side's) with every ship's log to
mark, and the API that the page's script and a table's scripts use.

A link is ``/play/TOKEN``: the token says which game and who holds it (`games.seat_of`),
and a side's token never reaches the other side's ships, in a page, the API or a file.
These routes need no key when the app listens beyond this machine (`guard.Guard` lets
``/play/`` and a game's API through on their token), so players at the table open their
side's link on a phone and see nothing else.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from generator.app import games
from generator.app.campaigns import campaign_of_game
from generator.app.games import Game, GameShip, Seat
from generator.app.paper import game_packet
from generator.app.saved import check_number
from generator.app.store import NotFound
from generator.assignments import parse_assignments
from generator.errors import InputError
from generator.resolve import all_resolvers
from generator.ruleset.logcard import (
    CheckCell,
    Checks,
    Choice,
    Table,
    TextCell,
    Tracks,
    WriteCell,
    WriteIns,
    card_fields,
)
from generator.web.api import packet_options, read_json, read_object
from generator.web.files import Pages
from generator.web.odds import odds_view
from generator.web.said import said_on_page
from generator.web.state import state_of

TOKEN_HEADER = "x-game-token"


# --- a ship's log as the page shows it -----------------------------------------------------


def log_view(ship: GameShip) -> dict[str, Any]:
    """Return a ship's log as the page's template draws it: her particulars, ratings and
    numbers, then her sections (rows of boxes with their marks, check boxes, spaces,
    write-in boxes, tables), each box with whether it is marked."""
    marks = ship.marks
    crossed = {state.track.label: state for state in ship.tracks()}
    card = ship.card
    sections: list[dict[str, Any]] = []
    for section in card.sections():
        if isinstance(section, Tracks):
            rows = []
            for track in section.rows:
                state = crossed[track.label]
                after = dict(track.marks)
                rows.append(
                    {
                        "key": state.key,
                        "label": track.label,
                        "value": track.value,
                        "sub": track.sub,
                        "note": track.note,
                        "end": track.end,
                        "ended": state.ended,
                        "crossed": state.crossed,
                        "boxes": [
                            {
                                "field": name,
                                "marked": marks.get(name) is True,
                                "tip": card.tips.get(name, ""),
                                "mark": after.get(number + 1),
                                "reached": state.crossed >= number + 1,
                            }
                            for number, name in enumerate(track.boxes)
                        ],
                        "after": [_check(card.tips, marks, check) for check in track.after],
                    }
                )
            sections.append({"kind": "tracks", "group": section.group, "rows": rows})
        elif isinstance(section, Checks):
            sections.append(
                {
                    "kind": "checks",
                    "entries": [_check(card.tips, marks, check) for check in section.entries],
                }
            )
        elif isinstance(section, Choice):
            sections.append(
                {
                    "kind": "choice",
                    "label": section.label,
                    "options": [
                        {
                            "label": option.label,
                            "field": option.field,
                            "start": option.start,
                            "marked": marks.get(option.field) is True,
                        }
                        for option in section.options
                    ],
                }
            )
        elif isinstance(section, WriteIns):
            sections.append(
                {
                    "kind": "writeins",
                    "entries": [
                        {"label": e.label, "field": e.field, "value": _written(marks, e.field)}
                        for e in section.entries
                    ],
                }
            )
        elif isinstance(section, Table):
            sections.append(
                {
                    "kind": "table",
                    "head": list(section.head),
                    "rows": [
                        {
                            "label": row.label,
                            "cells": [_cell(card.tips, marks, c) for c in row.cells],
                        }
                        for row in section.rows
                    ],
                }
            )
    return {
        "key": ship.key,
        "name": ship.name,
        "version": ship.version,
        "tags": list(card.tags),
        "lines": list(card.lines),
        "facts": [(fact.label, fact.value) for fact in card.facts if fact.value is not None],
        "figures": [
            (figure.label, figure.value, figure.how)
            for figure in card.figures
            if figure.value is not None
        ],
        "sections": sections,
    }


def _check(tips: Any, marks: Any, check: Any) -> dict[str, Any]:
    return {
        "label": check.label,
        "boxes": [
            {"field": name, "marked": marks.get(name) is True, "tip": tips.get(name, "")}
            for name in check.fields
        ],
    }


def _written(marks: Any, field: str) -> str:
    value = marks.get(field)
    return value if isinstance(value, str) else ""


def _cell(tips: Any, marks: Any, cell: Any) -> dict[str, Any]:
    if isinstance(cell, TextCell):
        return {"kind": "text", "text": cell.text}
    if isinstance(cell, CheckCell):
        return {
            "kind": "checks",
            "boxes": [
                {"field": name, "marked": marks.get(name) is True, "tip": tips.get(name, "")}
                for name in cell.fields
            ],
        }
    assert isinstance(cell, WriteCell)
    return {"kind": "write", "field": cell.field, "value": _written(marks, cell.field)}


# --- pages ---------------------------------------------------------------------------------


def _who(found: Game, seat: Seat) -> str:
    if seat.side is None:
        return "GM"
    return games.side_names(found)[seat.side]


def _resolvers_of(ruleset: str) -> list[tuple[str, str]]:
    """The resolvers of `ruleset`, as (id, title), in the order the rules give them."""
    return [(rid, r.title) for rid, r in all_resolvers().items() if r.ruleset == ruleset]


def routes(pages: Pages) -> list[Route]:
    """Return the game pages' routes, rendered and read with the pages' own helpers."""

    async def start(request: Request) -> Response:
        await pages.form(request)
        number = check_number(request.path_params["id"], "game night")
        state = state_of(request)
        store = state.store

        def begin() -> Game:
            return games.start_game(store, store.scenario(number))

        found = await state.run_quick(begin)
        return RedirectResponse(f"/play/{found.gm_token}", status_code=303)

    async def play(request: Request) -> Response:
        state = state_of(request)
        store = state.store
        token = request.path_params["token"]

        def look() -> tuple[Game, Seat, list[GameShip], list[Any], list[tuple[str, str]], Any]:
            found, seat = games.seat_of(store, token)
            carried = campaign_of_game(store, found.id) if seat.is_gm else None
            return (
                found,
                seat,
                games.ships(store, found, seat),
                games.resolutions(store, found, seat),
                games.shared_sheets(found, seat),
                carried,
            )

        found, seat, shown, made, shared, carried = await state.run_quick(look)
        names_by_key = {ship.key: ship.name for ship in shown}
        names = games.side_names(found)
        base = str(request.base_url)
        return pages.render(
            request,
            "game.html.j2",
            title=found.title,
            game=found,
            seat=seat,
            who=_who(found, seat),
            play=f"/play/{token}",
            links=games.links(found, base) if seat.is_gm else None,
            side_names=names,
            resolvers=_resolvers_of(found.ruleset),
            shared=shared,
            ends=games.ENDS,
            ship_ends={ship.key: games.end_of(ship) for ship in shown},
            victory=[str(line) for line in found.scenario.get("victory") or []],
            ended=games.ended_json(found, seat),
            carried=carried,
            said=said_on_page(request),
            ships=[(ship.key, ship.name) for ship in shown],
            resolutions=[games.resolution_json(r, names_by_key) for r in made],
            sides=[
                {
                    "name": names[side],
                    "logs": [log_view(ship) for ship in shown if ship.side == side],
                }
                for side in range(len(names))
                if seat.may_see(side)
            ],
        )

    async def odds(request: Request) -> Response:
        """The odds page for a game's link: dice, and the resolvers of its ruleset by its
        house rules; the link's pages only, so that a side opens it without the key."""
        state = state_of(request)
        token = request.path_params["token"]
        found, _ = await state.run_quick(lambda: games.seat_of(state.store, token))
        play = f"/play/{token}"
        return await odds_view(
            request,
            pages.render,
            action=f"{play}/odds",
            ruleset=found.ruleset,
            house=found.house,
            game_link=play,
        )

    async def mark(request: Request) -> Response:
        """A ship's log sent whole by its form (the page without JavaScript)."""
        form = await pages.form(request)
        state = state_of(request)
        store = state.store
        token = request.path_params["token"]
        key = request.path_params["ship"]
        version = pages.whole(form, "version", "version")

        def change() -> GameShip:
            found, seat = games.seat_of(store, token)
            ship = games.find_ship(store, found, seat, key)
            boxes, written = card_fields(ship.card)
            marks: dict[str, Any] = {name: form.get(name) == "1" for name in boxes}
            marks.update({name: str(form.get(name) or "") for name in written})
            return games.change_ship(
                store, found, seat, key, version=version, marks=marks, whole=True
            )

        ship = await state.run_quick(change)
        return RedirectResponse(f"/play/{token}#ship-{ship.key}", status_code=303)

    async def turn(request: Request) -> Response:
        form = await pages.form(request)
        state = state_of(request)
        store = state.store
        token = request.path_params["token"]
        asked = pages.whole(form, "turn", "turn")
        version = pages.whole(form, "version", "version")
        if asked is None:
            raise InputError("turn: a whole number")

        def change() -> Game:
            found, seat = games.seat_of(store, token)
            return games.set_turn(store, found, seat, asked, version)

        await state.run_quick(change)
        return RedirectResponse(f"/play/{token}", status_code=303)

    async def resolve(request: Request) -> Response:
        form = await pages.form(request)
        state = state_of(request)
        store = state.store
        token = request.path_params["token"]
        resolver = pages.text(form, "resolver") or ""
        ship = pages.text(form, "ship") or ""
        target = pages.text(form, "target")
        seed = pages.whole(form, "seed", "seed")
        words = (pages.text(form, "inputs") or "").split()
        given = parse_assignments(words, "inputs") if words else {}

        def run() -> Any:
            found, seat = games.seat_of(store, token)
            return games.resolve_in_game(store, found, seat, resolver, ship, target, given, seed)

        made = await state.run_quick(run)
        return RedirectResponse(f"/play/{token}#resolution-{made.number}", status_code=303)

    def step(kind: str) -> Any:
        async def handle(request: Request) -> Response:
            await pages.form(request)
            state = state_of(request)
            store = state.store
            token = request.path_params["token"]
            which = check_number(request.path_params["n"], "resolution")

            def change() -> Any:
                found, seat = games.seat_of(store, token)
                act = games.apply_resolution if kind == "apply" else games.undo_resolution
                return act(store, found, seat, which)

            await state.run_quick(change)
            return RedirectResponse(f"/play/{token}#resolution-{which}", status_code=303)

        return handle

    async def sheet(request: Request) -> Response:
        state = state_of(request)
        store = state.store
        token = request.path_params["token"]
        kind = request.path_params["kind"]
        paper = (request.query_params.get("paper") or "a4").lower()
        if paper not in ("a4", "letter"):
            raise InputError(f"paper: a4 or letter, not {paper[:20]!r}")
        found, seat = await state.run_quick(lambda: games.seat_of(store, token))
        pdf = await state.renderer.run(lambda: games.shared_sheet(found, seat, kind, paper))
        name = f"{kind}-{found.ruleset}-{paper}.pdf"
        return Response(
            pdf,
            media_type="application/pdf",
            headers={"Content-Disposition": f'inline; filename="{name}"'},
        )

    async def end(request: Request) -> Response:
        form = await pages.form(request)
        state = state_of(request)
        store = state.store
        token = request.path_params["token"]

        def finish() -> Game:
            found, seat = games.seat_of(store, token)
            results = {
                ship.key: str(form.get(f"end-{ship.key}") or games.end_of(ship))
                for ship in games.ships(store, found, seat)
            }
            met = [
                int(value)
                for value in form.getlist("victory")
                if isinstance(value, str) and value.isdigit() and len(value) < 4
            ]
            return games.end_game(store, found, seat, results, met)

        await state.run_quick(finish)
        return RedirectResponse(f"/play/{token}#end", status_code=303)

    return [
        Route("/play/{token}/end", end, methods=["POST"]),
        Route("/play/{token}/sheets/{kind}.pdf", sheet, methods=["GET"]),
        Route("/play/{token}/resolve", resolve, methods=["POST"]),
        Route("/play/{token}/resolutions/{n}/apply", step("apply"), methods=["POST"]),
        Route("/play/{token}/resolutions/{n}/undo", step("undo"), methods=["POST"]),
        Route("/nights/{id}/games", start, methods=["POST"]),
        Route("/play/{token}", play, methods=["GET"]),
        Route("/play/{token}/odds", odds, methods=["GET"]),
        Route("/play/{token}/ships/{ship}", mark, methods=["POST"]),
        Route("/play/{token}/turn", turn, methods=["POST"]),
    ]


# --- the API -------------------------------------------------------------------------------


def game_token(request: Request) -> str | None:
    """Return the game token a request carries: ``?token=`` or the X-Game-Token header."""
    return request.query_params.get("token") or request.headers.get(TOKEN_HEADER)


async def api_start(request: Request) -> Response:
    body = await read_json(request)
    if not isinstance(body, dict) or "scenario_id" not in body:
        raise InputError('the body must be {"scenario_id": N}')
    number = body["scenario_id"]
    if not isinstance(number, int) or isinstance(number, bool):
        raise InputError("scenario_id: the number of a game night")
    state = state_of(request)
    store = state.store
    found = await state.run_quick(lambda: games.start_game(store, store.scenario(number)))
    return JSONResponse(
        {"id": found.id, "links": games.links(found, str(request.base_url))}, status_code=201
    )


async def api_game(request: Request) -> Response:
    state = state_of(request)
    store = state.store
    number = check_number(request.path_params["id"], "game")
    token = game_token(request)

    def look() -> dict[str, Any]:
        found, seat = games.seat_in(store, number, token)
        return games.game_json(store, found, seat)

    return JSONResponse(await state.run_quick(look))


async def api_ship(request: Request) -> Response:
    state = state_of(request)
    store = state.store
    number = check_number(request.path_params["id"], "game")
    token = game_token(request)
    key = request.path_params["ship"]
    body = await read_object(
        request,
        '{"version": N, "tracks": {...}, "marks": {...}}',
        "a change",
        ("version", "tracks", "marks"),
    )
    version = body.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise InputError("version: the version the change was made against (a number)")
    tracks, marks = body.get("tracks") or {}, body.get("marks") or {}
    if not isinstance(tracks, dict) or not isinstance(marks, dict):
        raise InputError("tracks and marks: each a mapping")

    def change() -> dict[str, Any]:
        found, seat = games.seat_in(store, number, token)
        ship = games.change_ship(
            store, found, seat, key, version=version, tracks=tracks, marks=marks
        )
        return games.ship_json(ship)

    return JSONResponse(await state.run_quick(change))


async def api_resolve(request: Request) -> Response:
    state = state_of(request)
    store = state.store
    number = check_number(request.path_params["id"], "game")
    token = game_token(request)
    body = await read_object(
        request,
        '{"resolver", "ship", "target"?, "inputs"?, "seed"?}',
        "a resolution",
        ("resolver", "ship", "target", "inputs", "seed"),
    )
    resolver, ship, target = body.get("resolver"), body.get("ship"), body.get("target")
    if not isinstance(resolver, str) or not isinstance(ship, str):
        raise InputError("resolver and ship: each a name (flob.broadside; Victory or 1-2)")
    if target is not None and not isinstance(target, str):
        raise InputError("target: a ship's name or key")
    inputs = body.get("inputs") or {}
    if not isinstance(inputs, dict):
        raise InputError("inputs: a mapping of input names to values")
    seed = body.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise InputError("seed: a whole number, 0 or more")

    def resolve() -> dict[str, Any]:
        found, seat = games.seat_in(store, number, token)
        made = games.resolve_in_game(store, found, seat, resolver, ship, target, inputs, seed)
        return _resolution_answer(store, found, seat, made)

    return JSONResponse(await state.run_quick(resolve), status_code=201)


def _resolution_answer(store: Any, found: Game, seat: Seat, made: Any) -> dict[str, Any]:
    seen = games.ships(store, found, seat)
    names = {ship.key: ship.name for ship in seen}
    answer = games.resolution_json(made, names)
    answer["ships"] = [games.ship_json(ship) for ship in seen if ship.key in made.losses]
    return answer


def _resolution_step(step: str) -> Any:
    async def handle(request: Request) -> Response:
        state = state_of(request)
        store = state.store
        number = check_number(request.path_params["id"], "game")
        which = check_number(request.path_params["n"], "resolution")
        token = game_token(request)

        def change() -> dict[str, Any]:
            found, seat = games.seat_in(store, number, token)
            act = games.apply_resolution if step == "apply" else games.undo_resolution
            made = act(store, found, seat, which)
            return _resolution_answer(store, games.game(store, found.id), seat, made)

        return JSONResponse(await state.run_quick(change))

    return handle


async def api_end(request: Request) -> Response:
    state = state_of(request)
    store = state.store
    number = check_number(request.path_params["id"], "game")
    token = game_token(request)
    body = await read_object(
        request,
        '{"results"?: {ship: end}, "victory"?: [n, ...]}',
        "a game's end",
        ("results", "victory"),
    )
    results, victory = body.get("results") or {}, body.get("victory") or []
    if not isinstance(results, dict) or not isinstance(victory, list):
        raise InputError("results: a mapping of ships to their ends; victory: a list")

    def end() -> dict[str, Any]:
        found, seat = games.seat_in(store, number, token)
        ended = games.end_game(store, found, seat, results, victory)
        return games.game_json(store, ended, seat)

    return JSONResponse(await state.run_quick(end))


async def api_packet(request: Request) -> Response:
    """The game's packet with every log marked as the game has it now (the GM's link):
    what the next game, or a table going back to paper, prints."""
    state = state_of(request)
    store = state.store
    number = check_number(request.path_params["id"], "game")
    token = game_token(request)
    options = packet_options(request)
    found, seat = await state.run_quick(lambda: games.seat_in(store, number, token))
    if not seat.is_gm:
        raise NotFound("no game has this link: ask the GM for it again")
    files = await state.renderer.run(lambda: game_packet(store, found, options))
    name = f"game-{found.id}-{found.ruleset}.pdf"
    return Response(
        files[0].pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


API_ROUTES = [
    Route("/api/games/{id}/packet.pdf", api_packet, methods=["GET"]),
    Route("/api/games/{id}/end", api_end, methods=["POST"]),
    Route("/api/games/{id}/resolve", api_resolve, methods=["POST"]),
    Route("/api/games/{id}/resolutions/{n}/apply", _resolution_step("apply"), methods=["POST"]),
    Route("/api/games/{id}/resolutions/{n}/undo", _resolution_step("undo"), methods=["POST"]),
    Route("/api/games", api_start, methods=["POST"]),
    Route("/api/games/{id}", api_game, methods=["GET"]),
    Route("/api/games/{id}/ships/{ship}", api_ship, methods=["PATCH"]),
]
