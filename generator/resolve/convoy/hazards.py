"""Convoy shallows and fog."""

from __future__ import annotations

from generator.resolve import Context, Effect, Inputs, Outcome, Param, Resolver, register
from generator.resolve.convoy.common import FOG, FOG_ROLL, SHALLOWS, SHALLOWS_DICE, runs_aground


@register
class Shallows(Resolver):
    id = "convoy.shallows"
    title = "Shallows"
    summary = (
        "On moving into the first shallows hex: small 1d6, medium 2d6, large 3d6, one die fewer "
        "if battle hardened; any 6 runs aground."
    )
    tables = (SHALLOWS, SHALLOWS_DICE)
    examples = (
        {"size": "Large"},
        {"size": "Medium", "battle_hardened": "yes"},
        {"size": "Small", "battle_hardened": "yes"},
    )
    params = (
        Param(
            "size",
            "ship size",
            kind="choice",
            choices_from=(SHALLOWS_DICE, "size"),
            default="Medium",
        ),
        Param(
            "battle_hardened", "battle hardened crew (one die fewer)", kind="bool", default=False
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        if runs_aground(ctx, inputs["size"], inputs["battle_hardened"]):
            refloat = ctx.param(SHALLOWS, "refloat")
            return Outcome(
                "aground",
                (
                    "Aground: stop moving",
                    "No shooting at all while grounded",
                    f"Re-float {refloat}",
                ),
                (("aground", True),),
                (Effect("ship", "state", state="aground"),),
            )
        return Outcome("clear", (), (("aground", False),))


@register
class Fog(Resolver):
    id = "convoy.fog"
    title = "Fog"
    summary = "D6 for the first fog hex entered this turn: 1, 2 the move ends; 3-6 no effect."
    tables = (FOG, FOG_ROLL)
    examples = ({}, {"first_hex": "no"})
    params = (
        Param(
            "first_hex", "the first fog hex the ship enters this turn", kind="bool", default=True
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        changes = ("No shooting into or out of fog",)
        if not inputs["first_hex"]:
            ctx.explain("Only the first fog hex entered is rolled for: no effect on movement.")
            return Outcome("no effect on movement in this turn", changes)
        axis = ctx.table(FOG_ROLL).axes[0]
        roll = ctx.roll(axis.dice or "1d6", "Fog: first fog hex entered")
        cell = ctx.lookup(FOG_ROLL, roll=roll)
        if cell.fields()["move_ends"]:
            return Outcome(cell.text, ("Move ends in the fog hex", *changes), (("roll", roll),))
        return Outcome(cell.text, changes, (("roll", roll),))
