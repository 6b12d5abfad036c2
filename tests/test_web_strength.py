"""Balance the sides and build a side to a strength in the web app: the JSON API's routes
answer the game night as GET gives it plus what was done, the night page's forms (with the
token) redirect to the page that says it, and every refusal is a 4xx in words with nothing
stored."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from starlette.testclient import TestClient

from generator.app.saved import open_store
from generator.web.server import create_app

BASE = "http://127.0.0.1:8765"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    folder: Path = tmp_path_factory.mktemp("strength")
    return TestClient(create_app(open_store(folder)), base_url=BASE)


def night(client: TestClient, ruleset: str = "impulse", seed: int = 3) -> dict[str, Any]:
    answer = client.post(
        "/api/scenarios", json={"ruleset": ruleset, "seed": seed, "balanced": False}
    )
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_side_built_over_the_api_is_the_game_night_with_what_was_done(
    client: TestClient,
) -> None:
    made = night(client)
    answer = client.post(
        f"/api/scenarios/{made['id']}/sides/1/build",
        json={"strength": 150, "seed": 5, "version": made["version"]},
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    said = body.pop("said")
    assert body == client.get(f"/api/scenarios/{made['id']}").json()
    assert body["version"] == made["version"] + 1
    assert said[0].startswith("Built the ") and "(asked 150)" in said[0]
    assert "from seed 5" in said[0]
    assert said[-1].startswith("The setting was rolled again for these sides, keeping the year")
    assert body["scenario"]["sides"][0] == made["scenario"]["sides"][0]
    # the same seed on the same game night builds the same side
    twin = night(client)
    again = client.post(
        f"/api/scenarios/{twin['id']}/sides/1/build", json={"strength": 150, "seed": 5}
    ).json()
    assert again["scenario"] == body["scenario"] and again["said"] == said


def test_the_sides_balanced_over_the_api_roll_the_second_side_again(client: TestClient) -> None:
    made = night(client, "impulse", 3)
    assert not made["scenario"]["balance"]["balanced"]  # rolled without --balanced
    answer = client.post(f"/api/scenarios/{made['id']}/balance", json={"seed": 42})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    scenario = body["scenario"]
    assert body["version"] == made["version"] + 1
    assert scenario["sides"][0] == made["scenario"]["sides"][0]
    assert scenario["balance"]["balanced"]
    assert body["said"][0].endswith("within 10 %.") and "of seed 42" in body["said"][0]
    # balanced now: the first side asked for is left as it is, and nothing is kept
    again = client.post(f"/api/scenarios/{made['id']}/balance", json={"side": 0, "seed": 1})
    assert again.status_code == 200
    assert "already within 10 %" in again.json()["said"][0]
    assert again.json()["version"] == body["version"]


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("sides/0/build", {"strength": 99999, "seed": 1}, 400, r"strength 99999: out of reach "),
        ("sides/0/build", {"strength": "lots"}, 400, r"strength: a number, e\.g\."),
        ("sides/0/build", {"seed": 1}, 400, r"strength: a number, e\.g\."),
        ("sides/0/build", {"strength": 0}, 400, r"strength 0: a number above 0"),
        ("sides/2/build", {"strength": 99}, 400, r"side 2: a scenario's sides are 0"),
        ("sides/x/build", {"strength": 99}, 400, r"side 'x': not a number"),
        ("sides/0/build", {"strength": 99, "ships": 3}, 400, r"ships: not an option \(options"),
        ("balance", {"side": 7}, 400, r"side 7: a scenario's sides are 0"),
        ("balance", {"seed": "one"}, 400, r'seed: a whole number, not "one"'),
        ("balance", [1], 400, r"the body must be a JSON object"),
        ("balance", {"version": 1}, 409, r"changed elsewhere \(version 2, not 1\)"),
    ],
)
def test_a_refusal_answers_in_words_and_keeps_nothing(
    client: TestClient, path: str, body: Any, status: int, words: str
) -> None:
    made = night(client)
    client.put(f"/api/scenarios/{made['id']}", json={"scenario": made["scenario"]})  # version 2
    before = client.get(f"/api/scenarios/{made['id']}").json()
    answer = client.post(f"/api/scenarios/{made['id']}/{path}", json=body)
    assert answer.status_code == status
    assert re.search(words, answer.json()["error"]), answer.json()
    assert client.get(f"/api/scenarios/{made['id']}").json() == before


def test_a_duel_side_is_not_built_and_a_night_there_is_not_is_404(client: TestClient) -> None:
    made = night(client, "duel", 5)
    answer = client.post(f"/api/scenarios/{made['id']}/sides/0/build", json={"strength": 20})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("duel: a side is one duellist; only a side of ships")
    missing = client.post("/api/scenarios/9999/balance", json={})
    assert missing.status_code == 404
    assert missing.json()["error"] == "game night 9999: there is no such game night"


def _token(page: str) -> str:
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_the_night_page_builds_a_side_and_says_what_was_done(client: TestClient) -> None:
    made = night(client, "convoy", 7)
    number = made["id"]
    page = client.get(f"/nights/{number}").text
    # beside each side's strength: its build form, with the token, the version and a seed
    assert page.count('class="forces"') == 2
    assert f'action="/nights/{number}/sides/1/build"' in page
    assert f'formaction="/nights/{number}/balance"' in page
    seed = re.search(r'name="seed" inputmode="numeric" [^>]*value="(\d+)"', page)
    assert seed is not None
    form = {"token": _token(page), "version": str(made["version"]), "side": "1"}

    refused = client.post(
        f"/nights/{number}/sides/1/build",
        data={"version": "1", "strength": "6"},
        follow_redirects=False,
    )
    assert refused.status_code == 403  # no form token: another site's form

    bad = client.post(f"/nights/{number}/sides/1/build", data={**form, "strength": "many"})
    assert bad.status_code == 400
    assert "strength &#39;many&#39;: a number, e.g. 15" in bad.text

    done = client.post(
        f"/nights/{number}/sides/1/build",
        data={**form, "strength": "20", "seed": seed.group(1)},
        follow_redirects=False,
    )
    assert done.status_code == 303
    location = done.headers["location"]
    assert location.startswith(f"/nights/{number}?") and location.endswith("#forces")
    said = parse_qs(urlsplit(location).query)["said"]
    assert said[0].startswith("Built the ") and f"from seed {seed.group(1)}" in said[0]
    shown = client.get(location).text
    for line in said:
        assert f'<p class="notice">{line}</p>' in shown.replace("&#39;", "'")
    # words the app did not sign are not shown
    forged = {"said": "The admiral surrendered.", "sig": parse_qs(urlsplit(location).query)["sig"]}
    assert (
        "The admiral surrendered."
        not in client.get(f"/nights/{number}?{urlencode(forged, doseq=True)}").text
    )

    balanced = client.post(
        f"/nights/{number}/balance",
        data={"token": form["token"], "side": "1", "seed": "9"},
        follow_redirects=False,
    )
    assert balanced.status_code == 303
    said = parse_qs(urlsplit(balanced.headers["location"]).query)["said"]
    assert said[0].startswith("Rolled the ") and "of seed 9" in said[0], said
    stale = client.post(f"/nights/{number}/balance", data={**form, "seed": "9"})
    assert stale.status_code == 409
    assert "changed elsewhere" in stale.text
