"""The application layer called as the web app will call it: no command line, plain values
in, data or PDF bytes out, and only Quartermaster's errors."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from generator.app import (
    BatchRequest,
    CharacterRequest,
    FleetRequest,
    Listener,
    OrderOptions,
    PacketRequest,
    PrintOptions,
    ScenarioRequest,
    SheetRequest,
)
from generator.app.generated import make_character, make_fleet, make_scenario, read_file
from generator.app.printed import make_batch, make_packet, make_sheet, output_name, write_sheet
from generator.app.resolving import (
    ResolveRequest,
    find_resolver,
    find_resolvers,
    resolve,
    resolve_odds,
)
from generator.app.rolls import dice_odds, roll_dice, versus_odds
from generator.app.table import find_tables, look_up
from generator.errors import DataError, InputError, OutputError
from generator.generate.scenario import Order, roll_scenario
from generator.loading import Rules, Ruleset, Table
from generator.schema import TITLE_LENGTH
from tests.pdfs import flat, outline, read, squeeze


class Heard(Listener):
    """Keeps what a use says, in order."""

    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []

    def note(self, message: str) -> None:
        self.said.append(("note", message))

    def warn(self, message: str) -> None:
        self.said.append(("warn", message))

    def start(self) -> None:
        self.said.append(("start", ""))

    def step(self, what: str) -> None:
        self.said.append(("step", what))


@pytest.fixture(autouse=True)
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in an empty folder, so that anything written by mistake is seen."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_packet_is_bytes_and_names_and_nothing_is_written(elsewhere: Path) -> None:
    heard = Heard()
    request = PacketRequest("duel", seed=1, handouts=True, printing=PrintOptions(paper="Letter"))
    packet, *handouts = make_packet(request, heard)
    assert packet.name == Path("output/packet-duel-1-letter.pdf") and packet.side is None
    assert read(packet.pdf).metadata.title.startswith("Game-night packet — ")
    navies = [side["navy"] for side in make_scenario(ScenarioRequest("duel", seed=1)).data["sides"]]
    assert [h.name.name for h in handouts] == [f"packet-duel-1-letter-{n}.pdf" for n in navies]
    sides = [title for depth, title, _ in outline(read(packet.pdf)) if depth == 0][1:3]
    assert [h.side for h in handouts] == sides
    assert all(len(read(h.pdf).pages) < len(read(packet.pdf).pages) for h in handouts)
    assert list(elsewhere.iterdir()) == [], "make_packet writes nothing"
    kinds = [kind for kind, _ in heard.said]
    assert kinds[0] == "start" and "note" not in kinds, "a seed given is not noted"
    assert ("step", "putting the pages together") in heard.said


def test_a_scenario_from_options_is_the_one_the_order_rolls(rules: Rules) -> None:
    asked = OrderOptions(ships="3", navies="British,french", year=1798)
    request = ScenarioRequest("flob", seed=7, order=asked)
    made = make_scenario(request)
    order = Order((3,), ("british", "french"), 1798, True)
    assert made.data == roll_scenario(rules, "flob", 7, order)
    assert made.units == "ships" and made.written is None
    assert [side["navy"] for side in made.data["sides"]] == ["british", "french"]


def test_an_unseeded_scenario_notes_the_seed_it_drew() -> None:
    heard = Heard()
    made = make_scenario(ScenarioRequest("tactical"), heard)
    assert ("note", f"seed {made.data['seed']}") in heard.said


def test_uneven_sides_are_a_warning_not_an_error() -> None:
    heard = Heard()
    made = make_scenario(ScenarioRequest("flob", seed=3, order=OrderOptions(ships="1,4")), heard)
    assert made.data["balance"]["balanced"] is False
    assert heard.said == [("warn", made.data["balance"]["warning"])]


def test_a_scenario_written_and_read_back_is_the_same(elsewhere: Path) -> None:
    target = elsewhere / "battle.yaml"
    written = make_scenario(ScenarioRequest("convoy", seed=2, output=target))
    assert written.written == target and target.read_text().startswith("ruleset: convoy\n")
    again = make_scenario(ScenarioRequest("convoy", from_file=target))
    assert again.data == written.data and again.written is None


def test_a_fleet_and_a_character_are_data() -> None:
    fleet = make_fleet(FleetRequest("flob", seed=3, navy="british"))
    assert fleet.data["navy"] == "british" and fleet.data["seed"] == 3
    person = make_character(CharacterRequest(seed=7))
    assert person.units == "characters" and person.data["seed"] == 7
    assert person.text(as_yaml=True).startswith("ruleset: duel\n")


def test_a_sheet_is_bytes_named_as_it_would_be_written(elsewhere: Path) -> None:
    made = make_sheet(SheetRequest("roster", ruleset="flob", seed=5))
    assert made.name == Path("output/roster-flob-5.pdf")
    assert made.pdf.startswith(b"%PDF-") and not (elsewhere / "output").exists()
    written = write_sheet(SheetRequest("roster", ruleset="flob", seed=5))
    assert (elsewhere / "output" / "roster-flob-5.pdf").read_bytes() == made.pdf == written.pdf


def test_a_sheet_from_a_fleet_file_prints_that_fleet(elsewhere: Path) -> None:
    fleet = make_fleet(FleetRequest("flob", seed=3, output=elsewhere / "ours.json"))
    made = make_sheet(SheetRequest("roster", from_file=elsewhere / "ours.json"))
    text = squeeze(flat(read(made.pdf)))
    assert all(squeeze(ship["name"]) in text for ship in fleet.data["ships"])
    assert made.name == Path("output/roster-flob.pdf")


def test_outputs_are_named_alike() -> None:
    assert output_name("packet", "flob", 7, "letter", True, True) == (
        "packet-flob-7-letter-mono-fillable.pdf"
    )
    assert output_name("flob-cards", "flob", None, "a4", False, False) == "flob-cards.pdf"


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (
            ScenarioRequest("flob", order=OrderOptions(ships="x")),
            r"^--ships x: whole numbers, e\.g\. 3 or 3,4$",
        ),
        (ScenarioRequest("flot"), r"^unknown ruleset 'flot'"),
        (
            ScenarioRequest("flob", order=OrderOptions(navies="britsh")),
            r"^--navies: unknown navy 'britsh'",
        ),
        (FleetRequest("flob", navy="frnch"), r"^--navy: unknown navy 'frnch'"),
        (FleetRequest("duel"), r"^duel has no fleets"),
        (CharacterRequest(seed=1, from_file=Path("x.yaml")), r"no --seed$"),
        (PacketRequest("flob", title=" "), rf"^--title: from 1 to {TITLE_LENGTH} characters$"),
        (PacketRequest("flob", title="x" * (TITLE_LENGTH + 1)), r"^--title: from 1 to"),
        (PacketRequest("flob", without="mapp"), r"^--without: unknown section 'mapp'"),
        (
            PacketRequest("flob", seed=3, from_file=Path("x.yaml")),
            r"^--from: the scenario is read from the file",
        ),
        (
            PacketRequest("flob", order=OrderOptions(year=1798), from_file=Path("x.yaml")),
            r"^--from: the scenario is read from the file; no --seed, --ships",
        ),
        (
            ScenarioRequest("flob", order=OrderOptions(navies="french"), sides=(Path("x.yaml"),)),
            r"^--side: the fleet files say the ships and navies",
        ),
        (SheetRequest("roster", ruleset="duel"), r"^--ruleset duel: the roster sheet serves "),
        (
            SheetRequest("ship-log", printing=PrintOptions(paper="A3")),
            r"^--paper A3: choose a4 or letter$",
        ),
    ],
)
def test_bad_requests_are_refused_in_one_line(
    request_: ScenarioRequest | FleetRequest | CharacterRequest | PacketRequest | SheetRequest,
    message: str,
) -> None:
    uses = {
        ScenarioRequest: make_scenario,
        FleetRequest: make_fleet,
        CharacterRequest: make_character,
        PacketRequest: make_packet,
        SheetRequest: make_sheet,
    }
    with pytest.raises(InputError, match=message):
        uses[type(request_)](request_)  # type: ignore[operator]


def test_a_file_that_is_not_text_is_named_for_what_it_is(elsewhere: Path) -> None:
    (elsewhere / "scan.pdf").write_bytes(b"%PDF-1.7\n")
    with pytest.raises(InputError, match=r"scan\.pdf: this is a PDF; --from takes a scenario"):
        make_scenario(ScenarioRequest("flob", from_file=elsewhere / "scan.pdf"))


def test_an_output_not_ours_is_refused_before_the_roll(elsewhere: Path) -> None:
    (elsewhere / "notes.json").write_text('{"mine": true}')
    heard = Heard()
    with pytest.raises(OutputError, match=r"notes\.json: exists and was not written by"):
        make_scenario(ScenarioRequest("flob", output=elsewhere / "notes.json"), heard)
    assert heard.said == [], "refused before any seed was drawn"


def test_any_file_a_user_hands_over_is_read_as_what_it_is(elsewhere: Path) -> None:
    make_scenario(ScenarioRequest("flob", seed=2, output=elsewhere / "battle.yaml"))
    make_fleet(FleetRequest("tactical", seed=3, output=elsewhere / "fleet.json"))
    make_character(CharacterRequest(seed=4, output=elsewhere / "hero.json"))
    read = {
        name: read_file(elsewhere / name) for name in ("battle.yaml", "fleet.json", "hero.json")
    }
    assert {name: made.kind for name, made in read.items()} == {
        "battle.yaml": "scenario",
        "fleet.json": "fleet",
        "hero.json": "character",
    }
    assert read["battle.yaml"].data["seed"] == 2 and read["hero.json"].data["seed"] == 4
    (elsewhere / "broken.yaml").write_text("ruleset: flob\nseed: 1\nsides: 7\n")
    with pytest.raises(DataError, match=r"broken\.yaml:3"):
        read_file(elsewhere / "broken.yaml")


def test_dice_rolled_and_counted_without_a_command_line() -> None:
    rolls = roll_dice("2d6+3", times=3, seed=1805)
    assert rolls.seed == 1805 and len(rolls.results) == 3
    assert rolls == roll_dice("2d6+3", times=3, seed=1805), "the same seed rolls the same"
    assert all(r.expression == "2d6+3" and 5 <= r.total <= 15 for r in rolls.results)
    odds = dice_odds("2d6")
    assert odds.chances[7] == Fraction(1, 6) and odds.mean == 7
    assert versus_odds("1d6") == {n: Fraction(1, 6) for n in range(1, 7)}
    with pytest.raises(InputError, match=r"2d6x"):
        roll_dice("2d6x")


def test_tables_and_resolvers_answered_without_a_command_line() -> None:
    cell = look_up("flob.broadside", ["attack=5", "roll=7"])
    assert cell.to_json() == look_up("flob.broadside", ["roll=7", "attack=5"]).to_json()
    assert isinstance(find_tables("flob.broadside"), Table)
    assert isinstance(find_tables("flob"), Ruleset)
    with pytest.raises(InputError, match=r"^unknown ruleset 'flb'"):
        find_tables("flb")
    flob = find_resolvers("flob").resolvers
    assert flob and all(r.ruleset == "flob" for r in flob)
    assert find_resolver("flob.broadside").resolvers[0].id == "flob.broadside"
    with pytest.raises(InputError, match=r"^unknown ruleset 'flb'"):
        find_resolvers("flb")
    request = ResolveRequest("tactical.flight-test", ("flagship=yes", "courage=1"), seed=7)
    assert resolve(request).to_json() == resolve(request).to_json()
    chances = resolve_odds(request)
    assert sum(chances.chances.values()) == 1
    with pytest.raises(InputError, match=r"bogus"):
        resolve(ResolveRequest("tactical.flight-test", ("bogus=1",)))


def test_a_batch_is_made_through_the_app(elsewhere: Path) -> None:
    heard = Heard()
    # one packet: numbering, resuming and the packets' bytes are tests/test_batch.py's
    request = BatchRequest("convoy", count=1, output=elsewhere / "con", seed=1, jobs=1)
    manifest = make_batch(request, heard)
    assert [p["index"] for p in manifest["packets"]] == [1]
    assert all((elsewhere / "con" / p["file"]).is_file() for p in manifest["packets"])
    assert heard.said[0] == ("start", ""), "a batch seed given is not noted"
    again = BatchRequest("convoy", count=1, output=elsewhere / "con", jobs=1, resume=True)
    assert make_batch(again, Listener())["seed"] == 1, "resumed with the manifest's seed"
