"""A game night's house rules (``--rules FILE``) in the web app: uploaded with a new night,
kept with it, used for every roll, check, derived value and the packet (the bytes of
`quartermaster packet --from FILE --rules HOUSE`), offered back as uploaded, replaced and
removed version-checked; a bad file refused by its name and line; a database from before
them opened with its nights kept."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.app.saved import night_rules, open_store
from generator.app.store import DATABASE, MIGRATIONS, SCHEMA_VERSION, Store
from generator.loading import HouseRules, load_rules
from generator.render.sheets import rules_fingerprint
from generator.web.server import create_app
from tests.conftest import run

BASE = "http://127.0.0.1:8765"

# the built-in convoy.ship-markers with two more crew markers on every warship
HOUSE = """\
# Club rule: warships carry two more crew markers.
convoy:
  ship-markers:
    title: Ship Markers by Size
    kind: table
    house: true
    source: {house: "the club's own marker counts"}
    note: Club table, warships carry two more crew markers.
    see: [convoy.gunnery-modifiers, convoy.boarding-grapple, convoy.zero-level, convoy.death-rolls]
    axes:
      - {name: kind, title: Kind, values: [Warship, Merchant]}
      - {name: size, title: Size, values: [Small, Medium, Large]}
    cells:
      - - {result: "4 crew, 1 gun, 2 sail", crew: %d, guns: 1, sail: 2}
        - {result: "5 crew, 2 guns, 2 sail", crew: %d, guns: 2, sail: 2}
        - {result: "6 crew, 3 guns, 3 sail", crew: %d, guns: 3, sail: 3}
      - - {result: "1 crew, 0 guns, 1 sail", crew: 1, guns: 0, sail: 1}
        - {result: "1 crew, 1 gun, 2 sail", crew: 1, guns: 1, sail: 2}
        - {result: "2 crew, 1 gun, 2 sail", crew: 2, guns: 1, sail: 2}
"""
BUILTIN_CREW = {"small": 2, "medium": 3, "large": 4}  # data/convoy.yaml's warships


def house_file(extra: int = 2) -> bytes:
    """Return a house-rules file giving warships `extra` crew markers over the built-in."""
    crews = tuple(BUILTIN_CREW[size] + extra for size in ("small", "medium", "large"))
    return (HOUSE % crews).encode("utf-8")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    folder = tmp_path_factory.mktemp("house-rules")
    return TestClient(create_app(open_store(folder)), base_url=BASE)


def token(client: TestClient) -> str:
    found = re.search(r'name="token" value="([^"]+)"', client.get("/").text)
    assert found is not None
    return found.group(1)


def new_night(client: TestClient, house: bytes | None, name: str = "house.yaml") -> Any:
    """Post the home page's new-night form (convoy, seed 7), with `house` as its file."""
    files = {"house_rules": (name, house, "application/yaml")} if house is not None else None
    return client.post(
        "/nights",
        data={"token": token(client), "ruleset": "convoy", "seed": "7", "balanced": "1"},
        files=files,
        follow_redirects=False,
    )


def made(client: TestClient, house: bytes | None, name: str = "house.yaml") -> dict[str, Any]:
    answer = new_night(client, house, name)
    assert answer.status_code == 303, answer.text
    number = answer.headers["location"].rsplit("/", 1)[-1]
    found: dict[str, Any] = client.get(f"/api/scenarios/{number}").json()
    return found


def warship_crews(scenario: dict[str, Any]) -> list[tuple[str, int]]:
    return [
        (ship["size"], ship["crew"])
        for side in scenario["sides"]
        for ship in side["ships"]
        if ship["kind"] == "warship"
    ]


def count_nights(client: TestClient) -> int:
    return client.get("/").text.count('<a href="/nights/')


