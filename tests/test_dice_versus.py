"""`odds A --vs B`: the chance one roll beats, ties or loses to another against brute
force, the bar-chart data, and the command's text and JSON (in a play session too)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from generator.dice import distribution
from generator.dice.show import percent_text
from generator.dice.versus import Bar, Versus, bars, versus, vs_distribution
from generator.errors import InputError
from generator.loading import Rules
from generator.play import PlaySession
from tests.conftest import run


def rolls(dice: int, sides: int, plus: int = 0, keep: int | None = None) -> list[int]:
    """Every way `dice` dice of `sides` fall (keeping the highest `keep`), as totals."""
    totals = []
    for faces in itertools.product(range(1, sides + 1), repeat=dice):
        kept = sorted(faces, reverse=True)[:keep] if keep else faces
        totals.append(sum(kept) + plus)
    return totals


def brute_versus(a: list[int], b: list[int]) -> Versus:
    """Compare every pair of equally likely rolls."""
    signs = Counter((x > y) - (x < y) for x, y in itertools.product(a, b))
    whole = len(a) * len(b)
    return Versus(
        beats=Fraction(signs[1], whole),
        ties=Fraction(signs[0], whole),
        loses=Fraction(signs[-1], whole),
    )


@pytest.mark.parametrize(
    ("a", "a_rolls", "b", "b_rolls"),
    [
        ("1d20+5", rolls(1, 20, 5), "1d20+3", rolls(1, 20, 3)),
        ("2d6", rolls(2, 6), "1d12", rolls(1, 12)),
        ("1d12", rolls(1, 12), "2d6", rolls(2, 6)),
        ("3d6", rolls(3, 6), "3d6", rolls(3, 6)),
        ("1d6", rolls(1, 6), "7", [7]),
        ("7", [7], "1d6", rolls(1, 6)),
        ("1d4", rolls(1, 4), "1d6", rolls(1, 6)),
        ("4d6kh3", rolls(4, 6, keep=3), "3d6", rolls(3, 6)),
        ("1d6-4", rolls(1, 6, -4), "1d4-2", rolls(1, 4, -2)),
        ("1d100", rolls(1, 100), "1d10*10", [10 * x for x in rolls(1, 10)]),
    ],
)
def test_versus_matches_every_pair_of_rolls(
    a: str, a_rolls: list[int], b: str, b_rolls: list[int]
) -> None:
    result = versus(distribution(a), distribution(b))
    assert result == brute_versus(a_rolls, b_rolls)
    assert result.beats + result.ties + result.loses == 1


def test_equal_sides_beat_as_often_as_they_lose() -> None:
    result = versus(distribution("3d6"), distribution("3d6"))
    assert result.beats == result.loses
    assert result.ties == Fraction(sum(c * c for c in Counter(rolls(3, 6)).values()), 216**2)


def test_a_constant_never_beaten_never_beats() -> None:
    assert versus(distribution("1d6"), distribution("7")) == Versus(
        Fraction(0), Fraction(0), Fraction(1)
    )
    assert versus(distribution("7"), distribution("1d6")) == Versus(
        Fraction(1), Fraction(0), Fraction(0)
    )


def test_the_largest_pools_answer() -> None:
    dist = distribution("1d10000")
    assert versus(dist, dist) == Versus(
        Fraction(9999, 20000), Fraction(1, 10000), Fraction(9999, 20000)
    )


# --- bar chart data -----------------------------------------------------------------


def test_bars_of_2d6() -> None:
    ways = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]  # of 36, for the totals 2 to 12
    chart = bars(distribution("2d6"))
    assert [bar.total for bar in chart] == list(range(2, 13))
    assert [bar.chance for bar in chart] == [Fraction(w, 36) for w in ways]
    assert [bar.height for bar in chart] == [Fraction(w, 6) for w in ways]
    assert [bar.at_least for bar in chart] == [Fraction(sum(ways[i:]), 36) for i in range(11)]
    assert [bar.at_most for bar in chart] == [Fraction(sum(ways[: i + 1]), 36) for i in range(11)]
    assert chart[5] == Bar(
        total=7,
        chance=Fraction(1, 6),
        at_least=Fraction(21, 36),
        at_most=Fraction(21, 36),
        height=Fraction(1),
    )


def test_bars_are_lowest_first_and_every_tallest_bar_is_1() -> None:
    chart = bars({3: Fraction(1, 4), -2: Fraction(1, 2), 0: Fraction(1, 4)})
    assert [(bar.total, bar.height) for bar in chart] == [
        (-2, Fraction(1)),
        (0, Fraction(1, 2)),
        (3, Fraction(1, 2)),
    ]
    assert [bar.height for bar in bars(distribution("1d6"))] == [Fraction(1)] * 6


def test_an_empty_distribution_is_refused() -> None:
    with pytest.raises(ValueError, match="a distribution with no totals"):
        bars({})
    with pytest.raises(ValueError, match="a distribution with no totals"):
        versus({}, distribution("1d6"))


# --- the command --------------------------------------------------------------------


def test_odds_vs_reads_like_this(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run(capsys, "odds", "1d20+5", "--vs", "1d20+3")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "1d20+5 (mean 15.5) vs 1d20+3 (mean 13.5)",
        "beats   57.25%  229/400",
        "ties     4.50%  9/200",
        "loses   38.25%  153/400",
    ]


def test_no_chance_at_all_is_0_not_under_a_hundredth(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    _, out, _ = run(capsys, "odds", "1d6", "--vs", "7")
    assert out.splitlines()[1:] == [
        "beats    0.00%  0/1",
        "ties     0.00%  0/1",
        "loses  100.00%  1/1",
    ]
    assert percent_text(0, 36) == "0.00"
    assert percent_text(1, 36_000) == "<0.01"


def exact_chances(text: str) -> list[Fraction]:
    """Return the exact chances of beats, ties and loses, their folded lines joined."""
    rows: list[str] = []
    for line in text.splitlines():
        if line.startswith(("beats", "ties", "loses")):
            rows.append(line.split()[2])
        elif rows and line.startswith(" "):
            rows[-1] += line.strip()
    return [Fraction(row) for row in rows]


@pytest.mark.parametrize("width", [80, 40, 30])
def test_long_fractions_fold_and_nothing_is_cut(
    width: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, _ = run(capsys, "odds", "10d10", "--vs", "10d10+1")
    assert code == 0
    assert all(len(line) <= width for line in out.splitlines()), out
    assert "…" not in out
    result = versus(distribution("10d10"), distribution("10d10+1"))
    assert exact_chances(out) == [result.beats, result.ties, result.loses]
    # the denominator starts its own line when the fraction is folded
    assert ("\n                /5000000000000" in out) == (width < 60)


def test_a_long_heading_gives_each_side_a_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    _, out, _ = run(capsys, "odds", "4d6kh3", "+", "2", "--vs", "3d6 + 3")
    assert out.splitlines()[:2] == ["4d6kh3 + 2 (mean 14.24)", "vs 3d6 + 3 (mean 13.5)"]


def test_odds_vs_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "(2d6)", "--vs", "2d6+1", "--json")
    assert code == 0
    data = json.loads(out)
    expected = brute_versus(rolls(2, 6), rolls(2, 6, 1))
    assert list(data) == ["expression", "vs", "beats", "ties", "loses", "sides"]
    assert (data["expression"], data["vs"]) == ("(2d6)", "2d6+1")
    assert [Fraction(data[k]) for k in ("beats", "ties", "loses")] == [
        expected.beats,
        expected.ties,
        expected.loses,
    ]
    assert data["beats"] == "145/432"  # reduced, as odds --json writes chances
    first, second = data["sides"]
    assert (first["expression"], first["mean"]) == ("(2d6)", "7")
    assert (second["expression"], second["mean"]) == ("2d6+1", "8")
    assert second["outcomes"] == {
        str(total): f"{Fraction(count, 36).numerator}/{Fraction(count, 36).denominator}"
        for total, count in sorted(Counter(rolls(2, 6, 1)).items())
    }
    _, plain, _ = run(capsys, "odds", "(2d6)", "--json")
    assert json.loads(plain) == first


def test_the_largest_pools_answer_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "1d10000", "--vs", "1d10000", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["beats"], data["ties"], data["loses"]) == ("9999/20000", "1/10000", "9999/20000")


def test_a_bad_vs_expression_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "2d6", "--vs", "2x6")
    assert (code, out) == (2, "")
    assert err == "error: --vs: dice expression '2x6' at position 2: unexpected 'x'\n"
    code, out, err = run(capsys, "odds", "2x6", "--vs", "2d6", "--json")
    assert (code, out) == (2, "")
    assert err == "error: dice expression '2x6' at position 2: unexpected 'x'\n"


def test_an_unquoted_comparison_after_vs_is_caught(tmp_path: Path) -> None:
    # odds '1d20<=14' --vs 1d6>=5: the shell runs 'odds ... --vs 1d6' into a file named =5
    target = tmp_path / "=5"
    with target.open("w") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "generator", "odds", "1d20<=14", "--vs", "1d6"],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            cwd=tmp_path,
        )
    assert done.returncode == 2
    assert done.stderr == (
        "error: the shell read '>=5' as 'write to the file =5': quote the expression, "
        "e.g. quartermaster odds '1d20<=14' --vs '1d6>=5' (the empty file '=5' the shell "
        "made was removed)\n"
    )
    assert not target.exists()


def test_help_says_what_vs_does(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--help")
    assert code == 0
    assert "--vs EXPRESSION" in out
    assert "rolls higher (beats), the same (ties) or lower (loses)" in " ".join(out.split())


# --- in a play session --------------------------------------------------------------


def test_odds_vs_in_a_play_session(rules: Rules, tmp_path: Path) -> None:
    play = PlaySession(rules, "tactical", 11, tmp_path, columns=80)
    reply = play.handle("odds 1d20 + 5 --vs 1d20 + 3")
    assert reply == "\n".join(
        [
            "[1] odds 1d20 + 5 --vs 1d20 + 3",
            "    1d20 + 5 (mean 15.5) vs 1d20 + 3 (mean 13.5)",
            "    beats   57.25%  229/400",
            "    ties     4.50%  9/200",
            "    loses   38.25%  153/400",
        ]
    )
    (entry,) = json.loads(play.log_paths[1].read_text())["entries"]
    assert entry["result"]["vs"] == "1d20 + 3"
    assert entry["result"]["beats"] == "229/400"
    error = play.handle("odds 2d6 --vs 2x6")
    assert error == "error: --vs: dice expression '2x6' at position 2: unexpected 'x'"
    assert len(play.entries) == 1


def test_a_bad_vs_is_an_input_error_naming_the_option() -> None:
    with pytest.raises(InputError, match=r"^--vs: dice expression '': "):
        vs_distribution("")
    assert vs_distribution("1d4") == distribution("1d4")
