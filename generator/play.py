"""An interactive session at the table: resolver calls in short form, repeat, undo, a log.

Each line a GM types is one of::

    broadside attack=5 ammo=single-round-shot     a resolver of this ruleset (prefix optional)
    odds broadside attack=5                       exact chances of its outcomes
    roll 2d6+3          odds 8d6>=5               dice
    lookup broadside attack=5 roll=7              a table cell
    again | undo | log | list [RESOLVER ...] | help | quit

The session seed makes the whole session repeatable: every call draws its own seed from
the session's random source. Entries are numbered in the order played (after ``undo`` the
number is used again), and every reply and the log show ``[n] command`` above the result.
After every change the log is rewritten (text and JSON) under the output folder,
atomically, so an interrupted session keeps what was played. The folder is checked when the
session starts, and the log never replaces an existing file: if another session already
took this second's name, ``-2``, ``-3`` ... is added.

At a terminal, `run_prompt` gives the prompt line editing, tab completion (worked out by
`PlaySession.complete`, which needs no terminal) and a history kept between sessions in a
file per user (`history_file`).
"""

from __future__ import annotations

import errno
import json
import os
import random
import shlex
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from generator.assignments import parse_assignments
from generator.dice import distribution, mean, roll
from generator.dice.show import (
    fraction_text,
    odds_json,
    versus_heading,
    versus_json,
    versus_rows,
)
from generator.dice.versus import versus, vs_distribution
from generator.errors import DataError, InputError, QuartermasterError, one_line
from generator.input_words import assignments, input_words, starting, table_words
from generator.loading import Rules, Table
from generator.lookup import find_table, lookup, read_values
from generator.output import check_folder, write_atomic
from generator.resolve import Param, Resolver, all_resolvers, get_resolver, parse_inputs
from generator.resolve.engine import odds, run
from generator.resolve.show import odds_json as resolution_odds_json
from generator.suggest import unknown

HELP = """\
Type a resolver of this ruleset with its inputs, e.g.
    {example}
or one of these:
  odds RESOLVER ...     exact chance of each outcome
  roll EXPR             roll dice, e.g. roll 2d6+3
  odds EXPR             chances of a dice expression, e.g. odds 8d6>=5
  odds EXPR --vs EXPR   how often one roll beats another, e.g. 2d6 --vs 1d12
  lookup TABLE A=V ...  a table cell (the ruleset prefix is optional)
  again                 repeat the last call with new dice
  undo                  take the last entry out (its number is used again; in a game,
                        its losses come off the logs too)
  apply                 in a game: cross the last resolution's losses off the logs
  log                   the session so far: [n] command, then its result
  list [RESOLVER ...]   the resolvers of this ruleset and their inputs
  quit                  end the session (the log is already saved)"""

# the session's own words, offered by tab completion before the resolvers
COMMANDS = ("again", "undo", "log", "list", "help", "quit", "roll", "odds", "lookup")
HISTORY_LENGTH = 1000  # lines kept in the history file
LOG_WIDTH = 80  # the saved text log is wrapped to this, whatever the terminal
INDENT = "    "  # a result's lines under its "[n] command"
_KEEP = "\x00"  # stands for a space that wrapping must not break at
NAME_COLUMN = 24  # `list`: input names up to this long share a line with what they take


def terminal_width() -> int:
    """Return the width to wrap replies to: the terminal's, 80 when unknown, at least 40."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


def wrap_lines(lines: Iterable[str], width: int) -> list[str]:
    """Wrap each line longer than `width` at spaces, its continuation indented two more.

    Words are never cut: a word longer than the line stays whole. Short lines (aligned
    columns of odds) are kept exactly.
    """
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        out.extend(
            textwrap.wrap(
                line.strip(),
                width,
                initial_indent=" " * lead,
                subsequent_indent=" " * (lead + 2),
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return out


@dataclass
class Entry:
    """One resolved line of the session, with its number in the log."""

    number: int
    command: str
    seed: int | None
    text: str
    data: dict[str, Any]
    game_number: int | None = None  # its number in the game's log (a session with a game)

    def show(self, width: int) -> str:
        """Return the entry as printed: ``[n] command``, then the result indented."""
        head = f"[{self.number}] {self.command}"
        body = (f"{INDENT}{line}" if line.strip() else "" for line in self.text.splitlines())
        return "\n".join(wrap_lines([head, *body], width))


class GameLink(Protocol):
    """A game kept by the web app (`generator.app.games`), as a session at the table uses
    it: a resolver called with her ships (``broadside Victory -> Redoutable``) has her
    inputs filled from their logs and is kept in the game's log, and its losses are crossed
    off on the logs with ``apply``."""

    @property
    def title(self) -> str:
        """The game's title."""

    def resolve(
        self, resolver_id: str, ship: str, target: str | None, given: dict[str, str], seed: int
    ) -> tuple[str, dict[str, Any], int]:
        """Resolve with the ships; return the text, the JSON and its number in the game."""

    def apply(self, number: int) -> str:
        """Cross off resolution `number`'s losses; return what was crossed off, in words."""

    def undo(self, number: int) -> str:
        """Take resolution `number`'s losses off the logs again (words), if they are on."""


