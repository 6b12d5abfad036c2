"""The play session: short resolver calls, repeat, undo, errors, and the dated logs."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.loading import Rules
from generator.play import History, PlaySession, history_file, run_prompt


def session(rules: Rules, tmp_path: Path, seed: int = 11) -> PlaySession:
    return PlaySession(rules, "tactical", seed, tmp_path, columns=80)


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
    assert "[1] flight-test ally=yes\n    Flight test" in text_path.read_text()


def test_again_repeats_with_new_dice_and_undo_removes(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    play.handle("roll 4d6kh3")
    play.handle("again")
    play.handle("again")
    assert [e.command for e in play.entries] == ["roll 4d6kh3"] * 3
    assert len({e.seed for e in play.entries}) == 3
    assert play.handle("undo") == "undone: [3] roll 4d6kh3"
    assert len(json.loads(play.log_paths[1].read_text())["entries"]) == 2


def test_the_session_seed_repeats_the_whole_session(rules: Rules, tmp_path: Path) -> None:
    lines = ["flight-test", "roll 3d6", "again", "flight-test courage=1"]
    first, second = session(rules, tmp_path / "a"), session(rules, tmp_path / "b")
    assert [first.handle(x) for x in lines] == [second.handle(x) for x in lines]


def test_odds_lookup_and_dice_odds(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    assert "1/1" in play.handle("odds flight-test flagship=yes")
    assert "4/9" in play.handle("odds 2d6>=5")
    assert play.handle("lookup wind roll=4") == "[3] lookup wind roll=4\n    Wind Direction: NE"


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
    history = tmp_path / "history"
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "play", "tactical", "--seed", "5", "-o", str(tmp_path)],
        input="flight-test\nroll 2d6\nquit\n",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "QM_HISTORY_FILE": str(history)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "session seed 5" in proc.stdout
    assert "tactical> roll 2d6\n[2] roll 2d6\n    2d6 = " in proc.stdout
    assert not history.exists()  # history is kept at a terminal only
    assert len(list(tmp_path.glob("play-tactical-*.txt"))) == 1
    assert len(list(tmp_path.glob("play-tactical-*.json"))) == 1


def test_entries_are_numbered_and_undo_frees_the_number(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    first = play.handle("roll 2d6")
    assert first.startswith("[1] roll 2d6\n    2d6 = ")
    assert play.handle("flight-test").startswith("[2] flight-test\n    Flight test")
    assert play.handle("again").startswith("[3] flight-test\n")
    assert play.handle("undo") == "undone: [3] flight-test"
    assert play.handle("odds flight-test").startswith(
        "[3] odds flight-test\n    Flight test (Morale Phase) (odds)"
    )
    log = play.handle("log")
    assert log.startswith(first + "\n\n[2] flight-test\n")
    assert "\n\n[3] odds flight-test\n" in log
    data = json.loads(play.log_paths[1].read_text())
    assert [(e["number"], e["command"]) for e in data["entries"]] == [
        (1, "roll 2d6"),
        (2, "flight-test"),
        (3, "odds flight-test"),
    ]
    text = play.log_paths[0].read_text()
    assert text.endswith(log + "\n")  # the saved log reads like `log` at 80 columns


def test_replies_are_wrapped_without_cutting(rules: Rules, tmp_path: Path) -> None:
    play = PlaySession(rules, "flob", 3, tmp_path, columns=80)
    reply = play.handle("broadside attack=5")
    lines = reply.splitlines()
    assert lines[:2] == ["[1] broadside attack=5", "    Broadside (6.4 Standard gunnery)"]
    assert all(len(line) <= 80 for line in lines)
    # a long line goes on under itself, two further in, every word kept
    assert "      Ammunition: range, reload actions" in reply
    assert "        (flob.ammunition-loading)" in reply
    assert " ".join(reply.split()) == " ".join(play.entries[0].show(10_000).split())


@pytest.mark.parametrize("ruleset", ["tactical", "flob", "duel"])
def test_list_reads_at_80_columns(rules: Rules, tmp_path: Path, ruleset: str) -> None:
    play = PlaySession(rules, ruleset, 1, tmp_path, columns=80)
    listing = play.handle("list")
    assert all(len(line) <= 80 for line in listing.splitlines())
    assert "…" not in listing
    if ruleset != "flob":
        return
    assert "\n\nbroadside: Broadside (6.4 Standard gunnery)\n" in listing
    assert "\n  attack                   whole number -99..99; optional\n" in listing
    # a choice's words and the default are never split across lines
    assert "                           Single Round Shot with Grape |" in listing
    assert "\n                           default Single Round Shot\n" in listing
    # a name too long for the column puts what it takes below it
    assert (
        "\n  attacker_admiral_on_board\n                            yes/no; default no" in listing
    )


def test_list_of_named_resolvers_adds_their_help(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    listing = play.handle("list flight-test tactical.sinking")
    assert listing.startswith("flight-test: Flight test (Morale Phase)\n  1D6 for a ship")
    assert "\n  flagship       yes/no; default no\n                   " in listing
    assert "\n\nsinking: " in listing
    assert all(len(line) <= 80 for line in listing.splitlines())
    assert play.handle("list bogus").startswith("error: unknown resolver 'tactical.bogus'")


def test_help_mentions_completion_and_history_at_a_terminal(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    plain = play.handle("help")
    assert "list [RESOLVER ...]" in plain and "Tab" not in plain
    play.line_editing, play.history_path = True, tmp_path / "h"
    at_terminal = play.handle("help")
    assert at_terminal.startswith(plain + "\n\nTab completes commands, resolvers")
    assert str(tmp_path / "h") in at_terminal.replace("\n", " ")
    assert all(len(line) <= 80 for line in at_terminal.splitlines())


def test_completion_of_commands_and_resolvers(rules: Rules, tmp_path: Path) -> None:
    play = PlaySession(rules, "flob", 1, tmp_path)
    first = play.complete("")
    assert first[:9] == ["again", "undo", "log", "list", "help", "quit", "roll", "odds", "lookup"]
    assert "broadside" in first and "flob.broadside" not in first
    assert play.complete("l") == ["log", "list", "lookup"]
    assert play.complete("b") == ["broadside", "boarding-initiation", "boarding"]
    assert play.complete("BRO") == ["broadside"]
    assert play.complete("fl") == ["flob."]
    assert play.complete("flob.b") == [
        "flob.broadside",
        "flob.boarding-initiation",
        "flob.boarding",
    ]
    assert play.complete("odds br") == ["broadside"]
    assert play.complete("list bo") == ["boarding-initiation", "boarding"]
    assert play.complete("list broadside b") == ["broadside", "boarding-initiation", "boarding"]
    assert play.complete("bogus ") == play.complete("roll 2") == play.complete("undo ") == []


def test_completion_of_inputs_and_their_choices(rules: Rules, tmp_path: Path) -> None:
    play = PlaySession(rules, "flob", 1, tmp_path)
    names = play.complete("broadside ")
    assert names[:3] == ["fire=", "broadside=", "target_hull="] and len(names) == 28
    assert play.complete("flob.broadside ra") == ["range=", "rate=", "rake="]
    assert play.complete("broadside rate=3 ra") == ["range=", "rake="]  # rate= given
    assert play.complete("odds broadside am") == ["ammo="]
    assert play.complete("broadside ammo=D") == [
        "ammo=double-round-shot",
        "ammo=double-round-shot-with-grape",
    ]
    assert play.complete("broadside ammo=single-round-shot-w") == [
        "ammo=single-round-shot-with-grape"
    ]
    assert play.complete("broadside chaser=") == ["chaser=yes", "chaser=no"]
    assert play.complete("broadside attack=") == []  # a number: nothing to offer
    assert play.complete("odds 2d6 ") == []
    # the word being completed may be given apart from the line, as readline does
    assert play.complete("broadside ammo=gr", "ammo=gr") == ["ammo=grapeshot"]
    # what completion offers is accepted as typed
    assert play.handle(
        "odds broadside attack=5 range=point-blank ammo=double-round-shot-with-grape"
    ).startswith("[1] odds broadside")


def test_completion_of_lookups(rules: Rules, tmp_path: Path) -> None:
    play = session(rules, tmp_path)
    tables = play.complete("lookup ")
    assert "wind" in tables and "broadside-modifiers" in tables
    assert "setup" not in tables  # rules text is not looked up
    assert play.complete("lookup tactical.wi") == [
        "tactical.wind",
        "tactical.wind-movement",
        "tactical.wind-change",
    ]
    assert play.complete("lookup wind ") == ["roll="]
    assert play.complete("lookup wind roll=") == []
    assert play.complete("lookup wind-movement heading=dia") == [
        "heading=diagonally-with-the-wind",
        "heading=diagonally-against-the-wind",
    ]
    assert play.complete("lookup flight-modifiers ") == ["modifier="]
    assert play.complete("lookup flight-modifiers modifier=c") == ["modifier=courage"]
    assert play.complete("lookup bogus ") == play.complete("lookup flob.broadside ") == []


def test_history_file_location(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("QM_HISTORY_FILE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    default = tmp_path / ".local" / "state" / "quartermaster" / "play-history"
    assert history_file() == default
    monkeypatch.setenv("XDG_STATE_HOME", "relative/is/ignored")
    assert history_file() == default
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert history_file() == tmp_path / "state" / "quartermaster" / "play-history"
    monkeypatch.setenv("QM_HISTORY_FILE", str(tmp_path / "mine"))
    assert history_file() == tmp_path / "mine"


class FakeReadline:
    """The history functions of readline, in memory, failing when told to."""

    def __init__(self, fail: bool = False) -> None:
        self.lines: list[str] = []
        self.fail = fail
        self.writes = 0

    def set_history_length(self, length: int) -> None:
        self.length = length

    def get_current_history_length(self) -> int:
        return len(self.lines)

    def read_history_file(self, path: str) -> None:
        if self.fail:
            raise PermissionError(13, "Permission denied", path)
        self.lines.extend(Path(path).read_text().splitlines())

    def append_history_file(self, count: int, path: str) -> None:
        self.writes += 1
        if self.fail:
            raise PermissionError(13, "Permission denied", path)
        with open(path, "a") as file:
            file.writelines(line + "\n" for line in self.lines[-count:])


def test_history_is_loaded_and_appended_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "made" / "play-history"
    warnings: list[str] = []
    first = FakeReadline()
    History(first, path, warnings.append).load()  # type: ignore[arg-type]
    assert path.exists() and first.length == 1000
    history = History(first, path, warnings.append)  # type: ignore[arg-type]
    history.load()
    first.lines.append("roll 2d6")
    history.save()
    history.save()  # nothing new: nothing written
    first.lines.append("undo")
    history.save()
    assert path.read_text() == "roll 2d6\nundo\n" and first.writes == 2
    second = FakeReadline()
    History(second, path, warnings.append).load()  # type: ignore[arg-type]
    assert second.lines == ["roll 2d6", "undo"] and warnings == []


@pytest.mark.parametrize("where", ["unreadable", "a folder", "under a file"])
def test_a_history_file_that_fails_warns_once(tmp_path: Path, where: str) -> None:
    path = {
        "unreadable": tmp_path / "history",
        "a folder": tmp_path,
        "under a file": tmp_path / "file" / "history",
    }[where]
    (tmp_path / "history").write_text("roll 2d6\n")
    (tmp_path / "file").write_text("")
    warnings: list[str] = []
    readline = FakeReadline(fail=where == "unreadable")
    history = History(readline, path, warnings.append)  # type: ignore[arg-type]
    history.load()
    readline.lines.append("roll 1d6")
    history.save()
    history.save()
    assert len(warnings) == 1 and "\n" not in warnings[0]
    assert warnings[0].startswith(f"warning: history file {path} cannot be read (")
    assert warnings[0].endswith("); going on without it")
    assert readline.writes == 0


def test_the_real_history_file_is_capped(tmp_path: Path) -> None:
    readline = pytest.importorskip("readline")
    if "libedit" in (readline.__doc__ or ""):
        pytest.skip("libedit keeps its history file in its own format")
    path = tmp_path / "play-history"
    path.write_text("".join(f"roll {n}d6\n" for n in range(1, 1006)))
    readline.clear_history()
    try:
        history = History(readline, path, pytest.fail)
        history.load()
        readline.add_history("lookup wind roll=4")
        history.save()
    finally:
        readline.clear_history()
    lines = path.read_text().splitlines()
    assert len(lines) == 1000
    assert lines[0] == "roll 7d6" and lines[-1] == "lookup wind roll=4"


def _talk(master: int, proc: subprocess.Popen[bytes], keys: list[bytes]) -> str:
    """Type each of `keys` at the next prompt; return all the terminal showed."""
    out = b""
    deadline = time.monotonic() + 60
    pending = list(keys)
    while time.monotonic() < deadline:
        if pending and out.rstrip(b" ").endswith(b"tactical>"):
            out += b"<" + pending[0] + b">"
            os.write(master, pending.pop(0))
        ready, _, _ = select.select([master], [], [], 1)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the program ended
            break
        if not chunk:
            break
        out += chunk
    proc.wait(10)
    return out.decode(errors="replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_at_a_terminal_tab_completes_and_history_is_kept(tmp_path: Path) -> None:
    pytest.importorskip("readline")
    pty = pytest.importorskip("pty")
    history = tmp_path / "state" / "play-history"
    env = {**os.environ, "QM_HISTORY_FILE": str(history), "TERM": "dumb", "COLUMNS": "80"}
    command = [sys.executable, "-m", "generator", "play", "tactical", "-o", str(tmp_path)]

    def run(keys: list[bytes]) -> str:
        master, slave = pty.openpty()
        proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env)
        os.close(slave)
        try:
            return _talk(master, proc, keys)
        finally:
            os.close(master)

    # flight-t<TAB> al<TAB> y<TAB>: flight-test ally=yes
    first = run([b"flight-t\tal\ty\t\n", b"roll 1d6\n", b"quit\n"])
    assert "[1] flight-test ally=yes\r\n" in first
    assert history.read_text() == "flight-test ally=yes \nroll 1d6\nquit\n"
    # Ctrl-P twice recalls the roll from the earlier session; Ctrl-D ends the session
    second = run([b"\x10\x10\n", b"\x04"])
    assert "[1] roll 1d6\r\n" in second
    assert history.read_text().splitlines()[-1] == "roll 1d6"


def test_the_prompt_says_when_every_entry_was_undone(
    rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = iter(["roll 2d6", "undo"])

    def typed(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", typed)
    shown: list[str] = []
    play = session(rules, tmp_path)
    run_prompt(play, False, shown.append)
    assert shown[1:4] == ["tactical> roll 2d6", shown[2], "tactical> undo"]
    assert shown[2].startswith("[1] roll 2d6\n")
    text_log, json_log = play.log_paths
    assert shown[-1].split() == f"log (every entry undone): {text_log} and {json_log}".split()
    assert json.loads(json_log.read_text())["entries"] == []
