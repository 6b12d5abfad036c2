"""A game on paper (generator/schema/damage.py, generator/app/paper.py, generator/web/paper.py
and the ship-log sheet): damage a scenario carries, checked by the schema with its key paths;
printed crossed off, and checked in a fillable log (read by pypdf and drawn by poppler); a
game's marks printed into its packet, the packet filled further in "a PDF reader" (pypdf)
and read back into the game, at the command line and through the upload."""

from __future__ import annotations

import copy
import io
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pypdf import PdfReader, PdfWriter

from generator.app import games
from generator.app.games import Game, Seat
from generator.app.generated import make_scenario
from generator.app.paper import carried_scenario, game_packet, read_filled
from generator.app.requests import OrderOptions, PrintOptions, ScenarioRequest
from generator.app.saved import PacketOptions, open_store
from generator.app.store import Store
from generator.errors import InputError
from generator.loading import Rules
from generator.loading.problems import describe_path
from generator.render.kinds import ship_log
from generator.render.kinds.ship_log.items import CrossBox
from generator.render.sheets import render_sheet
from generator.schema import check_scenario, describe
from generator.yamlfile import KeyPath
from tests.conftest import run

DPI = 100
# everything of a packet but its ships' logs (and the briefing, which every packet has)
ONLY_LOGS = "map,counters,playsheet,quick-reference,spares,gm-notes"


@pytest.fixture(scope="module")
def convoy() -> dict[str, Any]:
    """A convoy scenario of two ships a side."""
    made = make_scenario(ScenarioRequest("convoy", seed=7, order=OrderOptions(ships="2")))
    return copy.deepcopy(dict(made.data))


def _damaged(convoy: dict[str, Any]) -> dict[str, Any]:
    scenario = copy.deepcopy(convoy)
    ship = scenario["sides"][0]["ships"][0]
    ship["damage"] = {"crew": 2, "sail": 1}
    ship["marked"] = ["aground"]
    return scenario


class _Said:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def fail(self, path: KeyPath, message: str) -> None:
        self.lines.append(f"{describe_path(path)}: {message}")


def _problems(rules: Rules, scenario: dict[str, Any]) -> list[str]:
    said = _Said()
    check_scenario(said, rules, scenario)
    return said.lines


def test_the_schema_takes_damage_her_log_has_and_refuses_the_rest(
    rules: Rules, convoy: dict[str, Any]
) -> None:
    assert _problems(rules, _damaged(convoy)) == []
    scenario = copy.deepcopy(convoy)
    second = scenario["sides"][0]["ships"][1]
    crew = int(second["crew"])
    second["damage"] = {"crew": crew + 1, "hull": 1, "sail": -1}
    second["marked"] = ["captured", "sunk", "captured"]
    name = second["name"]
    assert _problems(rules, scenario) == [
        "sides[0].ships[1].damage.sail: -1 is out of range for sail: at least 0 "
        "(at most the boxes of her row)",
    ]
    second["damage"]["sail"] = 0
    assert _problems(rules, scenario) == [
        f"sides[0].ships[1].damage.crew: {crew + 1} boxes crossed off, but Crew has {crew} boxes",
        f"sides[0].ships[1].damage.hull: 'hull' is not a row of {name}'s log "
        "(rows: crew, guns, sail)",
        f"sides[0].ships[1].marked[1]: 'sunk' is not a check box of {name}'s log (check "
        "boxes: struck, captured, aground, in_fog, paused, burnt, escaped); did you mean "
        "'struck'?",
        "sides[0].ships[1].marked[2]: Captured is ticked twice",
    ]
    # the keys' words, as the web editor and `quartermaster schema` show them
    docs = describe("convoy", rules)
    assert "sides[].ships[].damage" in docs and "sides[].ships[].marked" in docs
    assert "lower-case, _ for spaces" in docs


