"""Make what is printed: a game-night packet (and its handouts), one sheet, a convention
batch; as PDF bytes, or written where asked (checked before any page is laid out)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.app.checks import (
    check_output,
    check_title,
    read_order,
    say_uneven,
    words,
)
from generator.app.generated import roll_scenario, seed_or_fresh
from generator.app.inputs import (
    CHARACTER_FILE,
    SCENARIO_FILE,
    SCENARIO_OR_FLEET_FILE,
    check_input,
    check_ruleset,
    load_rules,
)
from generator.app.requests import QUIET, BatchRequest, Listener, PacketRequest, SheetRequest
from generator.errors import InputError
from generator.generate import scenario as scenarios
from generator.generate.base import get_generator
from generator.generate.common import ROMAN
from generator.loading import Rules
from generator.output import check_target, write_atomic
from generator.pdf import batch, packet
from generator.render import sheets
from generator.render.paper import get_paper
from generator.ruleset.model import Force, Scenario, SheetData, side_of
from generator.ruleset.scenario import ROLLS_AGAIN
from generator.rulesets import default_ruleset

#: the folder a PDF is written to when no ``-o`` names the file
OUTPUT_FOLDER = Path("output")


def output_name(
    kind: str, ruleset: str | None, seed: object, paper: str, mono: bool, fillable: bool
) -> str:
    """Return the name of a sheet or packet: KIND[-RULESET][-SEED][-letter][-mono][-fillable].pdf
    (the ruleset left out where the kind's name starts with it)."""
    parts = [kind]
    if ruleset is not None and not kind.startswith(ruleset):
        parts.append(ruleset)
    if seed is not None:
        parts.append(str(seed))
    if paper != "a4":
        parts.append(paper)
    if mono:
        parts.append("mono")
    if fillable:
        parts.append("fillable")
    return "-".join(parts) + ".pdf"


@dataclass(frozen=True)
class PdfFile:
    """A PDF made: its file name (or the path it was written to), its bytes, and for a
    side's handout the side's name."""

    name: Path
    pdf: bytes
    side: str | None = None


# --- what the sheets are told ----------------------------------------------------------


def told(rules: Rules, scenario: Scenario, *, rolled: bool) -> Scenario:
    """Return `scenario` as the sheets are given it: with whether its seed rolls it again
    (`ROLLS_AGAIN`, which the briefing says). One `rolled` here from its seed and the
    options it records does, by how it was made; one read from a file does only if
    rolling its seed with its options makes it again as it is (`rolls_again`)."""
    again = rolled or scenarios.rolls_again(rules, scenario)
    given = scenario.copy()
    given[ROLLS_AGAIN] = again
    return given


# --- packets ------------------------------------------------------------------------------


def handout_names(target: Path, scenario: Scenario) -> list[Path]:
    """Return the paths of the sides' handouts beside `target`, named by navy
    (``packet-flob-7-british.pdf``), numbered where two sides share a navy."""
    navies = [str(side.get("navy") or f"side{i + 1}") for i, side in enumerate(scenario["sides"])]
    names = [f"{navy}-{i + 1}" if navies.count(navy) > 1 else navy for i, navy in enumerate(navies)]
    return [target.with_name(f"{target.stem}-{name}.pdf") for name in names]


@dataclass(frozen=True)
class _Planned:
    """A packet past its checks: the rules, the scenario, and the files it makes."""

    rules: Rules
    scenario: Scenario
    paper: str
    without: tuple[str, ...]
    target: Path
    handouts: list[Path]


def _plan_packet(request: PacketRequest, listener: Listener) -> _Planned:
    """Check a packet's options, read or roll its scenario, and name its files."""
    paper = request.printing.paper.lower()
    leave_out = words(request.without)
    packet.check_packet_options(paper, leave_out, request.spares)
    check_title(request.title)
    rules = load_rules(request.rules_file)
    ruleset = request.ruleset
    if ruleset is not None:
        check_ruleset(rules, ruleset)
    if request.from_file is not None or request.scenario is not None:
        if request.seed is not None or request.order.chosen():
            raise InputError(
                "--from: the scenario is read from the file; no --seed, --ships, --navies or --year"
            )
        if request.from_file is None:
            assert request.scenario is not None
            check_output(request.output, request.force, "pdf", _inputs(request))
            scenario = scenarios.checked_scenario(rules, request.scenario, ruleset)
        else:
            check_input(request.from_file, "--from", SCENARIO_FILE)
            check_output(request.output, request.force, "pdf", _inputs(request))
            # without a RULESET, the file says which it is
            scenario = scenarios.read_scenario(request.from_file, rules, ruleset)
        ruleset = str(scenario["ruleset"])
    else:
        ruleset = ruleset or default_ruleset()
        order = read_order(request.order)
        scenarios.check_order(rules, ruleset, order)
        check_output(request.output, request.force, "pdf", _inputs(request))
        scenario = roll_scenario(rules, ruleset, request.seed, order, listener)
    say_uneven(scenario, listener)
    if request.title is not None:
        scenario["title"] = request.title.strip()
    rolled = request.from_file is None and request.scenario is None
    scenario = told(rules, scenario, rolled=rolled)
    printing = request.printing
    name = output_name("packet", ruleset, scenario["seed"], paper, printing.mono, printing.fillable)
    target = request.output or OUTPUT_FOLDER / name
    handouts = handout_names(target, scenario) if request.handouts else []
    return _Planned(rules, scenario, paper, leave_out, target, handouts)


def _lay_out(request: PacketRequest, planned: _Planned, listener: Listener) -> list[PdfFile]:
    """Lay out the packet and its handouts (`listener` told each step)."""
    listener.start()
    scenario = planned.scenario
    made = packet.build_packet(
        planned.rules,
        scenario,
        paper=planned.paper,
        mono=request.printing.mono,
        fillable=request.printing.fillable,
        without=frozenset(planned.without),
        spares=request.spares,
        progress=listener.step,
    )
    listener.step("putting the pages together")
    files = [PdfFile(planned.target, made.write())]
    for index, handout in enumerate(planned.handouts):
        side = str(scenario["sides"][index].get("name", ""))
        listener.step(f"handout for {side}")
        files.append(PdfFile(handout, made.write(sides={index}), side))
    return files


def make_packet(request: PacketRequest, listener: Listener = QUIET) -> list[PdfFile]:
    """Make a game-night packet's PDF and, when asked, one handout per side, without
    writing anything; each named as `write_packet` names its file."""
    planned = _plan_packet(request, listener)
    return _lay_out(request, planned, listener)


def write_packet(request: PacketRequest, listener: Listener = QUIET) -> list[PdfFile]:
    """Make a game-night packet (and its handouts) and write each, checked first; return
    them named by where they were written."""
    planned = _plan_packet(request, listener)
    for path in (planned.target, *planned.handouts):
        check_target(path, force=request.force, kind="pdf", inputs=_inputs(request))
    files = _lay_out(request, planned, listener)
    for file in files:
        write_atomic(file.name, file.pdf)
    return files


def _inputs(request: PacketRequest | SheetRequest) -> tuple[Path | None, ...]:
    """Return the files on disk `request` reads (house rules in hand are none)."""
    rules_file = request.rules_file if isinstance(request.rules_file, Path) else None
    return (request.from_file, rules_file)


# --- sheets -------------------------------------------------------------------------------

# the sheets that print one fleet as well as a scenario's sides (--from a fleet file)
FLEET_KINDS = ("roster", "ship-log", "counters")


def fleet_as_scenario(force: Force) -> Scenario:
    """Return a fleet file (``quartermaster fleet``, edited or not) as a one-side scenario,
    for the sheets that print a side: its roster, its ships' logs, its counters."""
    side = side_of(force)
    scenario: Scenario = {
        "ruleset": force["ruleset"],
        "seed": force.get("seed", 0),
        "title": str(side.get("name", "")),
        "sides": [side],
    }
    if "year" in force:
        scenario["year"] = force["year"]
    return scenario


def sheet_data(
    sheet: sheets.SheetKind,
    rules: Rules,
    ruleset: str | None,
    from_file: Path | None,
    seed: int | None,
) -> SheetData | None:
    """Return what a sheet is about: read from an edited file, rolled from a seed, or None."""
    if from_file is not None and seed is not None:
        raise InputError("give --from or --seed, not both")
    if sheet.data == "character":
        gen = get_generator(ruleset if ruleset in sheet.rulesets else sheet.rulesets[0])
        if from_file is not None:
            return gen.read_character(from_file, rules)
        return gen.roll_character(rules, seed) if seed is not None else None
    if sheet.data == "scenario":
        if from_file is not None:
            if sheet.kind not in FLEET_KINDS:
                found = scenarios.read_scenario(from_file, rules, ruleset)
            else:
                _, read = scenarios.read_generated(from_file, rules, ("scenario", "fleet"), ruleset)
                found = read if "sides" in read else fleet_as_scenario(read)
            return told(rules, found, rolled=False)
        if seed is None:
            return None
        if ruleset is None:
            raise InputError(f"--ruleset: which ruleset's scenario? ({', '.join(sheet.rulesets)})")
        # the same scenario 'quartermaster packet RULESET --seed N' prints: balanced
        rolled = scenarios.roll_scenario(rules, ruleset, seed, scenarios.Order())
        return told(rules, rolled, rolled=True)
    if from_file is not None or seed is not None:
        raise InputError(f"the {sheet.kind} sheet is the same for every game: no --from or --seed")
    return None


@dataclass(frozen=True)
class _Sheet:
    """A sheet past its checks: the rules, what it is about, its ruleset and its name."""

    rules: Rules
    data: SheetData | None
    ruleset: str | None
    target: Path


def _plan_sheet(request: SheetRequest) -> _Sheet:
    rules = load_rules(request.rules_file)
    kind, ruleset, printing = request.kind, request.ruleset, request.printing
    sheet = sheets.get_kind(kind)
    if ruleset is not None and ruleset not in sheet.rulesets:
        raise InputError(
            f"--ruleset {ruleset}: the {kind} sheet serves {', '.join(sheet.rulesets)}"
        )
    paper = get_paper(printing.paper).name
    if sheet.data == "character":
        takes = CHARACTER_FILE
    elif kind in FLEET_KINDS:
        takes = SCENARIO_OR_FLEET_FILE
    else:
        takes = SCENARIO_FILE
    check_input(request.from_file, "--from", takes)
    check_output(request.output, request.force, "pdf", _inputs(request))
    data = sheet_data(sheet, rules, ruleset, request.from_file, request.seed)
    named = data.get("ruleset") if data else None  # a character may name none
    chosen = ruleset or (str(named) if named is not None else None)
    name = output_name(kind, chosen, request.seed, paper, printing.mono, printing.fillable)
    return _Sheet(rules, data, chosen, request.output or OUTPUT_FOLDER / name)


def _render(request: SheetRequest, planned: _Sheet) -> PdfFile:
    printing = request.printing
    pdf = sheets.render_sheet(
        request.kind,
        planned.rules,
        data=planned.data,
        ruleset=planned.ruleset,
        paper=printing.paper.lower(),
        mono=printing.mono,
        fillable=printing.fillable,
    )
    return PdfFile(planned.target, pdf)


def make_sheet(request: SheetRequest) -> PdfFile:
    """Make one sheet's PDF without writing it, named as `write_sheet` names its file."""
    return _render(request, _plan_sheet(request))


def write_sheet(request: SheetRequest) -> PdfFile:
    """Make one sheet and write it, the place checked first; return it as written."""
    planned = _plan_sheet(request)
    check_target(planned.target, force=request.force, kind="pdf", inputs=_inputs(request))
    made = _render(request, planned)
    write_atomic(made.name, made.pdf)
    return made


# --- batches ------------------------------------------------------------------------------


def batch_order(options: batch.BatchOptions) -> scenarios.Order:
    """Return the order every scenario of the batch is rolled by."""
    return scenarios.Order(options.ships, options.navies, options.year, options.balanced)


def batch_plan(rules: Rules, options: batch.BatchOptions) -> list[Scenario]:
    """Roll every scenario of the batch, in order, and give each a title no earlier one
    has ("Action off Ushant II" after "Action off Ushant"); return them as the sheets are
    given them (`told`). The same options give the same scenarios and titles, so a resumed
    batch matches the one it finishes."""
    order = batch_order(options)
    taken: set[str] = set()
    planned = []
    for index, seed in enumerate(batch.batch_seeds(options.seed, options.count)):
        scenario = scenarios.roll_scenario(rules, options.ruleset(index), seed, order)
        title = str(scenario["title"])
        if title in taken:
            title = next(
                (f"{title} {r}" for r in ROMAN if f"{title} {r}" not in taken),
                f"{title} ({index + 1})",
            )
            scenario["title"] = title
        taken.add(title)
        planned.append(told(rules, scenario, rolled=True))
    return planned


def make_batch(request: BatchRequest, listener: Listener = QUIET) -> dict[str, Any]:
    """Make (or, with `resume`, finish) a convention batch in its folder; return its
    manifest (every packet with its file, seed, pages and title)."""
    paper = request.printing.paper.lower()
    leave_out = words(request.without)
    packet.check_packet_options(paper, leave_out, request.spares)
    rules = load_rules(request.rules_file)
    chosen = words(request.rulesets)
    for ruleset in chosen:
        check_ruleset(rules, ruleset)
    order = read_order(request.order)
    for ruleset in chosen:
        scenarios.check_order(rules, ruleset, order)
    seed = request.seed
    if seed is None and request.resume:
        existing = batch.read_manifest(request.output)
        seed = int(existing["seed"]) if existing else None
    options = batch.BatchOptions(
        rulesets=chosen,
        seed=seed_or_fresh(seed, listener),
        count=request.count,
        balanced=order.balanced,
        paper=paper,
        mono=request.printing.mono,
        fillable=request.printing.fillable,
        cache=request.cache,
        rules_file=str(request.rules_file) if request.rules_file else None,
        ships=order.ships,
        navies=order.navies,
        year=order.year,
        without=leave_out,
        spares=request.spares,
    )
    batch.check_batch_options(options, request.jobs)
    batch.check_batch_targets(request.output, options, force=request.force)
    listener.start()
    return batch.run_batch(
        request.output,
        options,
        scenarios=lambda: batch_plan(rules, options),
        jobs=request.jobs,
        resume=request.resume,
        progress=listener.progress,
    )
