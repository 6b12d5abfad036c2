"""Resolvers for the tactical ruleset (seed 003).

Readings (rules-notes.md, tactical): attribute losses roll the 1D8 attribute table once per
point, re-rolling repeats so the attributes differ; grapeshot losses all go to Crew;
chainshot Hull losses are ignored; the broadside table's "1-5" row is 5 or less. Zero
ratings: at zero Hull or zero Crew a ship cannot move; at zero Hull it sinks in 1D6 turns;
at zero Cannon it sinks at once; at zero Crew it cannot board and loses any boarding.
"""

from __future__ import annotations

from typing import Any

from generator.dice import plain_dice
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
from generator.text import fold

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


def _untied_pair(
    ctx: Context, die: str, first: int, second: int, names: tuple[str, str]
) -> tuple[int, int]:
    """Roll two sides' dice once over the pairs of faces whose scores differ.

    Re-rolling ties until the scores differ gives each untied pair the same chance, so one
    roll over those pairs ends a long run of ties with exactly the same odds.
    """
    sides = plain_dice(die).sides
    untied = [
        (x, y) for x in range(1, sides + 1) for y in range(1, sides + 1) if x + first != y + second
    ]
    ctx.explain(
        "Re-rolling until the scores differ is the same as one roll over the "
        f"{len(untied)} untied pairs of faces ({names[0]}'s die, {names[1]}'s die), counted in "
        "order."
    )
    a, b = untied[ctx.roll(f"1d{len(untied)}", "Tie re-roll over the untied pairs") - 1]
    ctx.explain(f"{names[0].capitalize()}'s die {a}, {names[1]}'s die {b}.")
    return a, b


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


# the target's ratings a broadside can take points from, as its input names say them
TARGET_RATINGS = ("sails", "hull", "crew", "cannon")


def _at_zero(ctx: Context, inputs: Inputs, losses: dict[str, int]) -> tuple[str, list[str]]:
    """Say what follows where a loss brings a target rating that was given to zero.

    Returns the words added to the result ("; Hull 0: ...") and the changes to note.
    A rating does not fall below zero (tactical.zero-ratings).
    """
    words: list[str] = []
    changes: list[str] = []
    for rating, points in losses.items():
        before = inputs.get(f"target_{rating}")
        if before is None:
            continue
        after = max(before - points, 0)
        name = rating.title()
        if before == 0:
            ctx.explain(f"Target {name} is already 0: the loss changes nothing.")
            continue
        changes.append(f"Target: {name} {before} → {after}")
        if after:
            continue
        zero = ctx.lookup(ZERO, rating=rating)
        fields = zero.fields()
        words.append(f"{name} 0: {fields['in_play']}")
        changes.append(f"Target at zero {name}: {zero.text} ({fields['in_play']})")
        if fields.get("sink_dice"):
            changes.append(
                f"Roll {fields['sink_dice']} for the turns until it sinks (tactical.sinking)"
            )
    return "".join(f"; {w}" for w in words), changes