def test_a_night_made_with_house_rules_rolls_checks_and_offers_them(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    raw = house_file()
    body = made(client, raw)
    number = body["id"]
    # rolled as the command line rolls with --rules: the house table's markers
    rules_path = tmp_path / "house.yaml"
    rules_path.write_bytes(raw)
    code, out, _ = run(
        capsys, "scenario", "convoy", "--seed", "7", "--rules", str(rules_path), "--json"
    )
    assert code == 0 and body["scenario"] == json.loads(out)
    crews = warship_crews(body["scenario"])
    assert crews and all(crew == BUILTIN_CREW[size] + 2 for size, crew in crews)
    assert body["house_rules"] == {"name": "house.yaml", "text": raw.decode("utf-8")}
    # the file comes back as it was uploaded
    download = client.get(f"/nights/{number}/house-rules.yaml")
    assert download.status_code == 200 and download.content == raw
    assert 'filename="house.yaml"' in download.headers["content-disposition"]
    # the night page says which rules it uses, and that its tables replace the built-in ones
    page = client.get(f"/nights/{number}").text
    assert "<strong>house.yaml</strong>: its tables replace the built-in ones" in page
    assert "Convoy" in page and "Ship Markers by Size" in page
    # the live check judges by the night's rules: its own scenario passes, a built-in
    # night's warships (fewer crew markers) do not
    plain = made(client, None)
    assert plain["house_rules"] is None
    assert client.get(f"/nights/{plain['id']}/house-rules.yaml").status_code == 404
    ok = client.post(f"/api/scenarios/{number}/check", json={"scenario": body["scenario"]})
    assert ok.status_code == 200, ok.text
    other = client.post(f"/api/scenarios/{number}/check", json={"scenario": plain["scenario"]})
    assert other.status_code == 422
    assert any(p["path"].endswith(".crew") for p in other.json()["problems"])
    # a unit's form derives its markers by them too, on its page and as it is changed
    side, index, ship = next(
        (s, i, ship)
        for s, each in enumerate(body["scenario"]["sides"])
        for i, ship in enumerate(each["ships"])
        if ship["kind"] == "warship"
    )
    form = client.get(f"/nights/{number}/units/{side}/{index}")
    assert form.status_code == 200
    assert re.search(rf'name="crew"[^>]*value="{ship["crew"]}"', form.text)
    fields = {key: ship[key] for key in ("name", "kind", "condition")} | {"size": "large"}
    unit = {"side": side, "index": index, "fields": fields}
    live = client.post(f"/api/scenarios/{number}/check", json={"unit": unit})
    assert live.status_code == 200, live.text
    assert live.json()["derived"]["crew"] == BUILTIN_CREW["large"] + 2
    # a unit added is rolled by them (the raiders are warships)
    added = client.post(
        f"/nights/{number}/units/1/add",
        data={"token": token(client), "seed": "42"},
        follow_redirects=False,
    )
    assert added.status_code == 303
    raiders = client.get(f"/api/scenarios/{number}").json()["scenario"]["sides"][1]["ships"]
    assert len(raiders) == len(body["scenario"]["sides"][1]["ships"]) + 1
    assert raiders[-1]["kind"] == "warship"
    assert raiders[-1]["crew"] == BUILTIN_CREW[raiders[-1]["size"]] + 2


def test_the_packet_is_the_command_line_s_with_the_same_house_rules(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = house_file()
    answer = client.post(
        "/api/scenarios",
        json={
            "ruleset": "convoy",
            "seed": 7,
            "house_rules": {"name": "club.yaml", "text": raw.decode()},
        },
    )
    assert answer.status_code == 201, answer.text
    number = answer.json()["id"]
    scenario_file, rules_file = tmp_path / "night.yaml", tmp_path / "club.yaml"
    scenario_file.write_bytes(client.get(f"/api/scenarios/{number}/scenario.yaml").content)
    rules_file.write_bytes(client.get(f"/nights/{number}/house-rules.yaml").content)
    target = tmp_path / "cli.pdf"
    code, _, err = run(
        capsys, "packet", "--from", str(scenario_file), "--rules", str(rules_file),
        "-o", str(target),
    )  # fmt: skip
    assert code == 0, err
    packet = client.get(f"/api/scenarios/{number}/packet.pdf")
    assert packet.status_code == 200
    assert packet.content == target.read_bytes()


def test_a_bad_house_rules_file_is_refused_by_its_name_and_line(client: TestClient) -> None:
    before = count_nights(client)
    bad = house_file().replace(b"kind: table", b"kind: tabel", 1)
    answer = new_night(client, bad, "club rules.yaml")
    assert answer.status_code == 400
    assert re.search(r"club rules\.yaml:\d+: ", answer.text)
    assert "tabel" in answer.text
    not_yaml = new_night(client, b"convoy: [unclosed\n", "broken.yaml")
    assert not_yaml.status_code == 400 and "broken.yaml:2: YAML syntax error" in not_yaml.text
    api = client.post(
        "/api/scenarios",
        json={"ruleset": "convoy", "house_rules": {"name": "api.yaml", "text": "convoy: 3\n"}},
    )
    assert api.status_code == 400
    assert api.json()["problems"][0]["message"].startswith("api.yaml:1: ")
    pdf = new_night(client, b"%PDF-1.7\n", "rules.pdf")
    assert pdf.status_code == 400
    assert "rules.pdf: this is a PDF, not a house-rules file (YAML)" in pdf.text
    assert count_nights(client) == before  # nothing stored


def test_house_rules_are_replaced_removed_and_version_checked(client: TestClient) -> None:
    body = made(client, None)
    number, version = body["id"], body["version"]
    url = f"/api/scenarios/{number}/house-rules"
    # set through the night page's form: the warships' markers follow the new rules
    answer = client.post(
        f"/nights/{number}/house-rules",
        data={"token": token(client), "version": str(version)},
        files={"house_rules": ("house.yaml", house_file(3), "application/yaml")},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert "now uses these house rules" in client.get(answer.headers["location"]).text
    now = client.get(f"/api/scenarios/{number}").json()
    assert now["version"] == version + 1 and now["house_rules"]["name"] == "house.yaml"
    assert all(crew == BUILTIN_CREW[size] + 3 for size, crew in warship_crews(now["scenario"]))
    # a stale version is refused, nothing changes
    stale = client.put(url, json={"version": version, "house_rules": None})
    assert stale.status_code == 409 and "changed elsewhere" in stale.json()["error"]
    assert client.get(f"/api/scenarios/{number}").json() == now
    # a bad file through the API: 400 naming it, nothing changes
    bad = client.put(url, json={"house_rules": {"name": "x.yaml", "text": "flob: {nope: 1}\n"}})
    assert bad.status_code == 400 and bad.json()["error"].startswith("1 problem(s): x.yaml:1: ")
    assert client.get(f"/api/scenarios/{number}").json() == now
    # removed: the built-in rules again, the markers theirs
    removed = client.put(url, json={"version": now["version"], "house_rules": None})
    assert removed.status_code == 200, removed.text
    back = removed.json()
    assert back["house_rules"] is None
    assert back["scenario"] == body["scenario"]
    assert "uses the built-in rules" in client.get(f"/nights/{number}").text


def test_house_rules_that_no_longer_load_are_told_and_can_be_removed(client: TestClient) -> None:
    body = made(client, None)
    store = client.app.state.quartermaster.store  # type: ignore[attr-defined]
    store.set_house_rules(body["id"], HouseRules("old.yaml", b"convoy: 3\n"))
    page = client.get(f"/nights/{body['id']}")
    assert page.status_code == 200
    assert "no longer load" in page.text and "old.yaml:1: " in page.text
    removed = client.put(f"/api/scenarios/{body['id']}/house-rules", json={"house_rules": None})
    assert removed.status_code == 200 and removed.json()["house_rules"] is None


def test_a_scenario_made_with_house_rules_is_brought_in_with_them(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules_path, scenario_path = tmp_path / "club.yaml", tmp_path / "night.yaml"
    rules_path.write_bytes(house_file())
    code, _, err = run(
        capsys, "scenario", "convoy", "--seed", "7", "--rules", str(rules_path),
        "-o", str(scenario_path),
    )  # fmt: skip
    assert code == 0, err
    raw = scenario_path.read_bytes()

    def bring_in(house: bytes | None) -> Any:
        files: dict[str, Any] = {"file": ("night.yaml", raw, "application/yaml")}
        if house is not None:
            files["house_rules"] = ("club.yaml", house, "application/yaml")
        return client.post(
            "/nights/import", data={"token": token(client)}, files=files, follow_redirects=False
        )

    refused = bring_in(None)  # the built-in rules give its warships fewer crew markers
    assert refused.status_code == 400 and "crew" in refused.text
    kept = bring_in(house_file())
    assert kept.status_code == 303
    number = kept.headers["location"].split("/")[-1].split("?")[0]
    assert client.get(f"/api/scenarios/{number}").json()["house_rules"]["name"] == "club.yaml"


def test_two_files_of_the_same_name_stay_apart_in_one_process(
    client: TestClient, tmp_path: Path
) -> None:
    one, two = made(client, house_file(1)), made(client, house_file(2))
    assert one["house_rules"]["name"] == two["house_rules"]["name"] == "house.yaml"
    store = client.app.state.quartermaster.store  # type: ignore[attr-defined]
    first, second = (night_rules(store.scenario(n["id"])) for n in (one, two))
    assert rules_fingerprint(first) != rules_fingerprint(second)
    assert first.house_digest != second.house_digest
    # each night's own rules: the same seed, a crew marker apart
    assert (
        one["scenario"]["sides"][0]["ships"][0]["crew"] + 1
        == (two["scenario"]["sides"][0]["ships"][0]["crew"])
    )
    # the same bytes again are the same rules, made once; on disk, named by the same digest
    assert night_rules(store.scenario(made(client, house_file(1))["id"])) is first
    on_disk = tmp_path / "elsewhere.yaml"
    on_disk.write_bytes(house_file(1))
    assert rules_fingerprint(load_rules(on_disk)) == rules_fingerprint(first)


def test_a_database_from_before_house_rules_opens_with_its_nights(tmp_path: Path) -> None:
    path = tmp_path / DATABASE
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute(
        "INSERT INTO scenarios (ruleset, title, seed, data, created, updated) "
        "VALUES ('convoy', 'Old night', 7, ?, 0, 0)",
        (json.dumps({"ruleset": "convoy", "title": "Old night", "seed": 7}),),
    )
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    store = Store(tmp_path)
    try:
        assert store.version() == SCHEMA_VERSION
        [saved] = store.scenarios()
        assert (saved.title, saved.seed, saved.house_rules) == ("Old night", 7, None)
    finally:
        store.close()
