"""Checks on WeasyPrint's layout of a sheet that runs in columns (the quick reference, the
Notes for the GM): text under 7 pt, and boxes wider than their column or table cell.

The layout is the costly part of a test, so what the tests read from a sheet's layout is found
once per session (`layout_facts`), by whichever test asks first, which renders its PDF from
the same layout: the print check (tests/test_print.py) and the sheet's own tests then read
that PDF, and a test in another process reads the facts without laying the sheet out again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from generator.loading import Rules
from generator.render.sheets import get_kind, layout_sheet, render_sheet, sheet_html
from generator.resources import resource_dir

SEVEN_PT_PX = 7 * 96 / 72


def count_renders(monkeypatch: Any) -> list[Any]:
    """Count WeasyPrint's layouts from now on (`monkeypatch`, a pytest MonkeyPatch): the
    document laid out, each time."""
    from weasyprint import HTML

    real = HTML.render
    made: list[Any] = []

    def render(self: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(HTML, "render", render)
    return made


def boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", None) or []:
        yield from boxes(child)


def layout_problems(document: Any) -> list[str]:
    """Return text set under 7 pt and boxes that stick out of their column or table cell."""
    problems = []
    for number, page in enumerate(document.pages, start=1):
        for box in boxes(page._page_box):
            name = type(box).__name__
            if (
                name == "TextBox"
                and box.text.strip()
                and box.style["font_size"] < SEVEN_PT_PX - 0.01
            ):
                problems.append(f"page {number}: '{box.text}' under 7 pt")
            element = getattr(box, "element", None)
            if name == "TableCellBox":
                right = box.content_box_x() + box.width
                problems += [
                    f"page {number}: '{inner.text}' runs out of its cell"
                    for inner in boxes(box)
                    if type(inner).__name__ == "TextBox"
                    and inner.position_x + inner.width > right + 0.6
                ]
            elif element is not None and "flow" in (element.get("class") or "").split():
                for column in box.children:
                    right = column.content_box_x() + column.width
                    problems += [
                        f"page {number}: {type(inner).__name__} wider than its column"
                        for inner in boxes(column)
                        if hasattr(inner, "margin_width")
                        and inner.position_x + inner.margin_width() > right + 0.5
                    ]
    return problems


def in_columns(kind: str) -> bool:
    """Whether the kind's template runs tables in columns (and so has its layout checked)."""
    template = get_kind(kind).template
    if template is None:
        return False  # drawn
    return "table_runs(" in (resource_dir("templates") / template).read_text(encoding="utf-8")


HEADINGS = ("h1", "h2", "h3")


def heading_lines(document: Any) -> list[tuple[str, list[str]]]:
    """Every heading of a laid-out sheet (h1-h3, and the heads of tables), with its words
    and its lines as laid out."""
    found: list[tuple[str, list[str]]] = []

    def walk(box: Any, in_thead: bool) -> None:
        element = getattr(box, "element", None)
        tag = getattr(element, "tag", None)
        name = type(box).__name__
        if name in ("BlockBox", "TableCellBox") and (tag in HEADINGS or (tag == "th" and in_thead)):
            lines = [
                "".join(t.text for t in boxes(line) if type(t).__name__ == "TextBox")
                for line in boxes(box)
                if type(line).__name__ == "LineBox"
            ]
            found.append(("".join(element.itertext()), [x for x in lines if x.strip()]))
            return
        inside = in_thead or (name == "TableRowGroupBox" and tag == "thead")
        for child in getattr(box, "children", None) or []:
            walk(child, inside)

    for page in document.pages:
        walk(page._page_box, False)
    return found


def page_words(document: Any) -> list[list[str]]:
    """The text of each text box of a laid-out sheet, page by page, in layout order."""
    return [
        [box.text for box in boxes(page._page_box) if type(box).__name__ == "TextBox"]
        for page in document.pages
    ]


def _facts_key(html: str, fillable: bool) -> str:
    return "layout-" + hashlib.sha256(repr((html, fillable)).encode()).hexdigest()


def _facts(document: Any) -> bytes:
    facts = {
        "problems": layout_problems(document),
        "headings": heading_lines(document),
        "words": page_words(document),
    }
    return json.dumps(facts).encode()


# what a sheet that runs tables in columns holds (templates/qr_parts.html.j2's `table_runs`)
_COLUMNS = ('<div class="flow">', '<div class="across">')


def offer_facts(html: str, fillable: bool, document: Any) -> None:
    """Keep the layout facts of a sheet in columns (`layout_facts`) as soon as any test
    process lays it out, whatever for (a quick reference's size search, a packet): a test
    in another process that asks for them then reads them, and does not lay it out again.
    Finding them costs some milliseconds."""
    from tests.conftest import offer

    if any(mark in html for mark in _COLUMNS):
        offer(_facts_key(html, fillable), lambda: _facts(document))


def layout_facts(kind: str, rules: Rules, **options: Any) -> dict[str, Any]:
    """What the tests read from WeasyPrint's layout of a sheet (options as for
    `render_sheet`): its "problems" (`layout_problems`), its "headings" (`heading_lines`)
    and its "words" (`page_words`). Found once per session; the test that finds them renders
    the sheet's PDF from the same layout."""
    from tests.conftest import shared

    html = sheet_html(kind, rules, **options)

    def find() -> bytes:
        document = layout_sheet(kind, rules, **options)
        render_sheet(kind, rules, **options)  # from the layout this process keeps
        return _facts(document)

    key = _facts_key(html, bool(options.get("fillable")))
    facts: dict[str, Any] = json.loads(shared(key, find))
    facts["headings"] = [(text, lines) for text, lines in facts["headings"]]
    return facts


def layout_problems_of(kind: str, rules: Rules, **options: Any) -> list[str]:
    """The layout problems of a sheet (options as for `render_sheet`), checked once per
    session (`layout_facts`)."""
    return list(layout_facts(kind, rules, **options)["problems"])


def printed_sheet(kind: str, rules: Rules, **options: Any) -> bytes:
    """`render_sheet` as the print check (tests/test_print.py) renders it. A blank sheet in
    columns (the only kind of it the print check reads) has its layout facts found too, from
    the layout its PDF is written from: the test process that renders it first lays it out
    once for both, not once here and again in the process that checks its layout."""
    if in_columns(kind) and options.get("data") is None:
        layout_facts(kind, rules, **options)
    return render_sheet(kind, rules, **options)
