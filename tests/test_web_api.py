"""The web app's JSON API and its guard, through Starlette's test client: every route,
its refusals, the key, the size limit, the same-site rule, and a packet byte-identical to
`quartermaster packet --from` the same scenario."""

from __future__ import annotations

import copy
import json
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.app.saved import open_store
from generator.app.store import DATABASE, SCHEMA_VERSION, Store
from generator.web.guard import MAX_BODY_BYTES
from generator.web.server import create_app
from tests.conftest import run

BASE = "http://127.0.0.1:8765"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(open_store(tmp_path)), base_url=BASE)


def made(client: TestClient, **order: Any) -> dict[str, Any]:
    answer = client.post("/api/scenarios", json={"ruleset": "convoy", "seed": 7, **order})
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_scenario_is_what_the_command_line_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    body = made(client, ships=[2, 3])
    code, out, _ = run(capsys, "scenario", "convoy", "--seed", "7", "--ships", "2,3", "--json")
    assert code == 0
    assert body["scenario"] == json.loads(out)
    again = client.get(f"/api/scenarios/{body['id']}").json()
    assert again == body


def test_a_bad_edit_is_refused_with_its_paths_and_nothing_changes(client: TestClient) -> None:
    body = made(client)
    scenario = copy.deepcopy(body["scenario"])
    unit = scenario["sides"][0]["ships"][0]
    key = next(k for k, v in unit.get("ratings", unit).items() if isinstance(v, int))
    (unit.get("ratings", unit))[key] = 999
    scenario["sides"][1]["name"] = 5
    answer = client.put(f"/api/scenarios/{body['id']}", json={"scenario": scenario})
    assert answer.status_code == 422
    paths = {p["path"] for p in answer.json()["problems"]}
    assert "sides[1].name" in paths
    assert any(p.startswith("sides[0].ships[0].") and p.endswith(key) for p in paths)
    assert client.get(f"/api/scenarios/{body['id']}").json() == body


def test_an_edit_is_kept_and_a_stale_version_is_refused(client: TestClient) -> None:
    body = made(client)
    scenario = body["scenario"]
    scenario["title"] = "The Convoy at Dawn"
    answer = client.put(
        f"/api/scenarios/{body['id']}", json={"scenario": scenario, "version": body["version"]}
    )
    assert answer.status_code == 200
    assert answer.json()["scenario"]["title"] == "The Convoy at Dawn"
    stale = client.put(
        f"/api/scenarios/{body['id']}", json={"scenario": body["scenario"], "version": 1}
    )
    assert stale.status_code == 409
    assert "changed elsewhere" in stale.json()["error"]


@pytest.mark.parametrize(
    ("order", "words"),
    [
        ({"ruleset": "nelson"}, "nelson"),
        ({"ruleset": "convoy", "seed": "x"}, "seed: a whole number"),
        ({"ruleset": "convoy", "ships": [1, 2, 3]}, "ships: one value, or one for each side"),
        ({"ruleset": "convoy", "colour": "red"}, "colour: not an option"),
        ({"ruleset": "tactical", "navies": ["british", "atlantean"]}, "atlantean"),
    ],
)
def test_a_bad_order_is_refused_in_the_command_line_s_words(
    client: TestClient, order: dict[str, Any], words: str
) -> None:
    answer = client.post("/api/scenarios", json=order)
    assert answer.status_code == 400
    assert words in answer.json()["error"]
    assert "Traceback" not in answer.text
    assert client.get("/").text.count('href="/nights/') == 0  # nothing was kept


def test_missing_things_and_bad_bodies(client: TestClient) -> None:
    assert client.get("/api/scenarios/41").status_code == 404
    assert client.get("/api/scenarios/x1").status_code == 400
    refused = client.post("/api/scenarios", content=b"ruleset=convoy")
    assert refused.status_code == 400 and "JSON" in refused.json()["error"]
    bad = client.post("/api/odds", json={"expression": "2d"})
    assert bad.status_code == 400 and bad.json()["error"]


