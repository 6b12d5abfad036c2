"""Ship counters of a scenario, drawn with ReportLab: one for every ship of both sides, with
the markers, the wind gauge and the tracks the rules use on the map.

A ruleset played on squares gets square counters, one played on hexes flat-topped hexes
(the ``counters`` section of its spec says which), each about 84 % of a map cell, so that the
grid and the terrain show around a counter and hand-cut neighbours never touch. A counter's
face carries a bold pointed bow at its top edge, the ship's name (fitted: shrunk to 7 pt at
the least, then wrapped, never clipped), her key ratings in its four corners (which, and how
they read, is the spec's ``corners``), a band naming her navy on her side's colour (in mono,
solid or hatched) and a pennant on the flagship; her class line stands under the name where
every counter of the sheet has room for it. Where the spec names a ``reverse`` (Struck,
Captured), each counter is printed with its reverse under it, to cut out as a pair, fold on
the dashed line and glue: turned over across the fold, a counter keeps her heading. The
fold runs across the whole row, in ink, with the word "fold" at each end.

Pairs stand in rows with a gap between them, each with its own cut line, and crop marks at
the edges of each block continue every straight cut. After the ships come the markers of
the states the spec lists, a wind gauge and a marker for each track, and the tracks
themselves (a turn track, a battle clock), all from the spec and the scenario; the key
under the first page's header says what each means. The pieces take as few pages as they
need, filled alike (`balance`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.errors import InputError
from generator.loading import Rules
from generator.render.draw import Box, Drawing, text_width_mm
from generator.render.kinds.counters.face import (
    CORNER_SIZES,
    WITH_CLASS,
    corner_size_for,
    corner_values,
    counter,
    describe,
    fit_stack,
    shape_for,
)
from generator.render.kinds.counters.paint import paint_page
from generator.render.kinds.counters.sheet import (
    CROP_ROOM_MM,
    KEY_GUTTER_MM,
    MARKER_MM,
    PAGE_LABEL_PT,
    SECTION_SPACE_MM,
    TRACK_BOX_MM,
    TRACK_PER_ROW,
    Block,
    CounterPage,
    Section,
    balance,
    fitted_words,
    fold_room,
    header_words,
    key_columns,
    key_paragraphs,
    marker_items,
    per_row,
    place_block,
    place_track,
    track_plan,
)
from generator.render.kinds.counters.spec import counter_spec
from generator.render.pagenumbers import page_label
from generator.render.paper import get_paper
from generator.render.words import house_tables_line
from generator.ruleset.model import Scenario


def context(rules: Rules, data: Scenario | None, paper: str, ruleset: str | None) -> dict[str, Any]:
    """Lay out the counters sheet of scenario `data` on `paper`: its pages of blocks, its
    header and key, the counters' shape."""
    if data is None:
        raise InputError("the counters are the ships of a scenario: give --seed or --from")
    found = str(data.get("ruleset", ruleset))
    if ruleset is not None and found != ruleset:
        raise InputError(f"this is a {found} scenario, not {ruleset}")
    paper = get_paper(paper).name
    spec = counter_spec(found)
    shape = shape_for(found)
    sides = data["sides"]
    if len(sides) > 2:
        raise InputError(f"the counters sheet prints two sides, this scenario has {len(sides)}")
    ships = [list(side.get("ships", [])) for side in sides]  # a naval ruleset's sheet
    everyone = [(i, side, ship) for i, side in enumerate(sides) for ship in ships[i]]
    navies = (
        {key: str(value["title"]).split(" (")[0] for key, value in rules.names.navies.items()}
        if rules.names
        else {}
    )

    # one corner size and one rule on the class line for the whole sheet, so that every
    # counter reads alike: the class stands under the name only if every name leaves room
    corner_size = CORNER_SIZES[0]
    for _, side, ship in everyone:
        size = corner_size_for(corner_values(ship, side, spec), shape, bool(ship.get("flagship")))
        if size is None:
            raise InputError(
                f"the corner ratings of '{ship.get('name')}' are too wide for a "
                f"{shape.size:g} mm counter"
            )
        corner_size = min(corner_size, size)
    zone = shape.rows()["zone"]
    with_class = all(
        fit_stack(str(ship.get("name", "")), describe(ship, spec) or None, shape, zone, WITH_CLASS)
        for _, side, ship in everyone
    )
    laid = [
        [
            counter(
                ship, side, i, shape, spec, navies, with_class=with_class, corner_size=corner_size
            )
            for ship in ships[i]
        ]
        for i, side in enumerate(sides)
    ]

    tracks = [track_plan(track, rules, found, data) for track in spec.tracks]
    markers = marker_items(spec, len(everyone), tracks)

    pair_h = shape.height * (2 if spec.reverse else 1)
    margin = fold_room() if spec.reverse else CROP_ROOM_MM
    sections = []
    for i, side in enumerate(sides):
        sections.append(
            Section(
                "ships",
                str(side.get("name", f"Side {i + 1}")),
                laid[i],
                per_row(shape.width, paper, margin),
                shape.width,
                pair_h,
                side=i,
                count=len(laid[i]),
                fold=shape.height if spec.reverse else None,
            )
        )
    if markers:
        sections.append(
            Section(
                "markers",
                "Markers",
                markers,
                per_row(MARKER_MM, paper),
                MARKER_MM,
                MARKER_MM,
            )
        )
    for made in tracks:
        sections.append(
            Section(
                "track",
                made.label,
                list(range(1, made.spaces + 1)),
                TRACK_PER_ROW,
                TRACK_BOX_MM,
                TRACK_BOX_MM,
                marker=made.marker,
            )
        )

    width, height = get_paper(paper).printable_mm
    page_left = (get_paper(paper).width_mm - width) / 2
    page_top = (get_paper(paper).height_mm - height) / 2
    # the title keeps clear of the page label at its right ("Page 1 of 2")
    label_room = text_width_mm(page_label(99, 99), "sans", PAGE_LABEL_PT) + 3.0
    title = fitted_words(
        f"Ship counters — {data.get('title', '')}",
        "serif",
        width - label_room,
        8.0,
        (15.0, 14.0, 13.0, 12.0),
    )
    header = header_words(found, spec, shape, width)
    header_h = title.height_mm + 1.0 + header.height_mm + 2.5
    flagships = any(ship.get("flagship") for _, _, ship in everyone)
    allies = any(
        ship.get("navy") and ship.get("navy") != side.get("navy") for _, side, ship in everyone
    )
    house = house_tables_line(rules, data.get("house_tables", []))
    paragraphs = key_paragraphs(
        spec, data, tracks, flagships, allies, house, (width - KEY_GUTTER_MM) / 2
    )
    key, key_h = key_columns(paragraphs, width)

    # the key stands on the first page, under its header, where the reader looks first;
    # the pieces follow, on as many pages as they need, filled alike
    room = height - header_h
    key_room = key_h + SECTION_SPACE_MM
    plan = balance(sections, room, room - key_room)
    pages = []
    for number, page in enumerate(plan, start=1):
        top = page_top + header_h + (key_room if number == 1 else 0.0)
        blocks: list[Block] = []
        for index, start, end in page:
            section = sections[index]
            if section.kind == "track":
                blocks.append(place_track(section, start, end, top, paper))
            else:
                blocks.append(place_block(section, start, end, top, paper, shape.hexagon))
            top += section.height(end - start) + SECTION_SPACE_MM
        label = page_label(number, len(plan))
        pages.append(CounterPage(number, tuple(blocks), label, top))
    return {
        "ruleset": found,
        "scenario_title": str(data.get("title", "")),
        "title": title,
        "header": header,
        "sheets": len(pages),
        "pages": pages,
        "frame": {
            "left": page_left,
            "top": page_top,
            "width": width,
            "height": height,
        },
        "shape": {
            "hexagon": shape.hexagon,
            "size": shape.size,
            "width": round(shape.width, 3),
            "outline": shape.outline(),
        },
        "reverse": spec.reverse[0] if spec.reverse else None,
        "with_class": with_class,
        "corner_size": corner_size,
        "key": key,
        "key_top": round(page_top + header_h, 3),
        "key_h": round(key_h, 3),
    }


def draw(
    drawing: Drawing,
    context: dict[str, Any],
    *,
    boxes: Mapping[str, Box],
    fillable: bool,
    field_prefix: str,
) -> None:
    """Draw the counters: each page's header, blocks of pairs, markers, tracks; the key."""
    for page in context["pages"]:
        drawing.new_page(boxes)
        paint_page(drawing, context, page)
