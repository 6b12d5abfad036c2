"""Text for the terminal and for matching: wrapping with a hanging indent, folded words."""

from __future__ import annotations

from rich.cells import cell_len

from generator.text import fold, wrap_items, wrap_text


def test_items_keep_whole_while_they_fit_and_nothing_is_left_out() -> None:
    lines = wrap_items(["alpha beta", "gamma", "delta epsilon zeta"], 20, "Key: ")
    assert lines == ["Key: alpha beta", "     gamma delta", "     epsilon zeta"]
    assert all(cell_len(line) <= 20 for line in lines)


def test_a_word_longer_than_a_line_is_split_where_the_line_ends() -> None:
    assert wrap_items(["x" * 30], 16, "", "  ") == ["x" * 14, "  " + "x" * 14, "  xx"]


def test_a_kept_name_is_not_broken_between_its_words() -> None:
    text = "The ship HMS Royal Sovereign sails far"
    assert wrap_text(text, 22, "", "  ") == ["The ship HMS Royal", "  Sovereign sails far"]
    kept = wrap_text(text, 22, "", "  ", keep=["HMS Royal Sovereign"])
    assert kept == ["The ship", "  HMS Royal Sovereign", "  sails far"]


def test_fold_ignores_case_spaces_hyphens_and_underscores() -> None:
    assert fold("Double_Round -Shot") == fold("double-round-shot") == "doubleroundshot"