@register
class Movement(Resolver):
    id = "tactical.movement"
    title = "Movement roll"
    summary = (
        "2D6 - 4 + Sails + Skill + Swiftness, changed by the wind for the ship's heading and "
        "by movement cards: the most spaces the ship may move (below 0 read as 0). A ship at "
        "zero Sails, Hull or Crew may not move."
    )
    tables = (MOVE, WIND_MOVE, CARDS, ZERO)
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
        {"sails": "5", "hull": "0"},
        {"crew": "0"},
    )
    params = (
        Param("sails", "Sails rating", minimum=-10, maximum=20, default=4),
        Param("skill", "Skill rating", minimum=-10, maximum=20, default=0),
        Param("swiftness", "Swiftness rating", minimum=-10, maximum=20, default=-1),
        Param(
            "hull",
            "Hull rating (optional; at 0 the ship cannot move)",
            minimum=0,
            maximum=20,
            default=None,
        ),
        Param(
            "crew",
            "Crew rating (optional; at 0 the ship cannot move)",
            minimum=0,
            maximum=20,
            default=None,
        ),
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
        for rating in ("hull", "crew"):
            if inputs[rating] == 0:
                zero = ctx.lookup(ZERO, rating=rating)
                if not zero.fields()["can_move"]:
                    ctx.explain(f"{rating.title()} 0: the ship cannot move.")
                    return Outcome("may not move", (f"Cannot move: {zero.text}",))
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
        "losses are ignored. Range 4 + Gunnery, grapeshot -2, roundshot +2. Given the target's "
        "ratings, says what a rating brought to zero means (sinks, cannot move ...)."
    )
    tables = (BROADSIDE_RULES, AMMO, BROADSIDE, BROADSIDE_MODS, ATTRIBUTE, CARDS, ZERO)
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
        {
            "ammo": "roundshot",
            "cannon": "6",
            "target_sails": "1",
            "target_hull": "1",
            "target_crew": "2",
            "target_cannon": "1",
        },
        {"ammo": "grapeshot", "cannon": "5", "target_crew": "2"},
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
        *(
            Param(
                f"target_{rating}",
                f"target's {rating.title()} rating (optional: says what a loss to 0 means)",
                minimum=0,
                maximum=20,
                default=None,
            )
            for rating in TARGET_RATINGS
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        for rating in TARGET_RATINGS:
            if inputs[f"target_{rating}"] == 0:
                zero = lookup(rules, ZERO, {"rating": rating})
                if zero.fields()["sinks"] == "immediately":
                    raise ResolveInputError(
                        f"{self.id}: target_{rating}=0: the target has already sunk ({zero.text})"
                    )
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
        sides = plain_dice(dice).sides
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
            after, changes = _at_zero(ctx, inputs, {"crew": lost})
            return Outcome(
                f"-{lost} Crew{after}",
                (f"Target: -{lost} Crew Rating", *changes),
                (("points", lost),),
            )
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
        after, zeros = _at_zero(ctx, inputs, dict.fromkeys(hit, 1))
        changes = (*(f"Target: -1 {r.title()} Rating" for r in hit), *zeros)
        return Outcome(result + after, changes, (("points", lost), ("attributes", tuple(hit))))


@register
class Boarding(SteppedResolver):
    id = "tactical.boarding"
    title = "Boarding action"
    summary = (
        "Each side rolls 1D6 + Crew + Boarding (+2 per boarding card); the higher score wins "
        "and captures the loser's ship; ties are re-rolled. A ship at zero Crew cannot board "
        "and loses any boarding: it cannot repel boarders, and the winner must transfer a crew "
        "point to it to gain control of it."
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
        {"boarder_crew": "1", "defender_crew": "0"},
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
        if inputs["boarder_crew"] == 0:
            zero = lookup(rules, ZERO, {"rating": "crew"})
            if not zero.fields()["can_board"]:
                raise ResolveInputError(
                    f"{self.id}: boarder_crew=0: a ship at zero Crew cannot board "
                    f"({zero.fields()['in_play']}); the other ship may board it"
                )
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
                zero = ctx.lookup(ZERO, rating="crew")
                if zero.fields()["loses_boarding"] or not zero.fields()["can_repel_boarders"]:
                    ctx.explain(
                        "The defender is at zero Crew: it cannot repel boarders and loses the "
                        "boarding action without a roll."
                    )
                    return self._won(ctx, inputs, "boarder", 0, 0)
            boarder = self._bonus(ctx, inputs, "boarder")
            defender = self._bonus(ctx, inputs, "defender")
            a = ctx.roll(die, "Boarder's boarding action roll")
            d = ctx.roll(die, "Defender's boarding action roll")
            return self._compare(ctx, inputs, 0, boarder, defender, a, d)
        _, tries, boarder, defender = state
        if tries <= REAL_TIE_REROLLS:
            a = ctx.roll(die, "Boarder's boarding action roll (re-roll)")
            d = ctx.roll(die, "Defender's boarding action roll (re-roll)")
            return self._compare(ctx, inputs, tries, boarder, defender, a, d)
        a, d = _untied_pair(ctx, die, boarder, defender, ("boarder", "defender"))
        return self._compare(ctx, inputs, tries, boarder, defender, a, d)

    def _compare(
        self, ctx: Context, inputs: Inputs, tries: int, boarder: int, defender: int, a: int, d: int
    ) -> Any:
        ours, theirs = a + boarder, d + defender
        if ours == theirs:
            ctx.explain(f"Tie at {ours}: reroll.")
            return ("tie", tries + 1, boarder, defender)
        winner = "boarder" if ours > theirs else "defender"
        ctx.explain(f"Boarder {ours} v defender {theirs}: the {winner} wins.")
        return self._won(ctx, inputs, winner, ours, theirs)

    def _won(self, ctx: Context, inputs: Inputs, winner: str, ours: int, theirs: int) -> Outcome:
        points = ctx.param(BOARDING, "crew_points_to_control")
        loser = "defender" if winner == "boarder" else "boarder"
        crew = _plural(points, "crew point")
        if inputs[f"{loser}_crew"] == 0:
            captured = (
                f"{winner.title()} captures the {loser}'s ship, which has no crew: the {winner} "
                f"must transfer {crew} to it to gain control of it, or sink it"
            )
        else:
            captured = (
                f"{winner.title()} captures the {loser}'s ship: sink it, or transfer {crew} to "
                "it to gain control of it"
            )
        changes = [captured]
        if inputs[f"{winner}_crew"] == points:
            zero = ctx.lookup(ZERO, rating="crew")
            changes.append(
                f"Transferring leaves the {winner} at zero Crew: {zero.fields()['in_play']}"
            )
        return Outcome(
            f"{winner} captures",
            tuple(changes),
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


DRAW = "tactical.draw"
ADMIRAL = "tactical.admiral"
PHASES = "tactical.turn-phases"
NO_ADMIRAL = ("none", "no", "")


def _admiral(rules: Rules, resolver_id: str, raw: str) -> tuple[str, dict[str, Any]] | None:
    """Return the admiral result named in `raw` and its cell, or None for no admiral."""
    if raw.strip().casefold() in NO_ADMIRAL:
        return None
    table = rules.table(ADMIRAL)
    for cell in table.cells:
        if fold(str(cell["result"])) == fold(raw):
            return str(cell["result"]), dict(cell)
    known = ", ".join(str(cell["result"]) for cell in table.cells)
    raise ResolveInputError(f"{resolver_id}: admiral={raw}: not one of none, {known}")


@register
class Draw(Resolver):
    id = "tactical.draw"
    title = "Draw Phase"
    summary = (
        "Each player draws 2 cards (a Brilliant admiral one more); if the deck runs out, "
        "shuffle the discard pile and draw from it; the hand is at most 5 cards (a "
        "Tactician's 2 more), excess cards are discarded."
    )
    tables = (DRAW, ADMIRAL, CARDS, PHASES)
    examples = (
        {"hand": "4", "deck": "10"},
        {"hand": "3", "deck": "1", "discard": "6", "admiral": "brilliant"},
        {"hand": "5", "deck": "0", "admiral": "tactician"},
        {"hand": "0", "deck": "1", "discard": "0"},
    )
    params = (
        Param(
            "hand", "cards in the player's hand before drawing", minimum=0, maximum=99, default=0
        ),
        Param("deck", "cards left in the deck", minimum=0, maximum=99, default=20),
        Param(
            "discard",
            "cards in the discard pile (optional: if left out, enough for a reshuffle)",
            minimum=0,
            maximum=99,
            default=None,
        ),
        Param(
            "admiral",
            "the fleet's admiral (Admiral Character Table result, or none)",
            kind="text",
            default="none",
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        _admiral(rules, self.id, inputs["admiral"])
        size = int(rules.table(CARDS).params["deck_size"])
        held = inputs["hand"] + inputs["deck"] + (inputs["discard"] or 0)
        if held > size:
            raise ResolveInputError(
                f"{self.id}: hand + deck + discard = {held}, but the action deck has only "
                f"{size} cards"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        phases = [item.text for item in ctx.table(PHASES).items]
        if self.title in phases:
            ctx.explain(f"{self.title}: phase {phases.index(self.title) + 1} of {len(phases)}.")
        wanted = ctx.add("Each player draws", ctx.param(DRAW, "cards_drawn"), DRAW)
        limit = ctx.param(DRAW, "max_hand_size")
        admiral = _admiral(ctx.rules, self.id, inputs["admiral"])
        if admiral is not None:
            name, cell = admiral
            if cell.get("extra_cards"):
                wanted += ctx.add(f"{name}: {cell['bonus']}", int(cell["extra_cards"]), ADMIRAL)
            if cell.get("hand_size"):
                change = ctx.add(f"{name}: {cell['bonus']}", int(cell["hand_size"]), ADMIRAL)
                limit += change
            if not cell.get("extra_cards") and not cell.get("hand_size"):
                ctx.explain(f"{name}: no change to the Draw Phase.")
        deck, discard = inputs["deck"], inputs["discard"]
        changes: list[str] = []
        first = min(deck, wanted)
        deck -= first
        if first:
            changes.append(f"Draw {_plural(first, 'card')} from the deck")
        rest = wanted - first
        reshuffled = False
        second = 0
        if rest:
            reshuffled = discard is None or discard > 0
            if reshuffled:
                pile = "" if discard is None else f" ({_plural(discard, 'card')})"
                ctx.explain(
                    f"The deck runs out with {_plural(rest, 'card')} still to draw: shuffle "
                    f"the discard pile{pile} and draw from it."
                )
                second = rest if discard is None else min(discard, rest)
                if discard is not None:
                    deck, discard = discard - second, 0
                changes.append(
                    f"Deck out: shuffle the discard pile, draw {_plural(second, 'card')} from it"
                )
            if second < rest:
                ctx.explain(
                    f"No cards left to draw: {_plural(rest - second, 'card')} cannot be drawn."
                )
        drawn = first + second
        hand = inputs["hand"] + drawn
        excess = max(hand - limit, 0)
        ctx.explain(
            f"Drew {_plural(drawn, 'card')}: hand {hand}, maximum {limit}"
            + (f": discard {excess}." if excess else ".")
        )
        if excess:
            changes.append(f"Discard {_plural(excess, 'card')} of your choice (hand {limit})")
            if discard is not None:
                discard += excess
        result = f"draws {drawn}" + (" after a reshuffle" if reshuffled else "")
        if excess:
            result += f", discards {excess}"
        details: list[tuple[str, Any]] = [
            ("drawn", drawn),
            ("reshuffled", reshuffled),
            ("discarded", excess),
            ("hand", hand - excess),
            ("hand_limit", limit),
        ]
        if inputs["discard"] is not None or not reshuffled:
            details.append(("deck", deck))
        if discard is not None:
            details.append(("discard", discard))
        return Outcome(result, tuple(changes), tuple(details))


@register
class MoveOrder(SteppedResolver):
    id = "tactical.move-order"
    title = "Who moves first (Move Phase)"
    summary = (
        "The player with the ship with the highest movement rating (Sails + Skill + "
        "Swiftness) chooses whether to go first or second; if tied, each rolls 1D6 and the "
        "higher roll chooses (equal rolls rolled again)."
    )
    tables = (MOVE,)
    examples = (
        {},
        {"player": "5", "opponent": "3"},
        {"player": "2", "opponent": "4", "choice": "second"},
    )
    params = (
        Param(
            "player",
            "highest movement rating (Sails + Skill + Swiftness) of the player's ships",
            minimum=-30,
            maximum=60,
            default=3,
        ),
        Param(
            "opponent",
            "highest movement rating of the opponent's ships",
            minimum=-30,
            maximum=60,
            default=3,
        ),
        Choice(
            "choice",
            "what the side that chooses picks",
            choices=("first", "second"),
            default="first",
        ),
    )

    def start(self, rules: Rules, inputs: Inputs) -> tuple[str]:
        return ("start",)

    def step(self, ctx: Context, inputs: Inputs, state: Any) -> Any:
        die = ctx.param(MOVE, "tie_roll")
        player, opponent = inputs["player"], inputs["opponent"]
        if state == ("start",):
            if player != opponent:
                chooser = "player" if player > opponent else "opponent"
                ctx.explain(
                    f"Movement rating {player} v {opponent}: the {chooser} has the ship with "
                    "the highest movement rating and chooses."
                )
                return self._chosen(ctx, inputs, chooser)
            ctx.explain(f"Tied at movement rating {player}: roll high on {die}.")
            tries = 0
        else:
            tries = state[1]
        if tries <= REAL_TIE_REROLLS:
            again = " (re-roll)" if tries else ""
            a = ctx.roll(die, f"Player's roll{again}")
            b = ctx.roll(die, f"Opponent's roll{again}")
        else:
            a, b = _untied_pair(ctx, die, 0, 0, ("player", "opponent"))
        if a == b:
            ctx.explain(f"Both rolled {a}: roll again.")
            return ("tie", tries + 1)
        chooser = "player" if a > b else "opponent"
        ctx.explain(f"Player {a} v opponent {b}: the {chooser} rolled high and chooses.")
        return self._chosen(ctx, inputs, chooser)

    @staticmethod
    def _chosen(ctx: Context, inputs: Inputs, chooser: str) -> Outcome:
        other = "opponent" if chooser == "player" else "player"
        first = chooser if inputs["choice"] == "first" else other
        second = other if first == chooser else chooser
        ctx.explain(f"The {chooser} chooses to go {inputs['choice']}: the {first} moves first.")
        return Outcome(
            f"{first} goes first",
            (
                f"The {chooser} chooses to go {inputs['choice']}",
                f"Players take turns moving one ship at a time, the {first} first, then the "
                f"{second}",
            ),
            (("chooser", chooser), ("first", first)),
        )


@register
class Sinking(Resolver):
    id = "tactical.sinking"
    title = "Sinking"
    summary = (
        "A ship reduced to zero Hull cannot move and sinks in 1D6 turns; one reduced to zero "
        "Cannon blows its hold and sinks at once; zero Crew or Sails do not sink a ship."
    )
    tables = (ZERO,)
    examples = ({}, {"rating": "cannon"}, {"rating": "crew"})
    params = (
        Choice(
            "rating",
            "the rating reduced to zero",
            choices_from=(ZERO, "rating"),
            default="Hull",
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        zero = ctx.lookup(ZERO, rating=inputs["rating"])
        fields = zero.fields()
        rating = inputs["rating"]
        meanwhile = () if fields["can_move"] else ("Until then it cannot move",)
        if fields.get("sink_dice"):
            turns = ctx.roll(str(fields["sink_dice"]), "Turns until the ship sinks")
            ctx.explain(f"At zero {rating} the ship sinks in {_plural(turns, 'turn')}.")
            return Outcome(
                f"sinks in {_plural(turns, 'turn')}",
                (f"The ship sinks in {_plural(turns, 'turn')}", *meanwhile),
                (("turns", turns),),
            )
        if fields["sinks"] == "immediately":
            ctx.explain(f"At zero {rating} the ship sinks at once.")
            return Outcome("sinks at once", ("The ship sinks at once",), (("turns", 0),))
        ctx.explain(f"Zero {rating} does not sink a ship: it {fields['in_play']}.")
        return Outcome("does not sink", (f"The ship {fields['in_play']}",))
