"""The commands that print: sheet, packet, batch.

Each imports the part of the application layer it calls when it runs: every command module
is imported at each start-up, and printing pulls in the renderers (Jinja, pypdf, ReportLab
and WeasyPrint when a page is drawn; about 450 ms of imports before the first page, measured
with ``python -X importtime``), which `roll 2d6` and `lookup` must never load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from generator import completion
from generator.app import (
    BatchRequest,
    OrderOptions,
    PacketRequest,
    PrintOptions,
    SheetRequest,
)
from generator.cli.common import (
    BalancedOption,
    Command,
    ForceOption,
    FromOption,
    NaviesOption,
    RulesOption,
    SeedOption,
    ShipsOption,
    Told,
    YearOption,
)

PdfOutputFile = Annotated[
    Path | None,
    typer.Option(
        "-o", "--output", help="Write the PDF here instead of under output/.", dir_okay=False
    ),
]
PaperOption = Annotated[
    str, typer.Option("--paper", help="a4 or letter.", autocompletion=completion.papers)
]
MonoOption = Annotated[
    bool, typer.Option("--mono", help="Black and white only, for laser printers.")
]
FillableOption = Annotated[
    bool, typer.Option("--fillable", help="Make write-in boxes PDF form fields.")
]
WithoutOption = Annotated[
    str | None,
    typer.Option(
        "--without",
        metavar="SECTIONS",
        help="Leave out these sections, comma-separated: map, counters, cards, playsheet, "
        "quick-reference, spares, gm-notes.",
        autocompletion=completion.sections,
    ),
]
SparesOption = Annotated[
    int | None,
    typer.Option("--spares", help="How many blank logs (or records) to add; default 1."),
]

commands = typer.Typer()


@commands.command("sheet", cls=Command)
def sheet_command(
    kind: Annotated[
        str,
        typer.Argument(
            help="Sheet kind, e.g. duel-record (see --help for the list).",
            autocompletion=completion.sheet_kinds,
        ),
    ],
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            help="The ruleset, for kinds that serve several.",
            autocompletion=completion.rulesets,
        ),
    ] = None,
    from_file: FromOption = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Roll the data the sheet is about from this seed.")
    ] = None,
    paper: PaperOption = "a4",
    mono: MonoOption = False,
    fillable: FillableOption = False,
    rules_file: RulesOption = None,
    output: PdfOutputFile = None,
    force: ForceOption = False,
) -> None:
    """Print one sheet to PDF: blank, from a generated file (--from) or rolled (--seed).

    Kinds: briefing, roster, ship-log, map, counters, cards, playsheet, quick-reference,
    character, duel-record. A kind that does not serve the ruleset asked for says which
    rulesets it serves.

    Example: quartermaster sheet ship-log --ruleset tactical --seed 1805 --paper letter
    """
    from generator.app.printed import write_sheet

    request = SheetRequest(
        kind=kind,
        ruleset=ruleset,
        from_file=from_file,
        seed=seed,
        printing=PrintOptions(paper, mono, fillable),
        rules_file=rules_file,
        output=output,
        force=force,
    )
    typer.echo(f"wrote {write_sheet(request).name}")


@commands.command("packet", cls=Command)
def packet_command(
    ruleset: Annotated[
        str | None,
        typer.Argument(
            help="The ruleset (default: the one 'quartermaster rulesets' marks).",
            autocompletion=completion.rulesets,
        ),
    ] = None,
    seed: SeedOption = None,
    ships: ShipsOption = None,
    navies: NaviesOption = None,
    year: YearOption = None,
    balanced: BalancedOption = True,
    from_file: FromOption = None,
    without: WithoutOption = None,
    spares: SparesOption = None,
    title: Annotated[
        str | None,
        typer.Option("--title", help="The scenario's title instead of the rolled one."),
    ] = None,
    paper: PaperOption = "a4",
    mono: MonoOption = False,
    fillable: FillableOption = False,
    handouts: Annotated[
        bool,
        typer.Option(
            "--handouts",
            help="Also write one PDF per side with only what its players need (their roster "
            "and logs, the quick reference), named by navy.",
        ),
    ] = False,
    rules_file: RulesOption = None,
    output: PdfOutputFile = None,
    force: ForceOption = False,
) -> None:
    """Make a game-night packet: briefing, each side's roster and logs, quick reference,
    cards, counters and map, bookmarked, imposed for double-sided printing.

    The sides are balanced (strengths within 10 %) unless --unbalanced.

    Examples: quartermaster packet tactical --seed 1805 --paper letter --handouts;
    quartermaster packet flob --ships 3 --navies british,french --year 1798 --without map
    """
    from generator.app.printed import write_packet

    request = PacketRequest(
        ruleset=ruleset,
        seed=seed,
        order=OrderOptions(ships, navies, year, balanced),
        from_file=from_file,
        without=without,
        spares=spares,
        title=title,
        printing=PrintOptions(paper, mono, fillable),
        handouts=handouts,
        rules_file=rules_file,
        output=output,
        force=force,
    )
    with Told(status="Making the packet") as told:
        files = write_packet(request, told)
    for made in files:
        typer.echo(f"wrote {made.name}" + ("" if made.side is None else f" ({made.side})"))


@commands.command("batch", cls=Command)
def batch_command(
    rulesets: Annotated[
        str,
        typer.Argument(
            help="The ruleset, or several comma-separated (taken in turn), e.g. tactical,flob.",
            autocompletion=completion.ruleset_list,
        ),
    ],
    count: Annotated[int, typer.Option("--count", help="How many packets.", min=1)],
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Folder for the batch.", file_okay=False)
    ],
    seed: SeedOption = None,
    ships: ShipsOption = None,
    navies: NaviesOption = None,
    year: YearOption = None,
    balanced: BalancedOption = True,
    without: WithoutOption = None,
    spares: SparesOption = None,
    jobs: Annotated[int, typer.Option("--jobs", help="Worker processes.", min=1)] = 2,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish an interrupted batch, keeping whole packets.")
    ] = False,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Lay every page out afresh (same bytes, slower).")
    ] = False,
    paper: PaperOption = "a4",
    mono: MonoOption = False,
    fillable: FillableOption = False,
    rules_file: RulesOption = None,
    force: ForceOption = False,
) -> None:
    """Make a convention batch: COUNT different, reproducible packets with distinct titles,
    a manifest and an index. The sides are balanced unless --unbalanced.

    Examples: quartermaster batch tactical --count 40 --seed 2026 -o con/;
    quartermaster batch tactical,flob --count 12 --ships 4 --without gm-notes -o club/
    """
    from generator.app.checks import words
    from generator.app.printed import make_batch

    request = BatchRequest(
        rulesets=rulesets,
        count=count,
        output=output,
        seed=seed,
        order=OrderOptions(ships, navies, year, balanced),
        without=without,
        spares=spares,
        jobs=jobs,
        resume=resume,
        cache=not no_cache,
        printing=PrintOptions(paper, mono, fillable),
        rules_file=rules_file,
        force=force,
    )
    with Told(bar=(f"{', '.join(words(rulesets))} packets", count)) as told:
        manifest = make_batch(request, told)
    pages = sum(p["pages"] for p in manifest["packets"])
    typer.echo(f"wrote {len(manifest['packets'])} packets ({pages} pages) to {output}")
