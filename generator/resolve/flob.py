"""Resolvers for Form Line of Battle 5.1 (seed 004): sailing, tacking, repairs, fires,
reloading, gunnery, critical hits, strike tests and boarding.

Every number comes from data/flob.yaml: modifiers through ``ctx.modifier``, stated numbers
through ``ctx.param``, cells through ``ctx.lookup``. Where the sheet is silent the reading
taken here is said in the resolver's summary and in its explanation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from generator.dice import plain_dice
from generator.errors import shown
from generator.loading import Rules
from generator.loading.cells import CellFormatError, parse_signed
from generator.lookup import lookup, too_long_number
from generator.resolve import (
    Context,
    Effect,
    Inputs,
    Outcome,
    Param,
    ResolveInputError,
    Resolver,
    SteppedResolver,
    register,
)
from generator.text import fold

TURN = "flob.turn-sequence"
SAILING = "flob.sailing-movement"
LOST_MASTS = "flob.lost-masts"
TACKING = "flob.tacking"
TACKING_MODS = "flob.tacking-modifiers"
REPAIRS = "flob.repairs"
REPAIR_MODS = "flob.repair-modifiers"
FIRES = "flob.fire-fighting"
FIRE_MODS = "flob.fire-fighting-modifiers"
RELOADING = "flob.reloading"
RELOAD_MODS = "flob.reload-modifiers"
GUNNERY = "flob.gunnery-procedure"
RANGE_MODS = "flob.range-modifiers"
RANGE_BANDS = "flob.range-bands"
TACTICAL = "flob.tactical-modifiers"
BROADSIDE = "flob.broadside"
AMMO_EFFECTS = "flob.ammunition-effects"
AMMO_LOADING = "flob.ammunition-loading"
REDUCTION = "flob.damage-reduction"
CRITICAL_RULE = "flob.critical-hit-rule"
CRITICALS = "flob.critical-hits"
STRIKE = "flob.strike-test"
STRIKE_MODS = "flob.strike-modifiers"
BOARD_INIT = "flob.boarding-initiation"
BOARD_INIT_MODS = "flob.boarding-initiation-modifiers"
BOARDING = "flob.boarding-resolution"

# The sheet names crew qualities Elite, Veteran, Poor and (5.2) "Experienced Crews or
# Better"; "average" is the unmodified quality. Order, worst to best, is a reading.
CREW = ("poor", "average", "experienced", "veteran", "elite")
# Captain and admiral qualities as the sheet names them (6.8, 8.1, 6.11), plus the
# unnamed 0 of 5.7 called "average" (flob.tacking-modifiers note).
OFFICER = ("superior", "inspired", "average", "inept")
HURT = ("unhurt", "wounded", "killed")
MASTS = ("intact", "lost", "dismasted")
RATES = ("1", "2", "3", "4", "5", "6", "unrated")
# A broadside with neither range= nor distance= is at Short range (a label of
# flob.range-modifiers; a house table without it needs range= given).
DEFAULT_RANGE = "Short"


# --- shared helpers -----------------------------------------------------------------


_FOUND: dict[tuple[str, tuple[str, ...]], tuple[Any, str | None]] = {}


def _modifier_id(rules: Rules, table_id: str, *words: str) -> str | None:
    """Return the id of the modifier whose id names every one of `words`, if any."""
    table = rules.table(table_id)
    cached = _FOUND.get((table_id, words))
    if cached is not None and cached[0] is table:  # same rules (a house file may differ)
        return cached[1]
    found = next((m.id for m in table.modifiers if set(words) <= set(m.id.split("-"))), None)
    _FOUND[(table_id, words)] = (table, found)
    return found


def _quality(ctx: Context, table_id: str, *words: str) -> int:
    """Apply the modifier named by `words` (e.g. crew, elite); 0 if the list has none."""
    found = _modifier_id(ctx.rules, table_id, *words)
    return 0 if found is None else ctx.modifier(table_id, found)


def _rate_number(rules: Rules, rate: str) -> int:
    if rate == "unrated":
        return int(rules.table(BOARD_INIT_MODS).params["unrated_rate"])
    return int(rate)


def _rate_name(rate: str) -> str:
    if rate == "unrated":
        return "unrated ship"
    suffix = {"1": "st", "2": "nd", "3": "rd"}.get(rate, "th")
    return f"{rate}{suffix} rate"


def _dice(expression: str) -> tuple[int, int]:
    """Return the count and sides of plain ``NdS`` (for dice whose faces matter)."""
    dice = plain_dice(expression)
    return dice.count, dice.sides


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def _crew_param(name: str, help_text: str = "crew quality") -> Param:
    return Param(name, help_text, kind="choice", choices=CREW, default="average")


def _officer_param(name: str, help_text: str) -> Param:
    return Param(name, help_text, kind="choice", choices=OFFICER, default="average")


def _hurt_param(name: str, help_text: str) -> Param:
    return Param(name, help_text, kind="choice", choices=HURT, default="unhurt")


# --- 4.1 the turn-order deck ---------------------------------------------------------

# The two colours of the turn-order deck; flob.turn-sequence gives how many of each
# (params red_cards, black_cards).
COLOURS = ("red", "black")


@register
class TurnOrder(Resolver):
    id = "flob.turn-order"
    title = "Turn order: the card draw (4.1)"
    summary = (
        "Shuffle the turn-order deck (3 red, 3 black cards, flob.turn-sequence) and turn over "
        "every card: the first red and the first black card are the Command Phases of the "
        "red and the black player, the second and third of each colour their Action Phases. "
        "Counts the colour of the first card (who has the first Command Phase). Reading: "
        "red is one player's colour and black the other's; the sheet does not say which."
    )
    tables = (TURN,)
    examples = ({},)

    def check(self, inputs: Inputs, rules: Rules) -> None:
        params = rules.table(TURN).params
        for name in (*(f"{colour}_cards" for colour in COLOURS), "command_phase_cards"):
            count = params.get(name)
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise ResolveInputError(f"{self.id}: {TURN} needs a number {name} of 1 or more")

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        command = int(ctx.param(TURN, "command_phase_cards"))
        left = {colour: int(ctx.param(TURN, f"{colour}_cards")) for colour in COLOURS}
        drawn = dict.fromkeys(COLOURS, 0)
        colours: list[str] = []
        phases: list[tuple[str, str]] = []
        changes: list[str] = []
        red, black = COLOURS
        for position in range(1, sum(left.values()) + 1):
            cards = left[red] + left[black]
            if left[red] and left[black]:
                # one of the cards left, each as likely: the first faces are the red cards
                (face,) = ctx.roll_dice(
                    1, cards, f"Card {position} ({left[red]} {red}, {left[black]} {black} left)"
                )
                colour = red if face <= left[red] else black
                if left[red] == 1:
                    why = f"face 1 is the {red} card"
                else:
                    why = f"faces 1-{left[red]} are the {red} cards"
            else:
                colour = red if left[red] else black
                why = "the last card" if cards == 1 else f"only {colour} cards are left"
            left[colour] -= 1
            drawn[colour] += 1
            phase = "Command Phase" if drawn[colour] <= command else "Action Phase"
            which = f"{_ordinal(drawn[colour])} {colour} card"
            ctx.explain(f"Card {position}: {colour} ({why}), the {which}: {phase}.")
            colours.append(colour)
            phases.append((colour, phase))
            changes.append(f"{position}. {colour.capitalize()} player: {phase} ({which})")
        first = colours[0]
        ctx.explain(
            f"The {first} player's Command Phase comes first: what the Command Phase does "
            "in the first phase only is done in it (flob.command-phase)."
        )
        return Outcome(
            f"{first} first",
            tuple(changes),
            (("colours", tuple(colours)), ("phases", tuple(phases))),
        )


# --- 5.2 / 5.11 movement ------------------------------------------------------------


@register
class MovementDice(Resolver):
    id = "flob.movement"
    title = "Movement under sail (5.2, 5.11)"
    summary = (
        "Roll the d6 for the point of sail, rig and class, fewer dice for lost masts (5.11). "
        "Class 1 square riggers beating with experienced or better crews and no masts lost "
        "may roll 2 dice and move one of them. Readings: crews rank poor, average, "
        "experienced, veteran, elite; a 1d6-1 or 1d6-2 never moves less than 0; a ship "
        "with every mast gone does not sail (refused)."
    )
    tables = (SAILING, LOST_MASTS)
    examples = (
        {"point_of_sail": "broad-reaching", "rig": "square-rigged", "ship_class": "2"},
        {"point_of_sail": "beating", "ship_class": "1", "crew": "veteran"},
        {"point_of_sail": "running", "rig": "fore-and-aft-rigged", "masts_lost": "1"},
        {"point_of_sail": "quarter-reaching", "masts_lost": "1", "two_masted": "yes"},
    )
    params = (
        Param(
            "point_of_sail",
            "point of sail",
            kind="choice",
            choices_from=(SAILING, "point_of_sail"),
            default="Broad Reaching",
        ),
        Param("rig", "rig", kind="choice", choices_from=(SAILING, "rig"), default="Square Rigged"),
        Param("ship_class", "Class 1 or Class 2 (5.2 columns)", minimum=1, maximum=2, default=1),
        _crew_param("crew"),
        Param("masts_lost", "masts lost or fallen", minimum=0, maximum=2, default=0),
        Param("two_masted", "the vessel has only two masts", kind="bool", default=False),
        Param(
            "beating_option",
            "use the * option (2 dice, move one) where allowed",
            kind="bool",
            default=True,
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        if inputs["masts_lost"] == 2 and inputs["two_masted"]:
            raise ResolveInputError(
                f"{self.id}: a two-masted vessel that lost 2 masts is dismasted and does not "
                "move under sail (5.11 stops at 2 masts lost)"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        cell = ctx.lookup(SAILING, point_of_sail=inputs["point_of_sail"], rig=inputs["rig"])
        fields = cell.fields()
        klass = inputs["ship_class"]
        usual = int(fields[f"class_{klass}"])
        sides = int(ctx.param(SAILING, "die_sides"))
        lost = inputs["masts_lost"]
        ctx.explain(f"Class {klass}: usually {usual} {'die' if usual == 1 else 'dice'}.")
        option = fields.get(f"class_{klass}_footnote_dice")
        if option is not None and inputs["beating_option"]:
            crews = ctx.param(SAILING, "footnote_crews")
            if inputs["crew"] not in crews:
                ctx.explain(f"No * option: needs an experienced or better crew ({inputs['crew']}).")
            elif lost and ctx.param(SAILING, "footnote_needs_no_masts_lost"):
                ctx.explain("No * option: the ship has lost masts.")
            else:
                faces = ctx.roll_dice(int(option), sides, "Movement (* option: move one die)")
                low, high = min(faces), max(faces)
                ctx.explain(f"The * option: move the distance of one die, {low} or {high}.")
                if low == high:
                    result, change = f"moves {low}", f"Move {low}"
                else:
                    result = f"moves {low} or {high}"
                    change = f"Move {low} or {high} (player's choice)"
                return Outcome(
                    result,
                    (change,),
                    (("dice", tuple(faces)), ("option", True)),
                )
        if lost:
            column = "2" if lost == 2 or inputs["two_masted"] else "1"
            expression = ctx.lookup(LOST_MASTS, usual_dice=usual, masts_lost=column).text
        else:
            expression = f"{usual}d{sides}"
        total = ctx.roll(expression, "Movement")
        if total < 0:
            ctx.explain(f"{expression} gave {total}: read as no movement (0).")
            total = 0
        return Outcome(f"moves {total}", (f"Move {total}",), (("dice", expression),))


# --- 5.7 tacking --------------------------------------------------------------------


@register
class Tacking(Resolver):
    id = "flob.tacking"
    title = "Tacking (5.7)"
    summary = (
        "2d6, 5 or better tacks, else into irons; captain's skill, +1 for each unused point "
        "of turn, -2 per mast lost, -1 in a gale. Reading: every unused point counts +1, the "
        "first (the one the tack requires) included."
    )
    tables = (TACKING, TACKING_MODS)
    examples = (
        {},
        {"captain": "superior", "unused_points": "3", "masts_lost": "1", "gale": "yes"},
        {"captain": "inept", "gale": "yes"},
    )
    params = (
        _officer_param("captain", "captain's skill"),
        Param(
            "unused_points",
            "points of turn left unused after turning as close to the wind as possible",
            minimum=0,
            maximum=20,
            default=1,
        ),
        Param("masts_lost", "masts lost", minimum=0, maximum=5, default=0),
        Param("gale", "the weather is a gale", kind="bool", default=False),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        needed = rules.table(TACKING).params["unused_turn_points_needed"]
        if inputs["unused_points"] < needed:
            raise ResolveInputError(
                f"{self.id}: unused_points={inputs['unused_points']}: a ship needs at least "
                f"{needed} unused point of turn to try to tack (5.7)"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        needed = int(ctx.param(TACKING, "unused_turn_points_needed"))
        total = ctx.roll(ctx.param(TACKING, "roll"), "Tacking test")
        total += ctx.modifier(TACKING_MODS, "captain-skill", choice=inputs["captain"])
        points = inputs["unused_points"]
        ctx.explain(
            f"{points} unused point(s) of turn ({needed} needed to tack): each counts, "
            "the first included."
        )
        total += ctx.modifier(TACKING_MODS, "unused-turn", times=points)
        if inputs["masts_lost"]:
            total += ctx.modifier(TACKING_MODS, "mast-lost", times=inputs["masts_lost"])
        if inputs["gale"]:
            total += ctx.modifier(TACKING_MODS, "gale")
        target = int(ctx.param(TACKING, "target"))
        if total >= target:
            ctx.explain(f"Modified score {total} is {target} or better: she tacks.")
            return Outcome("tacks", ("Turn onto the opposite tack",), (("score", total),))
        failure = str(ctx.param(TACKING, "failure"))
        ctx.explain(f"Modified score {total} is below {target}: the ship goes {failure}.")
        return Outcome(
            failure,
            (f"Ship is {failure}",),
            (("score", total),),
            (Effect("ship", "state", state="in_irons"),),
        )


# --- 6.8 repairs and 6.9 fire fighting --------------------------------------------------


def _d6_target(
    ctx: Context, table_id: str, modifiers: str, words: tuple[str, ...], reason: str, **axes: Any
) -> tuple[str, int | None]:
    """Roll against a d6-target cell: return "succeeds", "fails" or "impossible"."""
    target = ctx.lookup(table_id, **axes).fields()
    if not target["possible"]:
        ctx.explain("No roll can succeed.")
        return "impossible", None
    total = ctx.roll(ctx.param(table_id, "roll"), reason)
    total += _quality(ctx, modifiers, *words)
    needed = int(target["min"])
    if total >= needed:
        ctx.explain(f"Modified score {total} reaches {needed}: success.")
        return "succeeds", total
    ctx.explain(f"Modified score {total} is below {needed}: failure.")
    return "fails", total


@register
class Repairs(Resolver):
    id = "flob.repairs"
    title = "Repairs (6.8, Command Phase)"
    summary = (
        "1d6 plus the captain's rating modifier against the Repair Table score for the "
        "damage and whether the ship has crew parties left. Reading: no natural 1 or 6 rule."
    )
    tables = (REPAIRS, REPAIR_MODS)
    examples = (
        {"damage": "freeing-fallen-masts"},
        {"damage": "repairing-wheel", "crew_parties": "0", "captain": "superior"},
        {"damage": "cutting-grapples", "captain": "inept"},
    )
    params = (
        Param("damage", "what is repaired", kind="choice", choices_from=(REPAIRS, "damage")),
        Param("crew_parties", "crew parties left", minimum=0, maximum=50, default=4),
        _officer_param("captain", "captain's rating"),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        result, total = _d6_target(
            ctx,
            REPAIRS,
            REPAIR_MODS,
            (inputs["captain"],),
            "Repair roll",
            damage=inputs["damage"],
            crew=inputs["crew_parties"],
        )
        changes = (f"{inputs['damage']}: done",) if result == "succeeds" else ()
        return Outcome(result, changes, (("score", total),))


def _fire_row(rules: Rules, raw: str) -> str:
    """Return the Fire Fighting severity label for `raw`: a hull-fire count or a label word.

    A count falls in the row whose numbers hold it ({min: 5} is open-ended), or matches the
    row whose numeric match words include it, or else the row with the largest such word
    below it ("5 ‘HFs’ or more" takes 6, 7, ...).
    """
    table = rules.table(FIRES)
    axis = next(a for a in table.axes if a.name == "severity")
    text = str(raw).strip()
    if text.isdecimal():
        if too_long_number(text):
            raise ResolveInputError(f"{FIRES}: fire={shown(raw)}: too many digits")
        count = int(text)
        if count < 1:
            raise ResolveInputError(f"{FIRES}: fire={raw}: at least 1 hull fire (HF)")
        held = next((value.label for value in axis.values if value.contains(count)), None)
        if held is not None:
            return held
        best: tuple[int, str] | None = None
        for value in axis.values:
            for word in value.match:
                if word.isdigit() and int(word) <= count and (best is None or int(word) > best[0]):
                    best = (int(word), value.label)
        if best is not None:
            return best[1]
    for value in axis.values:
        if value.matches(text):
            return value.label
    words = ", ".join(axis.labels)
    raise ResolveInputError(
        f"{FIRES}: fire={raw}: give a number of hull fires (1, 2, ...) or mast/MF ({words})"
    )


@register
class FireFighting(Resolver):
    id = "flob.fire-fighting"
    title = "Fire fighting (6.9, Command Phase)"
    summary = (
        "1d6 plus the crew quality modifier against the Fire Fighting score for the "
        "severity (hull fires, or a fire on a mast) and whether crew parties are left; "
        "'impossible' cells roll nothing. fire= takes a count of hull fires or mast/MF."
    )
    tables = (FIRES, FIRE_MODS)
    examples = (
        {"fire": "1"},
        {"fire": "3", "crew": "elite"},
        {"fire": "mast", "crew_parties": "0", "crew": "poor"},
        {"fire": "5"},
    )
    params = (
        Param(
            "fire",
            "hull fires (HF) burning, 1, 2, ..., or mast/MF for a fire on a mast",
            kind="text",
            default="1",
        ),
        Param("crew_parties", "crew parties left", minimum=0, maximum=50, default=4),
        _crew_param("crew"),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        _fire_row(rules, inputs["fire"])

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        severity = _fire_row(ctx.rules, inputs["fire"])
        result, total = _d6_target(
            ctx,
            FIRES,
            FIRE_MODS,
            (inputs["crew"],),
            "Fire fighting roll",
            severity=severity,
            crew=inputs["crew_parties"],
        )
        name = {"succeeds": "fire put out", "fails": "fire burns on"}.get(result, result)
        changes = ("The fire is put out",) if result == "succeeds" else ()
        out = (Effect("ship", "state", state="fire_out"),) if result == "succeeds" else ()
        return Outcome(name, changes, (("severity", severity), ("score", total)), out)


# --- 6.3 reloading ------------------------------------------------------------------


@register
class Reloading(Resolver):
    id = "flob.reloading"
    title = "Reloading (6.3, Command Phase)"
    summary = (
        "2d6, 5 or more reloads; crew quality and the ammunition loaded modify. Reading: "
        "the (1)/(2)/(3) after an ammunition is the reload actions it takes "
        "(flob.ammunition-loading); actions_done counts those already made."
    )
    tables = (RELOADING, RELOAD_MODS, AMMO_LOADING)
    examples = (
        {},
        {"crew": "elite", "ammo": "double-round-shot"},
        {"crew": "poor", "ammo": "double-round-shot-with-grape", "actions_done": "1"},
        {"guns": "chaser", "ammo": "grapeshot"},
    )
    params = (
        _crew_param("crew"),
        Param(
            "ammo",
            "ammunition being loaded",
            kind="choice",
            choices_from=(AMMO_LOADING, "ammo"),
            default="Single Round Shot",
        ),
        Param(
            "guns",
            "what is reloaded",
            kind="choice",
            choices=("broadside", "chaser"),
            default="broadside",
        ),
        Param(
            "actions_done",
            "reload actions already made for this load",
            minimum=0,
            maximum=5,
            default=0,
        ),
    )

    def check(self, inputs: Inputs, rules: Rules) -> None:
        needed = lookup(rules, AMMO_LOADING, {"ammo": inputs["ammo"]}).fields()["reload_actions"]
        if inputs["actions_done"] >= needed:
            raise ResolveInputError(
                f"{self.id}: actions_done={inputs['actions_done']}: {inputs['ammo']} takes "
                f"{needed} reload action(s), so it is already loaded"
            )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        ammo = ctx.lookup(AMMO_LOADING, ammo=inputs["ammo"]).fields()
        total = ctx.roll(ctx.param(RELOADING, "roll"), "Reload roll")
        total += _quality(ctx, RELOAD_MODS, "crew", inputs["crew"])
        if "reload_modifier" in ammo:
            total += ctx.modifier(RELOAD_MODS, str(ammo["reload_modifier"]))
        target = int(ctx.param(RELOADING, "target"))
        guns = inputs["guns"].capitalize()
        if total < target:
            ctx.explain(f"Modified score {total} is below {target}: not reloaded this phase.")
            return Outcome("fails", (), (("score", total),))
        needed = int(ammo["reload_actions"])
        done = inputs["actions_done"] + 1
        ctx.explain(
            f"Modified score {total} is {target} or more: reload action {done} of {needed}."
        )
        if done < needed:
            change = f"{guns}: reload action {done} of {needed} done for {inputs['ammo']}"
            return Outcome("succeeds", (change,), (("score", total), ("actions", done)))
        return Outcome(
            "succeeds",
            (f"{guns}: loaded with {inputs['ammo']}",),
            (("score", total), ("actions", done)),
            (Effect("ship", f"{inputs['guns']}_guns", state="loaded"),),
        )


# --- critical hits ------------------------------------------------------------------


@dataclass(frozen=True)
class ShipState:
    """What the Critical Hit Effects need to know about the ship hit."""

    masts_standing: int = 3
    full_sail: bool = False
    wheel_lost: bool = False
    hull_fires: int = 0
    admiral_on_board: bool = False
    firing_high: bool = False


def _critical_available(fields: Mapping[str, Any], ship: ShipState) -> str | None:
    """Return why a critical result cannot apply to `ship`, or None if it can."""
    if "masts" in fields and ship.masts_standing < 1:
        return "no mast left standing"
    if fields.get("wheel") and ship.wheel_lost:
        return "the wheel is already shot away"
    return None


def _critical(
    ctx: Context, ship: ShipState, who: str, whom: str
) -> tuple[str, tuple[str, ...], tuple[Effect, ...]]:
    """Roll on the Critical Hit Effects, dropping down past results that cannot apply.

    Returns the result's name, its changes (said of `who`) and its effects (on `whom`,
    ``"ship"`` or ``"target"``). Which masts fall is left to a roll the rules leave to the
    players ("determine which randomly"): the effect says how many, not which.
    """
    table = ctx.table(CRITICALS)
    axis = table.axes[0]
    roll = ctx.roll(axis.dice or "1d6", "Critical hit effect")
    index = next(i for i, v in enumerate(axis.values) if v.contains(roll))
    while True:
        label = axis.values[index].label
        cell = ctx.lookup(CRITICALS, roll=label)
        fields = cell.fields()
        why = _critical_available(fields, ship)
        if why is None or index == len(axis.values) - 1:
            break
        ctx.explain(f"Not available ({why}): drop down the table.")
        index += 1
    if "officer_roll" in fields:
        name, changes, state = _officer_hit(ctx, fields, ship, who)
        return name, changes, (Effect(whom, "state", state=state),)
    if "masts" in fields:
        count = int(fields["masts_under_full_sail"] if ship.full_sail else fields["masts"])
        count = min(count, ship.masts_standing)
        name = "1 mast lost" if count == 1 else f"{count} masts lost"
        lost = (Effect(whom, "masts", count),) if count else ()
        return name, (f"{who}: {name} (determine which randomly)",), lost
    if fields.get("wheel"):
        return (
            "wheel shot away",
            (f"{who}: wheel shot away",),
            (Effect(whom, "state", state="wheel_shot_away"),),
        )
    if "fire" in fields:
        added = int(fields["fire"])
        fires = ship.hull_fires + added
        limit = int(fields["out_of_control_above"])
        if fires > limit:
            return (
                "fire out of control",
                (f"{who}: fire at {fires}HF is out of control (see Fire)",),
                (Effect(whom, "hull_fires", added, "fire_out_of_control"),),
            )
        burning = (Effect(whom, "hull_fires", added),)
        if ship.hull_fires:
            return "fire spreads", (f"{who}: fire increases to {fires}HF",), burning
        return "fire starts", (f"{who}: fire starts (1HF)",), burning
    amount = int(fields["hull"])
    rating = "Mast" if ship.firing_high and "firing_high" in fields else "Hull"
    return (
        f"{rating.lower()} -{amount}",
        (f"{who}: -{amount} {rating} rating",),
        (Effect(whom, rating.lower(), amount),),
    )


def _officer_hit(
    ctx: Context, fields: Mapping[str, Any], ship: ShipState, who: str
) -> tuple[str, tuple[str, ...], str]:
    die = str(fields["officer_roll"])
    officer = "captain"
    if ship.admiral_on_board:
        hit = ctx.roll(die, "Admiral on board: who is hit")
        officer = "admiral" if hit <= int(fields["admiral_up_to"]) else "captain"
    fate = ctx.roll(die, f"Senior officer ({officer}): killed or wounded")
    state = "killed" if fate <= int(fields["killed_up_to"]) else "wounded"
    ctx.explain(f"The {officer} is {state}.")
    return f"{officer} {state}", (f"{who}: {officer} {state}",), f"{officer}_{state}"


def _ship_params(prefix: str, whose: str) -> tuple[Param, ...]:
    return (
        Param(
            f"{prefix}masts_standing",
            f"masts {whose} has standing",
            minimum=0,
            maximum=5,
            default=3,
        ),
        Param(f"{prefix}full_sail", f"{whose} is under Full Sail", kind="bool", default=False),
        Param(
            f"{prefix}wheel_lost", f"{whose} has already lost its wheel", kind="bool", default=False
        ),
        Param(
            f"{prefix}hull_fires",
            f"hull fires (HF) already burning on {whose}",
            minimum=0,
            maximum=10,
            default=0,
        ),
        Param(
            f"{prefix}admiral_on_board",
            f"an Admiral is on board {whose}",
            kind="bool",
            default=False,
        ),
    )


def _ship_state(inputs: Inputs, prefix: str, firing_high: bool) -> ShipState:
    return ShipState(
        masts_standing=inputs[f"{prefix}masts_standing"],
        full_sail=inputs[f"{prefix}full_sail"],
        wheel_lost=inputs[f"{prefix}wheel_lost"],
        hull_fires=inputs[f"{prefix}hull_fires"],
        admiral_on_board=inputs[f"{prefix}admiral_on_board"],
        firing_high=firing_high,
    )


@register
class CriticalHit(Resolver):
    id = "flob.critical-hit"
    title = "Critical Hit Effects"
    summary = (
        "1d6 on the Critical Hit Effects, dropping down the table past results that cannot "
        "apply (no mast standing, wheel already gone); a Senior Officer hit rolls killed or "
        "wounded, and first who is hit if an Admiral is on board. Reading: fire starts at "
        "1HF, or adds 1HF to a fire already burning."
    )
    tables = (CRITICALS, CRITICAL_RULE)
    examples = (
        {},
        {"admiral_on_board": "yes", "full_sail": "yes", "fire": "high"},
        {"masts_standing": "0", "wheel_lost": "yes", "hull_fires": "4"},
    )
    params = (
        Param(
            "fire",
            "the shot was fired low (hull) or high (masts)",
            kind="choice",
            choices=("low", "high"),
            default="low",
        ),
        *_ship_params("", "the ship hit"),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        ship = _ship_state(inputs, "", inputs["fire"] == "high")
        name, changes, effects = _critical(ctx, ship, "Ship hit", "ship")
        return Outcome(name, changes, (("effect", name),), effects)


# --- 6.4 gunnery: the broadside ---------------------------------------------------------

# Inputs that are modifiers to the attack number; refused together with attack=N, which is
# the finished number. (mast_over_firing_side stays allowed: its fire check needs the dice.)
_TACTICAL_INPUTS = (
    "crew",
    "rake",
    "volley",
    "ship",
    "dismasted",
    "friendly_grappled",
    "on_fire_no_crew",
    "weather",
)


def _range_labels(rules: Rules) -> tuple[str, ...]:
    return next(a for a in rules.table(RANGE_MODS).axes if a.name == "range").labels


def _range_modifier(rules: Rules, range_label: str, gunnery_class: str) -> int | None:
    """Return the range modifier, or None where the class cannot fire ("n/a")."""
    text = lookup(rules, RANGE_MODS, {"range": range_label, "gunnery_class": gunnery_class}).text
    try:
        return int(parse_signed(text)["modifier"])
    except CellFormatError:
        return None


def _band(rules: Rules, range_label: str, rate: str) -> Mapping[str, Any]:
    return lookup(rules, RANGE_BANDS, {"range": range_label, "rate": rate}).fields()


def _range_from_distance(rules: Rules, distance: int, rate: str) -> str:
    """Return the range band a distance in cm falls in for the firer's rate."""
    for label in _range_labels(rules):
        band = _band(rules, label, rate)
        low, high = int(band["min_cm"]), int(band["max_cm"])
        if (distance > low or distance == low == 0) and distance <= high:
            return label
    last = _range_labels(rules)[-1]
    high = _band(rules, last, rate)["max_cm"]
    raise ResolveInputError(
        f"flob.broadside: distance={distance}: out of range; {last} range for a "
        f"{_rate_name(rate)} ends at {high} cm"
    )


