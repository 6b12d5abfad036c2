"""Jinja in the ruleset specs: what a sheet prints about generated data, written as data.

A spec's text values (``"{{ ship.rate }} rate, {{ ship.guns }} guns"``) are Jinja templates
and its conditions (``if: "ship.flagship"``) Jinja expressions. They read plain generated
data, which an edited file may leave short, so a missing field is simply empty (Jinja's
chainable undefined) and None prints as nothing; the sheet's HTML template escapes the
result. Each text is compiled once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from jinja2 import ChainableUndefined, Environment, Template, TemplateSyntaxError

from generator.rulesets import SpecError
from generator.text import counted, signed


def _finalize(value: Any) -> Any:
    return "" if value is None else value


@cache
def _environment() -> Environment:
    env = Environment(undefined=ChainableUndefined, autoescape=False, finalize=_finalize)
    env.filters["signed"] = signed
    env.filters["counted"] = counted
    return env


@cache
def _template(text: str, where: str) -> Template:
    try:
        return _environment().from_string(text)
    except TemplateSyntaxError as exc:
        raise SpecError(f"{where}: {exc.message}: {text!r}") from exc


@cache
def _expression(text: str, where: str) -> Callable[..., Any]:
    try:
        return _environment().compile_expression(text)
    except TemplateSyntaxError as exc:
        raise SpecError(f"{where}: {exc.message}: {text!r}") from exc


def syntax_error(text: str, *, condition: bool = False) -> str | None:
    """Return what Jinja says is wrong with `text`, a spec's text value (or, with
    `condition`, its condition), or None if Jinja reads it."""
    try:
        if condition:
            _environment().compile_expression(text)
        else:
            _environment().from_string(text)
    except TemplateSyntaxError as exc:
        return exc.message or "not Jinja"
    return None


def text(template: str, where: str, **context: Any) -> str:
    """Return `template` (a spec's text value) rendered over `context`, trimmed.

    Args:
        where: ``file:line`` of the value in its spec, for a syntax error.
    """
    return _template(template, where).render(**context).strip()


def holds(expression: str, where: str, **context: Any) -> bool:
    """Return whether `expression` (a spec's condition) is true over `context`."""
    return bool(_expression(expression, where)(**context))
