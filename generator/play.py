"""An interactive session at the table: resolver calls in short form, repeat, undo, a log.

Each line a GM types is one of::

    broadside attack=5 ammo=single-round-shot     a resolver of this ruleset (prefix optional)
    odds broadside attack=5                       exact chances of its outcomes
    roll 2d6+3          odds 8d6>=5               dice
    lookup broadside attack=5 roll=7              a table cell
    again | undo | log | list | help | quit

The session seed makes the whole session repeatable: every call draws its own seed from
the session's random source. After every change the log is rewritten (text and JSON)
under the output folder, atomically, so an interrupted session keeps what was played.
The folder is checked when the session starts, and the log never replaces an existing
file: if another session already took this second's name, ``-2``, ``-3`` ... is added.
"""

from __future__ import annotations

import json
import random
import shlex
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from generator.assignments import parse_assignments
from generator.errors import DataError, InputError, QuartermasterError, one_line
from generator.loading import Rules
from generator.output import check_folder, write_atomic

HELP = """\
Type a resolver and its inputs, e.g.  {example}
  odds RESOLVER ...     exact chance of each outcome
  roll EXPR             roll dice, e.g. roll 2d6+3
  odds EXPR             chances of a dice expression, e.g. odds 8d6>=5
  lookup TABLE A=V ...  a table cell (the ruleset prefix is optional)
  again                 repeat the last call with new dice
  undo                  take the last entry out of the log
  log                   show the session so far
  list                  the resolvers of this ruleset and their inputs
  quit                  end the session (the log is already saved)"""


@dataclass
class Entry:
    """One resolved line of the session."""

    command: str
    seed: int | None
    text: str
    data: dict[str, Any]


@dataclass
class PlaySession:
    """A game in progress for one ruleset."""

    rules: Rules
    ruleset: str
    seed: int
    output_dir: Path
    started: datetime = field(default_factory=datetime.now)
    entries: list[Entry] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.ruleset not in self.rules.rulesets:
            known = ", ".join(self.rules.rulesets)
            raise InputError(f"unknown ruleset '{self.ruleset}' (known: {known})")
        self.rng = random.Random(self.seed)
        self.last: str | None = None
        check_folder(self.output_dir)
        stamp = self.started.strftime("%Y%m%d-%H%M%S")
        self.log_base = self.output_dir / f"play-{self.ruleset}-{stamp}"
        self._log_claimed = False

    @property
    def log_paths(self) -> tuple[Path, Path]:
        return self.log_base.with_suffix(".txt"), self.log_base.with_suffix(".json")

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
            return HELP.format(example=self._example())
        if head == "list":
            return self._list()
        if head == "log":
            return "\n\n".join(e.text for e in self.entries) or "(nothing played yet)"
        if head == "undo":
            if not self.entries:
                return "nothing to undo"
            gone = self.entries.pop()
            self.save()
            return f"undone: {gone.command}"
        if head in ("again", "repeat"):
            if self.last is None:
                return "nothing to repeat yet"
            return self._record(self.last)
        reply = self._record(line)
        self.last = line
        return reply

    def _record(self, line: str) -> str:
        seed = self.rng.randrange(2**31)
        text, data = self._evaluate(line, seed)
        self.entries.append(Entry(line, seed, text, data))
        self.save()
        return text

    def _evaluate(self, line: str, seed: int) -> tuple[str, dict[str, Any]]:
        parts = shlex.split(line)
        head, args = parts[0], parts[1:]
        if head == "roll":
            from generator.dice import roll

            if not args:
                raise InputError("roll needs a dice expression, e.g. roll 2d6+3")
            result = roll(" ".join(args), random.Random(seed))
            return f"{result.expression} = {result.total}   {result.account}", result.to_json()
        if head == "lookup":
            from generator.lookup import lookup

            if not args:
                raise InputError("lookup needs a table id, e.g. lookup broadside attack=5 roll=7")
            table_id = self._resolver_id(args[0])
            found = lookup(self.rules, table_id, parse_assignments(args[1:], "lookup values"))
            return f"{found.table.title}: {found.text}", found.to_json()
        if head == "odds" and args and self._is_resolver(args[0]):
            return self._resolve(args[0], args[1:], seed, want_odds=True)
        if head == "odds":
            from generator.dice import distribution, mean
            from generator.dice.show import fraction_text, odds_json

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
        from generator.dice.show import fraction_text
        from generator.resolve import get_resolver, parse_inputs
        from generator.resolve.engine import odds, run
        from generator.resolve.show import odds_json

        resolver = get_resolver(self._resolver_id(name))
        inputs = parse_inputs(resolver, self.rules, parse_assignments(args, "inputs"))
        if want_odds:
            chances = odds(resolver, self.rules, inputs)
            ordered = sorted(chances.items(), key=lambda kv: -kv[1])
            rows = [f"  {fraction_text(p):>12}  {float(p) * 100:6.2f}%  {k}" for k, p in ordered]
            return f"{resolver.title} (odds)\n" + "\n".join(rows), odds_json(
                resolver, inputs, chances
            )
        resolution = run(resolver, self.rules, inputs, seed)
        lines = [f"{resolver.title}", *(f"  {x}" for x in resolution.lines)]
        lines.append(f"  → {resolution.outcome.result}")
        lines.extend(f"  • {c}" for c in resolution.outcome.changes)
        return "\n".join(lines), resolution.to_json()

    def _is_resolver(self, name: str) -> bool:
        from generator.resolve import all_resolvers

        return self._resolver_id(name) in all_resolvers()

    def _example(self) -> str:
        from generator.resolve import all_resolvers

        for resolver in all_resolvers().values():
            if resolver.ruleset == self.ruleset:
                short = resolver.id.split(".", 1)[1]
                inputs = " ".join(f"{k}={v}" for k, v in resolver.examples[-1].items())
                return f"{short} {inputs}".strip()
        return "roll 2d6"

    def _list(self) -> str:
        from generator.resolve import all_resolvers

        lines = []
        for resolver in all_resolvers().values():
            if resolver.ruleset != self.ruleset:
                continue
            short = resolver.id.split(".", 1)[1]
            inputs = " ".join(
                f"{p.name}=" + (p.describe(self.rules) if p.required else p.default_text())
                for p in resolver.params
            )
            lines.append(f"{short:<22} {inputs}")
        return "\n".join(lines) or "(no resolvers for this ruleset)"

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
        body = "\n\n".join(f"> {e.command}\n{e.text}" for e in self.entries)
        write_atomic(text_path, (header + "\n" + body + "\n").encode("utf-8"))
        data = {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "started": self.started.isoformat(timespec="seconds"),
            "entries": [
                {"command": e.command, "seed": e.seed, "result": e.data} for e in self.entries
            ],
        }
        write_atomic(
            json_path, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        )
