"""Resolvers for the tactical ruleset (seed 003).

Readings (rules-notes.md, tactical): attribute losses roll the 1D8 attribute table once per
point, re-rolling repeats so the attributes differ; grapeshot losses all go to Crew;
chainshot Hull losses are ignored; the broadside table's "1-5" row is 5 or less.
"""

from __future__ import annotations

from typing import Any

from generator.loading import Rules
from generator.lookup import lookup
from generator.resolve import (
    Choice,
    Context,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    Resolver,
    SteppedResolver,
    register,
)

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
            return Outcome("flees", tuple(changes), (("roll", total),))
        ctx.explain(f"Modified roll {total} is above {limit}: the ship stays.")
        return Outcome("stays", (), (("roll", total),))


MOVE = "tactical.movement"
WIND_MOVE = "tactical.wind-movement"
CARDS = "tactical.cards"
BROADSIDE_RULES = "tactical.broadside-rules"
AMMO = "tactical.ammunition"
BROADSIDE = "tactical.broadside"
BROADSIDE_MODS = "tactical.broadside-modifiers"
ATTRIBUTE = "tactical.broadside-attribute"
BOARDING = "tactical.boarding"
ZERO = "tactical.zero-ratings"
WIND = "tactical.wind"
WIND_CHANGE = "tactical.wind-change"

# Ties in a boarding action are re-rolled this many times with real dice; a tie after that
# is settled by one roll over the untied pairs of faces, which gives exactly the same
# chances as re-rolling for ever (and keeps the exact odds finite).
REAL_TIE_REROLLS = 2


def _card_list(rules: Rules, resolver_id: str, raw: str, roll_field: str, what: str) -> list[str]:
    """Return the card labels named in `raw` (comma-separated), refusing unknown ones.

    Every card must change `roll_field` (``movement``, ``broadside``, ``boarding``), and no
    card may be played more often than the deck holds it.
    """
    if raw.strip().casefold() in ("", "none", "no"):
        return []
    table = rules.table(CARDS)
    (axis,) = table.axes
    useful = [v.label for i, v in enumerate(axis.values) if roll_field in table.cell(i)]
    chosen: list[str] = []
    for name in (part.strip() for part in raw.split(",")):
        index = next((i for i, v in enumerate(axis.values) if v.matches(name)), None)
        if index is None or roll_field not in table.cell(index):
            problem = "is not a card" if index is None else f"does not change {what}"
            raise ResolveInputError(
                f"{resolver_id}: cards: '{name}' {problem} (cards for {what}: {', '.join(useful)})"
            )
        label = axis.values[index].label
        chosen.append(label)
        copies = int(table.cell(index).get("copies", 1))
        if chosen.count(label) > copies:
            raise ResolveInputError(
                f"{resolver_id}: cards: the deck holds only {copies} copies of {label}"
            )
    return chosen


def _play_cards(ctx: Context, cards: list[str], roll_field: str) -> int:
    """Apply the cards' changes to a roll, recording each; return the total change."""
    total = 0
    for card in cards:
        fields = ctx.lookup(CARDS, card=card).fields()
        who = " (played by the opponent)" if fields.get("target") == "opponent" else ""
        if fields.get("when"):
            ctx.explain(f"{card} counts only when {fields['when']}.")
        total += ctx.add(f"{card}{who}", int(fields[roll_field]), CARDS)
    return total


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