def _boxes(rules: Rules, scenario: dict[str, Any]) -> tuple[list[CrossBox], list[CrossBox]]:
    """The ship-log sheet's first page's boxes, (crossed off already, the others)."""
    context = ship_log.context(rules, scenario, "a4", "convoy")
    boxes = [item for item in context["pages"][0]["items"] if isinstance(item, CrossBox)]
    return [b for b in boxes if b.marked], [b for b in boxes if not b.marked]


def _page(pdf: bytes, folder: Path, name: str) -> Image.Image:
    stem = folder / name
    (folder / f"{name}.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(DPI), "-f", "1", "-l", "1", "-png", "-singlefile",
         folder / f"{name}.pdf", stem],
        check=True,
    )  # fmt: skip
    return Image.open(f"{stem}.png").convert("L")


def _inked(page: Image.Image, box: CrossBox) -> list[bool]:
    """Whether the box's centre and the points a quarter in along each diagonal are
    inked, and whether the middles of its four edges' insides stay clear of ink."""

    def dark(fx: float, fy: float) -> bool:
        x = (box.x + box.w * fx) / 25.4 * DPI
        y = (box.y + box.h * fy) / 25.4 * DPI
        return min(page.getpixel((round(x) + dx, round(y) + dy)) for dx in (-1, 0, 1)
                   for dy in (-1, 0, 1)) < 128  # type: ignore[operator]  # fmt: skip

    crossed = [dark(0.5, 0.5), dark(0.3, 0.3), dark(0.7, 0.3), dark(0.3, 0.7), dark(0.7, 0.7)]
    clear = [not dark(0.5, 0.15), not dark(0.5, 0.85), not dark(0.15, 0.5), not dark(0.85, 0.5)]
    return crossed + clear


def test_a_printed_log_shows_its_damage_crossed_off(
    rules: Rules, convoy: dict[str, Any], tmp_path: Path
) -> None:
    scenario = _damaged(convoy)
    marked, others = _boxes(rules, scenario)
    ship = scenario["sides"][0]["ships"][0]["name"]
    assert [b.tip for b in marked] == [
        f"{ship}: Crew, box 1",
        f"{ship}: Crew, box 2",
        f"{ship}: Sail, box 1",
        f"{ship}: Aground",
    ]
    page = _page(render_sheet("ship-log", rules, data=scenario, ruleset="convoy"), tmp_path, "log")
    for box in marked:
        assert all(_inked(page, box)), box.tip  # an X in the box, its edges' insides clear
    for box in others:
        assert not _inked(page, box)[0], box.tip
    # a log without damage prints as it did: no box marked
    assert _boxes(rules, convoy)[0] == []


def test_a_fillable_log_has_its_damage_checked_for_every_reader(
    rules: Rules, convoy: dict[str, Any], tmp_path: Path
) -> None:
    scenario = _damaged(convoy)
    pdf = render_sheet("ship-log", rules, data=scenario, ruleset="convoy", fillable=True)
    fields = PdfReader(io.BytesIO(pdf)).get_fields() or {}
    checked = sorted(name for name, field in fields.items() if field.get("/V") == "/Yes")
    prefix = ship_log.log_prefixes(scenario["sides"])[0][0]
    assert checked == sorted(
        f"{prefix}_{name}" for name in ("crew_1", "crew_2", "sail_1", "aground")
    )
    widgets = {
        str(annot.get_object()["/T"]): annot.get_object()
        for annot in PdfReader(io.BytesIO(pdf)).pages[0]["/Annots"]
    }
    assert all(widgets[name]["/AS"] == "/Yes" for name in checked)
    # poppler draws the checked boxes crossed (their appearance), the others empty
    page = _page(pdf, tmp_path, "fillable")
    marked, others = _boxes(rules, scenario)
    for box in marked:
        assert all(_inked(page, box)), box.tip
    for box in others:
        assert not _inked(page, box)[0], box.tip