def _in_rates(spec: str, rate: int, unrated: int) -> bool:
    for part in str(spec).split(","):
        part = part.strip()
        if part == "unrated":
            if rate == unrated:
                return True
        elif "-" in part:
            low, high = part.split("-")
            if int(low) <= rate <= int(high):
                return True
        elif part.isdigit() and int(part) == rate:
            return True
    return False


def _reduction_row(rules: Rules, target: int, firer: int, year: int) -> str | None:
    """Return the Damage Reduction situation for these rates, if one applies."""
    table = rules.table(REDUCTION)
    unrated = int(rules.table(BOARD_INIT_MODS).params["unrated_rate"])
    from_year = int(table.params["from_year"])
    for value, cell in zip(table.axes[0].values, table.cells, strict=True):
        attackers = (
            cell["attacker_rates_from_1780"] if year >= from_year else cell["attacker_rates"]
        )
        if _in_rates(cell["target_rates"], target, unrated) and _in_rates(
            attackers, firer, unrated
        ):
            return value.label
    return None


def _rr(count: int) -> str:
    return "rr" if count == 1 else f"{count}rr"


def _firing_high(ctx: Context, effect: Mapping[str, Any]) -> dict[str, Any]:
    """Return the ammunition losses of a shot fired high: Hull losses go to the rating the
    table's ``firing_high_hull_is`` names (Mast, as critical hits 5 and 6 say)."""
    rating = ctx.table(AMMO_EFFECTS).params.get("firing_high_hull_is")
    losses = dict(effect)
    if rating is None or str(rating) == "hull" or str(rating) not in losses:
        return losses
    if not losses.get("hull"):
        return losses
    ctx.explain(
        f"Fired high: the {losses['hull']} Hull is taken from the "
        f"{str(rating).capitalize()} rating instead."
    )
    losses[str(rating)] = int(losses.get(str(rating), 0)) + int(losses["hull"])
    losses["hull"] = 0
    return losses


