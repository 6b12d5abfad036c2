"""Shell completion of values: rulesets, table ids, resolver ids and their inputs, sheet
kinds, papers and packet sections.

Typer calls these while the shell asks for completions (``quartermaster
--install-completion`` sets that up), so each must be quick and must never raise: a
completion that fails offers nothing rather than printing a traceback into the shell.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import Any

import click

PAPERS = ("a4", "letter")
SECTIONS = (
    "map",
    "counters",
    "cards",
    "playsheet",
    "quick-reference",
    "spares",
    "gm-notes",
)

Completer = Callable[..., list[str]]


def _quiet(function: Completer) -> Completer:
    """Wrap a completer so that any failure (a broken house-rules file ...) offers nothing."""

    @wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> list[str]:
        try:
            return function(*args, **kwargs)
        except Exception:
            return []

    return wrapper


def _starting(words: Iterable[str], incomplete: str) -> list[str]:
    return [word for word in words if word.startswith(incomplete)]


def _rules(ctx: click.Context) -> Any:
    from generator.loading import load_rules

    house = ctx.params.get("rules_file")
    return load_rules(Path(house) if house else None)


def _ruleset_ids() -> list[str]:
    from generator.rulesets import ruleset_specs

    return list(ruleset_specs())


@_quiet
def rulesets(incomplete: str) -> list[str]:
    """Complete a ruleset id."""
    return _starting(_ruleset_ids(), incomplete)


@_quiet
def ruleset_list(incomplete: str) -> list[str]:
    """Complete the last of comma-separated ruleset ids (``batch tactical,fl<TAB>``)."""
    return _comma_list(_ruleset_ids(), incomplete)


@_quiet
def sections(incomplete: str) -> list[str]:
    """Complete the last of comma-separated packet sections (``--without map,co<TAB>``)."""
    return _comma_list(SECTIONS, incomplete)


def _comma_list(words: Iterable[str], incomplete: str) -> list[str]:
    done, _, last = incomplete.rpartition(",")
    taken = set(done.split(",")) if done else set()
    prefix = f"{done}," if done else ""
    return [prefix + word for word in words if word.startswith(last) and word not in taken]


@_quiet
def papers(incomplete: str) -> list[str]:
    """Complete --paper."""
    return _starting(PAPERS, incomplete.lower())


@_quiet
def sheet_kinds(incomplete: str) -> list[str]:
    """Complete a sheet kind."""
    from generator.render.sheets import sheet_kinds as kinds

    return _starting(kinds(), incomplete)


@_quiet
def tables(ctx: click.Context, incomplete: str) -> list[str]:
    """Complete a table id (``flob.bro<TAB>``), or a ruleset id followed by its dot."""
    rules = _rules(ctx)
    if "." not in incomplete:
        return _starting((f"{r}." for r in rules.rulesets), incomplete)
    return _starting((t.id for t in rules.all_tables()), incomplete)


@_quiet
def tables_or_rulesets(ctx: click.Context, incomplete: str) -> list[str]:
    """Complete the `tables` argument: a ruleset id, or one of its table ids."""
    rules = _rules(ctx)
    if "." not in incomplete:
        return _starting([*rules.rulesets, *(f"{r}." for r in rules.rulesets)], incomplete)
    return _starting((t.id for t in rules.all_tables()), incomplete)


@_quiet
def lookup_values(ctx: click.Context, incomplete: str) -> list[str]:
    """Complete a lookup's ``AXIS=VALUE``: the axis names, then the axis's labels."""
    rules = _rules(ctx)
    table = rules.table(str(ctx.params.get("table_id")))
    if table.kind == "modifiers":
        choices = {"modifier": [m.id for m in table.modifiers]}
    else:
        choices = {axis.name: [] if axis.numeric else list(axis.labels) for axis in table.axes}
    return _assignments(choices, _typed(ctx), incomplete)


def _typed(ctx: click.Context) -> list[str]:
    """Return the NAME=VALUE words typed before the one being completed."""
    return [str(v) for v in ctx.params.get("values") or ()] + list(ctx.args)


def _assignments(choices: dict[str, list[str]], args: list[str], incomplete: str) -> list[str]:
    """Complete ``NAME=VALUE``: the names not given yet, then the words of that name.

    Bash splits ``ammo=do`` at the ``=`` (the words arrive as ``ammo``, ``=``, ``do``), so
    after a lone ``=`` the bare words are offered; other shells pass ``ammo=do`` whole.
    """
    if len(args) >= 2 and args[-1] == "=":
        return [_word(w) for w in choices.get(args[-2], []) if _word(w).startswith(incomplete)]
    given = {a.partition("=")[0] for a in args}
    name, equals, value = incomplete.partition("=")
    if not equals:
        return [f"{n}=" for n in choices if n.startswith(name) and n not in given]
    words = (_word(w) for w in choices.get(name, []))
    return [f"{name}={word}" for word in words if word.startswith(value.casefold())]


def _word(label: str) -> str:
    """Return a table label as it is easiest to type (``Double Round Shot`` →
    ``double-round-shot``; inputs ignore case, spaces and hyphens)."""
    return "-".join(label.casefold().split())


@_quiet
def resolvers(incomplete: str) -> list[str]:
    """Complete a resolver id (``flob.bro<TAB>``), or a ruleset id followed by its dot."""
    from generator.resolve import all_resolvers

    ids = list(all_resolvers())
    if "." not in incomplete:
        return _starting(dict.fromkeys(f"{i.split('.')[0]}." for i in ids), incomplete)
    return _starting(ids, incomplete)


@_quiet
def resolvers_or_rulesets(incomplete: str) -> list[str]:
    """Complete the `resolvers` argument: a ruleset id, or one resolver id."""
    from generator.resolve import all_resolvers

    ids = list(all_resolvers())
    if "." not in incomplete:
        heads = list(dict.fromkeys(i.split(".")[0] for i in ids))
        return _starting([*heads, *(f"{h}." for h in heads)], incomplete)
    return _starting(ids, incomplete)


@_quiet
def resolver_inputs(ctx: click.Context, incomplete: str) -> list[str]:
    """Complete a resolver's ``NAME=VALUE``: its input names, then a choice's words."""
    from generator.resolve import get_resolver

    resolver = get_resolver(str(ctx.params.get("resolver_id")))
    rules = _rules(ctx)
    choices = {p.name: list(_param_words(p, rules)) for p in resolver.params}
    return _assignments(choices, _typed(ctx), incomplete)


def _param_words(param: Any, rules: Any) -> tuple[str, ...]:
    if param.kind == "bool":
        return ("yes", "no")
    if param.kind == "choice":
        return tuple(param.allowed(rules))
    return ()
