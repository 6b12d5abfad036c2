"""Files in and out of the web app: a fleet file brought in becomes a game night made as
`quartermaster scenario RULESET --side FILE` makes one, a bad one is refused with its line
and key, and a side comes out as a fleet file and as text the command line agrees with."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx2
import pytest
from starlette.testclient import TestClient

from generator.app.saved import open_store
from generator.web.server import create_app
from tests.conftest import run

BASE = "http://127.0.0.1:8765"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(open_store(tmp_path / "data")), base_url=BASE)


def token(client: TestClient) -> str:
    found = re.search(r'name="token" value="([^"]+)"', client.get("/").text)
    assert found is not None
    return found.group(1)


def bring_in(client: TestClient, name: str, raw: bytes, seed: str = "") -> httpx2.Response:
    return client.post(
        "/nights/import",
        data={"token": token(client), "seed": seed},
        files={"file": (name, raw, "application/yaml")},
        follow_redirects=False,
    )


def test_a_fleet_file_brought_in_makes_the_night_the_command_line_makes(
    client: TestClient,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, _ = run(capsys, "fleet", "convoy", "--seed", "3", "-o", "dutch.yaml")
    assert code == 0
    answer = bring_in(client, "dutch.yaml", Path("dutch.yaml").read_bytes(), seed="11")
    assert answer.status_code == 303
    location = answer.headers["location"]
    assert location.endswith("?brought=fleet")
    number = location.split("/")[-1].split("?")[0]
    code, out, _ = run(
        capsys, "scenario", "convoy", "--side", "dutch.yaml", "--seed", "11", "--json"
    )
    assert code == 0
    assert client.get(f"/api/scenarios/{number}").json()["scenario"] == json.loads(out)
    page = client.get(location).text
    assert "Brought in a fleet file" in page
    # a scenario file goes in through the same field, and the page says which it was
    scenario = client.get(f"/api/scenarios/{number}/scenario.yaml").content
    again = bring_in(client, "night.yaml", scenario)
    assert again.headers["location"].endswith("?brought=scenario")
    assert "Brought in a scenario file" in client.get(again.headers["location"]).text


def test_a_bad_fleet_file_is_refused_with_its_line_and_key_and_nothing_is_kept(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "fleet", "convoy", "--seed", "3", "--yaml")
    assert code == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("guns:"))
    lines[at] = lines[at].split(":")[0] + ": 99"
    answer = bring_in(client, "broken.yaml", ("\n".join(lines) + "\n").encode())
    assert answer.status_code == 400
    text = answer.text
    assert f"broken.yaml:{at + 1}: ships[0].guns: 99 is out of range" in text
    assert client.get("/api/scenarios/1").status_code == 404
    pdf = bring_in(client, "packet.pdf", b"%PDF-1.7\n")
    assert pdf.status_code == 400
    assert "packet.pdf: this is a PDF; bring in a scenario or fleet file" in pdf.text
    # a seed is for the side rolled to meet a fleet: a scenario keeps its own
    made = client.post("/api/scenarios", json={"ruleset": "convoy", "seed": 7}).json()
    scenario = client.get(f"/api/scenarios/{made['id']}/scenario.yaml").content
    seeded = bring_in(client, "night.yaml", scenario, seed="4")
    assert seeded.status_code == 400
    assert "night.yaml is a scenario, which keeps its own seed" in seeded.text
    assert client.get(f"/api/scenarios/{made['id'] + 1}").status_code == 404


def test_a_side_comes_out_as_a_fleet_file_and_text_the_command_line_reads(
    client: TestClient,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = client.post("/api/scenarios", json={"ruleset": "convoy", "seed": 7}).json()
    number = made["id"]
    second = made["scenario"]["sides"][1]
    answer = client.get(f"/api/scenarios/{number}/sides/1/fleet.yaml")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    assert f"fleet-convoy-7-{second['navy']}.yaml" in answer.headers["content-disposition"]
    fleet = tmp_path / "side.yaml"
    fleet.write_bytes(answer.content)
    # read back as a fleet (it lists the side's ships) and as a side of a new scenario
    code, out, _ = run(capsys, "fleet", "convoy", "--from", str(fleet), "--json")
    assert code == 0
    assert json.loads(out)["ships"] == second["ships"]
    code, out, _ = run(capsys, "scenario", "convoy", "--side", str(fleet), "--seed", "2", "--json")
    assert code == 0
    assert json.loads(out)["sides"][0]["ships"] == second["ships"]
    # the text is the command line's listing of that fleet, 80 columns, plain ASCII rules
    text = client.get(f"/api/scenarios/{number}/sides/1/fleet.txt")
    assert text.status_code == 200
    assert text.headers["content-type"].startswith("text/plain")
    monkeypatch.setenv("COLUMNS", "80")
    code, listed, _ = run(capsys, "fleet", "convoy", "--from", str(fleet))
    assert code == 0
    listed = listed.replace("─", "-").replace("━", "-")
    assert text.text == "\n".join(line.rstrip() for line in listed.splitlines()) + "\n"
    assert all(len(line) <= 80 for line in text.text.splitlines())
    assert not re.search("[\u2500-\u257f\x1b]", text.text)
    assert second["ships"][0]["name"] in text.text
    assert client.get(f"/api/scenarios/{number}/sides/2/fleet.yaml").status_code == 404
    assert client.get(f"/api/scenarios/{number}/sides/0/fleet.pdf").status_code == 400