@pytest.fixture(scope="module")
def played(
    convoy: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Store, Game]:
    """A game of the convoy scenario, its first ship marked through the game."""
    folder = tmp_path_factory.mktemp("paper")
    path = folder / "scenario.yaml"
    import yaml

    path.write_text(yaml.safe_dump(convoy, sort_keys=False), encoding="utf-8")
    store = open_store(folder / "data")
    _, found = games.start_game_from_file(store, path)
    games.change_ship(store, found, Seat(None), "1-1", version=None, tracks={"crew": 2}, marks={})
    ship = games.find_ship(store, found, Seat(None), "1-1")
    struck = next(name for name in ship.card.tips if name.endswith("_struck"))
    games.change_ship(store, found, Seat(None), "1-1", version=None, marks={struck: True})
    return folder, store, found


@pytest.fixture(scope="module")
def filled(played: tuple[Path, Store, Game]) -> tuple[Path, dict[str, str]]:
    """The game's packet, fillable, filled further in "a PDF reader": her sail crossed, her
    struck box cleared, and the other side's first ship's guns crossed; with the fields
    filled, by their names in the ships' logs."""
    folder, store, found = played
    first = games.find_ship(store, found, Seat(None), "1-1")
    other = games.find_ship(store, found, Seat(None), "2-1")
    options = PacketOptions(printing=PrintOptions(fillable=True), without=ONLY_LOGS)
    (packet,) = game_packet(store, found, options)
    reader = PdfReader(io.BytesIO(packet.pdf))
    fields = reader.get_fields() or {}
    ticked = {name for name, field in fields.items() if field.get("/V") == "/Yes"}
    # the packet prints what the game has marked, each named after its sheet ("s2_")
    assert {name.split("_", 1)[1] for name in ticked} == {
        name for name, value in first.marks.items() if value is True
    }

    def in_pdf(field: str) -> str:
        return next(n for n in fields if re.fullmatch(rf"[a-z]+\d+_{re.escape(field)}", n))

    struck = next(n for n in first.marks if n.endswith("_struck"))
    changes = {
        next(n for n in first.card.tips if n.endswith("_sail_1")): "/Yes",
        struck: "/Off",
        next(n for n in other.card.tips if n.endswith("_guns_1")): "/Yes",
    }
    writer = PdfWriter(clone_from=reader)
    for page in writer.pages:
        writer.update_page_form_field_values(
            page, {in_pdf(n): v for n, v in changes.items()}, auto_regenerate=False
        )
    out = io.BytesIO()
    writer.write(out)
    path = folder / "filled.pdf"
    path.write_bytes(out.getvalue())
    return path, changes