@register
class Broadside(Resolver):
    id = "flob.broadside"
    title = "Broadside (6.4 Standard gunnery)"
    summary = (
        "Attack Number = Broadside - target Hull (low) or - total Mast ratings (high), plus "
        "range (by gunnery class) and tactical modifiers; 2d6 on the Broadside Table; the "
        "ammunition's effect for rr/2rr/3rr, damage reduction for larger ships hit by "
        "smaller, a critical hit on doubles with round shot when damage is done. attack=N "
        "gives a finished Attack Number instead. Readings: a range the class cannot reach "
        "(n/a) or beyond the ammunition's Max range is refused; rake bonuses are withheld "
        "beyond Short, for chasers and chain shot; weather x½ halves a positive Attack "
        "Number rounding down (0 or less is not halved); fired high, the ammunition's Hull "
        "losses are Mast losses; reduction takes rr off the count and keeps s/str."
    )
    tables = (
        GUNNERY,
        RANGE_MODS,
        RANGE_BANDS,
        TACTICAL,
        BROADSIDE,
        AMMO_EFFECTS,
        AMMO_LOADING,
        REDUCTION,
        CRITICAL_RULE,
        CRITICALS,
        BOARD_INIT_MODS,
    )
    examples = (
        {"broadside": "9", "target_hull": "4", "range": "short"},
        {
            "broadside": "10",
            "target_hull": "5",
            "range": "point-blank",
            "ammo": "double-round-shot",
            "rake": "stern",
            "crew": "veteran",
            "volley": "initial",
        },
        {
            "fire": "high",
            "broadside": "6",
            "target_masts": "7",
            "distance": "35",
            "rate": "1",
            "gunnery_class": "C",
            "mast_over_firing_side": "yes",
        },
        {"attack": "5", "ammo": "double-round-shot"},
        {
            "broadside": "5",
            "target_hull": "6",
            "range": "short",
            "rate": "5",
            "target_rate": "2",
            "ammo": "grapeshot",
            "weather": "half",
        },
    )
    params = (
        Param(
            "fire",
            "fire low (at the hull) or high (at the masts)",
            kind="choice",
            choices=("low", "high"),
            default="low",
        ),
        Param("broadside", "firer's current Broadside rating", minimum=0, maximum=99, default=None),
        Param(
            "target_hull",
            "target's current Hull rating (firing low)",
            minimum=0,
            maximum=99,
            default=None,
        ),
        Param(
            "target_masts",
            "target's total remaining Mast ratings (firing high)",
            minimum=0,
            maximum=99,
            default=None,
        ),
        Param(
            "attack",
            "the finished Attack Number, instead of ratings and modifiers",
            minimum=-99,
            maximum=99,
            default=None,
        ),
        Param(
            "range",
            "range band (default: from distance=, else Short)",
            kind="choice",
            choices_from=(RANGE_MODS, "range"),
            default=None,
        ),
        Param(
            "distance",
            "distance in cm; sets the range band by the firer's rate",
            minimum=0,
            maximum=999,
            default=None,
        ),
        Param(
            "gunnery_class",
            "firer's Gunnery Class",
            kind="choice",
            choices_from=(RANGE_MODS, "gunnery_class"),
            default="A",
        ),
        Param(
            "ammo",
            "ammunition fired",
            kind="choice",
            choices_from=(AMMO_EFFECTS, "ammo"),
            default="Single Round Shot",
        ),
        Param("rate", "firer's rate", kind="choice", choices=RATES, default="3"),
        Param("target_rate", "target's rate", kind="choice", choices=RATES, default="3"),
        Param("chaser", "fired by chasers, not a broadside", kind="bool", default=False),
        _crew_param("crew", "firer's crew quality"),
        Param(
            "rake",
            "the target is raked at the bow or stern",
            kind="choice",
            choices=("none", "bow", "stern"),
            default="none",
        ),
        Param(
            "volley",
            "initial broadside, second broadside, or neither",
            kind="choice",
            choices=("normal", "initial", "second"),
            default="normal",
        ),
        Param(
            "ship",
            "firer is a Superior or Inferior Ship",
            kind="choice",
            choices=("normal", "superior", "inferior"),
            default="normal",
        ),
        Param("dismasted", "the firer is dismasted", kind="bool", default=False),
        Param(
            "mast_over_firing_side",
            "a fallen mast lies over the firing side",
            kind="bool",
            default=False,
        ),
        Param(
            "friendly_grappled",
            "the target is grappled/entangled with a friendly ship",
            kind="bool",
            default=False,
        ),
        Param(
            "on_fire_no_crew",
            "fires aboard the firer when it has no crew parties",
            minimum=0,
            maximum=10,
            default=0,
        ),
        Param(
            "weather",
            "weather effect on gunnery",
            kind="choice",
            choices=("none", "-1", "-2", "half"),
            default="none",
        ),
        Param(
            "small_actions",
            "playing the Advanced Rules for Small Actions",
            kind="bool",
            default=False,
        ),
        Param(
            "year",
            "scenario year (damage reduction changes from 1780)",
            minimum=1500,
            maximum=1900,
            default=1805,
        ),
        *_ship_params("target_", "the target"),
    )

    def _range(self, inputs: Inputs, rules: Rules) -> str:
        if inputs["distance"] is not None:
            band = _range_from_distance(rules, inputs["distance"], inputs["rate"])
            if inputs["range"] is not None and inputs["range"] != band:
                raise ResolveInputError(
                    f"{self.id}: range={inputs['range']} but distance={inputs['distance']} cm "
                    f"is {band} range for a {_rate_name(inputs['rate'])}"
                )
            return band
        return str(inputs["range"] or DEFAULT_RANGE)

    def check(self, inputs: Inputs, rules: Rules) -> None:
        if inputs["attack"] is not None:
            given = [
                n for n in ("broadside", "target_hull", "target_masts") if inputs[n] is not None
            ]
            defaults = {p.name: p.default for p in self.params}
            given += [n for n in _TACTICAL_INPUTS if inputs[n] != defaults[n]]
            if given:
                raise ResolveInputError(
                    f"{self.id}: attack= is the finished Attack Number; leave out "
                    f"{', '.join(given)} or give ratings instead of attack="
                )
        else:
            wanted = "target_hull" if inputs["fire"] == "low" else "target_masts"
            if inputs["broadside"] is None or inputs[wanted] is None:
                raise ResolveInputError(
                    f"{self.id}: firing {inputs['fire']} needs broadside= and {wanted}= "
                    "(or attack= for a finished Attack Number)"
                )
        range_label = self._range(inputs, rules)
        if _range_modifier(rules, range_label, inputs["gunnery_class"]) is None:
            raise ResolveInputError(
                f"{self.id}: Gunnery Class {inputs['gunnery_class']} cannot fire at "
                f"{range_label} range (n/a on the Range Modifiers)"
            )
        ammo = lookup(rules, AMMO_LOADING, {"ammo": inputs["ammo"]}).fields()
        labels = [fold(x) for x in _range_labels(rules)]
        if labels.index(fold(range_label)) > labels.index(fold(str(ammo["max_range"]))):
            raise ResolveInputError(
                f"{self.id}: {inputs['ammo']} has a Max range of {ammo['max_range']}; "
                f"the target is at {range_label} range"
            )

    def _attack_number(
        self, ctx: Context, inputs: Inputs, range_label: str, ammo: Mapping[str, Any]
    ) -> int:
        rules = ctx.rules
        if inputs["fire"] == "low":
            base = inputs["broadside"] - inputs["target_hull"]
            ctx.explain(
                f"Firing low: Broadside {inputs['broadside']} - target Hull "
                f"{inputs['target_hull']} = {base}."
            )
        else:
            base = inputs["broadside"] - inputs["target_masts"]
            ctx.explain(
                f"Firing high: Broadside {inputs['broadside']} - target Masts "
                f"{inputs['target_masts']} = {base}."
            )
        total = int(base)
        cell = ctx.lookup(RANGE_MODS, range=range_label, gunnery_class=inputs["gunnery_class"])
        total += ctx.add(
            f"{range_label} range, Gunnery Class {inputs['gunnery_class']}",
            int(parse_signed(cell.text)["modifier"]),
            RANGE_MODS,
        )
        params = ctx.table(TACTICAL).params
        withheld: list[str] = []

        def allowed(modifier_id: str) -> bool:
            label = ctx.table(TACTICAL).modifier(modifier_id).label
            if inputs["chaser"] and modifier_id in params["not_chasers"]:
                withheld.append(f"{label}: not for chasers")
                return False
            chain = fold(inputs["ammo"]) in {fold(a) for a in params["chain_shot_ammo"]}
            if chain and modifier_id in params["not_chain_shot"]:
                withheld.append(f"{label}: not with chain shot")
                return False
            if inputs["small_actions"] and modifier_id in params["not_small_actions"]:
                withheld.append(f"{label}: not used with Advanced Rules for Small Actions")
                return False
            return True

        if inputs["rake"] != "none":
            rake_id = f"{inputs['rake']}-rake"
            rake_ranges = [fold(r) for r in params["rake_ranges"]]
            if fold(range_label) not in rake_ranges:
                withheld.append(
                    f"{inputs['rake']} rake: only at {' or '.join(params['rake_ranges'])} range"
                )
            elif allowed(rake_id):
                total += ctx.modifier(TACTICAL, rake_id)
        if "tactical_modifier" in ammo:
            mod_id = str(ammo["tactical_modifier"])
            if inputs["gunnery_class"] in params["double_round_shot_not_classes"]:
                withheld.append(
                    f"double round shot: not for Gunnery Class {inputs['gunnery_class']}"
                )
            else:
                total += ctx.modifier(TACTICAL, mod_id)
        if inputs["on_fire_no_crew"]:
            total += ctx.modifier(
                TACTICAL, "on-fire-no-crew-parties", times=inputs["on_fire_no_crew"]
            )
        for flag, mod_id in (
            ("dismasted", "dismasted"),
            ("mast_over_firing_side", "mast-over-firing-side"),
            ("friendly_grappled", "friendly-grappled"),
        ):
            if inputs[flag]:
                total += ctx.modifier(TACTICAL, mod_id)
        if inputs["ship"] != "normal":
            firer = _rate_number(rules, inputs["rate"])
            target = _rate_number(rules, inputs["target_rate"])
            # Smaller ships have larger rate numbers; unrated counts as 7.
            fits = target >= firer if inputs["ship"] == "superior" else target <= firer
            mod_id = f"{inputs['ship']}-ship"
            if not fits:
                withheld.append(f"{inputs['ship']} ship: the target's rate does not qualify")
            elif allowed(mod_id):
                total += ctx.modifier(TACTICAL, mod_id)
        total += _quality(ctx, TACTICAL, "crew", inputs["crew"])
        if inputs["volley"] != "normal":
            mod_id = f"{inputs['volley']}-broadside"
            if allowed(mod_id):
                total += ctx.modifier(TACTICAL, mod_id)
        if inputs["weather"] in ("-1", "-2"):
            total += ctx.modifier(TACTICAL, "weather", choice=inputs["weather"])
        for line in withheld:
            ctx.explain(f"  no modifier: {line}")
        if inputs["weather"] == "half":
            if total > 0:
                half = total // 2
                ctx.add("Weather effects (x ½, rounded down)", half - total, f"{TACTICAL}:weather")
                total = half
            else:
                ctx.explain("  weather x ½: an Attack Number of 0 or less is not halved")
        return total

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        rules = ctx.rules
        range_label = self._range(inputs, rules)
        if inputs["distance"] is None and inputs["range"] is None:
            ctx.explain(f"No range= or distance= given: {range_label} range.")
        if inputs["distance"] is not None:
            ctx.explain(
                f"{inputs['distance']} cm is {range_label} range "
                f"for a {_rate_name(inputs['rate'])}."
            )
        ammo = ctx.lookup(AMMO_LOADING, ammo=inputs["ammo"]).fields()
        if inputs["attack"] is not None:
            attack = int(inputs["attack"])
            ctx.explain(f"Attack Number {attack}, as given (modifiers already counted).")
        else:
            attack = self._attack_number(ctx, inputs, range_label, ammo)
            ctx.explain(f"Attack Number {attack}.")
        count, sides = _dice(str(ctx.param(GUNNERY, "roll")))
        dice = ctx.roll_dice(count, sides, "Broadside")
        total = sum(dice)
        cell = ctx.lookup(BROADSIDE, attack=attack, roll=total)
        hit = cell.fields()
        rr, shattered, strike = int(hit["rr"]), bool(hit["shattered"]), bool(hit["strike_test"])
        changes: list[str] = []
        effects: list[Effect] = []
        parts: list[str] = []

        ignored, rr = self._reduce(ctx, inputs, range_label, rr, shattered or strike)
        if ignored:
            rr, shattered, strike = 0, False, False
            parts.append("ignored")
        elif rr:
            parts.append(_rr(rr))
            effect = ctx.lookup(AMMO_EFFECTS, ammo=inputs["ammo"], result=_rr(rr)).fields()
            if inputs["fire"] == "high":
                effect = _firing_high(ctx, effect)
            named = (
                ("broadside", "Broadside"),
                ("hull", "Hull"),
                ("crew", "Crew"),
                ("mast", "Mast"),
            )
            lost = [f"-{effect[key]} {name}" for key, name in named if effect[key]]
            effects.extend(
                Effect("target", key, int(effect[key])) for key, _ in named if effect[key]
            )
            changes.append(
                f"Target: {', '.join(lost)}"
                if lost
                else f"Target: no effect ({inputs['ammo']}, {_rr(rr)})"
            )
        else:
            parts.append("no effect")
        if shattered:
            parts.append("shattered")
            changes.append("Target is Shattered: strikes automatically and is unsalvageable (6.12)")
            effects.append(Effect("target", "state", state="shattered"))
            effects.append(Effect("target", "state", state="struck"))
        elif strike:
            parts.append("strike test")
            changes.append("Target must take a Strike Test now (6.11; flob.strike-test)")

        critical = None
        doubles = len(set(dice)) == 1
        needs = ctx.table(CRITICAL_RULE).params
        if (
            (doubles or not needs["needs_doubles"])
            and (rr or not needs["needs_damage"])
            and (ammo["round_shot"] or not needs["needs_round_shot"])
            and ammo["critical_hits"]
        ):
            ctx.explain("Doubles, damage done and round shot in the mix: a Critical Hit.")
            ship = _ship_state(inputs, "target_", inputs["fire"] == "high")
            critical, said, hits = _critical(ctx, ship, "Target", "target")
            changes.extend(said)
            effects.extend(hits)
            parts.append("critical")
        elif doubles and rr:
            ctx.explain(f"Doubles, but no Critical Hit: {inputs['ammo']} causes no Critical Hits.")

        if inputs["mast_over_firing_side"]:
            if total % 2 == 0:
                ctx.explain(
                    f"Mast over firing side and the dice total {total} is even: "
                    "the firer catches fire."
                )
                changes.append("Firer: catches fire (mast over firing side)")
                effects.append(Effect("ship", "state", state="on_fire"))
                parts.append("firer on fire")
            else:
                ctx.explain(f"Mast over firing side, dice total {total} is odd: no fire.")
        details: tuple[tuple[str, Any], ...] = (
            ("attack", attack),
            ("dice", tuple(dice)),
            ("rr", rr),
            ("shattered", shattered),
            ("strike_test", strike),
            ("critical", critical),
        )
        return Outcome(" + ".join(parts), tuple(changes), details, tuple(effects))

    def _reduce(
        self, ctx: Context, inputs: Inputs, range_label: str, rr: int, other: bool
    ) -> tuple[bool, int]:
        """Apply damage reduction for larger ships hit by smaller: (attack ignored, rr)."""
        if inputs["small_actions"] or not (rr or other):
            return False, rr
        rules = ctx.rules
        situation = _reduction_row(
            rules,
            _rate_number(rules, inputs["target_rate"]),
            _rate_number(rules, inputs["rate"]),
            inputs["year"],
        )
        if situation is None:
            return False, rr
        fields = ctx.lookup(REDUCTION, situation=situation).fields()
        if fields["ignore_attack"]:
            ctx.explain("The attack is ignored: no damage can be inflicted.")
            return True, 0
        rake_ranges = [fold(r) for r in ctx.param(TACTICAL, "rake_ranges")]
        aspect = inputs["rake"] if fold(range_label) in rake_ranges else "none"
        key = {
            "none": "broadside_reduction",
            "bow": "bow_rake_reduction",
            "stern": "stern_rake_reduction",
        }[aspect]
        cut = int(fields[key])
        reduced = max(0, rr - cut)
        ctx.explain(
            f"Damage reduction: {_rr(rr) if rr else 'no rr'} less {cut} rr leaves "
            f"{_rr(reduced) if reduced else 'no damage'}."
        )
        return False, reduced


