"""Between games (generator/app/campaigns.py, generator/web/campaigns.py): a game ended by
the GM, carried on into a campaign's next game night with the fleets' damage less the
repairs between games, the same seed giving the same night, and the campaign's JSON and
page; FLoB's own Repair Table used, and transcribed as its source prints it."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.app import campaigns, games
from generator.app.games import Game, Seat
from generator.app.requests import OrderOptions, ScenarioRequest
from generator.app.saved import new_game_night, open_store, read_house_rules
from generator.app.store import Conflict, Store
from generator.errors import InputError
from generator.loading import load_rules
from generator.loading.cells import parse_cell
from generator.ruleset.logcard import Checks, slug
from generator.web.pages import ENV
from generator.web.server import create_app

GM = Seat(None)
SEEDS = Path("/work/shared/seeds")

# the repairs table of convoy with every roll giving one result (a house-rules file)
HOUSE_REPAIRS = """\
convoy:
  repairs-between-games:
    title: "Repairs between Games"
    kind: table
    house: true
    source: {{house: "A test's table: every roll gives one result."}}
    note: Every roll repairs {what}.
    params:
      roll: 1d6
      cleared: [struck, captured, aground, in_fog, paused]
      lost: [burnt]
    axes:
      - {{name: roll, title: "1d6", dice: 1d6, values: ["1-2", "3-5", 6]}}
    cells:
      - {{result: "{what}", repaired: {what}}}
      - {{result: "{what}", repaired: {what}}}
      - {{result: "{what}", repaired: {what}}}
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return open_store(tmp_path_factory.mktemp("campaigns"))


def _game(store: Store, ruleset: str = "convoy", repaired: str | None = None) -> Game:
    house = None
    if repaired is not None:
        raw = HOUSE_REPAIRS.format(what=repaired).encode()
        house = read_house_rules(raw, f"repairs-{repaired}.yaml")
    asked = ScenarioRequest(ruleset=ruleset, seed=7, order=OrderOptions(ships="2"))
    return games.start_game(store, new_game_night(store, asked, house=house))


def _box(ship: games.GameShip, label: str) -> str:
    """The field of the check box `label` of her log."""
    for section in ship.card.sections():
        if isinstance(section, Checks):
            for check in section.entries:
                if slug(check.label) == label:
                    return check.fields[0]
    raise AssertionError(f"{ship.name} has no {label} box")


def _cross(store: Store, found: Game, key: str, **tracks: int) -> None:
    games.change_ship(store, found, GM, key, version=None, tracks=tracks)


def test_the_gm_ends_a_game_as_the_logs_say_and_its_ships_no_longer_change(
    store: Store,
) -> None:
    found = _game(store)
    one, two, three, four = games.ships(store, found, GM)
    games.change_ship(store, found, GM, two.key, version=None, marks={_box(two, "struck"): True})
    games.change_ship(
        store, found, GM, four.key, version=None, marks={_box(four, "captured"): True}
    )
    with pytest.raises(InputError, match="only the GM ends the game"):
        games.end_game(store, found, Seat(0))
    ended = games.end_game(store, games.game(store, found.id), GM, {three.key: "sunk"}, [0])
    assert ended.ended is not None
    ends = {key: ship["end"] for key, ship in ended.ended["ships"].items()}
    assert ends == {
        one.key: "fought on",
        two.key: "struck",
        three.key: "sunk",
        four.key: "captured",
    }
    assert ended.ended["victory"] == [found.scenario["victory"][0]]
    with pytest.raises(Conflict, match="has ended"):
        _cross(store, ended, one.key, crew=1)
    with pytest.raises(Conflict, match="has ended already"):
        games.end_game(store, ended, GM)


def test_carrying_on_keeps_the_damage_less_the_repairs_and_drops_the_sunk(
    store: Store,
) -> None:
    found = _game(store, repaired="none")
    one, two, three, four = games.ships(store, found, GM)
    _cross(store, found, one.key, crew=2, guns=1)
    _cross(store, found, four.key, sail=2)
    with pytest.raises(InputError, match="has not ended"):
        campaigns.carry_on(store, games.game(store, found.id), GM, seed=3)
    ended = games.end_game(
        store, games.game(store, found.id), GM, {three.key: "sunk", four.key: "captured"}
    )
    with pytest.raises(InputError, match="only the GM"):
        campaigns.carry_on(store, ended, Seat(1), seed=3)
    made = campaigns.carry_on(store, ended, GM, seed=3)
    sides = made.night.scenario["sides"]
    ships = {
        ship["name"]: (index, ship) for index, side in enumerate(sides) for ship in side["ships"]
    }
    # every roll repairs nothing: the boxes crossed off are the next night's damage
    assert ships[one.name][1]["damage"] == {"crew": 2, "guns": 1}
    assert "damage" not in ships[two.name][1]
    assert three.name not in ships  # sunk
    # captured: she sails for the side that took her, with her damage
    assert ships[four.name] == (0, {**ships[four.name][1], "damage": {"sail": 2}})
    assert made.night.house_rules is not None  # the first night's house rules
    assert made.night.seed == 3 and made.seed == 3
    said = {r.ship: r.said for r in made.repairs}
    assert said[three.name] == ("lost (sunk)",)
    assert "Crew: none of 2 boxes crossed off repaired" in " ".join(said[one.name])
    assert said[four.name][0].startswith("captured: sails for ")
    with pytest.raises(Conflict, match="was carried on already"):
        campaigns.carry_on(store, games.game(store, found.id), GM, seed=3)
    # a game of the next night ends and carries on into the same campaign
    again = games.start_game(store, made.night)
    games.end_game(store, again, GM)
    later = campaigns.carry_on(store, games.game(store, again.id), GM, seed=4)
    assert later.campaign.id == made.campaign.id
    assert [n.step for n in later.campaign.nights] == [1, 2, 3]