def test_a_read_that_fails_on_its_last_ship_changes_none(
    played: tuple[Path, Store, Game],
    filled: tuple[Path, dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ships of a filled packet are read back in one write: a failure at the last ship
    (a full disk, a killed server) leaves every ship as she was."""
    _, store, found = played
    before = {s.key: s.marks for s in games.ships(store, found, Seat(None))}
    real = games._write_marks
    written: list[str] = []

    def failing(db: Any, game: Game, ship: Any, new: Any, version: Any) -> None:
        written.append(ship.key)
        if len(written) == len(before):
            raise OSError("disk full")
        real(db, game, ship, new, version)

    monkeypatch.setattr(games, "_write_marks", failing)
    with pytest.raises(OSError, match="disk full"):
        read_filled(store, found, filled[0].read_bytes(), "filled.pdf")
    assert written == ["1-1", "1-2", "2-1", "2-2"]
    assert {s.key: s.marks for s in games.ships(store, found, Seat(None))} == before


def test_a_game_printed_filled_and_read_back_keeps_what_was_filled(
    played: tuple[Path, Store, Game], filled: tuple[Path, dict[str, str]]
) -> None:
    _, store, found = played
    path, changes = filled
    before = {s.key: s for s in games.ships(store, found, Seat(None))}
    carried = carried_scenario(store, found)["sides"][0]["ships"][0]
    assert (carried["damage"], carried["marked"]) == ({"crew": 2}, ["struck"])
    read = read_filled(store, found, path.read_bytes(), "filled.pdf")
    assert [ship.key for ship in read.ships] == ["1-1", "1-2", "2-1", "2-2"]
    assert read.other == 0 and read.unkept > 0  # the turn logs: a game keeps none
    now = {s.key: s for s in games.ships(store, found, Seat(None))}
    ticked = {n for key in before for n, v in before[key].marks.items() if v is True}
    ticked |= {n for n, v in changes.items() if v == "/Yes"}
    ticked -= {n for n, v in changes.items() if v == "/Off"}
    assert {n for key in now for n, v in now[key].marks.items() if v is True} == ticked
    changed = sum(
        1
        for key in now
        for n in {*before[key].marks, *now[key].marks}
        if before[key].marks.get(n) != now[key].marks.get(n)
    )
    assert changed == sum(ship.changed for ship in read.ships)
    assert read.lines()[0] == f"filled.pdf: read 4 ships' logs, {changed} boxes changed."


def test_game_read_at_the_command_line(
    played: tuple[Path, Store, Game],
    filled: tuple[Path, dict[str, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder, store, found = played
    data = str(folder / "data")
    path = filled[0]
    code, out, _ = run(capsys, "game", "read", str(path), "--game", str(found.id), "--data", data)
    assert code == 0 and out.startswith(f"{path}: read 4 ships' logs, ")
    not_pdf = folder / "scenario.yaml"
    code, _, err = run(
        capsys, "game", "read", str(not_pdf), "--game", str(found.id), "--data", data
    )
    assert code == 2 and "not a PDF" in err and len(err.strip().splitlines()) == 1
    other = folder / "other.pdf"
    blank = PdfWriter()
    blank.add_blank_page(width=200, height=200)
    with other.open("wb") as stream:
        blank.write(stream)  # a PDF of no form fields at all
    code, _, err = run(capsys, "game", "read", str(other), "--game", str(found.id), "--data", data)
    assert code == 2 and f"{other}: no field of a ship's log of game {found.id}" in err
    code, _, err = run(capsys, "game", "read", str(path), "--game", "999", "--data", data)
    assert code == 2 and "game 999" in err
    code, _, err = run(
        capsys, "game", "read", str(folder / "none.pdf"), "--game", "1", "--data", data
    )
    assert code == 2 and "none.pdf" in err
    with pytest.raises(InputError, match="not a PDF"):
        read_filled(store, found, b"hello", "hello.txt")


def test_the_gm_uploads_a_filled_log_and_a_side_cannot(
    played: tuple[Path, Store, Game], filled: tuple[Path, dict[str, str]]
) -> None:
    from starlette.testclient import TestClient

    from generator.web.server import create_app

    folder, _, found = played
    app = create_app(open_store(folder / "data"))
    client = TestClient(app, base_url="http://127.0.0.1:8765")
    token = app.state.quartermaster.token
    pdf = {"filled": ("filled.pdf", filled[0].read_bytes(), "application/pdf")}
    answer = client.post(
        f"/play/{found.gm_token}/read", data={"token": token}, files=pdf, follow_redirects=False
    )
    assert answer.status_code == 303, answer.text
    where = answer.headers["location"]
    assert where.startswith(f"/play/{found.gm_token}?said=filled.pdf")
    side = client.post(f"/play/{found.side_tokens[0]}/read", data={"token": token}, files=pdf)
    assert side.status_code == 404 and "no game has this link" in side.text
    empty = client.post(f"/play/{found.gm_token}/read", data={"token": token})
    assert empty.status_code == 400 and "choose a filled fillable ship" in empty.text
    assert client.post(f"/play/{found.gm_token}/read", files=pdf).status_code == 403