@dataclass
class PlaySession:
    """A game in progress for one ruleset.

    Args:
        columns: the width replies are wrapped to; None asks the terminal each time.
        line_editing: the prompt has line editing and tab completion (`help` says so).
        history_path: the file the prompt's history is kept in, when it is kept.
    """

    rules: Rules
    ruleset: str
    seed: int
    output_dir: Path
    started: datetime = field(default_factory=datetime.now)
    entries: list[Entry] = field(default_factory=list)
    columns: int | None = None
    line_editing: bool = False
    history_path: Path | None = None
    game: GameLink | None = None

    def __post_init__(self) -> None:
        if self.ruleset not in self.rules.rulesets:
            raise InputError(unknown("ruleset", self.ruleset, self.rules.rulesets))
        self.rng = random.Random(self.seed)
        self.last: str | None = None
        check_folder(self.output_dir)
        stamp = self.started.strftime("%Y%m%d-%H%M%S")
        self.log_base = self.output_dir / f"play-{self.ruleset}-{stamp}"
        self._log_claimed = False
        self._own: dict[str, Resolver] | None = None

    @property
    def log_paths(self) -> tuple[Path, Path]:
        return self.log_base.with_suffix(".txt"), self.log_base.with_suffix(".json")

    @property
    def saved(self) -> bool:
        """Whether the logs have been written (they stay, emptied, when all is undone)."""
        return self._log_claimed

    def width(self) -> int:
        """Return the width replies are wrapped to."""
        return self.columns if self.columns is not None else terminal_width()

    def _resolver_id(self, name: str) -> str:
        return name if "." in name else f"{self.ruleset}.{name}"

    def handle(self, line: str) -> str:
        """Run one typed line and return what to print; errors come back as text."""
        words = line.strip()
        if not words or words.startswith("#"):
            return ""
        try:
            return self._dispatch(words)
        except QuartermasterError as exc:
            problems = exc.problems if isinstance(exc, DataError) else (str(exc),)
            return "\n".join(f"error: {one_line(problem)}" for problem in problems)

    def _dispatch(self, line: str) -> str:
        try:
            parts = shlex.split(line)
        except ValueError as exc:
            raise InputError(f"cannot read the line: {exc}") from None
        head = parts[0].casefold()
        if head in ("help", "?"):
            return self._help()
        if head == "list":
            return self._list(parts[1:])
        if head == "log":
            width = self.width()
            return "\n\n".join(e.show(width) for e in self.entries) or "(nothing played yet)"
        if head == "undo":
            if not self.entries:
                return "nothing to undo"
            gone = self.entries[-1]
            taken = ""
            if self.game is not None and gone.game_number is not None:
                taken = self.game.undo(gone.game_number)  # refused: the entry stays
            self.entries.pop()
            self.save()
            return f"undone: [{gone.number}] {gone.command}" + (f"\n{taken}" if taken else "")
        if head == "apply":
            if self.game is None:
                raise InputError("apply: only in a session with a game (play RULESET --game ID)")
            made = [e for e in self.entries if e.game_number is not None]
            if not made:
                return "nothing to apply yet: resolve with a ship first"
            number = made[-1].game_number
            assert number is not None
            return self.game.apply(number)
        if head in ("again", "repeat"):
            if self.last is None:
                return "nothing to repeat yet"
            return self._record(self.last)
        reply = self._record(line)
        self.last = line
        return reply

    def _record(self, line: str) -> str:
        seed = self.rng.randrange(2**31)
        self._game_number: int | None = None
        text, data = self._evaluate(line, seed)
        entry = Entry(len(self.entries) + 1, line, seed, text, data, self._game_number)
        self.entries.append(entry)
        self.save()
        return entry.show(self.width())

    def _evaluate(self, line: str, seed: int) -> tuple[str, dict[str, Any]]:
        parts = shlex.split(line)
        head, args = parts[0], parts[1:]
        if head == "roll":
            if not args:
                raise InputError("roll needs a dice expression, e.g. roll 2d6+3")
            result = roll(" ".join(args), random.Random(seed))
            return f"{result.expression} = {result.total}   {result.account}", result.to_json()
        if head == "lookup":
            if not args:
                raise InputError("lookup needs a table id, e.g. lookup broadside attack=5 roll=7")
            table_id = self._resolver_id(args[0])
            values = read_values(find_table(self.rules, table_id), args[1:])
            found = lookup(self.rules, table_id, values)
            return f"{found.table.marked_title}: {found.text}", found.to_json()
        if head == "odds" and args and self._is_resolver(args[0]):
            return self._resolve(args[0], args[1:], seed, want_odds=True)
        if head == "odds" and "--vs" in args:
            at = args.index("--vs")
            expression, vs = " ".join(args[:at]), " ".join(args[at + 1 :])
            dist, vs_dist = distribution(expression), vs_distribution(vs)
            width = self.width() - len(INDENT)
            lines = versus_heading(expression, dist, vs, vs_dist, width)
            lines += versus_rows(versus(dist, vs_dist), width)
            return "\n".join(lines), versus_json(expression, dist, vs, vs_dist)
        if head == "odds":
            expression = " ".join(args)
            dist = distribution(expression)
            rows = [
                f"  {v:>4}  {fraction_text(p):>10}  {float(p) * 100:6.2f}%"
                for v, p in sorted(dist.items())
            ]
            text = f"{expression}: mean {float(mean(dist)):.4g}\n" + "\n".join(rows)
            return text, odds_json(expression, dist, mean(dist))
        return self._resolve(head, args, seed, want_odds=False)

    def _resolve(
        self, name: str, args: list[str], seed: int, want_odds: bool
    ) -> tuple[str, dict[str, Any]]:
        resolver = get_resolver(self._resolver_id(name))
        if self.game is not None and not want_odds and args and "=" not in args[0]:
            ship, target, rest = ships_named(args)
            given = parse_assignments(rest, "inputs")
            text, data, number = self.game.resolve(resolver.id, ship, target, given, seed)
            self._game_number = number
            return text, data
        inputs = parse_inputs(resolver, self.rules, parse_assignments(args, "inputs"))
        if want_odds:
            chances = odds(resolver, self.rules, inputs)
            ordered = sorted(chances.items(), key=lambda kv: -kv[1])
            rows = [f"  {fraction_text(p):>12}  {float(p) * 100:6.2f}%  {k}" for k, p in ordered]
            return f"{resolver.title} (odds)\n" + "\n".join(rows), resolution_odds_json(
                resolver, inputs, chances
            )
        resolution = run(resolver, self.rules, inputs, seed)
        lines = [f"{resolver.title}", *(f"  {x}" for x in resolution.lines)]
        lines.append(f"  → {resolution.outcome.result}")
        lines.extend(f"  • {c}" for c in resolution.outcome.changes)
        return "\n".join(lines), resolution.to_json()

    def _is_resolver(self, name: str) -> bool:
        return self._resolver_id(name) in all_resolvers()

    def _own_resolvers(self) -> dict[str, Resolver]:
        """Return this ruleset's resolvers by short name, in the registry's order."""
        if self._own is None:
            self._own = {
                r.id.split(".", 1)[1]: r
                for r in all_resolvers().values()
                if r.ruleset == self.ruleset
            }
        return self._own

    def _example(self) -> str:
        """Return a resolver call to show: the shortest example with inputs."""
        calls = [
            f"{short} " + " ".join(f"{k}={v}" for k, v in resolver.examples[-1].items())
            for short, resolver in self._own_resolvers().items()
        ]
        with_inputs = [call for call in calls if "=" in call]
        return min(with_inputs or calls or ["roll 2d6"], key=len).strip()

    def _help(self) -> str:
        """Return the help, with line editing and the history file where the prompt has them."""
        text = "\n".join(
            wrap_lines(HELP.format(example=self._example()).splitlines(), self.width())
        )
        if self.game is not None:
            said = (
                f"In this game ({self.game.title}) name the ships after the resolver: "
                "broadside SHIP -> TARGET [NAME=VALUE ...]. What their logs hold is filled "
                "in, the call is kept in the game's log, and apply crosses its losses off."
            )
            text += "\n\n" + "\n".join(_wrap(said, self.width(), "", ""))
        if not self.line_editing:
            return text
        kept = (
            f"kept between sessions in {self.history_path}"
            if self.history_path is not None
            else "not kept after this session"
        )
        note = (
            "Tab completes commands, resolvers, NAME= inputs, their choices and table ids; "
            f"the arrow keys and Ctrl-R recall earlier lines, {kept}."
        )
        return text + "\n\n" + "\n".join(_wrap(note, self.width(), "", ""))

    # the listing

    def _list(self, names: list[str]) -> str:
        """List resolvers with their inputs, one input a line, wrapped to the width.

        With names, list only those resolvers, each input's help included.
        """
        if names:
            chosen = [get_resolver(self._resolver_id(n)) for n in names]
        else:
            chosen = list(self._own_resolvers().values())
        width = self.width()
        blocks = [self._list_one(r, width, detail=bool(names)) for r in chosen]
        return "\n\n".join(blocks) or "(no resolvers for this ruleset)"

    def _list_one(self, resolver: Resolver, width: int, detail: bool) -> str:
        """Return one resolver: name and title, then each input, what it takes, its default."""
        ruleset, _, short = resolver.id.partition(".")
        name = short if ruleset == self.ruleset else resolver.id
        lines = _wrap(f"{name}: {resolver.title}", width, "", "  ")
        if detail and resolver.summary:
            lines.extend(_wrap(resolver.summary, width, "  ", "  "))
        if not resolver.params:
            lines.append("  (no inputs)")
            return "\n".join(lines)
        longest = max(len(p.name) for p in resolver.params)
        column = 2 + min(longest, NAME_COLUMN) + 2
        for param in resolver.params:
            default = param.default_text()
            text = f"{self._kind_text(param)}; {default.replace(' ', _KEEP)}"
            if len(param.name) > NAME_COLUMN:  # a long name: its description goes below
                lines.append(f"  {param.name}")
                lines.extend(_wrap(text, width, " " * column, " " * column))
            else:
                head = f"  {param.name}".ljust(column)
                lines.extend(_wrap(text, width, head, " " * column))
            if detail and param.help:
                lines.extend(_wrap(param.help, width, " " * (column + 2), " " * (column + 2)))
        return "\n".join(lines)

    def _kind_text(self, param: Param) -> str:
        """Say what an input takes; a choice's words are kept whole when wrapped."""
        if param.kind != "choice":
            return param.describe(self.rules)
        words = param.allowed(self.rules)
        return " | ".join(w.replace(" ", _KEEP) if len(w) <= 30 else w for w in words)

    # tab completion

    def complete(self, line: str, text: str | None = None) -> list[str]:
        """Return what the word being typed at the end of `line` can be completed to.

        `line` is the line up to the cursor; `text` is the word being completed (its end),
        by default the part after the last space. Offered: the session's commands and this
        ruleset's resolvers (short, or in full after a dot) first; after a resolver (or
        ``odds RESOLVER``) the inputs not given yet as ``NAME=``, and after ``NAME=`` the
        words of a choice or yes/no input; after ``lookup`` the table ids, then their axes
        as ``NAME=`` and a label axis's values; after ``list`` the resolvers. Choice words
        are offered as typed (``ammo=single-round-shot``). Nothing is offered where
        nothing fits (dice, numbers, the end of a command).
        """
        if text is None:
            text = "" if not line or line[-1].isspace() else line.split()[-1]
        before = line[: len(line) - len(text)] if line.endswith(text) else line
        words = before.split()
        if not words:
            own = COMMANDS if self.game is None else (*COMMANDS[:2], "apply", *COMMANDS[2:])
            return self._complete_resolvers(text, own)
        head, args = words[0].casefold(), words[1:]
        if head == "list":
            return self._complete_resolvers(text)
        if head == "odds":
            if not args:
                return self._complete_resolvers(text)
            words = args
        elif head == "lookup":
            if not args:
                return self._complete_tables(text)
            table = self._find_table(args[0])
            if table is None:
                return []
            return assignments(table_words(table), args[1:], text)
        resolver = self._find_resolver(words[0])
        if resolver is None:
            return []
        return assignments(input_words(resolver, self.rules), words[1:], text)

    def _complete_resolvers(self, text: str, commands: Iterable[str] = ()) -> list[str]:
        """Complete `commands` and this ruleset's resolvers (in full once a dot is typed)."""
        shorts = list(self._own_resolvers())
        if "." in text:
            return starting((f"{self.ruleset}.{s}" for s in shorts), text)
        found = starting([*commands, *shorts], text)
        if text and f"{self.ruleset}.".startswith(text.casefold()):
            found.append(f"{self.ruleset}.")
        return found

    def _complete_tables(self, text: str) -> list[str]:
        """Complete the ids of this ruleset's tables and modifiers lists."""
        keys = [
            t.key for t in self.rules.rulesets[self.ruleset].tables.values() if t.kind != "rules"
        ]
        if "." in text:
            return starting((f"{self.ruleset}.{k}" for k in keys), text)
        found = starting(keys, text)
        if text and f"{self.ruleset}.".startswith(text.casefold()):
            found.append(f"{self.ruleset}.")
        return found

    def _find_resolver(self, word: str) -> Resolver | None:
        """Return this ruleset's resolver named `word` (short or in full), if any."""
        own = self._own_resolvers()
        if word in own:
            return own[word]
        ruleset, _, short = word.partition(".")
        return own.get(short) if ruleset == self.ruleset else None

    def _find_table(self, word: str) -> Table | None:
        """Return this ruleset's table named `word` (short or in full), if any."""
        ruleset, dot, key = word.partition(".")
        if not dot:
            ruleset, key = self.ruleset, word
        table = self.rules.rulesets[self.ruleset].tables.get(key)
        return table if ruleset == self.ruleset and table is not None else None

    # the logs

    def _claim_log_name(self) -> None:
        """Before the first save, move past log names another session already holds."""
        base, number = self.log_base, 1
        while any(path.exists() for path in self.log_paths):
            number += 1
            self.log_base = base.with_name(f"{base.name}-{number}")
        self._log_claimed = True

    def save(self) -> None:
        """Rewrite the text and JSON logs of the session."""
        if not self._log_claimed:
            self._claim_log_name()
        text_path, json_path = self.log_paths
        header = (
            f"Quartermaster play log: {self.rules.rulesets[self.ruleset].title}\n"
            f"started {self.started.isoformat(timespec='seconds')}, session seed {self.seed}\n"
        )
        body = "\n\n".join(e.show(LOG_WIDTH) for e in self.entries)
        write_atomic(text_path, (header + "\n" + body + "\n").encode("utf-8"))
        data = {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "started": self.started.isoformat(timespec="seconds"),
            "entries": [
                {"number": e.number, "command": e.command, "seed": e.seed, "result": e.data}
                for e in self.entries
            ],
        }
        write_atomic(
            json_path, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        )


