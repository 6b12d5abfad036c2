"""Games at the table (generator/app/games.py, generator/web/games.py): a game started from
a game night, a link per side that never shows the other side, ships' logs marked with a
version check, the key's exemption for a game's links, a restart, and two players in a real
browser."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from starlette.testclient import TestClient

from generator.app.saved import open_store
from generator.web.server import create_app
from tests.conftest import run

BASE = "http://127.0.0.1:8765"


def _app(folder: Path, key: str | None = None) -> TestClient:
    return TestClient(create_app(open_store(folder), key=key), base_url=BASE)


def started(client: TestClient, ruleset: str = "convoy") -> dict[str, Any]:
    night = client.post("/api/scenarios", json={"ruleset": ruleset, "seed": 7, "ships": [2, 2]})
    assert night.status_code == 201, night.text
    answer = client.post("/api/games", json={"scenario_id": night.json()["id"]})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    body["night"] = night.json()
    return body


def token_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def names_of(night: dict[str, Any], side: int) -> list[str]:
    return [ship["name"] for ship in night["scenario"]["sides"][side]["ships"]]


def test_a_side_sees_its_own_ships_and_nothing_of_the_others(tmp_path: Path) -> None:
    client = _app(tmp_path)
    game = started(client)
    ours, theirs = names_of(game["night"], 0), names_of(game["night"], 1)
    gm = client.get(f"/api/games/{game['id']}", params={"token": token_of(game["links"]["gm"])})
    assert gm.status_code == 200
    assert [s["name"] for s in gm.json()["ships"]] == ours + theirs
    side = client.get(
        f"/api/games/{game['id']}", headers={"X-Game-Token": token_of(game["links"]["sides"][0])}
    )
    assert side.json()["seat"] == "side 1"
    assert [s["name"] for s in side.json()["ships"]] == ours
    page = client.get(game["links"]["sides"][0].replace(BASE, ""))
    assert page.status_code == 200
    for text in (side.text, page.text):
        assert not any(name in text for name in theirs)
        assert game["links"]["sides"][1].rsplit("/", 1)[1] not in text
        assert token_of(game["links"]["gm"]) not in text
    # the other side's ship cannot be found, changed or named by a side's link
    other = client.patch(
        f"/api/games/{game['id']}/ships/2-1",
        json={"tracks": {"crew": 1}},
        headers={"X-Game-Token": token_of(game["links"]["sides"][0])},
    )
    assert other.status_code == 404
    assert not any(name in other.text for name in theirs)
    assert client.get(f"/api/games/{game['id']}", params={"token": "x" * 24}).status_code == 404
    assert (
        client.get(
            f"/api/games/{game['id'] + 1}", params={"token": token_of(game["links"]["gm"])}
        ).status_code
        == 404
    )


def test_a_ship_is_marked_once_and_a_stale_change_is_refused(tmp_path: Path) -> None:
    client = _app(tmp_path)
    game = started(client)
    where = f"/api/games/{game['id']}/ships/1-1"
    headers = {"X-Game-Token": token_of(game["links"]["sides"][0])}
    first = client.get(f"/api/games/{game['id']}", headers=headers).json()["ships"][0]
    track = next(iter(first["tracks"]))
    answer = client.patch(
        where, json={"version": first["version"], "tracks": {track: 1}}, headers=headers
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["tracks"][track]["crossed"] == 1
    assert answer.json()["version"] == first["version"] + 1
    # another player's change made against the version before: refused, nothing changes
    stale = client.patch(
        where, json={"version": first["version"], "tracks": {track: 2}}, headers=headers
    )
    assert stale.status_code == 409
    assert "changed elsewhere" in stale.json()["error"]
    now = client.get(f"/api/games/{game['id']}", headers=headers).json()["ships"][0]
    assert now["tracks"][track]["crossed"] == 1
    boxes = first["tracks"][track]["boxes"]
    too_many = client.patch(where, json={"tracks": {track: boxes + 1}}, headers=headers)
    assert too_many.status_code == 400
    assert f"from 0 to {boxes}" in too_many.json()["error"]
    unknown = client.patch(where, json={"tracks": {"hul": 1}}, headers=headers)
    assert unknown.status_code == 400
    assert "track" in unknown.json()["error"]
    # a check box by its field, as the log's form names it
    field = next(
        k
        for k in re.findall(
            r'type="checkbox" name="([a-z0-9_]+)"',
            client.get(game["links"]["sides"][0].replace(BASE, "")).text,
        )
        if "struck" in k
    )
    marked = client.patch(where, json={"marks": {field: True}}, headers=headers)
    assert marked.json()["marks"][field] is True


def test_the_page_without_javascript_saves_a_log_whole(tmp_path: Path) -> None:
    client = _app(tmp_path)
    game = started(client)
    page = client.get(game["links"]["sides"][0].replace(BASE, "")).text
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token is not None
    form = re.search(r'<form method="post" action="(/play/[^"]+/ships/1-1)".*?</form>', page, re.S)
    assert form is not None
    boxes = re.findall(r'type="checkbox" name="([a-z0-9_]+)"', form.group(0))
    answer = client.post(
        form.group(1),
        data={"token": token.group(1), "version": "1", boxes[0]: "1", boxes[1]: "1"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    state = client.get(
        f"/api/games/{game['id']}", params={"token": token_of(game["links"]["sides"][0])}
    ).json()["ships"][0]
    assert state["marks"] == {boxes[0]: True, boxes[1]: True}
    refused = client.post(form.group(1), data={"version": "2", boxes[2]: "1"})
    assert refused.status_code == 403


def test_a_games_links_open_without_the_key_and_nothing_else_does(tmp_path: Path) -> None:
    key = "k" * 24
    gm = _app(tmp_path, key)
    gm.headers["Authorization"] = f"Bearer {key}"
    game = started(gm)
    player = _app(tmp_path, key)
    assert player.get(game["links"]["sides"][1].replace(BASE, "")).status_code == 200
    assert player.get("/static/game.js").status_code == 200
    assert player.get("/").status_code == 401
    assert player.get(f"/api/scenarios/{game['night']['id']}").status_code == 401
    assert player.post("/api/games", json={"scenario_id": game["night"]["id"]}).status_code == 401
    assert player.get(f"/api/games/{game['id']}").status_code == 404  # no token, no game
    # the odds, on the link's own page: its ruleset's resolvers, and links to its pages only
    play = game["links"]["sides"][1].replace(BASE, "")
    odds = player.get(f"{play}/odds", params={"expression": "2d6", "vs": "1d12"})
    assert odds.status_code == 200 and "16.67%" in odds.text  # the chance of a 7 on 2d6
    assert f'action="{play}/odds#result"' in odds.text
    assert 'value="convoy.' in odds.text and 'value="flob.' not in odds.text
    assert re.findall(r'<a [^>]*href="([^"]+)"', odds.text) == [play, f"{play}/odds"]
    assert '<meta name="referrer" content="no-referrer">' in odds.text
    chosen = player.get(f"{play}/odds", params={"resolver": "flob.broadside"})
    assert chosen.status_code == 400 and "flob.broadside" in chosen.text
    assert player.get("/play/" + "x" * 24 + "/odds").status_code == 404


def test_a_game_is_kept_across_a_restart(tmp_path: Path) -> None:
    client = _app(tmp_path)
    game = started(client)
    headers = {"X-Game-Token": token_of(game["links"]["gm"])}
    client.patch(
        f"/api/games/{game['id']}/ships/2-2", json={"tracks": {"crew": 1}}, headers=headers
    )
    again = _app(tmp_path)
    ship = again.get(f"/api/games/{game['id']}", headers=headers).json()["ships"][3]
    assert ship["tracks"]["crew"]["crossed"] == 1


def test_game_start_keeps_a_file_and_prints_its_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "night.yaml"
    code, _, _ = run(capsys, "scenario", "convoy", "--seed", "7", "-o", str(scenario))
    assert code == 0
    data = tmp_path / "data"
    code, out, _ = run(capsys, "game", "start", str(scenario), "--data", str(data), "--json")
    assert code == 0
    shown = json.loads(out)
    client = _app(data)
    answer = client.get(
        f"/api/games/{shown['id']}", params={"token": token_of(shown["links"]["gm"])}
    )
    assert (
        answer.json()["title"]
        == client.get(f"/api/scenarios/{shown['night']}").json()["scenario"]["title"]
    )
    code, _, err = run(capsys, "game", "start", str(tmp_path / "none.yaml"), "--data", str(data))
    assert code == 2
    assert "none.yaml" in err
    code, _, err = run(capsys, "scenario", "duel", "--seed", "7", "-o", str(tmp_path / "d.yaml"))
    code, _, err = run(capsys, "game", "start", str(tmp_path / "d.yaml"), "--data", str(data))
    assert code == 2
    assert "has none" in err


def test_a_short_game_is_played_in_the_browser_and_carried_on(browser: Any, server: str) -> None:
    """Both sides' links and the GM's, in Chromium: a box tapped on a phone reaches the GM's
    page, a stale tap is refused; the GM resolves a boarding filled from the logs, applies
    its losses, undoes them and applies them again; ends the game and carries it on; the
    next game night's fillable logs have the damage that outlasted the repairs ticked."""
    import urllib.request

    from tests.web import shot

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        asked = urllib.request.Request(
            server + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(asked) as answer:
            found: dict[str, Any] = json.load(answer)
        return found

    night = post("/api/scenarios", {"ruleset": "convoy", "seed": 7, "ships": [2, 2]})
    game = post("/api/games", {"scenario_id": night["id"]})
    theirs = names_of(night, 1)
    side = browser.new_page(viewport={"width": 390, "height": 800})
    gm = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        side.goto(game["links"]["sides"][0])
        gm.goto(game["links"]["gm"])
        assert not any(name in side.content() for name in theirs)
        row = side.locator("#ship-1-1 .track").first
        row.locator("label.box input").nth(1).check()  # the second box: the first is crossed too
        side.locator("#ship-1-1 .log-said").get_by_text("Saved.").wait_for()
        assert row.locator("label.box input:checked").count() == 2
        # the GM's page brings the change in by itself (it asks every 5 s: a busy machine may
        # answer a poll late, and then the next one brings it)
        gm.locator("#ship-1-1 .track").first.locator("label.box input:checked").nth(1).wait_for(
            timeout=20_000
        )
        # both tap at once, from the same version: the second is refused and shows the stored log
        # (in one step of the page's own loop, so that its polling cannot come between)
        gm.evaluate(
            """() => {
              const form = document.querySelector('#ship-1-1');
              form.dataset.version = '1';
              form.querySelector('.track label.box input').click();
            }"""
        )
        gm.locator("#ship-1-1 .log-said").get_by_text("Changed elsewhere").wait_for()
        assert gm.locator("#ship-1-1 .track").first.locator("label.box input:checked").count() == 2
        assert side.evaluate("document.documentElement.scrollWidth") <= 390
        shot(side, "game-side-390")
        shot(gm, "game-gm-1280")
        # the GM resolves a boarding of the second side's ship, with the logs filled in
        target = gm.locator("form[id^=ship-] label.box input")
        made = None
        for seed in range(1, 30):
            form = gm.locator("form.resolve-form")
            form.locator("select[name=resolver]").select_option("convoy.boarding")
            form.locator("select[name=ship]").select_option("1-1")
            form.locator("select[name=target]").select_option("2-1")
            form.locator("input[name=seed]").fill(str(seed))
            form.get_by_role("button", name="Roll it").click()
            gm.wait_for_load_state()
            made = gm.locator("ol.resolutions > li").first.get_by_role(
                "button", name=re.compile("^Apply")
            )
            if made.count() and f"on {theirs[0]}" in made.inner_text():
                break  # a result that marks the boarded ship
        assert made is not None and f"on {theirs[0]}" in made.inner_text()
        crossed = sum(int(n) for n in re.findall(r"cross off (\d+)", made.inner_text()))
        before = target.evaluate_all("boxes => boxes.filter(b => b.checked).length")
        made.click()
        gm.wait_for_load_state()
        assert target.evaluate_all("bs => bs.filter(b => b.checked).length") == before + crossed
        gm.get_by_role("button", name=re.compile("^Undo")).first.click()
        gm.wait_for_load_state()
        assert target.evaluate_all("bs => bs.filter(b => b.checked).length") == before
        gm.get_by_role("button", name=re.compile("^Apply")).first.click()
        gm.wait_for_load_state()
        # each side sees its own ship's losses, and nothing of the other side's, still: the
        # second side's link, on another phone, has its boarded ship's marks as the GM's has
        side.reload()
        assert not any(name in side.content() for name in theirs)
        other = browser.new_page(viewport={"width": 390, "height": 800})
        try:
            other.goto(game["links"]["sides"][1])
            assert not any(name in other.content() for name in names_of(night, 0))
            marked = "#ship-2-1 label.box input:checked"
            assert other.locator(marked).count() == gm.locator(marked).count() >= 1
        finally:
            other.close()
        # the GM ends the game and carries it on: the next night's packet has her damage ticked
        gm.locator("form.end-form").get_by_role("button").click()
        gm.wait_for_load_state()
        assert gm.locator("#ship-2-1 label.box input").first.is_disabled()  # the logs are kept
        gm.locator("form.carry-on-form input[name=seed]").fill("11")
        gm.locator("form.carry-on-form").get_by_role("button").click()
        gm.wait_for_load_state()
        night_link = gm.locator("ol.campaign-nights > li").last.locator("a").first
        next_night = int(night_link.get_attribute("href").rsplit("/", 1)[1])  # type: ignore[union-attr]
        carried = json.load(urllib.request.urlopen(f"{server}/api/scenarios/{next_night}"))
        damaged = [
            ship
            for side_ in carried["scenario"]["sides"]
            for ship in side_["ships"]
            if ship.get("damage")
        ]
        assert damaged, "some damage outlasts the repairs"
        with urllib.request.urlopen(
            f"{server}/api/scenarios/{next_night}/packet.pdf?fillable=1"
            "&without=map,counters,playsheet,quick-reference,spares,gm-notes"
        ) as answer:
            fields = PdfReader(io.BytesIO(answer.read())).get_fields() or {}
        ticked = sum(1 for field in fields.values() if field.get("/V") == "/Yes")
        assert ticked >= sum(n for ship in damaged for n in ship["damage"].values())
    finally:
        side.close()
        gm.close()


def test_a_broadside_is_filled_from_the_logs_applied_and_undone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    client = _app(tmp_path)
    game = started(client, "tactical")
    where = f"/api/games/{game['id']}"
    gm = {"X-Game-Token": token_of(game["links"]["gm"])}
    # her Cannon row has two boxes crossed: the broadside fires with what is left
    client.patch(f"{where}/ships/1-1", json={"tracks": {"cannon": 2}}, headers=gm)
    ship = game["night"]["scenario"]["sides"][0]["ships"][0]
    made = None
    for seed in range(40):  # a seed whose broadside hits (most do)
        answer = client.post(
            f"{where}/resolve",
            json={"resolver": "tactical.broadside", "ship": "1-1", "target": "2-1", "seed": seed},
            headers=gm,
        )
        assert answer.status_code == 201, answer.text
        if answer.json()["losses"]:
            made = answer.json()
            break
    assert made is not None
    resolution = made["resolution"]
    filled = {f["name"]: f["value"] for f in resolution["filled"]}
    assert filled["cannon"] == ship["ratings"]["cannon"] - 2
    # the same resolution as `resolve --json` gives it with those inputs and that seed
    words = [f"{k}={v}" for k, v in resolution["inputs"].items() if v is not None]
    code, out, _ = run(
        capsys, "resolve", "tactical.broadside", *words, "--seed", str(resolution["seed"]), "--json"
    )
    assert code == 0
    assert {k: v for k, v in resolution.items() if k != "filled"} == json.loads(out)
    before = client.get(where, headers=gm).json()["ships"]
    applied = client.post(f"{where}/resolutions/{made['number']}/apply", headers=gm)
    assert applied.status_code == 200, applied.text
    after = client.get(where, headers=gm).json()["ships"]
    crossed = lambda ships: sum(t["crossed"] for s in ships for t in s["tracks"].values())  # noqa: E731
    boxes = sum(len(loss["boxes"]) for loss in made["losses"].values())
    assert crossed(after) == crossed(before) + boxes
    again = client.post(f"{where}/resolutions/{made['number']}/apply", headers=gm)
    assert again.status_code == 409
    undone = client.post(f"{where}/resolutions/{made['number']}/undo", headers=gm)
    assert undone.status_code == 200
    assert crossed(client.get(where, headers=gm).json()["ships"]) == crossed(before)
    # a side resolves with its own ships, and cannot name the other side's
    side = {"X-Game-Token": token_of(game["links"]["sides"][0])}
    refused = client.post(
        f"{where}/resolve",
        json={"resolver": "tactical.broadside", "ship": "1-1", "target": "2-1"},
        headers=side,
    )
    assert refused.status_code == 404
    theirs = names_of(game["night"], 1)
    assert not any(name in refused.text for name in theirs)
    seen = client.get(where, headers=side).json()["resolutions"]
    assert seen == []  # the GM's broadside named their ship


def test_men_killed_are_written_in_added_and_taken_off_again(tmp_path: Path) -> None:
    """High Seas keeps men killed as numbers written in: apply adds a boarding's dead to
    each ship's count, the page says so, and undo takes them off again, keeping what was
    written by hand in between."""
    client = _app(tmp_path)
    game = started(client, "high-seas")
    where = f"/api/games/{game['id']}"
    gm = {"X-Game-Token": token_of(game["links"]["gm"])}
    made = None
    for seed in range(60):
        answer = client.post(
            f"{where}/resolve",
            json={"resolver": "high-seas.boarding", "ship": "1-1", "target": "2-1", "seed": seed},
            headers=gm,
        )
        assert answer.status_code == 201, answer.text
        if len(answer.json()["losses"]) == 2:
            made = answer.json()
            break
    assert made is not None
    added = {
        key: {w["field"]: w["amount"] for w in loss["written"]}
        for key, loss in made["losses"].items()
    }
    assert all(
        w["what"] == "fighters killed" for loss in made["losses"].values() for w in loss["written"]
    )
    page = client.get(f"/play/{token_of(game['links']['gm'])}")
    assert f"write in +{added['1-1'][next(iter(added['1-1']))]} fighters killed" in page.text

    def written() -> dict[str, dict[str, str]]:
        ships = client.get(where, headers=gm).json()["ships"]
        return {
            s["key"]: {f: s["marks"].get(f) for f in added[s["key"]]}
            for s in ships
            if s["key"] in added
        }

    assert client.post(f"{where}/resolutions/{made['number']}/apply", headers=gm).status_code == 200
    assert written() == {k: {f: str(n) for f, n in v.items()} for k, v in added.items()}
    ((field, count),) = added["1-1"].items()
    ship = client.get(where, headers=gm).json()["ships"][0]
    changed = client.patch(
        f"{where}/ships/1-1",
        json={"version": ship["version"], "marks": {field: str(count + 2)}},
        headers=gm,
    )
    assert changed.status_code == 200, changed.text
    assert client.post(f"{where}/resolutions/{made['number']}/undo", headers=gm).status_code == 200
    assert written() == {"1-1": {field: "2"}, "2-1": dict.fromkeys(added["2-1"])}


def test_play_with_a_game_fills_and_applies(tmp_path: Path) -> None:
    from generator.app.games import TableGame, game_rules, start_game
    from generator.app.requests import OrderOptions, ScenarioRequest
    from generator.app.saved import new_game_night
    from generator.play import PlaySession

    store = open_store(tmp_path / "data")
    night = new_game_night(
        store, ScenarioRequest(ruleset="tactical", seed=7, order=OrderOptions(ships="2"))
    )
    found = start_game(store, night)
    session = PlaySession(
        game_rules(found),
        "tactical",
        3,
        tmp_path / "out",
        columns=100,
        game=TableGame(store, found),
    )
    first = found.scenario["sides"][0]["ships"][0]["name"]
    target = found.scenario["sides"][1]["ships"][0]["name"]
    reply = ""
    for _ in range(20):
        reply = session.handle(f"broadside {first} -> {target} distance=2")
        if "apply crosses off" in reply:
            break
    assert "filled in: cannon=" in reply
    applied = session.handle("apply")
    assert applied.startswith("crossed off: ")
    assert target in applied
    undone = session.handle("undo")
    assert "taken off the logs again" in undone
    assert session.handle("broadside Nobody -> Somebody").startswith("error: unknown ship")


def test_a_side_fetches_the_shared_sheets_and_nothing_of_the_other_side(tmp_path: Path) -> None:
    client = _app(tmp_path)
    game = started(client, "tactical")
    side = game["links"]["sides"][1].replace(BASE, "")
    page = client.get(side).text
    assert f"{side}/sheets/map.pdf" in page and f"{side}/sheets/quick-reference.pdf" in page
    answer = client.get(f"{side}/sheets/map.pdf")
    assert answer.status_code == 200
    assert answer.content.startswith(b"%PDF")
    assert client.get(f"{side}/sheets/gm-notes.pdf").status_code == 404
    assert client.get(f"{side}/sheets/roster.pdf").status_code == 404
    # a convoy map marks every ship's start hex: the GM's, not a side's
    convoy = started(client, "convoy")
    side = convoy["links"]["sides"][0].replace(BASE, "")
    assert f"{side}/sheets/map.pdf" not in client.get(side).text
    assert client.get(f"{side}/sheets/map.pdf").status_code == 404
    gm = convoy["links"]["gm"].replace(BASE, "")
    assert client.get(f"{gm}/sheets/map.pdf").status_code == 200


def test_the_gm_ends_a_game_and_its_ships_stop_changing(tmp_path: Path) -> None:
    client = _app(tmp_path)
    game = started(client)
    where = f"/api/games/{game['id']}"
    gm = {"X-Game-Token": token_of(game["links"]["gm"])}
    side = {"X-Game-Token": token_of(game["links"]["sides"][0])}
    page = client.get(game["links"]["gm"].replace(BASE, "")).text
    struck = next(
        k
        for k in re.findall(r'type="checkbox" name="([a-z0-9_]+)"', page)
        if k.endswith("_1_struck")
    )
    client.patch(f"{where}/ships/1-1", json={"marks": {struck: True}}, headers=gm)
    refused = client.post(f"{where}/end", json={}, headers=side)
    assert refused.status_code == 400
    assert "only the GM" in refused.json()["error"]
    bad = client.post(f"{where}/end", json={"victory": [99]}, headers=gm)
    assert bad.status_code == 400
    ended = client.post(
        f"{where}/end", json={"results": {"2-1": "captured"}, "victory": [0]}, headers=gm
    )
    assert ended.status_code == 200, ended.text
    ends = {key: ship["end"] for key, ship in ended.json()["ended"]["ships"].items()}
    assert ends == {"1-1": "struck", "1-2": "fought on", "2-1": "captured", "2-2": "fought on"}
    assert ended.json()["ended"]["victory"] == [game["night"]["scenario"]["victory"][0]]
    # a side sees its own ships' ends only
    seen = client.get(where, headers=side).json()["ended"]["ships"]
    assert set(seen) == {"1-1", "1-2"}
    assert (
        client.patch(f"{where}/ships/1-2", json={"tracks": {"crew": 1}}, headers=gm).status_code
        == 409
    )
    assert client.post(f"{where}/end", json={}, headers=gm).status_code == 409


def test_a_game_starts_with_the_damage_its_scenario_carries(tmp_path: Path) -> None:
    client = _app(tmp_path)
    night = client.post("/api/scenarios", json={"ruleset": "convoy", "seed": 7, "ships": [2, 2]})
    body = night.json()
    scenario = body["scenario"]
    scenario["sides"][0]["ships"][1]["damage"] = {"crew": 1}
    scenario["sides"][0]["ships"][1]["marked"] = ["aground"]
    put = client.put(f"/api/scenarios/{body['id']}", json={"scenario": scenario})
    assert put.status_code == 200, put.text
    game = client.post("/api/games", json={"scenario_id": body["id"]}).json()
    ship = client.get(
        f"/api/games/{game['id']}", params={"token": token_of(game["links"]["sides"][0])}
    ).json()["ships"][1]
    assert ship["tracks"]["crew"]["crossed"] == 1
    assert any(field.endswith("_aground") for field in ship["marks"])


def test_a_finished_attack_number_given_stands_for_the_filled_ratings(tmp_path: Path) -> None:
    client = _app(tmp_path)
    game = started(client, "flob")
    gm = {"X-Game-Token": token_of(game["links"]["gm"])}
    answer = client.post(
        f"/api/games/{game['id']}/resolve",
        json={
            "resolver": "flob.broadside",
            "ship": "1-1",
            "target": "2-1",
            "inputs": {"attack": 5},
            "seed": 3,
        },
        headers=gm,
    )
    assert answer.status_code == 201, answer.text
    resolution = answer.json()["resolution"]
    assert resolution["inputs"]["attack"] == 5 and resolution["inputs"]["broadside"] is None
    assert "broadside" not in {f["name"] for f in resolution["filled"]}


def test_a_server_killed_mid_write_leaves_the_ship_as_she_was(tmp_path: Path) -> None:
    import subprocess
    import sys

    client = _app(tmp_path)
    game = started(client)
    gm = {"X-Game-Token": token_of(game["links"]["gm"])}
    where = f"/api/games/{game['id']}"
    client.patch(f"{where}/ships/1-1", json={"tracks": {"crew": 1}}, headers=gm)
    before = client.get(where, headers=gm).json()["ships"]
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_MID_CHANGE, str(tmp_path), str(game["id"])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert killed.returncode == 9, killed.stderr
    assert _app(tmp_path).get(where, headers=gm).json()["ships"] == before


# a process that crosses boxes off a ship and dies inside the write, after her marks are
# updated and before the transaction commits (change_ship asks the time just then)
_KILLED_MID_CHANGE = """
import os, sys
from pathlib import Path
from generator.app import games
from generator.app.store import Store

class Dying:
    @staticmethod
    def time():
        os._exit(9)

store = Store(Path(sys.argv[1]))
found = games.game(store, int(sys.argv[2]))
games.time = Dying
games.change_ship(store, found, games.Seat(None), "1-1", version=None, tracks={"crew": 3})
"""
