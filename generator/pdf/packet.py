"""Game-night packets: every sheet a scenario needs, in one bookmarked PDF.

Sections come from sheets/_packets.yaml. Each sheet is laid out by WeasyPrint (static
sheets once per process, see `layout_sheet`), the pages are joined, blank pages are put
in so that each side's part starts on an odd page, and the whole is written once. The
outline comes from the sheets' bookmark levels: sections at level 1, a side's sheets at
level 2, ships and people at the level below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from generator.errors import InputError, QuartermasterError
from generator.generate.base import get_generator
from generator.loading import Rules
from generator.loading.yamlfile import read_yaml
from generator.render.sheets import PAPERS, get_kind, layout_sheet
from generator.resources import resource_dir

SECTION_KEYS = ("cover", "per_side", "per_unit", "officers", "shared", "spares")


@cache
def packet_plan(ruleset: str) -> dict[str, list[str]]:
    """Return the packet sections of `ruleset` from sheets/_packets.yaml (checked)."""
    path = resource_dir("sheets") / "_packets.yaml"
    raw = read_yaml(path).data
    if not isinstance(raw, dict) or ruleset not in raw:
        raise QuartermasterError(f"{path}: no packet plan for '{ruleset}'")
    plan = raw[ruleset]
    if not isinstance(plan, dict) or set(plan) - set(SECTION_KEYS):
        raise QuartermasterError(f"{path}: '{ruleset}' may only have {', '.join(SECTION_KEYS)}")
    out = {key: [str(k) for k in plan.get(key, [])] for key in SECTION_KEYS}
    for kinds in out.values():
        for kind in kinds:
            get_kind(kind)
    return out


@dataclass
class Part:
    """A run of pages of the packet: the cover, one side's sheets, or a shared sheet."""

    title: str
    side: int | None
    documents: list[Any] = field(default_factory=list)

    @property
    def pages(self) -> list[Any]:
        return [page for document in self.documents for page in document.pages]


@dataclass
class Packet:
    """A laid-out packet: its parts in order, ready to be written whole or per side."""

    scenario: dict[str, Any]
    parts: list[Part]
    paper: str
    fillable: bool
    blank: Any

    def pages(self, sides: set[int] | None = None) -> list[Any]:
        """Return the pages in order, with blanks so each side's part starts on an odd page.

        Args:
            sides: only the parts of these sides (plus the cover and shared sheets).
        """
        out: list[Any] = []
        for part in self.parts:
            if part.side is not None and sides is not None and part.side not in sides:
                continue
            if part.side is not None and len(out) % 2 == 1:
                out.append(self.blank)
            out.extend(part.pages)
        return out

    def write(self, sides: set[int] | None = None) -> bytes:
        """Write the packet (or one side's handout) as PDF bytes."""
        from generator.render.pdf import write_pdf

        documents = [d for part in self.parts for d in part.documents]
        return write_pdf(documents, self.pages(sides), fillable=self.fillable)


def _side_scenario(scenario: dict[str, Any], index: int) -> dict[str, Any]:
    return {**scenario, "sides": [scenario["sides"][index]]}


def build_packet(
    rules: Rules,
    scenario: dict[str, Any],
    *,
    paper: str = "a4",
    mono: bool = False,
    fillable: bool = False,
    cache: bool = True,
) -> Packet:
    """Lay out every sheet of a game-night packet for `scenario`.

    Args:
        cache: reuse static sheets (quick references, cards, blanks) laid out before in this
            process; False lays everything out afresh (the bytes are the same).
    """
    from generator.render.pdf import layout

    ruleset = str(scenario["ruleset"])
    plan = packet_plan(ruleset)
    gen = get_generator(ruleset)
    title = str(scenario["title"])
    subject = f"{rules.rulesets[ruleset].title}; scenario seed {scenario['seed']}"

    def sheet(
        kind: str, data: dict[str, Any] | None, *bookmarks: tuple[str, int], **extra: Any
    ) -> Any:
        fields = fillable and get_kind(kind).fillable
        # a sheet of another ruleset (a high-seas officer's duel character sheet) keeps its own
        serves = ruleset if ruleset in get_kind(kind).rulesets else None
        return layout_sheet(
            kind,
            rules,
            data=data,
            ruleset=serves,
            fillable=fields,
            bookmarks=bookmarks,
            paper=paper,
            mono=mono,
            cache=cache,
            doc_title=extra.get("doc_title"),
            doc_subject=extra.get("doc_subject"),
        )

    parts: list[Part] = []
    metadata = {"doc_title": f"Game-night packet — {title}", "doc_subject": subject}
    parts.append(
        Part(
            "Briefing",
            None,
            [sheet(kind, scenario, (title, 1), **metadata) for kind in plan["cover"]],
        )
    )
    for index, side in enumerate(scenario["sides"]):
        part = Part(str(side.get("name") or f"Side {index + 1}"), index)
        entries: list[tuple[str, dict[str, Any] | None, str]] = [
            (kind, _side_scenario(scenario, index), get_kind(kind).title)
            for kind in plan["per_side"]
        ]
        for unit in side.get(gen.units, []):
            entries += [
                (kind, unit, f"{unit['name']}: {get_kind(kind).title}") for kind in plan["per_unit"]
            ]
            for officer in unit.get("officers", []):
                role = officer.get("role", "Officer")
                entries += [
                    (kind, officer, f"{role} {officer['name']} ({unit['name']})")
                    for kind in plan["officers"]
                ]
        for i, (kind, data, label) in enumerate(entries):
            marks = ((part.title, 1), (label, 2)) if i == 0 else ((label, 2),)
            part.documents.append(sheet(kind, data, *marks))
        parts.append(part)
    for kind in plan["shared"]:
        data = scenario if get_kind(kind).data == "scenario" else None
        parts.append(
            Part(get_kind(kind).title, None, [sheet(kind, data, (get_kind(kind).title, 1))])
        )
    for kind in plan["spares"]:
        label = f"Spare: {get_kind(kind).title}"
        parts.append(Part(label, None, [sheet(kind, None, (label, 1))]))
    blank = layout(
        f"<html><head><style>@page {{ size: {PAPERS[paper]['css']}; margin: 0 }}</style></head>"
        "<body></body></html>"
    ).pages[0]
    return Packet(scenario, parts, paper, fillable, blank)


def check_packet_options(paper: str) -> None:
    """Refuse a paper size before any work is done."""
    if paper not in PAPERS:
        raise InputError(f"--paper {paper}: choose a4 or letter")
