"""The ``counters`` section of a ruleset's spec, read and checked: the counters' shape, the
class line, the corner ratings, the reverse, the markers, the wind gauge and the tracks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.rulesets import RulesetSpec, SpecError, sheet_section

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


_KEYS = {
    "shape",
    "class_line",
    "corners",
    "corners_note",
    "reverse",
    "markers",
    "wind",
    "tracks",
}


def _text(raw: Any, key: str, where: str, *, required: bool = True) -> str:
    value = raw.get(key) if isinstance(raw, Mapping) else None
    if value is None and not required:
        return ""
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise SpecError(f"{where}: '{key}' must be text")
    return str(value)


@cache
def counter_spec(ruleset: str) -> CounterSpec:
    """Return the counters section of `ruleset`'s spec, checked."""
    raw, spec = sheet_section(ruleset, "counters")
    return read_counter_spec(raw, spec)


def read_counter_spec(raw: Mapping[str, Any], spec: RulesetSpec) -> CounterSpec:
    """Check the counters section `raw` of `spec` and return it read."""
    where = spec.where("counters")
    if not {"shape", "class_line"} <= set(raw) <= _KEYS or raw["shape"] not in FACE_MM:
        raise SpecError(
            f"{where}: counters have a shape ({', '.join(FACE_MM)}) and a class_line, and may "
            f"have {', '.join(sorted(_KEYS - {'shape', 'class_line'}))}"
        )
    corners = []
    listed = raw.get("corners") or []
    if not isinstance(listed, list) or len(listed) > 4:
        raise SpecError(f"{where}: corners is a list of at most four {{label, short, value}}")
    for i, item in enumerate(listed):
        at = spec.where("counters", "corners", i)
        corners.append(
            Corner(
                _text(item, "label", at),
                _text(item, "short", at, required=False),
                _text(item, "value", at),
                at,
            )
        )
    reverse = None
    if raw.get("reverse") is not None:
        at = spec.where("counters", "reverse")
        reverse = (_text(raw["reverse"], "label", at), _text(raw["reverse"], "note", at))
    for key in ("markers", "tracks"):
        if not isinstance(raw.get(key) or [], list):
            raise SpecError(f"{spec.where('counters', key)}: {key} is a list")
    markers = []
    for i, item in enumerate(raw.get("markers") or []):
        at = spec.where("counters", "markers", i)
        count = item.get("count") if isinstance(item, Mapping) else None
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 40:
            raise SpecError(f"{at}: a marker's count is a whole number, 1 to 40")
        markers.append(Marker(_text(item, "label", at), count, _text(item, "note", at)))
    wind = None
    if raw.get("wind") is not None:
        wind = _text(raw["wind"], "note", spec.where("counters", "wind"))
    tracks = []
    for i, item in enumerate(raw.get("tracks") or []):
        at = spec.where("counters", "tracks", i)
        label = _text(item, "label", at)
        source = item.get("spaces_from") if isinstance(item, Mapping) else None
        if source is not None and not (
            isinstance(source, Mapping)
            and isinstance(source.get("table"), str)
            and isinstance(source.get("param"), str)
        ):
            raise SpecError(f"{at}: spaces_from names a rules table and its param")
        tracks.append(
            Track(
                label,
                _text(item, "marker", at, required=False) or label,
                _text(item, "spaces", at),
                (str(source["table"]), str(source["param"])) if source else None,
                _text(item, "note", at, required=False),
                at,
            )
        )
    return CounterSpec(
        shape=str(raw["shape"]),
        class_line=str(raw["class_line"]),
        class_where=spec.where("counters", "class_line"),
        corners=tuple(corners),
        corners_note=_text(raw, "corners_note", where, required=False),
        reverse=reverse,
        markers=tuple(markers),
        wind=wind,
        tracks=tuple(tracks),
        where=where,
    )