def ships_named(args: list[str]) -> tuple[str, str | None, list[str]]:
    """Split ``Victory -> Redoutable attack=5`` (words before the first NAME=VALUE) into
    the ship, the target (after ``->``, if any) and the inputs; a name may be several
    words (``Sophia Hedevig -> San Josef``)."""
    at = next((i for i, word in enumerate(args) if "=" in word), len(args))
    names, rest = args[:at], args[at:]
    if "->" in names:
        split = names.index("->")
        ship, target = " ".join(names[:split]), " ".join(names[split + 1 :])
        if not ship or not target:
            raise InputError("a ship's name before '->' and her target's after it")
        return ship, target, rest
    return " ".join(names), None, rest


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """Wrap `text` with the given indents; words are never cut, kept spaces restored."""
    lines = textwrap.wrap(
        text,
        width,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [line.replace(_KEEP, " ") for line in lines] or [first.rstrip()]


# the prompt


def history_file() -> Path:
    """Return the file the prompt's history is kept in.

    ``QM_HISTORY_FILE`` if set, else ``quartermaster/play-history`` under
    ``$XDG_STATE_HOME`` (default ``~/.local/state``). Raises RuntimeError when there is
    no home folder to put it in.
    """
    override = os.environ.get("QM_HISTORY_FILE")
    if override:
        return Path(override).expanduser()
    state = os.environ.get("XDG_STATE_HOME", "")
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "quartermaster" / "play-history"


class History:
    """The prompt's lines in a file between sessions, capped at `HISTORY_LENGTH` lines.

    Loaded at the start; the new lines are appended after every line typed, so a session
    that is killed keeps them. A file that cannot be read or written warns once (one line
    on stderr) and is then left alone: the session goes on without it.
    """

    def __init__(self, readline: ModuleType, path: Path | None, warn: Callable[[str], None]):
        self.readline = readline
        self.path = path
        self.warn = warn
        self.saved = 0

    def _give_up(self, what: str, exc: BaseException) -> None:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        self.warn(
            one_line(f"warning: history file {self.path} {what} ({reason}); going on without it")
        )
        self.path = None

    def load(self) -> None:
        """Read the earlier sessions' lines (making the file if there is none yet)."""
        self.readline.set_history_length(HISTORY_LENGTH)
        if self.path is not None:
            try:
                if self.path.is_dir():
                    raise IsADirectoryError(errno.EISDIR, "it is a folder")
                if self.path.exists():
                    self.readline.read_history_file(str(self.path))
                else:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    self.path.touch()
            except (OSError, ValueError) as exc:
                self._give_up("cannot be read", exc)
        self.saved = self.readline.get_current_history_length()

    def save(self) -> None:
        """Append the lines typed since the last save (the file stays capped)."""
        now = self.readline.get_current_history_length()
        if self.path is None or now <= self.saved:
            return
        try:
            append = getattr(self.readline, "append_history_file", None)
            if append is not None:
                append(now - self.saved, str(self.path))
            else:
                self.readline.write_history_file(str(self.path))
        except (OSError, ValueError) as exc:
            self._give_up("cannot be written", exc)
        self.saved = now


def _warn(message: str) -> None:
    """Print a warning on stderr."""
    print(message, file=sys.stderr)


def start_line_editing(session: PlaySession, warn: Callable[[str], None] = _warn) -> History | None:
    """Give `input` line editing, tab completion and the history; None without readline."""
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input
        return None

    def completer(text: str, state: int) -> str | None:
        if state == 0:
            try:
                line = readline.get_line_buffer()[: readline.get_endidx()]
                found = session.complete(line, text)
            except Exception:  # a completion that fails offers nothing
                found = []
            # readline adds nothing after a completion: a finished word gets its space
            matches[:] = [w if w.endswith(("=", ".")) else w + " " for w in found]
        return matches[state] if state < len(matches) else None

    matches: list[str] = []
    readline.set_completer(completer)
    readline.set_completer_delims(" \t\n")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    try:
        path: Path | None = history_file()
    except RuntimeError as exc:
        warn(one_line(f"warning: no history file ({exc}); going on without it"))
        path = None
    history = History(readline, path, warn)
    history.load()
    session.line_editing = True
    session.history_path = history.path
    return history


def run_prompt(
    session: PlaySession, interactive: bool, echo: Callable[[str], None] = print
) -> None:
    """Read lines until ``quit`` or the end of input, print each reply, name the logs.

    At a terminal the prompt has line editing, completion and history. Otherwise (lines
    piped in) each line is echoed after ``RULESET>`` so the output reads as a transcript.
    """
    history = start_line_editing(session) if interactive else None
    title = session.rules.rulesets[session.ruleset].title
    greeting = [
        f"{title}: session seed {session.seed}.",
        "Type 'help' for commands, 'quit' to end.",
    ]
    echo("\n".join(wrap_lines(greeting, session.width())))
    prompt = f"{session.ruleset}> "
    while True:
        try:
            line = input(prompt if interactive else "")
        except (EOFError, KeyboardInterrupt):
            if interactive:
                echo("")
            break
        if history is not None:
            history.save()
        if line.strip().casefold() in ("quit", "exit", "q"):
            break
        if not interactive and line.strip():
            echo(f"{session.ruleset}> {line.strip()}")
        reply = session.handle(line)
        if reply:
            echo(reply)
    if history is not None:
        history.save()
    text_log, json_log = session.log_paths
    if session.entries:
        last = f"log: {text_log} and {json_log}"
    elif session.saved:
        last = f"log (every entry undone): {text_log} and {json_log}"
    else:
        last = "nothing was played; no log written"
    echo("\n".join(wrap_lines([last], session.width())))
