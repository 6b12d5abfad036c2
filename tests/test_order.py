"""Fleets and scenarios to order: ships a side, navies, the year, fair sides, fleet files
as sides, files of the wrong kind, and batches with distinct titles (no PDF rendered)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.app.printed import batch_plan
from generator.errors import InputError
from generator.generate.base import get_generator
from generator.generate.scenario import (
    Order,
    check_order,
    dump,
    read_force,
    read_scenario,
    roll_force,
    roll_scenario,
    scenario_from_sides,
)
from generator.loading import Rules
from generator.pdf.batch import BatchOptions
from generator.rulesets import ruleset_ids

SHIP_RULESETS = [r for r in ruleset_ids() if r != "duel"]


def ships(side: dict[str, Any]) -> int:
    return len(side["ships"])


@pytest.mark.parametrize("ruleset", SHIP_RULESETS)
def test_ships_a_side_as_asked(rules: Rules, ruleset: str) -> None:
    for seed in range(6):
        even = roll_scenario(rules, ruleset, seed, Order(ships=(3,)))
        uneven = roll_scenario(rules, ruleset, seed, Order(ships=(2, 5)))
        for scenario, sizes in ((even, (3, 3)), (uneven, (2, 5))):
            for side, size in zip(scenario["sides"], sizes, strict=True):
                if ruleset == "tactical" and side["admiral"]["result"] == "Diplomat":
                    # the Diplomat still adds half as many again, as allies
                    assert ships(side) == size * 12 // 8
                    assert sum(s["ally"] for s in side["ships"]) == ships(side) // 2
                else:
                    assert ships(side) == size, (ruleset, seed, side["name"])


def test_tactical_says_when_it_departs_from_the_rules_size(rules: Rules) -> None:
    asked = roll_scenario(rules, "tactical", 4, Order(ships=(3,)))
    assert asked["setup"][0] == (
        "Each fleet has 3 ships, not the 8 of the rules' Basic Scenario (a Diplomat admiral "
        "still adds half as many again, as allies)."
    )
    uneven = roll_scenario(rules, "tactical", 4, Order(ships=(3, 4), balanced=False))
    first, second = (side["name"] for side in uneven["sides"])
    assert uneven["setup"][0].startswith(f"The {first} has 3 ships and the {second} 4, not the 8")
    default = roll_scenario(rules, "tactical", 4, Order(ships=(8,)))
    assert "Basic Scenario" not in default["setup"][0]


def test_a_convoy_of_the_size_asked_keeps_an_escort(rules: Rules) -> None:
    scenario = roll_scenario(rules, "convoy", 1, Order(ships=(5, 2)))
    convoy, raiders = scenario["sides"]
    kinds = [ship["kind"] for ship in convoy["ships"]]
    assert len(kinds) == 5 and "warship" in kinds and "merchant" in kinds
    assert convoy["composition"]["result"].endswith(("escort", "escorts"))
    assert [ship["kind"] for ship in raiders["ships"]] == ["warship", "warship"]


@pytest.mark.parametrize("ruleset", list(ruleset_ids()))
def test_navies_and_year_as_asked(rules: Rules, ruleset: str) -> None:
    assert rules.names is not None
    scenario = roll_scenario(rules, ruleset, 2, Order(navies=("british", "french"), year=1798))
    assert [side["navy"] for side in scenario["sides"]] == ["british", "french"]
    assert scenario["year"] == 1798
    one = roll_scenario(rules, ruleset, 2, Order(navies=("spanish",)))
    assert one["sides"][0]["navy"] == "spanish" and one["sides"][1]["navy"] != "spanish"
    if ruleset == "duel":
        return
    # every ship's name is one a ship of that navy could bear in 1798 (high seas names
    # merchantmen and pirates from their own lists)
    for side in scenario["sides"]:
        lists = [rules.names.ship_names(n, 1798) for n in (side["navy"], "merchant", "pirate")]
        for ship in side["ships"]:
            fits = rules.names.ship_names(ship.get("navy", side["navy"]), 1798)
            if ruleset == "high-seas":
                fits = [name for names in lists for name in names]
            assert ship["name"] in fits or ship["name"].rsplit(" ", 1)[0] in fits, ship["name"]
    title = rules.names.navy_title("french", 1798)
    assert scenario["sides"][1]["name"].startswith(title.split(" (")[0])


def test_the_flob_year_is_the_one_asked(rules: Rules) -> None:
    scenario = roll_scenario(rules, "flob", 3, Order(year=1798))
    assert scenario["title"].endswith(", 1798")
    assert any("The year is 1798" in line for line in scenario["special_rules"])


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (
            Order(navies=("prussian",)),
            "--navies: unknown navy 'prussian': did you mean 'russian'? (tactical fields: ",
        ),
        (Order(ships=(0,)), "--ships 0: from 1 to 16 a side"),
        (Order(ships=(3, 4, 5)), "--ships 3,4,5: one number, or two for uneven sides"),
        (Order(year=1500), "--year 1500: tactical is played from "),
        (Order(navies=("french", "french")), "the two sides need two navies"),
    ],
)
def test_an_order_the_rules_cannot_meet_is_one_line(
    rules: Rules, order: Order, message: str
) -> None:
    with pytest.raises(InputError) as caught:
        roll_scenario(rules, "tactical", 1, order)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_navy_that_did_not_sail_that_year_is_refused(rules: Rules) -> None:
    with pytest.raises(InputError, match=r"--navies american: flob fields .* in 1760$"):
        roll_scenario(rules, "flob", 1, Order(navies=("american",), year=1760))
    with pytest.raises(InputError, match="a duel side is one duellist; --ships does not apply"):
        roll_scenario(rules, "duel", 1, Order(ships=(2,)))


def test_a_navy_is_checked_in_one_place_naming_the_option_as_typed(rules: Rules) -> None:
    """`check_order` refuses a navy before the rest of the order, in the words of the
    option it was typed as (`--navy` for one fleet), with the nearest the ruleset fields;
    a year the ruleset is not played in is said first."""
    with pytest.raises(InputError, match=r"^--navy: unknown navy 'frnch': did you mean 'french'"):
        check_order(rules, "flob", Order(ships=(99,), navies=("frnch",)), "--navy")
    with pytest.raises(InputError, match=r"^--navy american: flob fields british, .* in 1760$"):
        check_order(rules, "flob", Order(navies=("american",), year=1760), "--navy")
    with pytest.raises(InputError, match=r"^--year 1060: flob is played from"):
        check_order(rules, "flob", Order(navies=("frnch",), year=1060))
    with pytest.raises(InputError, match=r"^--navies: unknown navy 'frnch'.* \(duel fields: "):
        check_order(rules, "duel", Order(navies=("frnch",)))


@pytest.mark.parametrize("ruleset", list(ruleset_ids()))
def test_sides_are_fair_by_default_and_repeatable(rules: Rules, ruleset: str) -> None:
    gen = get_generator(ruleset)
    fair = 0
    for seed in range(8):
        scenario = roll_scenario(rules, ruleset, seed, Order())
        low, high = sorted(gen.strength(side) for side in scenario["sides"])
        fair += low >= 0.9 * high
        assert scenario["balance"]["balanced"] == (low >= 0.9 * high)
        assert scenario["options"] == {"balanced": True}
    assert fair == 8, ruleset
    assert roll_scenario(rules, ruleset, 5, Order()) == roll_scenario(rules, ruleset, 5, Order())
    raw = roll_scenario(rules, ruleset, 5, Order(balanced=False))
    assert raw["balance"]["attempt"] == 1


def write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(dump(data, "yaml"), encoding="utf-8")
    return path


def test_a_scenario_from_two_edited_fleet_files(rules: Rules, tmp_path: Path) -> None:
    british = roll_force(rules, "flob", 1, Order(ships=(3,), navies=("british",), year=1798))
    french = roll_force(rules, "flob", 2, Order(ships=(4,), navies=("french",), year=1798))
    british["ships"][0]["name"] = "Bellerophon"
    paths = [write(tmp_path / "british.yaml", british), write(tmp_path / "french.yaml", french)]
    scenario = scenario_from_sides(rules, "flob", paths, seed=7)
    assert [side["navy"] for side in scenario["sides"]] == ["british", "french"]
    assert scenario["sides"][0]["ships"][0]["name"] == "Bellerophon"
    assert [len(side["ships"]) for side in scenario["sides"]] == [3, 4]
    assert scenario["year"] == 1798 and scenario["title"].endswith("1798")
    assert len(scenario["balance"]["strengths"]) == 2
    # one file: the other side is rolled, as many ships, another navy
    alone = scenario_from_sides(rules, "flob", paths[:1], seed=7)
    assert len(alone["sides"][1]["ships"]) == 3 and alone["sides"][1]["navy"] != "british"
    # what it makes reads back as a scenario
    assert read_scenario(write(tmp_path / "s.yaml", scenario), rules, "flob")["seed"] == 7


@pytest.mark.parametrize(
    ("kind", "reader", "message"),
    [
        (
            "fleet",
            lambda p, r: read_scenario(p, r, "tactical"),
            "this is a tactical fleet; --from needs a tactical scenario "
            "(make one with 'quartermaster scenario tactical -o FILE.yaml')",
        ),
        (
            "scenario",
            lambda p, r: read_force(p, r, "tactical", option="--side"),
            "this is a tactical scenario; --side needs a tactical fleet "
            "(make one with 'quartermaster fleet tactical -o FILE.yaml')",
        ),
        (
            "character",
            lambda p, r: read_force(p, r, "tactical"),
            "this is a duel character; --from needs a tactical fleet",
        ),
        (
            "house",
            lambda p, r: read_scenario(p, r, "tactical"),
            "this is a house-rules file (give it with --rules); --from needs a tactical scenario",
        ),
        (
            "flob fleet",
            lambda p, r: read_force(p, r, "tactical"),
            "this is a flob fleet; --from needs a tactical fleet",
        ),
    ],
)
def test_a_file_of_the_wrong_kind_is_one_line(
    rules: Rules, tmp_path: Path, kind: str, reader: Any, message: str
) -> None:
    made = {
        "fleet": lambda: roll_force(rules, "tactical", 1),
        "scenario": lambda: roll_scenario(rules, "tactical", 1),
        "character": lambda: get_generator("duel").roll_character(rules, 1),
        "house": lambda: {"tactical": {"broadside": {"title": "x"}}},
        "flob fleet": lambda: roll_force(rules, "flob", 1),
    }[kind]()
    path = write(tmp_path / "file.yaml", made)
    with pytest.raises(InputError) as caught:
        reader(path, rules)
    assert str(caught.value) == f"{path}: {message}" or message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_batch_has_distinct_titles_mixes_rulesets_and_says_how_to_remake(
    rules: Rules,
) -> None:
    options = BatchOptions(
        rulesets=("tactical", "flob"),
        seed=2026,
        count=40,
        ships=(3,),
        navies=("british",),
        without=("map",),
        spares=2,
    )
    scenarios = batch_plan(rules, options)
    titles = [s["title"] for s in scenarios]
    assert len(set(titles)) == len(titles)
    assert [s["ruleset"] for s in scenarios[:4]] == ["tactical", "flob", "tactical", "flob"]
    assert all(s["sides"][0]["navy"] == "british" for s in scenarios)
    assert batch_plan(rules, options) == scenarios, "the same options give the same batch"
    command = options.command("flob", 5, "Action off Ushant II")
    assert command == (
        "quartermaster packet flob --seed 5 --ships 3 --navies british --without map "
        "--spares 2 --title 'Action off Ushant II'"
    )


def test_a_gms_tuesday_night_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """British against French, three ships a side, 1798, no map (the club has a mat), two
    spare logs, and a handout per side named by navy with only that side's sheets."""
    from tests.conftest import run
    from tests.pdfs import outline, read

    target = tmp_path / "tuesday.pdf"
    code, out, err = run(
        capsys, "packet", "flob", "--seed", "3", "--ships", "3", "--navies", "british,french",
        "--year", "1798", "--without", "map", "--spares", "2", "--handouts", "-o", str(target),
    )  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[1:] == [
        f"wrote {tmp_path / 'tuesday-british.pdf'} (British (Royal Navy) squadron)",
        f"wrote {tmp_path / 'tuesday-french.pdf'} (French (Marine de la République) squadron)",
    ]
    whole = read(target.read_bytes())
    top = [title for depth, title, _ in outline(whole) if depth == 0]
    assert top[0].endswith(", 1798")
    assert "Scenario map" not in top and top.count("Spare: Ship's log 1") == 1
    assert "Spare: Ship's log 2" in top and "Notes for the GM" in top
    text = whole.pages[0].extract_text()
    assert "1798" in text
    for navy, side in (("british", 0), ("french", 1)):
        handout = read((tmp_path / f"tuesday-{navy}.pdf").read_bytes())
        sections = [title for depth, title, _ in outline(handout) if depth == 0]
        assert sections == [top[0], top[1 + side], "Quick reference"]
        assert len(handout.pages) < len(whole.pages) / 2


