"""Printable sheet kinds: their manifests in sheets/, and rendering one to PDF bytes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from generator.errors import InputError
from generator.loading import Rules, thaw
from generator.loading.yamlfile import read_yaml
from generator.lookup import cell_text
from generator.resources import resource_dir

PAPERS: dict[str, dict[str, str]] = {
    "a4": {"name": "a4", "css": "A4", "margin": "10mm 11mm", "row": "7.4mm"},
    "letter": {"name": "letter", "css": "letter", "margin": "10mm 11mm", "row": "6.6mm"},
}

_MANIFEST_KEYS = {
    "kind",
    "title",
    "description",
    "template",
    "rulesets",
    "data",
    "static_when_blank",
    "fillable",
}


@dataclass(frozen=True)
class SheetKind:
    """A printable kind, as its manifest in sheets/ describes it."""

    kind: str
    title: str
    description: str
    template: str
    rulesets: tuple[str, ...]
    data: str
    static_when_blank: bool
    fillable: bool


@cache
def sheet_kinds() -> dict[str, SheetKind]:
    """Return every sheet kind by name, from sheets/*.yaml (checked)."""
    kinds: dict[str, SheetKind] = {}
    for path in sorted(resource_dir("sheets").glob("*.yaml")):
        raw = read_yaml(path).data
        if not isinstance(raw, dict) or set(raw) - _MANIFEST_KEYS or raw.get("kind") != path.stem:
            raise InputError(
                f"{path}: a sheet manifest needs exactly {', '.join(sorted(_MANIFEST_KEYS))}"
            )
        kinds[path.stem] = SheetKind(
            kind=str(raw["kind"]),
            title=str(raw["title"]),
            description=str(raw["description"]),
            template=str(raw["template"]),
            rulesets=tuple(raw["rulesets"]),
            data=str(raw["data"]),
            static_when_blank=bool(raw["static_when_blank"]),
            fillable=bool(raw["fillable"]),
        )
    return kinds


def get_kind(kind: str) -> SheetKind:
    """Return the sheet kind `kind`, or raise naming the kinds there are."""
    kinds = sheet_kinds()
    if kind not in kinds:
        raise InputError(f"unknown sheet kind '{kind}' (kinds: {', '.join(kinds)})")
    return kinds[kind]


def _duel_record(rules: Rules, data: dict[str, Any] | None, paper: str) -> dict[str, Any]:
    sheet = rules.table("duel.record-sheet")
    columns = [thaw(c) for c in sheet.cells]
    actions = rules.table("duel.actions")
    house = ["weapons (duel.weapons)", "attributes (duel.attributes)", "expertise (duel.expertise)"]
    return {
        "person": data,
        "columns": columns,
        "rows": int(sheet.params["rows_per_block"]),
        "guess_words": next(c["choices"] for c in columns if "choices" in c),
        "sheet_rules": rules.table("duel.sheet-rules").items,
        "action_lengths": actions.axes[1].labels,
        "actions": [
            {"type": label, "cells": [cell_text(c) for c in row]}
            for label, row in zip(actions.axes[0].labels, actions.cells, strict=True)
        ],
        "house_tables": house if data else [],
        "row_height": PAPERS[paper]["row"]
        if data is None
        else f"{float(PAPERS[paper]['row'][:-2]) - 0.6:.1f}mm",
    }


CONTEXTS: dict[str, Callable[[Rules, dict[str, Any] | None, str], dict[str, Any]]] = {
    "duel-record": _duel_record,
}


def render_sheet(
    kind: str,
    rules: Rules,
    *,
    data: dict[str, Any] | None = None,
    paper: str = "a4",
    mono: bool = False,
    fillable: bool = False,
) -> bytes:
    """Render one sheet of `kind` to PDF bytes.

    Args:
        data: the generated thing the sheet is about (a character, a scenario), or None for
            a blank sheet.
        paper: ``a4`` or ``letter``.
        mono: black and white only, for laser printers.
        fillable: write-in boxes become PDF form fields.
    """
    from generator.render.pdf import html_to_pdf
    from generator.render.templating import render_html

    sheet = get_kind(kind)
    if paper not in PAPERS:
        raise InputError(f"--paper {paper}: choose a4 or letter")
    if fillable and not sheet.fillable:
        raise InputError(f"--fillable: the {kind} sheet has no write-in fields")
    context = CONTEXTS[kind](rules, data, paper)
    name = f" — {data['name']}" if data and "name" in data else ""
    html = render_html(
        sheet.template,
        doc_title=f"{sheet.title}{name}",
        doc_subject=sheet.description,
        paper=PAPERS[paper],
        mono=mono,
        fillable=fillable,
        **context,
    )
    return html_to_pdf(html, fillable=fillable)


def default_path(kind: str, seed: int | None, paper: str, mono: bool, fillable: bool) -> Path:
    """Return the default output path: output/KIND[-SEED][-letter][-mono][-fillable].pdf."""
    parts = [kind]
    if seed is not None:
        parts.append(str(seed))
    if paper != "a4":
        parts.append(paper)
    if mono:
        parts.append("mono")
    if fillable:
        parts.append("fillable")
    return Path("output") / ("-".join(parts) + ".pdf")
