"""The name lists by year and sea: navies' years, era titles, dated ship names, places."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.loading import NameLists, Rules, check_files
from generator.loading.names import MIN_SHIP_NAMES


@pytest.fixture(scope="module")
def names(rules: Rules) -> NameLists:
    assert rules.names is not None
    return rules.names


def test_era_titles_follow_the_year(names: NameLists) -> None:
    assert names.navy_title("french", 1759) == "French (Marine royale)"
    assert names.navy_title("french", 1798) == "French (Marine de la République)"
    assert names.navy_title("french", 1805) == "French (Marine impériale)"
    assert names.navy_title("dutch", 1797) == "Dutch (Batavian Navy)"
    assert names.navy_title("american", 1779) == "American (Continental Navy)"
    assert names.navy_title("american", 1812) == "American (United States Navy)"
    assert names.navy_title("british", 1666) == "English (Royal Navy)"
    assert names.navy_title("british", 1798) == "British (Royal Navy)"
    # no year, or a year no era covers: the plain title
    assert names.navy_title("french") == "French"
    assert names.navy_title("american", 1790) == "American"


def test_ship_names_fit_the_year(names: NameLists) -> None:
    assert "Trafalgar" not in names.ship_names("british", 1798)
    assert "Trafalgar" in names.ship_names("british", 1822)  # launched 1820
    assert "Royal Louis" in names.ship_names("french", 1780)
    assert "Royal Louis" not in names.ship_names("french", 1798)
    assert {"Ça Ira", "Sans Culotte", "Républicain"} <= set(names.ship_names("french", 1794))
    assert not {"Ça Ira", "Sans Culotte", "Républicain"} & set(names.ship_names("french", 1780))
    assert "Constitution" not in names.ship_names("american", 1779)
    assert "Constitution" in names.ship_names("american", 1812)
    assert "Bonhomme Richard" in names.ship_names("american", 1779)
    # no year: every name, in file order, the same as the plain list the generators read
    everything = names.ship_names("french")
    assert everything == list(names.navies["french"]["ships"])
    assert everything[:3] == ["Bucentaure", "Redoutable", "Orient"]
    dated = names.ship_names("french", 1798)
    assert dated == [name for name in everything if name in set(dated)]


def test_every_navy_has_a_fleet_of_names_in_every_year(names: NameLists) -> None:
    for navy in names.navies:
        first, last = names.navy_years(navy)
        assert first <= last
        for year in range(first, last + 1):
            assert len(names.ship_names(navy, year)) >= MIN_SHIP_NAMES, (navy, year)


def test_years_of_the_navies(names: NameLists) -> None:
    assert names.navy_years("american")[0] == 1775
    assert names.navy_years("venetian")[1] == 1797
    assert names.navy_years("russian")[0] == 1700
    assert "venetian" not in names.navies_for(1798)
    assert "american" not in names.navies_for(1700)
    assert {"british", "french", "spanish", "dutch"} <= set(names.navies_for(1798))
    assert names.navies_for(None) == sorted(names.navies)
    assert names.navies_for(1798) == sorted(names.navies_for(1798))


def test_places_are_in_seas_both_navies_sailed(names: NameLists) -> None:
    found = names.places_for(["british", "french"], 1798)
    shared = set(names.seas_of("british", 1798)) & set(names.seas_of("french", 1798))
    assert found and all(names.place_seas[place] in shared for place in found)
    assert "Copenhagen Roads" not in found  # the French fleet never fought in the Baltic
    assert found == [place for place in names.places if place in set(found)]
    # Venice and Sweden shared no sea: places of either
    apart = names.places_for(["venetian", "swedish"], 1700)
    assert {names.place_seas[p] for p in apart} == {"mediterranean", "baltic", "north-sea"}
    # seas a navy sailed only for a while follow the year
    assert "mediterranean" not in names.seas_of("american", 1790)
    assert "mediterranean" in names.seas_of("american", 1804)
    with pytest.raises(KeyError):
        names.places_for(["atlantean"], 1798)


def test_places_stay_plain_names_and_every_sea_has_some(names: NameLists) -> None:
    assert all(isinstance(place, str) for place in names.places)
    assert tuple(names.place_seas) == names.places
    for sea in names.seas:
        assert sum(1 for s in names.place_seas.values() if s == sea) >= 3, sea
    for navy in names.navies:
        assert all(isinstance(ship, str) for ship in names.navies[navy]["ships"]), navy
        assert set(names.seas_of(navy)) <= set(names.seas), navy


GOOD = """\
house: true
seas: {channel: the English Channel, baltic: the Baltic}
navies:
  test:
    title: Test (Navy)
    years: [1700, 1800]
    seas: [channel, {sea: baltic, from: 1750}]
    eras:
      - {from: 1700, until: 1749, title: "Test (Old Navy)"}
    ships: [A, B, C, D, E, F, G, H, I, J, K, {name: L, from: 1700, until: 1800}]