def test_a_fleet_edited_and_printed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tests.conftest import run
    from tests.pdfs import read

    fleet = tmp_path / "british.yaml"
    code, _, err = run(
        capsys, "fleet", "impulse", "--ships", "2", "--navy", "british", "--seed", "4",
        "-o", str(fleet),
    )  # fmt: skip
    assert code == 0, err
    text = fleet.read_text(encoding="utf-8")
    first = text.split("\n- name: ", 1)[1].split("\n", 1)[0]
    fleet.write_text(text.replace(f"- name: {first}", "- name: Indefatigable"), encoding="utf-8")
    roster = tmp_path / "roster.pdf"
    code, _, err = run(capsys, "sheet", "roster", "--from", str(fleet), "-o", str(roster))
    assert code == 0, err
    assert "Indefatigable" in read(roster.read_bytes()).pages[0].extract_text()
    for kind in ("ship-log", "counters"):
        sheet = tmp_path / f"{kind}.pdf"
        code, _, err = run(capsys, "sheet", kind, "--from", str(fleet), "-o", str(sheet))
        assert code == 0, err
        text = " ".join(page.extract_text() for page in read(sheet.read_bytes()).pages)
        assert "Indefatigable" in text, kind
    code, out, err = run(
        capsys, "scenario", "impulse", "--side", str(fleet), "--seed", "1", "--json"
    )
    assert code == 0, err
    assert '"name": "Indefatigable"' in out
    # a fleet where a scenario is wanted: one line, what it is and how to make one
    code, _, err = run(capsys, "packet", "impulse", "--from", str(fleet))
    assert code == 2
    assert err == (
        f"error: {fleet}: this is an impulse fleet; --from needs an impulse scenario "
        "(make one with 'quartermaster scenario impulse -o FILE.yaml')\n"
    )


