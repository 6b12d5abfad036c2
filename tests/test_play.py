"""The play session: short resolver calls, repeat, undo, errors, and the dated logs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.loading import Rules
from generator.play import PlaySession


def session(rules: Rules, tmp_path: Path, seed: int = 11) -> PlaySession:
    return PlaySession(rules, "tactical", seed, tmp_path)


def test_resolver_calls_are_logged_as_text_and_json(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    reply = play.handle("flight-test ally=yes")
    assert "Flight test" in reply and "→" in reply
    text_path, json_path = play.log_paths
    assert text_path.name.startswith("play-tactical-") and text_path.suffix == ".txt"
    data = json.loads(json_path.read_text())
    assert data["seed"] == 11
    (entry,) = data["entries"]
    assert entry["command"] == "flight-test ally=yes"
    assert entry["result"]["resolver"] == "tactical.flight-test"
    assert entry["result"]["inputs"]["ally"] is True
    assert "> flight-test ally=yes" in text_path.read_text()


def test_again_repeats_with_new_dice_and_undo_removes(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    play.handle("roll 4d6kh3")
    play.handle("again")
    play.handle("again")
    assert [e.command for e in play.entries] == ["roll 4d6kh3"] * 3
    assert len({e.seed for e in play.entries}) == 3
    assert play.handle("undo") == "undone: roll 4d6kh3"
    assert len(json.loads(play.log_paths[1].read_text())["entries"]) == 2


def test_the_session_seed_repeats_the_whole_session(rules: Rules, tmp_path: Path) -> None:
    lines = ["flight-test", "roll 3d6", "again", "flight-test courage=1"]
    first, second = session(rules, tmp_path / "a"), session(rules, tmp_path / "b")
    assert [first.handle(x) for x in lines] == [second.handle(x) for x in lines]


def test_odds_lookup_and_dice_odds(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    assert "1/1" in play.handle("odds flight-test flagship=yes")
    assert "4/9" in play.handle("odds 2d6>=5")
    assert play.handle("lookup wind roll=4") == "Wind Direction: NE"


def test_errors_are_replies_not_crashes(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    assert play.handle("bogus x=1").startswith("error: unknown resolver 'tactical.bogus'")
    assert (
        play.handle("flight-test courage=z")
        == "error: tactical.flight-test: courage=z: expected a whole number"
    )
    assert play.handle("roll 2d6+").startswith("error: dice expression '2d6+'")
    assert play.handle('roll "2d6').startswith("error: cannot read the line")
    assert play.handle("undo") == "nothing to undo"
    assert play.handle("again") == "nothing to repeat yet"
    assert play.entries == []


def test_unknown_ruleset_is_refused(rules: Rules, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown ruleset 'pirates'"):
        PlaySession(rules, "pirates", 1, tmp_path)


def test_play_command_reads_piped_lines(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "play", "tactical", "--seed", "5", "-o", str(tmp_path)],
        input="flight-test\nroll 2d6\nquit\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "session seed 5" in proc.stdout
    assert "tactical> roll 2d6" in proc.stdout
    assert len(list(tmp_path.glob("play-tactical-*.txt"))) == 1
    assert len(list(tmp_path.glob("play-tactical-*.json"))) == 1