def test_a_repair_that_mends_all_leaves_no_damage_and_the_same_seed_the_same_night(
    store: Store,
) -> None:
    found = _game(store, repaired="all")
    one = games.ships(store, found, GM)[0]
    _cross(store, found, one.key, crew=3, sail=1)
    ended = games.end_game(store, games.game(store, found.id), GM)
    scenario, said = campaigns.next_scenario(store, ended, 11)
    assert scenario == campaigns.next_scenario(store, ended, 11)[0]
    assert scenario != campaigns.next_scenario(store, ended, 12)[0]
    carried = [ship for side in scenario["sides"] for ship in side["ships"]]
    assert not any("damage" in ship or "marked" in ship for ship in carried)
    assert said[0].said == (
        "Crew: 3 of 3 boxes crossed off repaired (roll " + said[0].said[0].split("(roll ")[1],
        "Sail: 1 of 1 box crossed off repaired (roll " + said[0].said[1].split("(roll ")[1],
    )
    assert scenario["seed"] == 11
    assert "convoy.repairs-between-games" in scenario["house_tables"]


def _seed_rows(heading: str) -> list[list[str]]:
    """The rows of the seed's table under `heading`, cells split at tabs, its markup gone
    (bold marks, ``&gt;``), as the data file's notes say it was mended."""
    text = (SEEDS / "004_42aa0eb0709b29a8.txt").read_text(encoding="utf-8")
    part = text.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in part.splitlines() if "\t" in line]
    return [
        [html.unescape(re.sub(r"</?b>", "", c)).strip() for c in line.split("\t")] for line in lines
    ]


def test_flob_repairs_follow_the_repair_table_as_its_source_prints_it(store: Store) -> None:
    rows = _seed_rows("6.8 – Repairs (Command Phase)")
    table = load_rules(None).table("flob.repairs")
    head = next(row for row in rows if row[0] == "Damage")
    assert [v.label for v in table.axes[1].values] == head[1:]
    body = rows[rows.index(head) + 1 :]
    assert [v.label for v in table.axes[0].values] == [row[0] for row in body]
    assert [list(cells) for cells in table.cells] == [row[1:] for row in body]
    # between games a wheel shot away is set right by that table's roll, a killed captain
    # stays so, a shattered ship is gone
    found = _game(store, "flob")
    one, _, three, _ = games.ships(store, found, GM)
    marks = {_box(one, "wheel_shot_away"): True, _box(one, "captain_killed"): True}
    games.change_ship(store, found, GM, one.key, version=None, marks=marks)
    games.change_ship(
        store, found, GM, three.key, version=None, marks={_box(three, "shattered"): True}
    )
    ended = games.end_game(store, games.game(store, found.id), GM)
    outcomes = set()
    for seed in range(1, 9):
        scenario, said = campaigns.next_scenario(store, ended, seed)
        words = dict((r.ship, r.said) for r in said)
        assert words[three.name] == ("lost (shattered)",)
        wheel = next(line for line in words[one.name] if line.startswith("Wheel shot away"))
        score = int(wheel.rsplit("score ", 1)[1].rstrip(")"))
        needed = parse_cell("d6-target", table.cells[3][0])["min"]
        carried = next(
            s for side in scenario["sides"] for s in side["ships"] if s["name"] == one.name
        )
        set_right = "wheel_shot_away" not in carried.get("marked", [])
        assert (score >= int(needed)) == set_right
        outcomes.add(set_right)
        assert "captain_killed" in carried["marked"]
        assert "Captain killed: stays so" in words[one.name]
    assert outcomes == {True, False}  # the roll both succeeds and fails over these seeds


