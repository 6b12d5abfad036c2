"""Resolvers: every procedure of every ruleset, with modifiers, sources and exact odds.

Each ruleset has a module here; a resolver class registers itself with `@register`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from generator.errors import shown
from generator.loading import Rules
from generator.resolve.base import (
    REQUIRED,
    Choice,
    Context,
    Effect,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    Resolver,
    SteppedResolver,
)
from generator.suggest import nearest, unknown

__all__ = [
    "REQUIRED",
    "Choice",
    "Context",
    "Effect",
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
    """Return every resolver by id, in ruleset order (each ruleset's spec names the module
    whose import registers its resolvers)."""
    from generator.rulesets import import_code, ruleset_specs

    global _loaded
    if not _loaded:
        for spec in ruleset_specs().values():
            import_code(spec, "resolvers")
        _loaded = True
    order = {ruleset: place for place, ruleset in enumerate(ruleset_specs())}
    return dict(
        sorted(_REGISTRY.items(), key=lambda item: order.get(item[0].split(".", 1)[0], len(order)))
    )


def get_resolver(resolver_id: str) -> Resolver:
    """Return the resolver `resolver_id`, or raise listing what there is."""
    resolvers = all_resolvers()
    if resolver_id in resolvers:
        return resolvers[resolver_id]
    ruleset = resolver_id.split(".", 1)[0]
    same = [r for r in resolvers if r.startswith(ruleset + ".")]
    if same:
        raise ResolveInputError(
            unknown("resolver", resolver_id, same, listing=f"resolvers of {ruleset}")
        )
    rulesets = sorted({r.split(".")[0] for r in resolvers})
    guess = nearest(resolver_id, resolvers) or nearest(ruleset, rulesets)
    hint = f": did you mean '{guess}'?" if guess is not None else ""
    raise ResolveInputError(
        f"unknown resolver '{shown(resolver_id)}'{hint} (ids are RULESET.NAME, with RULESET "
        f"one of: {', '.join(rulesets)}; 'quartermaster resolvers RULESET' lists them)"
    )


def parse_inputs(resolver: Resolver, rules: Rules, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Convert NAME=VALUE inputs, fill defaults, and refuse unknown or missing ones."""
    names = {p.name: p for p in resolver.params}
    for name in raw:
        if name not in names:
            if not names:
                raise ResolveInputError(f"{resolver.id}: unknown input '{shown(name)}' (no inputs)")
            raise ResolveInputError(
                f"{resolver.id}: " + unknown("input", name, names, listing="inputs")
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