@register
class Movement(Resolver):
    id = "tactical.movement"
    title = "Movement roll"
    summary = (
        "2D6 - 4 + Sails + Skill + Swiftness, changed by the wind for the ship's heading and "
        "by movement cards: the most spaces the ship may move (below 0 read as 0)."
    )
    tables = (MOVE, WIND_MOVE, CARDS)
    examples = (
        {"sails": "4", "skill": "0", "swiftness": "-1"},
        {
            "sails": "6",
            "swiftness": "-3",
            "heading": "in-the-direction-of-the-wind",
            "cards": "gust-of-wind",
        },
        {
            "sails": "2",
            "skill": "1",
            "swiftness": "1",
            "heading": "diagonally-against-the-wind",
            "cards": "calm-waters",
        },
        {"sails": "3", "calm": "yes"},
        {"sails": "0"},
        {"heading": "directly-against-the-wind"},
    )
    params = (
        Param("sails", "Sails rating", minimum=-10, maximum=20, default=4),
        Param("skill", "Skill rating", minimum=-10, maximum=20, default=0),
        Param("swiftness", "Swiftness rating", minimum=-10, maximum=20, default=-1),
        Choice(
            "heading",
            "the ship's heading to the wind",
            kind="choice",
            choices_from=(WIND_MOVE, "heading"),
            default="Parallel to the wind",
        ),
        Param("calm", "the wind is Calm (no wind change to the roll)", kind="bool", default=False),
        Param(
            "cards",
            "movement cards played on this ship, comma-separated (or none)",
            kind="text",
            default="none",
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        _card_list(rules, self.id, inputs["cards"], "movement", "the Movement roll")

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        needed = ctx.param(MOVE, "sails_needed_to_move")
        if inputs["sails"] < needed:
            ctx.explain(
                f"Sails {inputs['sails']}: a ship with a Sails rating of zero or less may not "
                "move unless pulled."
            )
            return Outcome("may not move", ("May not move unless pulled",))
        wind = 0
        if inputs["calm"]:
            ctx.explain("Calm: no wind change to the Movement roll (decision: the seed is silent).")
        else:
            cell = ctx.lookup(WIND_MOVE, heading=inputs["heading"])
            fields = cell.fields()
            if not fields["allowed"]:
                return Outcome("may not move", ("May not go directly against the wind",))
            if fields["movement"]:
                wind = ctx.add(cell.text, int(fields["movement"]), WIND_MOVE)
        total = ctx.roll(ctx.param(MOVE, "movement_dice"), "Movement roll")
        total += ctx.add("Base Movement roll", ctx.param(MOVE, "movement_base_modifier"), MOVE)
        for rating in ctx.param(MOVE, "movement_adds"):
            if inputs[rating]:
                total += ctx.add(f"{rating.title()} rating", inputs[rating], MOVE)
        total += wind
        cards = _card_list(ctx.rules, self.id, inputs["cards"], "movement", "the Movement roll")
        total += _play_cards(ctx, cards, "movement")
        spaces = max(total, 0)
        if total < 0:
            ctx.explain(f"Movement {total} is read as 0 spaces (decision).")
        ctx.explain(f"The ship may move up to {_plural(spaces, 'space')}.")
        return Outcome(
            _plural(spaces, "space"),
            (f"Move up to {_plural(spaces, 'space')} (diagonal 1.5, face change 0.5)",),
            (("movement", total), ("spaces", spaces)),
        )


@register
class Broadside(SteppedResolver):
    id = "tactical.broadside"
    title = "Broadside"
    summary = (
        "1D10 + Cannon + Gunnery, -1 per space over 2, roundshot -1, cards; the Broadside "
        "table gives how many rating points are lost, each on a different attribute rolled "
        "on the 1D8 table (repeats re-rolled); grapeshot losses all go to Crew, chainshot Hull "
        "losses are ignored. Range 4 + Gunnery, grapeshot -2, roundshot +2."
    )
    tables = (BROADSIDE_RULES, AMMO, BROADSIDE, BROADSIDE_MODS, ATTRIBUTE, CARDS)
    examples = (
        {"ammo": "roundshot", "distance": "3", "cannon": "4"},
        {"ammo": "grapeshot", "distance": "2", "cannon": "6", "cards": "sweep-the-decks"},
        {"ammo": "chainshot", "distance": "4", "cannon": "5", "gunnery": "1"},
        {"ammo": "roundshot", "distance": "6", "cannon": "1", "cards": "maneuver"},
        {
            "ammo": "chainshot",
            "distance": "1",
            "cannon": "6",
            "gunnery": "2",
            "cards": "damaged-rigging,rake-the-bow",
        },
    )
    params = (
        Param(
            "ammo",
            "ammunition declared",
            kind="choice",
            choices_from=(AMMO, "ammo"),
            default="Roundshot",
        ),
        Param("distance", "spaces to the target", minimum=1, maximum=30, default=2),
        Param("cannon", "attacker's Cannon rating", minimum=0, maximum=20, default=4),
        Param("gunnery", "attacker's Gunnery rating", minimum=0, maximum=20, default=0),
        Param(
            "cards",
            "cards played on this broadside, comma-separated (or none)",
            kind="text",
            default="none",
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        cards = _card_list(rules, self.id, inputs["cards"], "broadside", "the Broadside Table roll")
        table = rules.table(CARDS)
        for card in cards:
            index = table.axes[0].labels.index(card)
            needs = table.cell(index).get("ammo")
            if needs and needs != inputs["ammo"].casefold():
                raise ResolveInputError(
                    f"{self.id}: {card} only helps {needs.title()}, not {inputs['ammo']}"
                )
        reach, how = self._range(rules, inputs)
        if inputs["distance"] > reach:
            raise ResolveInputError(
                f"{self.id}: distance={inputs['distance']} is beyond the range {reach} of "
                f"{inputs['ammo']} ({how})"
            )

    @staticmethod
    def _range(rules: Rules, inputs: Inputs) -> tuple[int, str]:
        """Return the broadside's range and how it is made up."""
        params = rules.table(BROADSIDE_RULES).params
        base = int(params["base_range"])
        rating = str(params["range_adds"])
        ammo = int(lookup(rules, AMMO, {"ammo": inputs["ammo"]}).fields()["range_modifier"])
        reach = base + int(inputs[rating]) + ammo
        how = f"{base} + {rating.title()} {inputs[rating]}, {inputs['ammo']} {ammo:+d}"
        return reach, how

    @staticmethod
    def _faces(ctx: Context) -> tuple[str, dict[int, str]]:
        """Return the attribute table's dice and the rating each face gives."""
        table = ctx.table(ATTRIBUTE)
        (axis,) = table.axes
        dice = axis.dice or "1d8"
        sides = int(dice.lower().partition("d")[2])
        rating = {}
        for face in range(1, sides + 1):
            index = next(i for i, v in enumerate(axis.values) if v.contains(face))
            rating[face] = str(table.cell(index)["rating"])
        return dice, rating

    def start(self, rules: Rules, inputs: Inputs) -> tuple[str]:
        return ("roll",)

    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        if state == ("roll",):
            return self._table_roll(ctx, inputs)
        _, lost, taken = state
        dice, rating = self._faces(ctx)
        number = len(taken) + 1
        face = ctx.roll(dice, f"Attribute {number}")
        if rating[face] in taken:
            left = [f for f in rating if rating[f] not in taken]
            ctx.explain(
                f"{rating[face].title()} has already lost a point: re-roll. Re-rolling until a "
                f"new attribute comes up is the same as one d{len(left)} over the faces left, "
                f"in order: {', '.join(map(str, left))}."
            )
            face = left[ctx.roll(f"1d{len(left)}", f"Attribute {number}, re-rolled") - 1]
        ctx.lookup(ATTRIBUTE, roll=face)
        order = list(dict.fromkeys(rating.values()))
        hit = sorted((*taken, rating[face]), key=order.index)
        if len(hit) < min(lost, len(order)):
            return ("attribute", lost, tuple(hit))
        return self._losses(ctx, inputs, lost, hit)

    def _table_roll(self, ctx: Context, inputs: Inputs) -> Any:
        ammo = inputs["ammo"]
        reach, how = self._range(ctx.rules, inputs)
        ctx.explain(f"{ammo} at {inputs['distance']} spaces: in range {reach} ({how}).")
        (axis,) = ctx.table(BROADSIDE).axes
        total = ctx.roll(axis.dice or "1d10", "Broadside table")
        if inputs["cannon"]:
            total += ctx.modifier(BROADSIDE_MODS, "attacker-cannon", times=inputs["cannon"])
        if inputs["gunnery"]:
            total += ctx.modifier(BROADSIDE_MODS, "attacker-gunnery", times=inputs["gunnery"])
        over = inputs["distance"] - ctx.param(BROADSIDE_MODS, "distance_free_spaces")
        if over > 0:
            total += ctx.modifier(BROADSIDE_MODS, "distance", times=over)
        ammo_id = ammo.casefold()
        if any(m.id == ammo_id for m in ctx.table(BROADSIDE_MODS).modifiers):
            total += ctx.modifier(BROADSIDE_MODS, ammo_id)
        cards = _card_list(
            ctx.rules, self.id, inputs["cards"], "broadside", "the Broadside Table roll"
        )
        total += _play_cards(ctx, cards, "broadside")
        cell = ctx.lookup(BROADSIDE, roll=total)
        lost = int(cell.fields()["attributes_lost"])
        if not lost:
            return Outcome("no damage", (), (("points", 0),))
        losses = lookup(ctx.rules, AMMO, {"ammo": ammo}).fields()
        if losses["losses_to"] == "crew":
            ctx.explain(
                f"{losses['losses']} So {_plural(lost, 'point')} come off Crew; no attribute roll."
            )
            return Outcome(f"-{lost} Crew", (f"Target: -{lost} Crew Rating",), (("points", lost),))
        return ("attribute", lost, ())

    def _losses(self, ctx: Context, inputs: Inputs, lost: int, hit: list[str]) -> Outcome:
        how = lookup(ctx.rules, AMMO, {"ammo": inputs["ammo"]}).fields()
        ignored = "hull" in hit and bool(how["hull_losses_ignored"])
        if ignored:
            ctx.explain(f"{how['losses']} The Hull point is not lost.")
            hit = [r for r in hit if r != "hull"]
        result = ", ".join(f"-1 {r.title()}" for r in hit) or "no loss"
        if ignored:
            result += " (Hull ignored)"
        changes = tuple(f"Target: -1 {r.title()} Rating" for r in hit)
        return Outcome(result, changes, (("points", lost), ("attributes", tuple(hit))))


@register
class Boarding(SteppedResolver):
    id = "tactical.boarding"
    title = "Boarding action"
    summary = (
        "Each side rolls 1D6 + Crew + Boarding (+2 per boarding card); the higher score wins "
        "and captures the loser's ship; ties are re-rolled. A ship at zero Crew cannot repel "
        "boarders."
    )
    tables = (BOARDING, CARDS, ZERO)
    examples = (
        {},
        {"boarder_crew": "5", "defender_crew": "4", "boarder_boarding": "1"},
        {
            "boarder_crew": "3",
            "defender_crew": "6",
            "boarder_cards": "rally-the-men,swords-and-pistols",
        },
        {"defender_crew": "0"},
    )
    params = (
        Param(
            "boarder_crew", "Crew rating of the ship that boards", minimum=0, maximum=20, default=4
        ),
        Param("boarder_boarding", "its Boarding rating", minimum=0, maximum=20, default=0),
        Param("defender_crew", "Crew rating of the ship boarded", minimum=0, maximum=20, default=4),
        Param("defender_boarding", "its Boarding rating", minimum=0, maximum=20, default=0),
        Param(
            "boarder_cards",
            "boarding cards the boarder plays (comma-separated, or none)",
            kind="text",
            default="none",
        ),
        Param(
            "defender_cards",
            "boarding cards the defender plays (comma-separated, or none)",
            kind="text",
            default="none",
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        for side in ("boarder", "defender"):
            _card_list(
                rules, self.id, inputs[f"{side}_cards"], "boarding", "the Boarding Action roll"
            )

    def _bonus(self, ctx: Context, inputs: Inputs, side: str) -> int:
        total = 0
        for rating in ctx.param(BOARDING, "adds"):
            if inputs[f"{side}_{rating}"]:
                total += ctx.add(
                    f"{side.title()}: {rating.title()} rating", inputs[f"{side}_{rating}"], BOARDING
                )
        cards = _card_list(
            ctx.rules, self.id, inputs[f"{side}_cards"], "boarding", "the Boarding Action roll"
        )
        for card in cards:
            fields = ctx.lookup(CARDS, card=card).fields()
            total += ctx.add(f"{side.title()}: {card}", int(fields["boarding"]), CARDS)
        return total

    def start(self, rules: Rules, inputs: Inputs) -> tuple[str]:
        return ("start",)

    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        """First round: bonuses and the rolls; then ("tie", re-rolls so far, bonuses)."""
        die = ctx.param(BOARDING, "roll")
        if state == ("start",):
            if inputs["defender_crew"] == 0:
                zero = ctx.lookup(ZERO, rating="Crew")
                if not zero.fields()["can_repel_boarders"]:
                    return self._won(ctx, "boarder", 0, 0)
            boarder = self._bonus(ctx, inputs, "boarder")
            defender = self._bonus(ctx, inputs, "defender")
            a = ctx.roll(die, "Boarder's boarding action roll")
            d = ctx.roll(die, "Defender's boarding action roll")
            return self._compare(ctx, 0, boarder, defender, a, d)
        _, tries, boarder, defender = state
        if tries <= REAL_TIE_REROLLS:
            a = ctx.roll(die, "Boarder's boarding action roll (re-roll)")
            d = ctx.roll(die, "Defender's boarding action roll (re-roll)")
            return self._compare(ctx, tries, boarder, defender, a, d)
        sides = int(die.lower().partition("d")[2])
        untied = [
            (x, y)
            for x in range(1, sides + 1)
            for y in range(1, sides + 1)
            if x + boarder != y + defender
        ]
        ctx.explain(
            "Re-rolling until the scores differ is the same as one roll over the "
            f"{len(untied)} untied pairs of faces (boarder's die, defender's die), counted in "
            "order."
        )
        a, d = untied[ctx.roll(f"1d{len(untied)}", "Tie re-roll over the untied pairs") - 1]
        ctx.explain(f"Boarder's die {a}, defender's die {d}.")
        return self._compare(ctx, tries, boarder, defender, a, d)

    def _compare(
        self, ctx: Context, tries: int, boarder: int, defender: int, a: int, d: int
    ) -> Any:
        ours, theirs = a + boarder, d + defender
        if ours == theirs:
            ctx.explain(f"Tie at {ours}: reroll.")
            return ("tie", tries + 1, boarder, defender)
        winner = "boarder" if ours > theirs else "defender"
        ctx.explain(f"Boarder {ours} v defender {theirs}: the {winner} wins.")
        return self._won(ctx, winner, ours, theirs)

    def _won(self, ctx: Context, winner: str, ours: int, theirs: int) -> Outcome:
        points = ctx.param(BOARDING, "crew_points_to_control")
        loser = "defender" if winner == "boarder" else "boarder"
        return Outcome(
            f"{winner} captures",
            (
                f"{winner.title()} captures the {loser}'s ship: sink it, or transfer "
                f"{_plural(points, 'crew point')} to it to gain control of it",
            ),
            (("boarder", ours), ("defender", theirs)),
        )


@register
class WindChange(Resolver):
    id = "tactical.wind-change"
    title = "Wind change"
    summary = (
        "1D6 at the beginning of each turn: 1-5 the wind stays the same, 6 roll 1D10 on the "
        "Wind Direction table (at the beginning of the game, roll the table at once)."
    )
    tables = (WIND_CHANGE, WIND)
    examples = ({}, {"initial": "yes"})
    params = (
        Param(
            "initial",
            "beginning of the game: roll the Wind Direction table",
            kind="bool",
            default=False,
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        if not inputs["initial"]:
            (axis,) = ctx.table(WIND_CHANGE).axes
            roll = ctx.roll(axis.dice or "1d6", "Wind change")
            if not ctx.lookup(WIND_CHANGE, roll=roll).fields()["changes"]:
                return Outcome("stays the same", (), (("roll", roll),))
        (axis,) = ctx.table(WIND).axes
        roll = ctx.roll(axis.dice or "1d10", "Wind direction")
        cell = ctx.lookup(WIND, roll=roll)
        fields = cell.fields()
        if isinstance(fields["from_bearing"], int):
            wind = f"wind from {cell.text}"
            change = (
                f"Wind from {cell.text} ({fields['from_bearing']}°), blowing towards "
                f"{fields['downwind_bearing']}°"
            )
        else:
            wind = cell.text
            change = f"Wind: {cell.text}"
        result = wind if inputs["initial"] else f"changes: {wind}"
        return Outcome(result, (change,), (("wind", cell.text),))
