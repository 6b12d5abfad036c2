"""The scenario briefing: the cover page of a packet."""

from __future__ import annotations

from typing import Any

from generator.errors import InputError
from generator.generate.base import get_generator
from generator.loading import Rules


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        parts = [
            str(v) for k, v in value.items() if k not in ("roll",) and v not in (None, "", "—")
        ]
        return ", ".join(parts)
    return "" if value is None else str(value)


def context(
    rules: Rules, data: dict[str, Any] | None, paper: str, ruleset: str | None
) -> dict[str, Any]:
    if data is None:
        raise InputError("the briefing is about a scenario: give --seed or --from")
    gen = get_generator(str(data["ruleset"]))
    sides = []
    for side in data["sides"]:
        units = side.get(gen.units, [])
        sides.append(
            {
                "name": side.get("name", ""),
                "units": [u.get("name", "") for u in units],
                "count": len(units),
                "strength": round(gen.strength(side), 1),
            }
        )
    house = [f"{t} ({rules.table(t).title})" for t in data.get("house_tables", [])]
    return {
        "scenario": data,
        "ruleset_title": rules.rulesets[str(data["ruleset"])].title,
        "wind": _describe(data.get("wind")),
        "weather": _describe(data.get("weather")),
        "extra": {
            key: _describe(data[key])
            for key in ("venue", "range", "battle_clock", "year")
            if data.get(key) not in (None, "", {})
        },
        "sides": sides,
        "unit_word": "Duellist" if gen.units == "characters" else "Ships",
        "measure": gen.strength_measure,
        "house_tables": house,
    }