# --- 6.11 strike test -----------------------------------------------------------------


@dataclass(frozen=True)
class StrikeInputs:
    """Everything a Strike Test is modified by."""

    crew: str = "average"
    masts: str = "intact"
    admiral_on_board: bool = False
    admiral: str = "average"
    admiral_status: str = "unhurt"
    captain: str = "unhurt"


def _strike_inputs(inputs: Inputs, prefix: str = "") -> StrikeInputs:
    return StrikeInputs(
        crew=inputs[f"{prefix}crew"],
        masts=inputs[f"{prefix}masts"],
        admiral_on_board=inputs[f"{prefix}admiral_on_board"],
        admiral=inputs[f"{prefix}admiral"],
        admiral_status=inputs[f"{prefix}admiral_status"],
        captain=inputs[f"{prefix}captain"],
    )


def _strike_params(prefix: str = "", whose: str = "") -> tuple[Param, ...]:
    of = f" ({whose})" if whose else ""
    return (
        Param(
            f"{prefix}masts",
            f"masts: intact, lost 1 or more, or dismasted{of}",
            kind="choice",
            choices=MASTS,
            default="intact",
        ),
        Param(
            f"{prefix}admiral_on_board", f"an Admiral is on board{of}", kind="bool", default=False
        ),
        _officer_param(f"{prefix}admiral", f"the Admiral's quality{of}"),
        _hurt_param(f"{prefix}admiral_status", f"the Admiral is unhurt, wounded or killed{of}"),
        _hurt_param(f"{prefix}captain", f"the Captain is unhurt, wounded or killed{of}"),
    )


