"""Balanced columns found once: where a sheet's columns break, kept for its twin.

WeasyPrint balances a multi-column box (the quick reference's three columns, the Notes for
the GM's two) by laying its content out again and again, a pixel or a table row taller each
time, until the last column is no longer the tallest: most of the time those sheets take,
dozens of passes where one would do once the breaks are known.

A sheet in black and white lays out exactly as it does in colour: only colours differ (the
quick reference's tests hold it to that). So the breaks one of the two was balanced to are
kept, by the HTML with its colour scheme set aside (`plan_key`), in this process and in the
disk cache beside the PDFs; the other is then laid out with each column made to start where
its twin's did (`break-before: column` on that element, `column-fill: auto` on the box): one
pass per box. Its columns are checked against the twin's afterwards (each column's place and
size, and what starts it), and where any differs it is laid out again and balanced by
WeasyPrint (and, in this process, both sheets are from then on). A box whose balanced
columns begin inside a paragraph or a table (where a break cannot be asked for as it fell)
is left to be balanced. Either way the pages are the same, and so are the PDF's bytes.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from generator.render import cache as disk

# a column that follows the page: nothing is forced, the page's own break starts it
_PAGE = "page"
# the suffix of a plan's file in the disk cache
_SUFFIX = ".cols"
# the body's colour scheme (base.html.j2): the one difference between a sheet and its twin
_SCHEME = re.compile(r'<body class="(?:mono|colour)\b')
# a plan: for each multi-column box, in order, its element's "path" (the index of each
# element on the way down from the root), its column "starts" (for each column of each of
# its fragments, page by page: _PAGE for one that follows a page or the box's top, else
# the path of the element that starts it, or None where it starts inside an element no
# break can be forced before) and its "columns" (each fragment's page index, and each of
# its columns' x, y, width and height in CSS px, as laid out)
Plan = list[dict[str, Any]]

# the plans known in this process, the most recently used last
_KNOWN: OrderedDict[str, Plan] = OrderedDict()
_KEEP = 64
# the keys whose two sheets were found not to lay out alike: each is balanced on its own
_UNLIKE: set[str] = set()


def plan_key(html: str, *, fillable: bool) -> str | None:
    """Return the key a plan of `html`'s columns is kept by, or None for HTML without a
    multi-column box (nothing to plan)."""
    if "columns:" not in html:
        return None
    return disk.sheet_key(_SCHEME.sub('<body class="colour', html, count=1), fillable=fillable)


def known(key: str) -> Plan | None:
    """Return the plan kept under `key` (in this process, or in the disk cache), or None."""
    if key in _UNLIKE:
        return None
    plan = _KNOWN.get(key)
    if plan is None:
        stored = disk.load(key, _SUFFIX)
        if stored is None:
            return None
        try:
            plan = json.loads(stored.decode("utf-8"))
        except ValueError:
            return None  # an entry this code did not write
        _remember(key, plan)
    _KNOWN.move_to_end(key)
    return plan


def keep(key: str, plan: Plan) -> None:
    """Keep `plan` under `key`, here and in the disk cache."""
    if key in _UNLIKE or _KNOWN.get(key) == plan:
        return
    _remember(key, plan)
    disk.store(key, json.dumps(plan, separators=(",", ":")).encode("utf-8"), _SUFFIX)


def unlike(key: str) -> None:
    """Say that the sheets under `key` did not lay out alike (a plan of one, tried on the
    other, was found wrong): from now on in this process each is balanced on its own."""
    _UNLIKE.add(key)
    _KNOWN.pop(key, None)


def _remember(key: str, plan: Plan) -> None:
    _KNOWN[key] = plan
    _KNOWN.move_to_end(key)
    while len(_KNOWN) > _KEEP:
        _KNOWN.popitem(last=False)


def apply(root: Any, plan: Plan) -> bool:
    """Mark the elements of `root` (the HTML's parsed tree, before it is laid out) so that
    each planned box's columns start where the plan says; return whether any box was
    marked. A box with a column the plan cannot force is left to be balanced."""
    marked = False
    for run in plan:
        style = _box_style(run)
        box = _element(root, run["path"])
        if style is None or box is None:
            continue
        forced = [_element(root, start) for start in run["starts"] if isinstance(start, list)]
        if any(element is None for element in forced):
            continue
        _add_style(box, style)
        for element in forced:
            _add_style(element, "break-before: column")
        marked = True
    return marked


def _box_style(run: dict[str, Any]) -> str | None:
    """The style that lays a planned box out as its twin was, with its breaks forced, or
    None where that cannot be asked for.

    A box that fills its columns (over several pages, all but the last) fills them as
    balancing does. But a box that goes on into the next column (a table, between two of
    its rows) reaches down to the foot of its column, which, filled rather than balanced,
    is the foot of the page: so on the last page (where the columns are balanced) only a
    break between the box's own children, which reach no further than they are tall, can
    be asked for.
    """
    starts, fragments = run["starts"], run["columns"]
    if any(start is None for start in starts) or not fragments:
        return None
    last = starts[len(starts) - len(fragments[-1][1]) :]
    depth = len(run["path"]) + 1
    if any(isinstance(start, list) and len(start) != depth for start in last):
        return None
    return "column-fill: auto"


def _add_style(element: Any, declaration: str) -> None:
    style = (element.get("style") or "").strip().rstrip(";")
    element.set("style", f"{style}; {declaration}" if style else declaration)


def _element(root: Any, path: list[int]) -> Any:
    element = root
    for index in path:
        children = list(element)
        if index >= len(children):
            return None
        element = children[index]
    return element


def extract(document: Any, root: Any) -> Plan:
    """Return the plan of a laid-out WeasyPrint `document` whose parsed HTML is `root`:
    for each multi-column box, where its columns start and their geometry."""
    paths = _paths(root)
    runs: dict[Any, dict[str, Any]] = {}
    seen: set[Any] = set()
    # WeasyPrint has no public view of a page's boxes: its page box is what it laid out
    for number, page in enumerate(document.pages):
        for box in _boxes(page._page_box, seen):
            columns = [c for c in box.children if getattr(c, "is_column", False)]
            run = runs.setdefault(
                box.element, {"path": paths[box.element], "starts": [], "columns": []}
            )
            run["columns"].append([number, [_place(c) for c in columns]])
            for index, column in enumerate(columns):
                start = _PAGE if index == 0 else _starting(column, seen)
                run["starts"].append(paths[start] if start not in (None, _PAGE) else start)
                seen.update(_elements(column))
    return list(runs.values())


def _boxes(box: Any, seen: set[Any]) -> Iterator[Any]:
    """Yield the multi-column boxes inside `box`, in order, adding every element passed on
    the way to `seen` (so that a column's first box can tell a start from a continuation)."""
    children = getattr(box, "children", None) or ()
    if any(getattr(child, "is_column", False) for child in children):
        yield box
        return
    if getattr(box, "element", None) is not None:
        seen.add(box.element)
    for child in children:
        yield from _boxes(child, seen)


def _elements(box: Any) -> Iterator[Any]:
    if getattr(box, "element", None) is not None:
        yield box.element
    for child in getattr(box, "children", None) or ():
        yield from _elements(child)


def _starting(column: Any, seen: set[Any]) -> Any:
    """Return the element a column starts with, where a break can be forced before it (one
    of the box's own children, or a table row), or None (it starts inside a paragraph or a
    list, or inside something else no break is asked for in)."""
    boxes = _in_flow(column)
    top = boxes[0] if boxes else None
    while boxes:
        box = boxes[0]
        kind = type(box).__name__
        if kind in ("LineBox", "TextBox", "InlineBox"):
            return None
        if getattr(box, "is_header", False):  # a table's head, repeated in the column
            boxes = boxes[1:]
            continue
        wrapper = kind in ("TableWrapperBox", "TableBox", "TableRowGroupBox")
        if box.element is not None and box.element not in seen and not wrapper:
            return box.element if box is top or kind == "TableRowBox" else None
        boxes = _in_flow(box)  # a box that went on from the last column, or a wrapper
    return None


def _in_flow(box: Any) -> list[Any]:
    return [child for child in getattr(box, "children", None) or () if child.is_in_normal_flow()]


def _place(column: Any) -> list[float]:
    # as laid out, to the last bit: a JSON number reads back as the same float
    return [
        float(column.position_x),
        float(column.position_y),
        float(column.width),
        float(column.height),
    ]


def _paths(root: Any) -> dict[Any, list[int]]:
    """Every element of `root` and its path: the index of each element on the way down."""
    paths: dict[Any, list[int]] = {root: []}
    stack = [root]
    while stack:
        parent = stack.pop()
        for index, child in enumerate(parent):
            paths[child] = [*paths[parent], index]
            stack.append(child)
    return paths
