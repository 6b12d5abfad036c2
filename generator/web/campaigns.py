"""Campaigns in the web app: carrying an ended game on into the next game night, and the
campaign's page and API (its nights, with what was repaired before each, its games and its
fleets now).

Carrying a game on is the GM's: from the GM's link (``/play/TOKEN/campaign``, the form of
``end_game.html.j2``) or the API with the GM's token. A campaign's page and API show both
sides' fleets, so they are the app's own pages (the key, when the app listens beyond this
machine), never a side's link.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from generator.app import campaigns, games
from generator.app.campaigns import CarriedOn
from generator.app.saved import check_number
from generator.errors import InputError
from generator.web.api import read_object
from generator.web.files import Pages
from generator.web.games import game_token
from generator.web.state import state_of

#: the largest seed a form or the API may give (as the command line's --seed)
MAX_SEED = 2**63 - 1


def _seed(value: Any) -> int | None:
    """Return a seed given as JSON (None: none given)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_SEED:
        raise InputError("seed: a whole number, 0 or more")
    return value


def routes(pages: Pages) -> list[Route]:
    """Return the campaign pages' routes, rendered and read with the pages' own helpers."""

    async def carry_on(request: Request) -> Response:
        form = await pages.form(request)
        state = state_of(request)
        store = state.store
        token = request.path_params["token"]
        seed = pages.whole(form, "seed", "seed")
        title = pages.text(form, "title")

        def carry() -> CarriedOn:
            found, seat = games.seat_of(store, token)
            return campaigns.carry_on(store, found, seat, _seed(seed), title)

        made = await state.run_quick(carry)
        return RedirectResponse(
            f"/campaigns/{made.campaign.id}#night-{made.night.id}", status_code=303
        )

    async def listing(request: Request) -> Response:
        state = state_of(request)
        store = state.store
        found = await state.run_quick(lambda: campaigns.campaigns(store))
        return pages.render(request, "campaigns.html.j2", title="Campaigns", campaigns=found)

    async def page(request: Request) -> Response:
        state = state_of(request)
        store = state.store
        number = check_number(request.path_params["id"], "campaign")

        def look() -> tuple[campaigns.Campaign, dict[str, Any], list[games.Game]]:
            found = campaigns.campaign(store, number)
            return (
                found,
                campaigns.campaign_json(store, found),
                campaigns.campaign_games(store, found),
            )

        found, shown, played = await state.run_quick(look)
        return pages.render(
            request,
            "campaign.html.j2",
            title=found.title,
            campaign=found,
            shown=shown,
            played=played,
        )

    return [
        Route("/play/{token}/campaign", carry_on, methods=["POST"]),
        Route("/campaigns", listing, methods=["GET"]),
        Route("/campaigns/{id}", page, methods=["GET"]),
    ]


# --- the API -------------------------------------------------------------------------------


async def api_carry_on(request: Request) -> Response:
    state = state_of(request)
    store = state.store
    number = check_number(request.path_params["id"], "game")
    token = game_token(request)
    body = await read_object(
        request, '{"seed"?: N, "title"?: "words"}', "carrying a game on", ("seed", "title")
    )
    seed = _seed(body.get("seed"))
    title = body.get("title")
    if title is not None and not isinstance(title, str):
        raise InputError("title: the campaign's title, in words")

    def carry() -> dict[str, Any]:
        found, seat = games.seat_in(store, number, token)
        return campaigns.carried_json(campaigns.carry_on(store, found, seat, seed, title))

    return JSONResponse(await state.run_quick(carry), status_code=201)


async def api_campaigns(request: Request) -> Response:
    state = state_of(request)
    store = state.store

    def look() -> list[dict[str, Any]]:
        return [
            {"id": c.id, "title": c.title, "ruleset": c.ruleset, "nights": len(c.nights)}
            for c in campaigns.campaigns(store)
        ]

    return JSONResponse(await state.run_quick(look))


async def api_campaign(request: Request) -> Response:
    state = state_of(request)
    store = state.store
    number = check_number(request.path_params["id"], "campaign")

    def look() -> dict[str, Any]:
        return campaigns.campaign_json(store, campaigns.campaign(store, number))

    return JSONResponse(await state.run_quick(look))


API_ROUTES = [
    Route("/api/games/{id}/campaign", api_carry_on, methods=["POST"]),
    Route("/api/campaigns", api_campaigns, methods=["GET"]),
    Route("/api/campaigns/{id}", api_campaign, methods=["GET"]),
]
