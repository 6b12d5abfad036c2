"""The tactical Morale Phase: a damaged ship's flight test."""

from __future__ import annotations

from generator.resolve import Context, Effect, Inputs, Outcome, Param, Resolver, register

FLIGHT = "tactical.flight-modifiers"


@register
class FlightTest(Resolver):
    id = "tactical.flight-test"
    title = "Flight test (Morale Phase)"
    summary = "1D6 for a ship damaged this turn; 2 or less (after modifiers) flees."
    tables = ("tactical.flight-test", FLIGHT)
    examples = ({}, {"flagship": "yes", "courage": "1"}, {"ally": "yes", "fleet_fled": "yes"})
    params = (
        Param("flagship", "the ship is its fleet's flagship", kind="bool", default=False),
        Param("courage", "bonus points of Courage", minimum=0, maximum=20, default=0),
        Param("small", "small ship (4th class or less)", kind="bool", default=False),
        Param("lost_two", "lost 2 or more points in any one rating", kind="bool", default=False),
        Param("ally", "the ship is an ally", kind="bool", default=False),
        Param("fleet_fled", "one or more ships of its fleet have fled", kind="bool", default=False),
        Param("flagship_fled", "its fleet's flagship has fled", kind="bool", default=False),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        rule = "tactical.flight-test"
        total = ctx.roll(ctx.param(rule, "roll"), "Flight test")
        for name, modifier_id in (
            ("flagship", "flagship"),
            ("small", "small-ship"),
            ("lost_two", "rating-losses"),
            ("ally", "ally"),
            ("fleet_fled", "fleet-ships-fled"),
            ("flagship_fled", "flagship-fled"),
        ):
            if inputs[name]:
                total += ctx.modifier(FLIGHT, modifier_id)
        if inputs["courage"]:
            total += ctx.modifier(FLIGHT, "courage", times=inputs["courage"])
        limit = ctx.param(rule, "flees_on_or_below")
        if total <= limit:
            ctx.explain(f"Modified roll {total} is {limit} or less: the ship flees the battle.")
            changes = ["Ship flees the battle"]
            if inputs["ally"]:
                changes.append("Every allied ship of the fleet flees too")
            # the allies' flight falls on other ships than these two: in the words only
            fled = (Effect("ship", "state", state="fled"),)
            return Outcome("flees", tuple(changes), (("roll", total),), fled)
        ctx.explain(f"Modified roll {total} is above {limit}: the ship stays.")
        return Outcome("stays", (), (("roll", total),))