def _strike_test(ctx: Context, ship: StrikeInputs, extra_tests: int, who: str) -> bool:
    """Take a Strike Test; return whether the ship passes."""
    total = ctx.roll(ctx.param(STRIKE, "roll"), f"Strike test ({who})")
    total += _quality(ctx, STRIKE_MODS, "crew", ship.crew)
    if ship.masts == "lost":
        total += ctx.modifier(STRIKE_MODS, "masts-lost")
    elif ship.masts == "dismasted":
        total += ctx.modifier(STRIKE_MODS, "dismasted")
    if ship.admiral_on_board:
        if ship.admiral_status == "killed":
            ctx.explain("  the Admiral is killed: his quality no longer counts")
        else:
            total += _quality(ctx, STRIKE_MODS, "admiral", ship.admiral)
        if ship.admiral_status != "unhurt":
            total += ctx.modifier(STRIKE_MODS, f"admiral-{ship.admiral_status}")
    elif ship.admiral != "average" or ship.admiral_status != "unhurt":
        ctx.explain("  no Admiral on board: his modifiers do not apply")
    if extra_tests:
        total += ctx.modifier(STRIKE_MODS, "multiple-tests", times=extra_tests)
    if ship.captain != "unhurt":
        total += ctx.modifier(STRIKE_MODS, f"captain-{ship.captain}")
    needed = int(ctx.param(STRIKE, "pass"))
    passed = total >= needed
    ctx.explain(
        f"Strike test ({who}): {total} {'passes' if passed else 'fails'} ({needed} or more passes)."
    )
    return passed


