"""Conventions in the web app: a batch made in the background under the data folder, one at
a time, followed to its end, its index and a zip of its packets; bad options refused at
once; a batch whose process is gone is said stopped, never running forever."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from generator.app.batches import JOB, SECTIONS, batches_folder
from generator.app.saved import open_store
from generator.web.batches import SECTION_WORDS
from generator.web.server import create_app
from tests.conftest import run

BASE = "http://127.0.0.1:8765"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(open_store(tmp_path / "data")), base_url=BASE)


def token(client: TestClient) -> str:
    found = re.search(r'name="token" value="([^"]+)"', client.get("/batches").text)
    assert found is not None
    return found.group(1)


def followed(client: TestClient, number: int) -> dict[str, Any]:
    """Poll the batch as the page's script does until it has ended; return its status."""
    deadline = time.monotonic() + 300  # a bound for a stuck batch, not a time asserted
    while True:
        status: dict[str, Any] = client.get(f"/api/batches/{number}").json()
        if status["state"] != "running" or time.monotonic() > deadline:
            return status
        assert 0 <= status["done"] <= status["total"] == 1
        time.sleep(0.3)


def test_a_batch_runs_to_its_zip_and_a_second_waits_for_it(
    client: TestClient, tmp_path: Path
) -> None:
    # one packet (a batch's count and numbering are tests/test_batch.py's): the second
    # batch is asked for while it is made
    form = {"token": token(client), "rulesets": "convoy", "count": "1", "seed": "5"}
    answer = client.post("/batches", data=form, follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/batches/1"
    page = client.get("/batches/1").text
    assert '<meta http-equiv="refresh"' in page and "<progress" in page
    second = client.post("/api/batches", json={"rulesets": "convoy", "count": 1})
    assert second.status_code == 409
    assert "one batch at a time" in second.json()["error"]
    early = client.get("/api/batches/1/packets.zip")
    if client.get("/api/batches/1").json()["state"] == "running":
        assert early.status_code == 409  # nothing to download until it is done
        assert "not done yet" in early.json()["error"]

    status = followed(client, 1)
    assert status["state"] == "done", status
    assert status["done"] == status["total"] == 1
    assert status["asked"]["seed"] == 5
    folder = batches_folder(tmp_path / "data") / "1"
    manifest = json.loads((folder / "manifest.json").read_text())
    packets = [p["file"] for p in manifest["packets"]]
    assert len(packets) == 1 and all(p.endswith(".pdf") for p in packets)

    archive = client.get("/api/batches/1/packets.zip")
    assert archive.status_code == 200
    assert "batch-1-convoy-5.zip" in archive.headers["content-disposition"]
    with zipfile.ZipFile(BytesIO(archive.content)) as zipped:
        assert set(packets) | {"manifest.json", "manifest.csv"} <= set(zipped.namelist())
        assert zipped.read(packets[0]) == (folder / packets[0]).read_bytes()
    index = client.get("/api/batches/1/index.pdf")
    assert index.status_code == 200 and index.content.startswith(b"%PDF-")
    done_page = client.get("/batches/1").text
    assert "packets.zip" in done_page and 'http-equiv="refresh"' not in done_page
    assert "Batch 1" in client.get("/batches").text


def test_every_section_a_batch_may_leave_out_has_words() -> None:
    assert set(SECTION_WORDS) == set(SECTIONS)


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"count": "2"}, "rulesets: choose at least one ruleset"),
        ({"rulesets": "convoy", "count": "0"}, "--count 0: between 1 and"),
        ({"rulesets": "convoy", "count": "2", "without": "maps"}, "--without: unknown section"),
        ({"rulesets": "convoy", "count": "x"}, "count: a whole number"),
    ],
)
def test_bad_options_are_refused_and_nothing_is_kept(
    client: TestClient, tmp_path: Path, form: dict[str, str], words: str
) -> None:
    answer = client.post("/batches", data={"token": token(client), **form})
    assert answer.status_code == 400
    assert words in answer.text
    assert not batches_folder(tmp_path / "data").exists()
    assert client.get("/api/batches").json() == {"batches": []}


def test_a_batch_whose_process_is_gone_is_said_stopped(client: TestClient, tmp_path: Path) -> None:
    # as a server stopped mid-batch leaves it: said running, by a process that is no more
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    folder = batches_folder(tmp_path / "data") / "3"
    folder.mkdir(parents=True)
    job = {"id": 3, "state": "running", "done": 1, "total": 4, "started": 0.0, "pid": gone.pid}
    job["asked"] = {"rulesets": ["convoy"], "seed": 9, "paper": "a4"}
    (folder / JOB).write_text(json.dumps(job))
    status = client.get("/api/batches/3").json()
    assert status["state"] == "failed"
    assert status["error"].startswith("stopped before it was done")
    assert "1 of 4 packets were made" in status["error"]
    assert json.loads((folder / JOB).read_text())["state"] == "failed"  # and kept so
    assert "The batch failed: stopped before it was done" in client.get("/batches/3").text
    assert client.get("/api/batches/3/packets.zip").status_code == 409
    assert client.get("/api/batches/4").status_code == 404
    refused = client.post("/api/batches", json={"rulesets": ["convoy"], "counts": 2})
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("counts: not an option")


def test_a_gm_brings_in_a_fleet_and_follows_a_batch_in_the_browser(
    browser: Any,
    server: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fleet = tmp_path / "dutch.yaml"
    code, _, err = run(capsys, "fleet", "convoy", "--seed", "3", "-o", str(fleet))
    assert code == 0, err
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, accept_downloads=True
    )
    page = phone.new_page()
    page.goto(server + "/")
    page.set_input_files("input[name=file]", str(fleet))
    page.click("text=Bring it in")
    assert "Brought in a fleet file" in page.inner_text(".notice")
    assert "fleet" in page.inner_text(".side-files")

    page.click("nav >> text=Conventions")
    for box in page.locator("input[name=rulesets]").all():
        box.uncheck()
    page.check("input[name=rulesets][value=convoy]")
    page.fill("input[name=count]", "1")
    page.click("text=Make the batch")
    page.wait_for_selector("progress")  # followed by static/batch.js, then the downloads
    page.wait_for_selector("text=Download the packets", timeout=120_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    with page.expect_download() as waited:
        page.click("text=Download the packets")
    saved = tmp_path / "batch.zip"
    waited.value.save_as(saved)
    with zipfile.ZipFile(saved) as zipped:
        assert "manifest.json" in zipped.namelist()
        assert [n for n in zipped.namelist() if n.endswith(".pdf") and "-convoy-" in n]
    phone.close()
