"""Dice: parsing, seeded rolling, exact odds against brute force, fuzzing, and fairness."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.dice import DiceError, distribution, mean, parse, plain_dice, roll, roll_total
from generator.dice.notation import Condition, Dice
from generator.dice.notation import dice_groups as groups_of
from tests.chisquare import fits


def brute_force(
    count: int,
    sides: int,
    keep: tuple[str, int] | None = None,
    success: Condition | None = None,
    plus: int = 0,
) -> dict[int, Fraction]:
    """Enumerate every face combination of a small dice group."""
    totals: Counter[int] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        ordered = sorted(faces, reverse=True)
        if keep is None:
            kept = list(faces)
        else:
            mode, n = keep
            if mode == "kh":
                kept = ordered[:n]
            elif mode == "kl":
                kept = ordered[::-1][:n]
            elif mode == "dh":
                kept = ordered[n:]
            else:
                kept = ordered[: len(ordered) - n]
        value = sum(success.test(f) for f in kept) if success else sum(kept)
        totals[value + plus] += 1
    whole = sides**count
    return {v: Fraction(c, whole) for v, c in totals.items()}


@pytest.mark.parametrize(
    ("expression", "count", "sides", "keep", "success", "plus"),
    [
        ("2d6", 2, 6, None, None, 0),
        ("3d6", 3, 6, None, None, 0),
        ("2d6+3", 2, 6, None, None, 3),
        ("4d6kh3", 4, 6, ("kh", 3), None, 0),
        ("4d6kh3+2", 4, 6, ("kh", 3), None, 2),
        ("4d6k3", 4, 6, ("kh", 3), None, 0),
        ("3d8kl1", 3, 8, ("kl", 1), None, 0),
        ("4d6dl1", 4, 6, ("dl", 1), None, 0),
        ("4d6dh2", 4, 6, ("dh", 2), None, 0),
        ("6d6>=5", 6, 6, None, Condition(">=", 5), 0),
        ("5d6==6", 5, 6, None, Condition("==", 6), 0),
        ("4d10<=3", 4, 10, None, Condition("<=", 3), 0),
        ("1d20<=14", 1, 20, None, Condition("<=", 14), 0),
        ("4d6kh2>=5", 4, 6, ("kh", 2), Condition(">=", 5), 0),
        ("d%", 1, 100, None, None, 0),
    ],
)
def test_exact_distribution_matches_brute_force(
    expression: str,
    count: int,
    sides: int,
    keep: tuple[str, int] | None,
    success: Condition | None,
    plus: int,
) -> None:
    assert distribution(expression) == brute_force(count, sides, keep, success, plus)


def test_arithmetic_distributions_match_brute_force() -> None:
    expected: Counter[int] = Counter()
    for a, b, c in itertools.product(range(1, 7), range(1, 7), range(1, 5)):
        expected[(a + 1) * 2 - b - c] += 1
    assert distribution("(1d6+1)*2-1d6-1d4") == {v: Fraction(n, 144) for v, n in expected.items()}
    assert distribution("2*3+4") == {10: Fraction(1)}
    assert distribution("-1d4") == {-v: Fraction(1, 4) for v in range(1, 5)}


def test_reroll_distributions() -> None:
    # re-roll 1s until not a 1: a uniform d5 on 2..6
    assert distribution("1d6r1") == {v: Fraction(1, 5) for v in range(2, 7)}
    # re-roll a 1 once: 1 only when both rolls are 1
    once = distribution("1d6ro1")
    assert once[1] == Fraction(1, 36)
    assert once[6] == Fraction(1, 6) + Fraction(1, 36)
    assert distribution("1d6r<=2") == {v: Fraction(1, 4) for v in range(3, 7)}


def test_explode_distribution_is_exact_for_the_depth_the_roller_uses() -> None:
    dist = distribution("1d6!")
    assert sum(dist.values()) == 1
    assert dist[5] == Fraction(1, 6)
    assert dist[7] == Fraction(1, 36)  # 6 then 1
    assert 6 not in dist and 12 not in dist
    assert abs(float(mean(dist)) - 4.2) < 1e-9


def test_zero_chances_are_left_out_and_totals_sum_to_one() -> None:
    for expression in ("3d6", "8d6>=5", "4d6kh3+2", "2d10-1d4", "1d8!"):
        dist = distribution(expression)
        assert sum(dist.values()) == 1
        assert all(p > 0 for p in dist.values())


def test_same_seed_same_roll() -> None:
    first = roll("4d6kh3+2", random.Random(1805))
    second = roll("4d6kh3+2", random.Random(1805))
    assert first.to_json() == second.to_json()
    others = {str(roll("4d6kh3+2", random.Random(seed)).to_json()) for seed in range(20)}
    assert len(others) > 10


def test_roll_marks_kept_dropped_and_successes() -> None:
    result = roll("4d6kh3", random.Random(3))
    kept = [d for d in result.dice() if d.kept]
    dropped = [d for d in result.dice() if not d.kept]
    assert len(kept) == 3 and len(dropped) == 1
    assert dropped[0].value <= min(d.value for d in kept)
    assert result.total == sum(d.value for d in kept)
    pool = roll("8d6>=5", random.Random(4))
    assert pool.total == sum(1 for d in pool.dice() if d.value >= 5)
    assert all(d.success == (d.value >= 5) for d in pool.dice())
    data = pool.to_json()
    assert set(data) == {"expression", "total", "dice"}
    assert data["dice"][0]["group"] == "8d6>=5"


def test_reroll_and_explode_are_recorded() -> None:
    for seed in range(200):
        result = roll("2d6r1", random.Random(seed))
        for die in result.dice():
            assert die.value != 1
            assert all(r == 1 for r in die.rerolled)
    exploded = [roll("1d6!", random.Random(s)) for s in range(300)]
    boom = [r for r in exploded if r.dice()[0].explosions]
    assert boom
    for r in boom:
        die = r.dice()[0]
        assert die.value == 6 + sum(die.explosions)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("", r"empty expression"),
        ("2d6+", r"at position 5: expected a number, 'd' or '\(', found the end"),
        ("2d", r"at position 3: expected the number of sides after 'd'"),
        ("2x6", r"at position 2: unexpected 'x'"),
        ("(2d6", r"at position 5: expected '\)'"),
        ("2d6)", r"at position 4: unexpected '\)'"),
        ("1000000d6", r"1000000 dice is too many"),
        ("2d0", r"a die needs 1 to 10000 sides, not 0"),
        ("0d6", r"roll at least one die"),
        ("3d6kh4", r"cannot kh 4 of 3 dice"),
        ("1d6r<=6", r"re-rolling <=6 would never stop"),
        ("1d1!", r"exploding on >=1 would never stop"),
        (
            "2d6>=7",
            r"at position 4: no d6 shows 7 or more: to compare the total, write \(2d6\)>=7$",
        ),
        ("3d6>=1", r"every d6 shows 1 or more: to compare the total, write \(3d6\)>=1$"),
        ("1d20+1d4>=15", r"no d4 shows 15 or more: .* write \(1d20\+1d4\)>=15$"),
        ("1d6+(2d6>=7)", r"write 1d6\+\(\(2d6\)>=7\)$"),
        ("8d6>=5>=3", r"one success condition: to compare the count, write \(8d6>=5\)>=3$"),
        ("(2d6)>=7>=1", r"compares its total once"),
        ("1d20!=1", r"'!=' is not a comparison here: to explode on a 1, write 1d20!1"),
        ("1d6!7", r"no d6 shows 7: it would never explode"),
        ("1d6r7", r"no d6 shows 7: nothing would be re-rolled"),
        ("1d6/(1d2-1)", r"at position 4: the divisor 1d2-1 can be 0"),
        ("ceil(1d6)", r"ceil\(...\) rounds a division up: write e.g. ceil\(1d6/2\)"),
        ("4dF!", r"dF takes only keep or drop"),
        ("4d6mi7", r"mi7: a d6 shows 1 to 6"),
        ("4d6mi5ma3", r"mi5 is over ma3"),
        ("3d6>=5f<=6", r"a die cannot be both a success and a failure \(a 5 would be both\)"),
        ("3d6f1", r"failures \(f\) are counted after a success condition"),
        ("(1d6)kh1", r"keep or drop needs a group of two or more rolls"),
        ("4d6kh3kl1", r"only one keep or drop"),
        ("1" * 600, r"longer than 500 characters"),
        ("99999999999d6", r"too large"),
    ],
)
def test_bad_expressions_say_what_and_where(expression: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        parse(expression)


@pytest.mark.parametrize("expression", ["1000d1000kh500", "200d6*200d6*200d6", "500d20!"])
def test_odds_too_large_are_refused_up_front(expression: str) -> None:
    with pytest.raises(DiceError, match="too"):
        distribution(expression)


def test_printed_form_parses_back_to_the_same_tree() -> None:
    for expression in (
        "4d6kh3+2",
        "8d6>=5",
        "2*(1d6+1)",
        "3d6r1",
        "2d6ro<=2",
        "1d6!",
        "1d6!>=5",
        "d%",
        "-1d4-2",
    ):
        node = parse(expression)
        assert parse(str(node)) == node


_ALPHABET = "0123456789dDkhlro!%()+-*<>= "
_TOKENS = [*"0123456789", "1", "2", "6", "d", "d", "d6", "dF", "kh", "kl", "dh", "dl", "k", "r"]
_TOKENS += ["ro", "!", "mi", "ma", "f", "%", "(", ")", "{", "}", ",", "+", "-", "*", "/", "<"]
_TOKENS += [">", "=", ">=", "<=", "==", "!=", "floor(", "ceil(", " "]


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=25) | st.lists(st.sampled_from(_TOKENS)).map("".join))
def test_parser_fuzz_raises_only_dice_errors_and_echoes_read_back(text: str) -> None:
    try:
        node = parse(text)
    except DiceError:
        return
    # the echo reads back as the same roll
    assert parse(str(node)) == node, (text, str(node))
    result = roll(node, random.Random(0))
    assert isinstance(result.total, int)
    for die in result.to_json()["dice"]:
        assert parse(die["group"]) in list(groups_of(node))


dice_groups = st.builds(
    Dice,
    count=st.integers(1, 4),
    sides=st.sampled_from([2, 3, 4, 6, 8]),
    keep=st.none() | st.tuples(st.sampled_from(["kh", "kl", "dh", "dl"]), st.integers(0, 1)),
)


@settings(max_examples=60, deadline=None)
@given(dice_groups, st.integers(-3, 3))
def test_generated_expressions_match_brute_force(group: Dice, plus: int) -> None:
    keep = group.keep if group.keep is None or group.keep[1] <= group.count else None
    if keep is not None and keep[0] in ("kh", "kl") and keep[1] == 0:
        keep = None
    node = Dice(group.count, group.sides, keep)
    expression = f"{node}{plus:+d}" if plus else str(node)
    assert distribution(expression) == brute_force(group.count, group.sides, keep, None, plus)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["4d6kh3+2", "8d6>=5", "2d6r1", "3d6!", "(1d6+2)*2"]))
def test_rolls_always_land_on_a_possible_total(seed: int, expression: str) -> None:
    assert roll(expression, random.Random(seed)).total in distribution(expression)


@pytest.mark.parametrize("expression", ["2d6", "4d6kh3", "6d6>=5", "1d20", "3d6r1"])
def test_seeded_rolls_pass_chi_square(expression: str) -> None:
    """20 000 seeded rolls against the exact distribution (alpha 0.001)."""
    n = 20_000
    rng = random.Random(20261121)
    node = parse(expression)
    observed = Counter(roll(node, rng).total for _ in range(n))
    ok, statistic, df = fits(observed, distribution(expression), n)
    assert ok, (statistic, df)


def test_plain_dice_are_read_by_the_one_parser() -> None:
    assert plain_dice("2d6") == Dice(2, 6)
    assert plain_dice("D10") == Dice(1, 10)
    assert plain_dice("d%") == Dice(1, 100)
    for expression in ("3d6+1", "4d6kh3", "8d6>=5", "2d6!"):
        with pytest.raises(DiceError, match=r"expected plain dice such as 2d6"):
            plain_dice(expression)
    with pytest.raises(DiceError, match=r"at position 1"):
        plain_dice("x")


@pytest.mark.parametrize(
    "expression",
    ["2d6", "1d6+2", "4d6kh3", "3d6kl2", "4d6dl1", "5d6dh2", "2d10-1d4", "2*d6+1", "-d6+10",
     "d%", "7",
     # not plain: rolled in full, the total taken
     "1d6!", "(2d6)>=7", "4d6r1", "dF+1", "10d10>=8f1", "(2d6, 3d4)kh1", "2d6/2"],
)  # fmt: skip
def test_a_total_alone_is_the_roll_s_and_leaves_the_dice_where_the_roll_does(
    expression: str,
) -> None:
    for seed in range(40):
        alone, full = random.Random(seed), random.Random(seed)
        assert roll_total(expression, alone) == roll(expression, full).total, (expression, seed)
        assert alone.getstate() == full.getstate()