people:
  test: {title: Test, given_male: [Al], given_female: [Bea], surnames: [Cole]}
places:
  - {name: Somewhere, sea: channel}
"""


def _problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "names.yaml"
    path.write_text(text, encoding="utf-8")
    return check_files([path])


def _at(text: str, fragment: str) -> str:
    """Return 'names.yaml:LINE:' for the first line of `text` holding `fragment`."""
    line = next(i for i, row in enumerate(text.splitlines(), 1) if fragment in row)
    return f"names.yaml:{line}:"


def test_good_names_file_has_no_problems(tmp_path: Path) -> None:
    assert _problems(tmp_path, GOOD) == []


# (old text, new text, part of the message, the text on the line the message names)
BAD = [
    ("years: [1700, 1800]", "years: [1800, 1700]", "needs 'years: [first, last]'", "years:"),
    ("years: [1700, 1800]", "years: [1700.5, 1800]", "two whole years", "years:"),
    ("seas: [channel,", "seas: [chanel,", "unknown sea 'chanel'", "chanel"),
    ("{sea: baltic, from: 1750}", "{sea: baltic, from: 1850}", "outside the navy's", "1850"),
    ("from: 1700, until: 1749", "from: 1690, until: 1749", "era 1690-1749 is outside", "1690"),
    (
        '      - {from: 1700, until: 1749, title: "Test (Old Navy)"}',
        '      - {from: 1700, until: 1749, title: "Test (Old Navy)"}\n'
        '      - {from: 1740, until: 1760, title: "Test (New Navy)"}',
        "era 1740-1760 overlaps era 1700-1749",
        "New Navy",
    ),
    ('title: "Test (Old Navy)"}', "name: old}", "an era is {from: YEAR", "name: old"),
    ("{name: L, from: 1700, until: 1800}", "{name: L, from: 1790, until: 1780}", "after", "1780"),
    ("{name: L, from: 1700, until: 1800}", "{name: L, form: 1790}", "unknown key 'form'", "form"),
    ("{name: L, from: 1700, until: 1800}", "[L]", "a ship is a name, or {name:", "[L]"),
    ("{name: L, from: 1700, until: 1800}", "{name: L, from: 1801}", "never used", "1801"),
    ("{name: L, from: 1700, until: 1800}", "{name: L, until: 1750}", "only 11 ship", "L, until"),
    ("[A, B,", "[A, A,", "'A' appears twice in test.ships", "[A, A,"),
    ("{name: Somewhere, sea: channel}", "Somewhere", "a place is {name: ...", "- Somewhere"),
    ("sea: channel}\n", "sea: moon}\n", "unknown sea 'moon'", "moon"),
    ("    ships:", "    flags: [red]\n    ships:", "unknown key 'flags'", "flags"),
    ("    ships:", "    people: tset\n    ships:", "unknown people list 'tset'", "tset"),
]


@pytest.mark.parametrize(("old", "new", "message", "where"), BAD)
def test_bad_shapes_name_file_and_line(
    tmp_path: Path, old: str, new: str, message: str, where: str
) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    problems = _problems(tmp_path, text)
    matching = [p for p in problems if message in p]
    assert len(matching) == 1, problems
    assert _at(text, where) in matching[0], matching[0]


def test_missing_vocabulary_and_years_are_reported(tmp_path: Path) -> None:
    text = GOOD.replace("seas: {channel: the English Channel, baltic: the Baltic}\n", "").replace(
        "    years: [1700, 1800]\n", ""
    )
    problems = "\n".join(_problems(tmp_path, text))
    assert "names.yaml:1: 'seas' must map each sea id to its name" in problems
    assert f"{_at(text, '  test:')} 'test' needs 'years: [first, last]'" in problems


def test_wars_say_who_fought_whom_in_a_year(names: NameLists) -> None:
    assert names.foes("british", 1798) == ["dutch", "french", "spanish"]
    assert names.allies("british", 1798) == ["portuguese"]
    assert names.foes("american", 1779) == ["british"]
    # Spain fought Britain beside France from 1779, never as the United States' ally
    assert names.allies("american", 1779) == ["french"]
    assert names.foes("british", 1768) == []  # between the Seven Years' War and 1775
    for _, first, last, one, other in names.wars:
        for year in (first, last):
            for navy in one:
                assert set(other) <= set(names.foes(navy, year))
                assert year in range(names.navy_years(navy)[0], names.navy_years(navy)[1] + 1)


WARS = GOOD.replace(
    "people:\n",
    "  rival:\n"
    "    title: Rival\n"
    "    years: [1750, 1800]\n"
    "    seas: [channel]\n"
    "    people: test\n"
    "    ships: [M, N, O, P, Q, R, S, T, U, V, W, X]\n"
    "people:\n",
) + (
    "wars:\n"
    "  house: true\n"
    "  note: From well-known history.\n"
    "  list:\n"
    "    - {name: The War, from: 1760, until: 1770, sides: [[test], [rival]]}\n"
)


def test_a_good_wars_list_has_no_problems(tmp_path: Path) -> None:
    assert _problems(tmp_path, WARS) == []


def test_a_navy_is_named_from_a_people_list(tmp_path: Path, names: NameLists) -> None:
    """A navy's officers and crews are named from the people list of its id, or the one
    its ``people`` names; a navy with neither is refused when the lists load."""
    assert names.people_of("french") == "french"
    assert names.people_of("venetian") == "italian"
    assert names.people_of("pirate") == "british"
    text = WARS.replace("    people: test\n", "", 1)
    problems = _problems(tmp_path, text)
    assert [p.split("/")[-1] for p in problems] == [
        f"{_at(text, '  rival:')} 'rival' has no people list of its own: say which crews it "
        "('people: ...', one of test)"
    ]


SIDES = "sides: [[test], [rival]]"
YEARS = "from: 1760, until: 1770"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (SIDES, "sides: [[test], [rivals]]", "unknown navy 'rivals'"),
        (SIDES, "sides: [[test], [rival, test]]", "a navy is on both sides"),
        (SIDES, "sides: [[test]]", "'sides' is two non-empty lists of navy ids"),
        (YEARS, "from: 1740, until: 1770", "'rival' sails 1750-1800, not all of 1740-1770"),
        (YEARS, "from: 1770, until: 1760", "'from' 1770 is after 'until' 1760"),
        (YEARS, "until: 1770", "a war is {name, from: YEAR, until: YEAR, sides"),
        (YEARS, "from: null, until: 1770", "a war needs both 'from' and 'until' years"),
        ("name: The War,", "name: '',", "a war's name must be text"),
    ],
)
def test_a_bad_war_names_file_and_line(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in WARS
    text = WARS.replace(old, new, 1)
    problems = _problems(tmp_path, text)
    matching = [p for p in problems if message in p]
    assert len(matching) == 1, problems
    assert _at(text, "sides: [[") in matching[0], matching[0]