def test_the_api_and_the_page_carry_a_game_on_and_show_the_campaign(tmp_path: Path) -> None:
    client = TestClient(create_app(open_store(tmp_path)), base_url="http://127.0.0.1:8765")
    night = client.post("/api/scenarios", json={"ruleset": "convoy", "seed": 7, "ships": [2, 2]})
    started = client.post("/api/games", json={"scenario_id": night.json()["id"]}).json()
    gm, side = (u.rsplit("/", 1)[1] for u in (started["links"]["gm"], started["links"]["sides"][0]))
    number = started["id"]
    client.patch(
        f"/api/games/{number}/ships/1-1", json={"tracks": {"crew": 1}}, params={"token": gm}
    )
    ended = client.post(
        f"/api/games/{number}/end", json={"results": {"2-1": "sunk"}}, params={"token": gm}
    )
    assert ended.status_code == 200, ended.text
    refused = client.post(f"/api/games/{number}/campaign", json={}, params={"token": side})
    assert refused.status_code == 400
    assert refused.json() == {"error": "only the GM carries a game on into a campaign"}
    bad = client.post(f"/api/games/{number}/campaign", json={"seed": -1}, params={"token": gm})
    assert bad.json() == {"error": "seed: a whole number, 0 or more"}
    # the page's form without the app's form token is refused, nothing made
    assert client.post(f"/play/{gm}/campaign", data={"seed": "5"}).status_code == 403
    assert client.get("/api/campaigns").json() == []
    made = client.post(
        f"/api/games/{number}/campaign",
        json={"seed": 5, "title": "The Channel"},
        headers={"X-Game-Token": gm},
    )
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    assert body["seed"] == 5
    shown = client.get(f"/api/campaigns/{body['campaign']}").json()
    assert shown["title"] == "The Channel" and shown["ruleset"] == "convoy"
    assert [n["id"] for n in shown["nights"]] == [night.json()["id"], body["night"]]
    assert shown["nights"][1]["repairs"] == body["repairs"]
    assert [g["id"] for g in shown["games"]] == [number]
    assert shown["games"][0]["ended"] is True
    sunk = night.json()["scenario"]["sides"][1]["ships"][0]["name"]
    assert shown["games"][0]["results"][sunk] == "sunk"
    assert sunk not in [s["name"] for side in shown["fleets"] for s in side["ships"]]
    html = client.get(f"/campaigns/{body['campaign']}")
    assert html.status_code == 200
    assert "The Channel" in html.text and f"/nights/{body['night']}" in html.text
    assert body["repairs"][0]["said"][0] in html.text.replace("&#39;", "'")
    assert "/campaigns" in client.get("/").text
    # carried on once: the GM's page form says so (409), with the app's form token
    token = client.app.state.quartermaster.token  # type: ignore[attr-defined]
    again = client.post(f"/play/{gm}/campaign", data={"token": token, "seed": "6"})
    assert again.status_code == 409
    assert f"campaign {body['campaign']}, game night {body['night']}" in again.text
    assert client.get("/api/campaigns/99").json() == {
        "error": "campaign 99: there is no such campaign"
    }


def test_the_end_game_partial_offers_the_gm_alone_to_carry_on() -> None:
    partial = ENV.get_template("end_game.html.j2")
    page = {"game": {"title": "Action"}, "play": "/play/abc", "token": "form-token"}
    ended = {"turn": 3, "ships": {}, "victory": []}
    offered = partial.render(**page, seat=GM, ended=ended)
    assert 'action="/play/abc/campaign"' in offered
    assert 'name="token" value="form-token"' in offered
    assert partial.render(**page, seat=Seat(0), ended=ended).strip() == ""
    assert partial.render(**page, seat=GM, ended=None).strip() == ""
    carried = partial.render(**page, seat=GM, ended=ended, carried=4)
    assert 'href="/campaigns/4"' in carried and "<form" not in carried


def test_a_prize_is_taken_into_her_captors_navy_and_a_flagless_side_gets_a_flagship(
    store: Store,
) -> None:
    found = _game(store, "tactical")
    every = games.ships(store, found, GM)
    flagship = next(
        ship
        for ship in every
        if ship.side == 1 and found.scenario["sides"][1]["ships"][ship.index]["flagship"]
    )
    _cross(store, found, flagship.key, hull=1)
    ended = games.end_game(store, games.game(store, found.id), GM, {flagship.key: "captured"})
    scenario, said = campaigns.next_scenario(store, ended, 5)
    taken = next(s for s in scenario["sides"][0]["ships"] if s["name"] == flagship.name)
    assert taken["navy"] == scenario["sides"][0]["navy"] and taken["flagship"] is False
    words = " ".join(next(r.said for r in said if r.ship == flagship.name))
    repaired = "Hull: 1 of 1 box crossed off repaired" in words
    assert repaired or "Hull: none of 1 box crossed off repaired" in words
    assert taken.get("damage", {}) == ({} if repaired else {"hull": 1})
    for side in scenario["sides"]:
        assert [s["flagship"] for s in side["ships"]].count(True) == 1
    assert any("flies the flag now" in r.said for r in said)
