"""The ``counters`` section of a ruleset's spec: its shape (`section_schema`, checked with
every spec's sections by `generator.render.specs`) and what it is read into (`CounterSpec`):
the counters' shape, the class line, the corner ratings, the reverse, the markers, the wind
gauge and the tracks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.render.specs import TEMPLATE, param_check, section, table_key
from generator.rulesets import RulesetSpec
from generator.schema.context import LINE_LENGTH, NAME_LENGTH
from generator.schema.nodes import Choice, Items, OneOf, Record, Text, Whole, opt, req

# a counter is about 84 % of the map cell it stands on (the cells are cells.SQUARE_MM and
# cells.HEX_MM): the grid and the terrain show round it, and neighbours cut by hand don't touch
FACE_MM = {"square": 18.5, "hex": 22.0}


@dataclass(frozen=True)
class Corner:
    """A rating in a corner: its name (the key's), its short label on the counter (may be
    empty) and the Jinja text of its value."""

    label: str
    short: str
    value: str
    where: str


@dataclass(frozen=True)
class Marker:
    """A state the rules track on the map: its word, how many to print, what it means."""

    label: str
    count: int
    note: str


@dataclass(frozen=True)
class Track:
    """A track of numbered spaces (turns, a battle clock) and the marker that moves on it.

    `spaces` is a number or Jinja over the scenario; where the scenario gives none, the
    track is as long as the largest of the rules' `spaces_from` (a table's param)."""

    label: str
    marker: str
    spaces: str
    spaces_from: tuple[str, str] | None
    note: str
    where: str


@dataclass(frozen=True)
class CounterSpec:
    """The counters section of a ruleset's spec, checked."""

    shape: str
    class_line: str
    class_where: str
    corners: tuple[Corner, ...]
    corners_note: str
    reverse: tuple[str, str] | None  # its word and what it means
    markers: tuple[Marker, ...]
    wind: str | None  # None: no wind gauge; else its note
    tracks: tuple[Track, ...]
    where: str


@cache
def section_schema(ruleset: str) -> Record:
    """Return the shape of `ruleset`'s counters section (its tables, for `spaces_from`)."""
    text = Text(LINE_LENGTH)
    spaces_from = Record(
        {
            "table": req(table_key(ruleset), "the rules table whose param gives the lengths"),
            "param": req(Text(NAME_LENGTH), "that param: a list of lengths; the longest is used"),
        },
        (param_check(ruleset, "table", "param"),),
        what="a mapping of table and param",
    )
    return Record(
        {
            "shape": req(Choice(tuple(FACE_MM), what="counter shape"), "the map's cells"),
            "class_line": req(TEMPLATE, "under the name, if every counter of a sheet has room"),
            "corners": opt(
                Items(
                    Record(
                        {
                            "label": req(Text(NAME_LENGTH), "the rating's name, under the page"),
                            "short": opt(Text(NAME_LENGTH, empty=True), "its label on the counter"),
                            "value": req(TEMPLATE, "its value"),
                        },
                        what="a mapping of label, short and value",
                    ),
                    maximum=4,
                    noun=("corner", "corners"),
                ),
                "top left, top right, bottom left, bottom right",
            ),
            "corners_note": opt(text, "a sentence about the corners, under each page's title"),
            "reverse": opt(
                Record(
                    {"label": req(Text(NAME_LENGTH)), "note": req(text)},
                    what="a mapping of label and note",
                ),
                "each counter's back: its word and what it means",
            ),
            "markers": opt(
                Items(
                    Record(
                        {
                            "label": req(Text(NAME_LENGTH), "its word"),
                            "count": req(Whole(1, 40), "how many to print"),
                            "note": req(text, "what it means"),
                        },
                        what="a mapping of label, count and note",
                    ),
                    noun=("marker", "markers"),
                ),
                "the states the rules track on the map",
            ),
            "wind": opt(
                Record({"note": req(text)}, what="a mapping of note"),
                "a wind gauge marker, and what changes the wind",
            ),
            "tracks": opt(
                Items(
                    Record(
                        {
                            "label": req(Text(NAME_LENGTH), "its name"),
                            "marker": opt(Text(NAME_LENGTH), "its marker's word (the label)"),
                            "spaces": req(
                                OneOf((Whole(1, None), TEMPLATE)), "its spaces: Jinja over scenario"
                            ),
                            "spaces_from": opt(spaces_from, "its spaces without a scenario"),
                            "note": opt(TEMPLATE, "how it is used (Jinja over scenario)"),
                        },
                        what="a mapping of label, spaces and note",
                    ),
                    noun=("track", "tracks"),
                ),
                "tracks of numbered spaces (turns, a battle clock) and their markers",
            ),
        },
        what="a counters section",
    )


@cache
def counter_spec(ruleset: str) -> CounterSpec:
    """Return the counters section of `ruleset`'s spec, checked."""
    raw, spec = section(ruleset, "counters")
    return read_counter_spec(raw, spec)


def read_counter_spec(raw: Mapping[str, Any], spec: RulesetSpec) -> CounterSpec:
    """Return the counters section `raw` of `spec` (checked by `section_schema`) read."""
    corners = tuple(
        Corner(
            str(item["label"]),
            str(item.get("short", "")),
            str(item["value"]),
            spec.where("counters", "corners", i),
        )
        for i, item in enumerate(raw.get("corners", ()))
    )
    reverse = raw.get("reverse")
    wind = raw.get("wind")
    tracks = []
    for i, item in enumerate(raw.get("tracks", ())):
        source = item.get("spaces_from")
        tracks.append(
            Track(
                str(item["label"]),
                str(item.get("marker") or item["label"]),
                str(item["spaces"]),
                (str(source["table"]), str(source["param"])) if source else None,
                str(item.get("note", "")),
                spec.where("counters", "tracks", i),
            )
        )
    return CounterSpec(
        shape=str(raw["shape"]),
        class_line=str(raw["class_line"]),
        class_where=spec.where("counters", "class_line"),
        corners=corners,
        corners_note=str(raw.get("corners_note", "")),
        reverse=(str(reverse["label"]), str(reverse["note"])) if reverse else None,
        markers=tuple(
            Marker(str(item["label"]), int(item["count"]), str(item["note"]))
            for item in raw.get("markers", ())
        ),
        wind=str(wind["note"]) if wind else None,
        tracks=tuple(tracks),
        where=spec.where("counters"),
    )
