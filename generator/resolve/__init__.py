"""Resolvers: every procedure of every ruleset, with modifiers, sources and exact odds.

Each ruleset has a module here; a resolver class registers itself with `@register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, TypeVar

from generator.errors import shown
from generator.loading import Rules
from generator.resolve.base import (
    REQUIRED,
    Choice,
    Context,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    Resolver,
    SteppedResolver,
)

__all__ = [
    "REQUIRED",
    "Choice",
    "Context",
    "Inputs",
    "Outcome",
    "Param",
    "ResolveInputError",
    "Resolver",
    "SteppedResolver",
    "all_resolvers",
    "get_resolver",
    "parse_inputs",
    "register",
]

_MODULES = ("duel", "high_seas", "impulse", "convoy", "tactical", "flob")
_REGISTRY: dict[str, Resolver] = {}
_loaded = False

R = TypeVar("R", bound=type[Resolver])


def register(cls: R) -> R:
    """Class decorator: make a resolver available by its id."""
    if cls.id in _REGISTRY:
        raise RuntimeError(f"resolver id '{cls.id}' registered twice")
    _REGISTRY[cls.id] = cls()
    return cls


def all_resolvers() -> dict[str, Resolver]:
    """Return every resolver by id, in ruleset order."""
    global _loaded
    if not _loaded:
        for name in _MODULES:
            try:
                importlib.import_module(f"generator.resolve.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"generator.resolve.{name}":
                    raise
        _loaded = True
    return dict(_REGISTRY)


def get_resolver(resolver_id: str) -> Resolver:
    """Return the resolver `resolver_id`, or raise listing what there is."""
    resolvers = all_resolvers()
    if resolver_id in resolvers:
        return resolvers[resolver_id]
    ruleset = resolver_id.split(".", 1)[0]
    same = [r for r in resolvers if r.startswith(ruleset + ".")]
    hint = ", ".join(same) if same else ", ".join(sorted({r.split(".")[0] for r in resolvers}))
    what = "resolvers of " + ruleset if same else "rulesets"
    raise ResolveInputError(f"unknown resolver '{shown(resolver_id)}' ({what}: {hint})")


def parse_inputs(resolver: Resolver, rules: Rules, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Convert NAME=VALUE inputs, fill defaults, and refuse unknown or missing ones."""
    names = {p.name: p for p in resolver.params}
    for name in raw:
        if name not in names:
            known = ", ".join(names) or "no inputs"
            raise ResolveInputError(
                f"{resolver.id}: unknown input '{shown(name)}' (inputs: {known})"
            )
    out: dict[str, Any] = {}
    for param in resolver.params:
        if param.name in raw:
            out[param.name] = param.convert(resolver.id, raw[param.name], rules)
        elif param.required:
            raise ResolveInputError(
                f"{resolver.id}: missing {param.name}=VALUE ({param.describe(rules)}: {param.help})"
            )
        else:
            out[param.name] = param.default
    resolver.check(out, rules)
    return out
