"""Shell completion of values: rulesets, table ids, resolver ids and their inputs, sheet
kinds, papers and packet sections.

Typer calls these while the shell asks for completions (``quartermaster
--install-completion`` sets that up), so each must be quick and must never raise: a
completion that fails offers nothing rather than printing a traceback into the shell.
The CLI imports this module at start-up, so what a completer reads (the rules, the ruleset
specs, the resolvers, the sheet kinds: 20 to 65 ms of imports each, measured with
``python -X importtime``) is imported inside it, only when the shell asks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import wraps
from pathlib import Path
from typing import Any

import click

from generator.input_words import assignments, input_words, starting, table_words, typed_word
from generator.render.paper import PAPERS

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
    return starting(_ruleset_ids(), incomplete)


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
    return starting(PAPERS, incomplete.lower())


@_quiet
def sheet_kinds(incomplete: str) -> list[str]:
    """Complete a sheet kind."""
    from generator.render.sheets import sheet_kinds as kinds

    return starting(kinds(), incomplete)


def _dotted(ids: Iterable[str], incomplete: str, *, heads: bool) -> list[str]:
    """Complete a dotted id (``flob.bro<TAB>``): before the dot, the ruleset ids followed
    by their dot (and, with `heads`, the ruleset ids alone too); after it, the ids."""
    ids = list(ids)
    if "." in incomplete:
        return starting(ids, incomplete)
    rulesets = list(dict.fromkeys(i.split(".")[0] for i in ids))
    return starting([*(rulesets if heads else ()), *(f"{r}." for r in rulesets)], incomplete)


@_quiet
def tables(ctx: click.Context, incomplete: str) -> list[str]:
    """Complete a table id, or a ruleset id followed by its dot."""
    return _dotted((t.id for t in _rules(ctx).all_tables()), incomplete, heads=False)


@_quiet
def tables_or_rulesets(ctx: click.Context, incomplete: str) -> list[str]:
    """Complete the `tables` argument: a ruleset id, or one of its table ids."""
    return _dotted((t.id for t in _rules(ctx).all_tables()), incomplete, heads=True)


@_quiet
def lookup_values(ctx: click.Context, incomplete: str) -> list[str]:
    """Complete a lookup's ``AXIS=VALUE``: the axis names, then the axis's labels."""
    rules = _rules(ctx)
    table = rules.table(str(ctx.params.get("table_id")))
    return _shell_assignments(table_words(table), _typed(ctx), incomplete)


def _typed(ctx: click.Context) -> list[str]:
    """Return the NAME=VALUE words typed before the one being completed."""
    return [str(v) for v in ctx.params.get("values") or ()] + list(ctx.args)


def _shell_assignments(
    choices: Mapping[str, tuple[str, ...]], typed: list[str], incomplete: str
) -> list[str]:
    """`assignments` as a shell asks for them. Bash splits ``ammo=do`` at the ``=`` (the
    words arrive as ``ammo``, ``=``, ``do``), so after a lone ``=`` the bare words are
    offered; other shells pass ``ammo=do`` whole."""
    if len(typed) >= 2 and typed[-1] == "=":
        words = (typed_word(w) for w in choices.get(typed[-2], ()))
        return starting(words, incomplete)
    return assignments(choices, typed, incomplete)


@_quiet
def resolvers(incomplete: str) -> list[str]:
    """Complete a resolver id, or a ruleset id followed by its dot."""
    from generator.resolve import all_resolvers

    return _dotted(all_resolvers(), incomplete, heads=False)


@_quiet
def resolvers_or_rulesets(incomplete: str) -> list[str]:
    """Complete the `resolvers` argument: a ruleset id, or one resolver id."""
    from generator.resolve import all_resolvers

    return _dotted(all_resolvers(), incomplete, heads=True)


@_quiet
def resolver_inputs(ctx: click.Context, incomplete: str) -> list[str]:
    """Complete a resolver's ``NAME=VALUE``: its input names, then a choice's words."""
    from generator.resolve import get_resolver

    resolver = get_resolver(str(ctx.params.get("resolver_id")))
    return _shell_assignments(input_words(resolver, _rules(ctx)), _typed(ctx), incomplete)