@register
class StrikeTest(Resolver):
    id = "flob.strike-test"
    title = "Strike test (6.11)"
    summary = (
        "2d6, 7 or more passes: crew quality, masts, the Admiral's quality and wounds (only "
        "if he is on board), -1 per extra test, Captain wounded or killed. Reading: a "
        "killed Admiral's quality no longer counts (only Killed -2)."
    )
    tables = (STRIKE, STRIKE_MODS)
    examples = (
        {},
        {
            "crew": "elite",
            "masts": "lost",
            "admiral_on_board": "yes",
            "admiral": "superior",
            "admiral_status": "wounded",
        },
        {"crew": "poor", "masts": "dismasted", "extra_tests": "2", "captain": "killed"},
    )
    params = (
        _crew_param("crew"),
        *_strike_params(),
        Param(
            "extra_tests",
            "strike tests required beyond the first",
            minimum=0,
            maximum=10,
            default=0,
        ),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        if _strike_test(ctx, _strike_inputs(inputs), inputs["extra_tests"], "the ship"):
            return Outcome("passes", (), ())
        return Outcome(
            "strikes", ("Ship strikes her colours",), (), (Effect("ship", "state", state="struck"),)
        )


# --- 8.1 initiating a boarding action ---------------------------------------------------


@register
class BoardingInitiation(Resolver):
    id = "flob.boarding-initiation"
    title = "Initiating a boarding action (8.1)"
    summary = (
        "1d6, 4 or more: both captains, defender not manoeuvrable or counterboarding, "
        "courses, impromptu attempt, minus the difference in rate (unrated counts as 7), "
        "ships entangled. Readings: the defending captain's modifier needs a manoeuvrable "
        "defender; not manoeuvrable and counterboard together are +1 once."
    )
    tables = (BOARD_INIT, BOARD_INIT_MODS)
    examples = (
        {},
        {"attacking_captain": "superior", "courses": "parallel", "entangled": "yes"},
        {
            "defending_captain": "superior",
            "rate": "unrated",
            "target_rate": "4",
            "impromptu": "yes",
        },
        {"defending_captain": "superior", "not_manoeuvrable": "yes", "courses": "opposite"},
    )
    params = (
        _officer_param("attacking_captain", "the attacking captain"),
        _officer_param("defending_captain", "the defending captain"),
        Param(
            "not_manoeuvrable",
            "defender dismasted, lost wheel, drifting or in irons",
            kind="bool",
            default=False,
        ),
        Param("counterboard", "the defender declared a counterboard", kind="bool", default=False),
        Param(
            "courses",
            "courses parallel, opposite, or neither",
            kind="choice",
            choices=("other", "parallel", "opposite"),
            default="other",
        ),
        Param(
            "impromptu", "impromptu attempt (e.g. after a collision)", kind="bool", default=False
        ),
        Param("rate", "the boarding ship's rate", kind="choice", choices=RATES, default="3"),
        Param(
            "target_rate", "the defending ship's rate", kind="choice", choices=RATES, default="3"
        ),
        Param("entangled", "the ships are entangled", kind="bool", default=False),
    )

    def resolve(self, ctx: Context, inputs: Inputs) -> Outcome:
        mods = BOARD_INIT_MODS
        total = ctx.roll(ctx.param(BOARD_INIT, "roll"), "Boarding attempt")
        total += _quality(ctx, mods, "attacking", inputs["attacking_captain"])
        if inputs["not_manoeuvrable"]:
            if inputs["defending_captain"] != "average":
                ctx.explain("  the defending captain's modifier needs a manoeuvrable ship: none")
        else:
            total += _quality(ctx, mods, "defending", inputs["defending_captain"])
        if inputs["not_manoeuvrable"] or inputs["counterboard"]:
            total += ctx.modifier(mods, "defender-not-manoeuvrable")
        if inputs["courses"] != "other":
            total += ctx.modifier(mods, f"courses-{inputs['courses']}")
        if inputs["impromptu"]:
            total += ctx.modifier(mods, "impromptu")
        difference = abs(
            _rate_number(ctx.rules, inputs["rate"]) - _rate_number(ctx.rules, inputs["target_rate"])
        )
        if difference:
            # The printed value is "larger – smaller"; its per-difference values are in `by`.
            value = ctx.table(mods).modifier("rate-difference").by[str(difference)]
            rates = f"{_rate_name(inputs['rate'])} boarding {_rate_name(inputs['target_rate'])}"
            total += ctx.add(f"Difference in rate ({rates})", value, f"{mods}:rate-difference")
        if inputs["entangled"]:
            total += ctx.modifier(mods, "entangled")
        target = int(ctx.param(BOARD_INIT, "target"))
        if total >= target:
            markers = " and ".join(f"a {m} marker" for m in ctx.param(BOARD_INIT, "markers"))
            ctx.explain(f"Modified score {total} is {target} or more: the boarding begins.")
            return Outcome(
                "boarding begins",
                (f"Mark both ships with {markers}",),
                (("score", total),),
                (
                    Effect("ship", "state", state="grappled"),
                    Effect("target", "state", state="grappled"),
                ),
            )
        ctx.explain(f"Modified score {total} is below {target}: no boarding.")
        return Outcome("fails", (), (("score", total),))


# --- 8.2 resolving a boarding action ------------------------------------------------------

ATTACKER, DEFENDER = 0, 1
SIDE = ("attacker", "defender")


class Melee(NamedTuple):
    """The state of a boarding action between rounds (sides by their original roles)."""

    gunwales: bool  # Attacker vs Counter-boarder on the gunwales, else on a deck
    boarding: int  # which side is the Attacker now
    parties: tuple[int, int]
    excess: tuple[int, int] = (0, 0)
    tests: tuple[int, int] = (0, 0)
    first: bool = True
    test: int = -1  # the side that must take a Strike Test before the next round
    repulsed: bool = False  # the Attacker was just repulsed: follow up or end after the test


def _lose(state: Melee, side: int, count: int) -> Melee:
    """Take `count` crew parties from `side`; what it cannot pay is excess (8.2 F)."""
    left = state.parties[side] - count
    parties = list(state.parties)
    parties[side] = max(0, left)
    if left >= 0:
        return state._replace(parties=(parties[0], parties[1]))
    excess = list(state.excess)
    excess[side] -= left
    return state._replace(parties=(parties[0], parties[1]), excess=(excess[0], excess[1]))


@register
class Boarding(SteppedResolver):
    id = "flob.boarding"
    title = "Boarding action (8.2), fought to its conclusion"
    summary = (
        "Rounds of 1d6 + crew quality + crew parties (first round -2/-1 for a captain killed/"
        "wounded); draws, attacker vs counter-boarder on the gunwales, attacker vs defender "
        "on deck, repulse and follow-up, strike tests at 0 crew parties, excess casualties "
        "off the Broadside. 'attacker'/'defender' are the original roles. Readings: the "
        "attacker breaks off when its crew parties fall below break_off_below; only the "
        "ship that declared a counter-board may follow up; a strike test's -1 per extra "
        "test counts the earlier tests of that ship in this action."
    )
    tables = (BOARDING, STRIKE, STRIKE_MODS)
    examples = (
        {},
        {
            "attacker_parties": "6",
            "defender_parties": "4",
            "attacker_crew": "veteran",
            "defender_captain": "wounded",
        },
        {
            "counterboard": "yes",
            "defender_crew": "elite",
            "attacker_parties": "3",
            "defender_parties": "3",
        },
        {
            "attacker_parties": "5",
            "defender_parties": "2",
            "break_off_below": "3",
            "counterboard": "yes",
            "defender_masts": "lost",
        },
    )
    params = (
        Param("attacker_parties", "attacker's crew parties", minimum=1, maximum=12, default=4),
        Param("defender_parties", "defender's crew parties", minimum=0, maximum=12, default=4),
        _crew_param("attacker_crew", "attacker's crew quality"),
        _crew_param("defender_crew", "defender's crew quality"),
        Param("counterboard", "the defender declared a counter-board", kind="bool", default=False),
        Param("follow_up", "a counter-boarder follows up when it may", kind="bool", default=True),
        Param(
            "break_off_below",
            "attacker breaks off when its crew parties fall below this (0: never)",
            minimum=0,
            maximum=12,
            default=0,
        ),
        *_strike_params("attacker_", "attacker"),
        *_strike_params("defender_", "defender"),
    )

    def start(self, rules: Rules, inputs: Inputs) -> Melee:
        return Melee(
            gunwales=bool(inputs["counterboard"]),
            boarding=ATTACKER,
            parties=(inputs["attacker_parties"], inputs["defender_parties"]),
        )

    def _modifiers(self, ctx: Context, inputs: Inputs, state: Melee, side: int) -> int:
        """Return a side's round modifiers: crew quality, crew parties, first-round captain."""
        name = SIDE[side]
        quality = inputs[f"{name}_crew"]
        params = ctx.table(BOARDING).params
        total = 0
        if f"crew_{quality}" in params:
            total += ctx.add(f"{name}: {quality} crew", int(params[f"crew_{quality}"]), BOARDING)
        total += ctx.add(f"{name}: crew parties", state.parties[side], BOARDING)
        captain = inputs[f"{name}_captain"]
        if state.first and captain != "unhurt":
            total += ctx.add(
                f"{name}: captain {captain} (first round)",
                int(params[f"first_round_captain_{captain}"]),
                BOARDING,
            )
        return total

    def _end(self, inputs: Inputs, state: Melee, result: str) -> Outcome:
        changes = []
        effects: list[Effect] = []
        whom = {ATTACKER: "ship", DEFENDER: "target"}
        for side in (ATTACKER, DEFENDER):
            name = SIDE[side].capitalize()
            lost = inputs[f"{SIDE[side]}_parties"] - state.parties[side]
            if lost:
                changes.append(f"{name}: -{lost} crew parties ({state.parties[side]} left)")
                effects.append(Effect(whom[side], "crew_parties", lost))
            if state.excess[side]:
                changes.append(f"{name}: -{state.excess[side]} Broadside (excess casualties)")
                effects.append(Effect(whom[side], "broadside", state.excess[side]))
        if result in ("attacker strikes", "defender strikes"):
            changes.append(f"{result.split()[0].capitalize()} strikes her colours")
            struck = ATTACKER if result.startswith("attacker") else DEFENDER
            effects.append(Effect(whom[struck], "state", state="struck"))
        details = (
            ("parties", state.parties),
            ("broadside_lost", state.excess),
            ("strike_tests", state.tests),
        )
        return Outcome(result, tuple(changes), details, tuple(effects))

    def step(self, ctx: Context, inputs: Inputs, state: Melee) -> Melee | Outcome:
        if state.test >= 0:
            return self._strike_step(ctx, inputs, state)
        boarding, boarded = state.boarding, 1 - state.boarding
        if (
            not state.first
            and boarding == ATTACKER
            and state.parties[ATTACKER] < inputs["break_off_below"]
        ):
            ctx.explain(
                f"The attacker, down to {state.parties[ATTACKER]} crew parties, breaks off."
            )
            if self._may_follow(inputs, state, DEFENDER):
                ctx.explain(
                    "The defender declared a counter-board and follows up: it is now the Attacker."
                )
                return state._replace(gunwales=False, boarding=DEFENDER)
            return self._end(inputs, state, "attacker breaks off")

        where = (
            "on the gunwales (attacker vs counter-boarder)"
            if state.gunwales
            else f"on the {SIDE[boarded]}'s deck, the {SIDE[boarding]} attacking"
        )
        ctx.explain(f"Round {where}:")
        own = self._modifiers(ctx, inputs, state, ATTACKER)
        other = self._modifiers(ctx, inputs, state, DEFENDER)
        # Each side rolls its d6; only the difference decides the round, so the two dice
        # are rolled as one "d6 - d6" (11 totals to count instead of 36 pairs).
        die = str(ctx.param(BOARDING, "round_die"))
        dice = ctx.roll(f"{die}-{die}", "Round dice (attacker's d6 - defender's d6)")
        margin = dice + own - other
        state = state._replace(first=False)
        difference = abs(margin)
        if margin:
            leader = "attacker" if margin > 0 else "defender"
            ctx.explain(
                f"Modifiers {own:+d} against {other:+d}, dice {dice:+d}: "
                f"the {leader} wins the round by {difference}."
            )
        params = ctx.table(BOARDING).params
        if difference == 0:
            ctx.explain(
                f"Modifiers {own:+d} against {other:+d}, dice {dice:+d}: a draw; both sides "
                "lose one crew party (no strike test on a draw)."
            )
            return self._settle(ctx, inputs, _lose(_lose(state, ATTACKER, 1), DEFENDER, 1))
        winner = ATTACKER if margin > 0 else DEFENDER
        loser = 1 - winner

        if state.gunwales:
            count = 2 if difference >= int(params["push_back_difference"]) else 1
            ctx.explain(
                f"On the gunwales the {SIDE[loser]} is pushed back onto its own deck, "
                f"losing {count}; it is now the Defender."
            )
            state = _lose(state, loser, count)._replace(gunwales=False, boarding=winner)
            return self._after_loss(ctx, inputs, state, loser)

        decisive = difference >= int(params["decisive_difference"])
        if winner == boarding and decisive:
            ctx.explain(
                f"The attacking {SIDE[boarding]} wins by 6 or more: the {SIDE[boarded]} strikes."
            )
            return self._end(inputs, state, f"{SIDE[boarded]} strikes")
        if winner == boarded and decisive:
            ctx.explain(
                f"The defending {SIDE[boarded]} wins by 6 or more: the {SIDE[boarding]} is "
                "repulsed to its own deck, losing 2."
            )
            state = _lose(state, boarding, 2)._replace(repulsed=True)
            return self._after_loss(ctx, inputs, state, boarding)
        ctx.explain(f"The {SIDE[loser]} loses one crew party.")
        return self._after_loss(ctx, inputs, _lose(state, loser, 1), loser)

    def _may_follow(self, inputs: Inputs, state: Melee, side: int) -> bool:
        return bool(
            side == DEFENDER
            and inputs["counterboard"]
            and inputs["follow_up"]
            and state.parties[side] > 0
        )

    def _after_loss(
        self, ctx: Context, inputs: Inputs, state: Melee, loser: int
    ) -> Melee | Outcome:
        """A loser left with 0 crew parties takes a Strike Test (next step); else settle."""
        if state.parties[loser] == 0:
            ctx.explain(f"The {SIDE[loser]} has 0 crew parties: it must take a Strike Test.")
            return state._replace(test=loser)
        return self._settle(ctx, inputs, state)

    def _strike_step(self, ctx: Context, inputs: Inputs, state: Melee) -> Melee | Outcome:
        side = state.test
        extra = state.tests[side]
        passed = _strike_test(ctx, _strike_inputs(inputs, f"{SIDE[side]}_"), extra, SIDE[side])
        tests = (state.tests[0] + (side == 0), state.tests[1] + (side == 1))
        state = state._replace(tests=tests, test=-1)
        if not passed:
            return self._end(inputs, state, f"{SIDE[side]} strikes")
        ctx.explain(f"The {SIDE[side]} passes and fights on.")
        return self._settle(ctx, inputs, state)

    def _settle(self, ctx: Context, inputs: Inputs, state: Melee) -> Melee | Outcome:
        """End the fight if both sides are at 0; after a repulse, follow up or end."""
        if state.parties == (0, 0):
            ctx.explain("Both ships are down to 0 crew parties: the fight ends.")
            return self._end(inputs, state, "both crews spent")
        if not state.repulsed:
            return state
        boarding, boarded = state.boarding, 1 - state.boarding
        state = state._replace(repulsed=False)
        if self._may_follow(inputs, state, boarded):
            ctx.explain(
                "The defender declared a counter-board and follows up: it is now the Attacker."
            )
            return state._replace(boarding=boarded)
        repulsed = "attacker repulsed" if boarding == ATTACKER else "counter-attack repulsed"
        return self._end(inputs, state, repulsed)
