"""A sheet's twin in the other colour scheme is laid out at the column breaks its balancing
found (generator/render/columns.py): one layout rather than WeasyPrint's dozens of balancing
passes, and the same pages and bytes as balanced afresh; where the breaks cannot be asked
for, or no longer hold, the columns are balanced as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from weasyprint import HTML

from generator.render import columns, pdf
from generator.resources import resource_dir
from tests.layouts import count_renders


def sheet(scheme: str, *, body: str, css: str = "") -> str:
    """A small sheet with balanced columns, in `scheme` ("colour" or "mono")."""
    return f"""<!DOCTYPE html><html><head><link rel="stylesheet" href="base.css"><style>
@page {{ size: A5; margin: 10mm; }}
html {{ font-family: "QM Sans"; font-size: 9pt; }}
.flow {{ columns: 3; column-gap: 3mm; column-fill: balance; }}
h2 {{ font-size: 12pt; margin: 1mm 0; break-after: avoid; }}
p {{ margin: 0 0 1mm; }}
.whole {{ break-inside: avoid; }}
td, th {{ padding: 0.3mm; }}
tr {{ break-inside: avoid; }}
.mono h2 {{ color: #000; }} .colour h2 {{ color: #803; }}
{css}
</style></head><body class="{scheme} paper-a4">{body}</body></html>"""


def blocks(count: int) -> str:
    """Whole blocks of a few lines each, under headings: breaks fall between them."""
    out = []
    for n in range(count):
        if n % 4 == 0:
            out.append(f"<h2>Part {n // 4 + 1}</h2>")
        words = " ".join(["gun deck broadside rigging"] * (2 + n % 5))
        out.append(f'<div class="whole"><p><b>Rule {n + 1}.</b> {words}.</p></div>')
    return '<div class="flow">' + "".join(out) + "</div>"


def long_table(rows: int) -> str:
    """One table longer than a column: a column starts at one of its rows."""
    body = "".join(f"<tr><td>{n}</td><td>Hull {n * 3}, crew {n * 2}</td></tr>" for n in range(rows))
    return (
        '<div class="flow"><h2>Damage</h2><table><thead><tr><th>Roll</th><th>Effect</th></tr>'
        f"</thead><tbody>{body}</tbody></table></div>"
    )


def long_paragraphs() -> str:
    """Paragraphs long enough that a column starts inside one: no break is asked for there."""
    text = " ".join(["the wind backs a point and the line tacks in succession"] * 30)
    return f'<div class="flow"><p>{text}</p><p>Then the van bears up.</p></div>'


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Any]:
    """Count WeasyPrint's layouts; start with no plan known, with a disk cache of our own."""
    monkeypatch.setenv("QM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(columns, "_KNOWN", type(columns._KNOWN)())
    monkeypatch.setattr(columns, "_UNLIKE", set())
    made = count_renders(monkeypatch)
    # the layout itself, not the tests' memo of layouts by HTML (tests/conftest.py)
    monkeypatch.setattr(pdf, "layout", getattr(pdf.layout, "__wrapped__", pdf.layout))
    return made


def afresh(html: str) -> bytes:
    """The PDF of `html` balanced by WeasyPrint, with no plan to go by."""
    saved = dict(columns._KNOWN)
    columns._KNOWN.clear()
    try:
        document = HTML(string=html, base_url=str(resource_dir("templates")) + "/")
        laid = document.render(font_config=pdf._fonts())
        return pdf.write_pdf([laid])
    finally:
        columns._KNOWN.update(saved)


def plan_of(html: str) -> columns.Plan:
    key = columns.plan_key(html, fillable=False)
    assert key is not None
    plan = columns.known(key)
    assert plan is not None
    return plan


@pytest.mark.parametrize("first", ["colour", "mono"])
def test_the_twin_is_laid_out_once_at_the_breaks_found(renders: list[Any], first: str) -> None:
    second = "mono" if first == "colour" else "colour"
    pdf.layout(sheet(first, body=blocks(12)))
    assert len(renders) == 1
    html = sheet(second, body=blocks(12))
    laid = pdf.layout(html)
    assert len(renders) == 2  # one layout, at the breaks: none balanced afresh
    assert pdf.write_pdf([laid]) == afresh(html)
    # each column after the first is asked to start where the twin's did
    (run,) = plan_of(html)
    assert run["starts"][0] == "page" and len(run["starts"]) == 3
    assert all(isinstance(start, list) for start in run["starts"][1:])


def test_a_box_over_pages_fills_them_and_its_last_is_laid_out_at_the_breaks(
    renders: list[Any],
) -> None:
    pdf.layout(sheet("colour", body=blocks(34)))
    html = sheet("mono", body=blocks(34))
    (run,) = plan_of(html)
    assert len({page for page, _ in run["columns"]}) > 1
    laid = pdf.layout(html)
    assert len(renders) == 2
    assert pdf.write_pdf([laid]) == afresh(html)


def test_columns_that_start_inside_a_table_are_balanced(renders: list[Any]) -> None:
    pdf.layout(sheet("colour", body=long_table(40)))
    html = sheet("mono", body=long_table(40))
    (run,) = plan_of(html)
    root = HTML(string=html).etree_element
    starts = [columns._element(root, start) for start in run["starts"][1:]]
    assert [element.tag for element in starts] == ["tr", "tr"]  # found, but not asked for
    laid = pdf.layout(html)
    assert len(renders) == 2  # balanced as before
    assert pdf.write_pdf([laid]) == afresh(html)


def test_a_column_that_starts_inside_a_paragraph_is_balanced(renders: list[Any]) -> None:
    pdf.layout(sheet("colour", body=long_paragraphs()))
    html = sheet("mono", body=long_paragraphs())
    (run,) = plan_of(html)
    assert None in run["starts"]
    laid = pdf.layout(html)
    assert len(renders) == 2  # nothing to force: balanced as before
    assert pdf.write_pdf([laid]) == afresh(html)


def test_breaks_that_no_longer_hold_are_found_again(renders: list[Any]) -> None:
    body, larger = blocks(12), ".mono p { font-size: 11pt; }"
    pdf.layout(sheet("colour", body=body, css=larger))
    # a twin that does not lay out as the first did (larger type in black and white)
    html = sheet("mono", body=body, css=larger)
    laid = pdf.layout(html)
    assert len(renders) == 3  # laid out at the old breaks, found wrong, balanced afresh
    assert pdf.write_pdf([laid]) == afresh(html)
    # from now on each is balanced on its own: no layout wasted on breaks found wrong
    before = len(renders)
    for scheme in ("colour", "mono"):
        pdf.layout(sheet(scheme, body=body, css=larger))
    assert len(renders) == before + 2


def test_the_breaks_are_kept_on_disk_for_another_process(renders: list[Any]) -> None:
    body = blocks(12)
    pdf.layout(sheet("colour", body=body))
    columns._KNOWN.clear()  # as a new process finds it
    html = sheet("mono", body=body)
    laid = pdf.layout(html)
    assert len(renders) == 2
    assert pdf.write_pdf([laid]) == afresh(html)


def test_the_twins_share_a_key_and_a_sheet_without_columns_has_none() -> None:
    colour, mono = sheet("colour", body="<p>x</p>"), sheet("mono", body="<p>x</p>")
    key = columns.plan_key(colour, fillable=False)
    assert key is not None and key == columns.plan_key(mono, fillable=False)
    assert key != columns.plan_key(colour, fillable=True)
    assert key != columns.plan_key(sheet("colour", body="<p>y</p>"), fillable=False)
    assert columns.plan_key(colour.replace("columns:", "width:"), fillable=False) is None