@pytest.mark.parametrize("ruleset", ["tactical", "flob"])
def test_a_cover_without_the_map_does_not_promise_its_pages(rules: Rules, ruleset: str) -> None:
    """--without map, and every side's handout: the cover's overview outlines no printed
    pages and says the map is not among these pages."""
    from generator.render.kinds.briefing import overview

    scenario = roll_scenario(rules, ruleset, 3)
    printed = overview({**scenario, "printing": {"kinds": ["briefing", "map"]}}, "a4")
    left_out = overview({**scenario, "printing": {"kinds": ["briefing", "roster"]}}, "a4")
    assert printed is not None and left_out is not None
    assert "not printed" not in printed["caption"]
    assert "the map is not printed with these pages" in left_out["caption"].casefold()
    assert left_out["tiles"] == []
    assert ruleset == "flob" or printed["tiles"]


def test_sides_that_cannot_be_balanced_are_said_so(
    rules: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    """`scenario flob --seed 4 --ships 2,6` ended 60 v 98 with nothing said."""
    from generator.render.kinds.briefing import context
    from generator.render.sheets import render_sheet
    from generator.ruleset.scenario import balance_warning
    from tests.conftest import run
    from tests.pdfs import flat, read

    scenario = roll_scenario(rules, "flob", 4, Order(ships=(2, 6)))
    balance = scenario["balance"]
    assert balance["balanced"] is False and balance["rolls"] == 200
    first, second = (side["name"] for side in scenario["sides"])
    one, other = (f"{s:g}" for s in balance["strengths"])
    assert balance_warning(scenario) == (
        f"Uneven sides: {first} has strength {one} and {second} {other}, more than 10 % "
        "apart; 2 ships were asked against 6, and none of 200 rolls came closer."
    )
    assert context(rules, scenario, "a4", None)["uneven"] == balance_warning(scenario)
    printed = flat(read(render_sheet("briefing", rules, data=scenario)))
    assert " ".join(str(balance_warning(scenario)).split()) in printed
    code, out, err = run(capsys, "scenario", "flob", "--seed", "4", "--ships", "2,6")
    assert code == 0 and out
    assert err == f"warning: {balance_warning(scenario)}\n"
    # fair sides, or sides asked unfair (--unbalanced), say nothing
    assert balance_warning(roll_scenario(rules, "flob", 4, Order(ships=(4,)))) is None
    assert balance_warning(roll_scenario(rules, "flob", 4, Order((2, 6), balanced=False))) is None
    code, _, err = run(capsys, "scenario", "flob", "--seed", "4", "--ships", "2,6", "--unbalanced")
    assert code == 0 and err == ""


@pytest.mark.parametrize("ruleset", SHIP_RULESETS)
def test_the_side_rolled_against_a_given_fleet_matches_its_strength(
    rules: Rules, ruleset: str, tmp_path: Path
) -> None:
    """`scenario impulse --side FLEET` rolled the other side blind (145 v 85)."""
    gen = get_generator(ruleset)
    fair = 0
    for seed in range(5):
        fleet = write(tmp_path / f"{seed}.yaml", roll_force(rules, ruleset, seed))
        scenario = scenario_from_sides(rules, ruleset, [fleet], seed=seed + 10)
        given, rolled = (gen.strength(side) for side in scenario["sides"])
        fair += min(given, rolled) >= 0.9 * max(given, rolled)
        assert scenario["balance"]["balanced"] == ("warning" not in scenario["balance"])
        assert scenario == scenario_from_sides(rules, ruleset, [fleet], seed=seed + 10)
    assert fair == 5, ruleset


def test_two_given_fleets_that_are_uneven_are_said_so(rules: Rules, tmp_path: Path) -> None:
    small = roll_force(rules, "flob", 1, Order(ships=(1,), navies=("british",), year=1798))
    large = roll_force(rules, "flob", 2, Order(ships=(7,), navies=("french",), year=1798))
    paths = [write(tmp_path / "small.yaml", small), write(tmp_path / "large.yaml", large)]
    scenario = scenario_from_sides(rules, "flob", paths, seed=7)
    assert scenario["balance"]["warning"].endswith(
        "more than 10 % apart; both fleets were given as they are."
    )
    kept = scenario_from_sides(rules, "flob", paths, seed=7, balanced=False)
    assert "warning" not in kept["balance"]


def test_a_given_fleet_no_roll_can_match_is_said_so(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One ship with the most of every rating (the GM's override): no rolled ship meets
    her, and the scenario, the command line and the briefing say so."""
    from generator.schema.tactical import rating_spans
    from tests.conftest import run

    fleet = roll_force(rules, "tactical", 1, Order(ships=(1,)))
    ship = fleet["ships"][0]
    ship["ratings"] = {name: high for name, (_, high) in rating_spans(rules).items()}
    ship["override"] = list(ship["ratings"])
    path = write(tmp_path / "strong.yaml", fleet)
    scenario = scenario_from_sides(rules, "tactical", [path], seed=3)
    warning = scenario["balance"]["warning"]
    assert warning.startswith(f"Uneven sides: {fleet['name']} has strength ")
    assert warning.endswith("none of 200 rolls of the other side came closer.")
    code, _, err = run(capsys, "scenario", "tactical", "--side", str(path), "--seed", "3")
    assert code == 0 and err == f"warning: {warning}\n"