def test_odds_are_what_the_command_line_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = client.post("/api/odds", json={"expression": "2d6+1", "vs": "2d6"})
    code, out, _ = run(capsys, "odds", "2d6+1", "--vs", "2d6", "--json")
    assert code == 0 and answer.json() == json.loads(out)


def test_the_packet_is_the_command_line_s_bytes_and_its_pages_preview(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = made(client)
    number = body["id"]
    scenario_file = tmp_path / "night.yaml"
    download = client.get(f"/api/scenarios/{number}/scenario.yaml")
    assert download.status_code == 200
    scenario_file.write_bytes(download.content)
    target = tmp_path / "cli.pdf"
    code, _, err = run(
        capsys, "packet", "--from", str(scenario_file), "--paper", "letter", "--mono",
        "-o", str(target),
    )  # fmt: skip
    assert code == 0, err
    packet = client.get(f"/api/scenarios/{number}/packet.pdf?paper=letter&mono=1&fillable=0")
    assert packet.status_code == 200
    assert packet.headers["content-type"] == "application/pdf"
    assert packet.content == target.read_bytes()
    page = client.get(f"/api/scenarios/{number}/pages/2.png?paper=letter&mono=1&width=200")
    assert page.status_code == 200 and page.content.startswith(b"\x89PNG")
    assert client.get(f"/api/scenarios/{number}/pages/999.png").status_code == 400
    assert client.get(f"/api/scenarios/{number}/packet.pdf?mono=maybe").status_code == 400


def test_a_key_is_needed_away_from_this_machine(tmp_path: Path) -> None:
    key = "k" * 24
    client = TestClient(create_app(open_store(tmp_path), key=key), base_url=BASE)
    refused = client.get("/api/scenarios/1")
    assert refused.status_code == 401 and "key" in refused.json()["error"]
    assert client.get("/").status_code == 401
    assert client.get("/", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    opened = client.get(f"/?key={key}", follow_redirects=False)
    assert opened.status_code == 303 and "qm_key=" in opened.headers["set-cookie"]
    assert client.get("/").status_code == 200  # the cookie the link set


def test_changes_from_another_site_and_large_bodies_are_refused(client: TestClient) -> None:
    other = client.post(
        "/api/scenarios", json={"ruleset": "convoy"}, headers={"Origin": "http://evil.example"}
    )
    assert other.status_code == 403
    form = client.post("/nights", data={"ruleset": "convoy"})
    assert form.status_code == 403 and "form" in form.text
    big = client.post(
        "/api/odds",
        content=b"x" * (MAX_BODY_BYTES + 1),
        headers={"content-type": "application/json"},
    )
    assert big.status_code == 413


def test_the_store_migrates_and_refuses_a_newer_database(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.version() == SCHEMA_VERSION
    store.close()
    with sqlite3.connect(tmp_path / DATABASE) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(Exception, match="newer Quartermaster"):
        Store(tmp_path)


def test_twenty_previews_at_once_are_all_answered_and_the_server_keeps_answering(
    tmp_path: Path,
) -> None:
    import anyio
    import httpx2

    app = create_app(open_store(tmp_path))
    number = (  # the browser test's night: its pages are laid out once a session
        TestClient(app, base_url=BASE)
        .post("/api/scenarios", json={"ruleset": "convoy", "seed": 7})
        .json()["id"]
    )
    answers: dict[str, int] = {}

    async def ask(client: httpx2.AsyncClient, name: str, url: str) -> None:
        answers[name] = (await client.get(url)).status_code

    async def main() -> None:
        transport = httpx2.ASGITransport(app=app)
        async with (
            httpx2.AsyncClient(transport=transport, base_url=BASE) as client,
            anyio.create_task_group() as group,
        ):
            for n in range(20):
                page = n % 3 + 1
                url = f"/api/scenarios/{number}/pages/{page}.png?width={200 + n}"
                group.start_soon(ask, client, f"preview {n}", url)
            # while the previews are laid out, other requests are answered
            group.start_soon(ask, client, "home", "/")
            group.start_soon(ask, client, "scenario", f"/api/scenarios/{number}")

    # in a thread of its own: a browser test in this process keeps Playwright's event loop
    # running in the main thread, where a second loop may not start
    with ThreadPoolExecutor(1) as pool:
        pool.submit(anyio.run, main).result()
    assert answers == {name: 200 for name in answers} and len(answers) == 22


def test_game_nights_outlive_the_server_and_a_failed_write_changes_nothing(
    tmp_path: Path,
) -> None:
    first = TestClient(create_app(open_store(tmp_path)), base_url=BASE)
    body = made(first)
    store = open_store(tmp_path)  # as a restarted server opens it
    assert store.scenario(body["id"]).scenario == body["scenario"]
    before = store.scenario(body["id"])
    with pytest.raises(RuntimeError, match="power cut"), store.transaction() as db:
        db.execute("UPDATE scenarios SET title = 'half' WHERE id = ?", (body["id"],))
        raise RuntimeError("power cut")
    assert open_store(tmp_path).scenario(body["id"]) == before


def test_a_process_killed_mid_write_leaves_the_game_night_as_it_was(tmp_path: Path) -> None:
    import subprocess
    import sys

    store = open_store(tmp_path)
    saved = store.add_scenario({"ruleset": "duel", "title": "Before", "seed": 1, "sides": []})
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_MID_WRITE, str(tmp_path), str(saved.id)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert killed.returncode == 9, killed.stderr
    assert open_store(tmp_path).scenario(saved.id) == saved


# a process that changes a game night inside a transaction and dies before it commits
_KILLED_MID_WRITE = """
import os, sys
from pathlib import Path
from generator.app.store import Store
store = Store(Path(sys.argv[1]))
with store.transaction() as db:
    db.execute("UPDATE scenarios SET title = 'After' WHERE id = ?", (int(sys.argv[2]),))
    os._exit(9)
"""


def test_the_night_page_comes_at_once_and_its_pages_when_asked(client: TestClient) -> None:
    number = made(client)["id"]
    night = client.get(f"/nights/{number}")
    assert night.status_code == 200
    assert 'id="page-list"' in night.text and "pages/1.png" not in night.text
    part = client.get(f"/nights/{number}/pages?paper=a4&part=1")
    assert part.status_code == 200 and "<html" not in part.text
    from generator.app.preview import page_count

    pdf = client.get(f"/api/scenarios/{number}/packet.pdf?paper=a4").content
    assert part.text.count("<img ") == page_count(pdf)
    whole = client.get(f"/nights/{number}/pages?paper=a4")
    assert "<html" in whole.text and whole.text.count("<img ") == page_count(pdf)
    refused = client.get(f"/nights/{number}/pages?paper=a3")
    assert refused.status_code == 400 and "a3" in refused.text


def test_serve_prints_its_link_and_away_from_this_machine_a_key(tmp_path: Path) -> None:
    """`quartermaster serve` as a GM starts it: the link it prints opens the app; bound to
    every address, the link carries a key and a request without it is refused."""
    import socket
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    for host in ("127.0.0.1", "0.0.0.0"):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        command = ["serve", "--no-browser", "--host", host, "--port", str(port)]
        served = subprocess.Popen(
            [sys.executable, "-m", "generator", *command, "--data", str(tmp_path / host)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert served.stdout is not None
            said = served.stdout.readline()
            link = said.split(" is at ", 1)[1].split()[0]
            assert (tmp_path / host / DATABASE).name in said
            local = link.replace("0.0.0.0", "127.0.0.1").replace("localhost", "127.0.0.1")
            # a browser keeps the cookie the key's link sets
            browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
            for _ in range(200):  # the link is printed just before uvicorn listens
                try:
                    with browser.open(local, timeout=30) as answer:
                        assert answer.status == 200 and "Game nights" in answer.read().decode()
                        break
                except urllib.error.HTTPError:
                    raise
                except urllib.error.URLError:
                    time.sleep(0.05)
            else:
                raise AssertionError(f"{local} never answered")
            if host == "0.0.0.0":
                assert "?key=" in link
                with pytest.raises(urllib.error.HTTPError, match="401"):
                    urllib.request.urlopen(local.split("?")[0], timeout=30)
            else:
                assert "key" not in link
        finally:
            served.terminate()
            served.wait(10)
