"""Show generated forces and scenarios on the terminal.

Everything is laid out for the console's width and nothing is cut: long text wraps with a
hanging indent, and a side's ships are a table when the table fits (with full headers, or
short ones and a key under it) and one block per ship when it does not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from generator.ruleset.model import Scenario
from generator.text import wrap_items, wrap_text

# Keys of a side or a scenario that are shown some other way, or are bookkeeping.
_SIDE_SKIP = ("name", "ruleset", "seed", "navy")
_SCENARIO_SKIP = (
    "title",
    "ruleset",
    "seed",
    "sides",
    "map",
    "setup",
    "victory",
    "special_rules",
    "house_tables",
    "generator",
    "balance",
    "options",
)
# Readable labels for the fields whose key alone says too little.
_LABELS = {
    "national": "National character",
    "fleet": "Fleet character",
    "battle_clock": "Battle clock",
}
# The key of a rolled or described field that names it; the rest is said after it.
_LEADS = ("name", "result", "direction", "band")
# Details that are noise on the terminal (they stay in --json).
_QUIET = ("table", "roll")
# Short headers for columns whose names are long; others are made up by `_short`.
_SHORT = {
    "flagship": "flag",
    "captain": "capt",
    "captain_quality": "capq",
    "crew_quality": "crq",
    "crew_parties": "crp",
    "movement_class": "mv",
    "gunnery_class": "gc",
    "broadside": "bs",
    "mast_rating": "mr",
    "masts": "mst",
    "carronades": "carr",
    "rigging": "rig",
    "rigging_hp": "rig",
    "hull_hp": "hull",
    "hull_type": "htype",
    "handling": "hand",
    "trained_fighters": "fgt",
    "pistols": "pist",
    "condition": "cond",
    "morale": "mor",
    "sails": "sail",
    "cannon": "can",
    "skill": "skl",
    "swiftness": "swf",
    "gunnery": "gun",
    "boarding": "brd",
    "courage": "cou",
}


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else ""
    return "" if value is None else str(value)


def _print_lines(console: Console, lines: Iterable[str], style: str = "", bold: str = "") -> None:
    """Print lines as they are (no markup); `bold` is a prefix of the first line to embolden."""
    for n, line in enumerate(lines):
        text = Text(line, style=style)
        if n == 0 and bold and line.lstrip().startswith(bold):
            start = len(line) - len(line.lstrip())
            text.stylize("bold", start, start + len(bold))
        console.print(text, soft_wrap=True)


# ---------------------------------------------------------------------- labelled fields


def _label(key: str) -> str:
    return _LABELS.get(key, key.replace("_", " ").capitalize())


def _words(key: str, value: Any) -> str | None:
    """A detail of a described field as words: "strength Fresh", "at sea"; None for none."""
    if value is None or value is False or value in ("", "—") or key in _QUIET:
        return None
    if value is True:
        return key.replace("_", " ")
    if isinstance(value, list) and all(_scalar(v) for v in value):
        value = "/".join(str(v) for v in value)
    elif not _scalar(value):
        return None
    if key in ("bonus", "effect", "meters"):
        return str(value) + (" m" if key == "meters" else "")
    return f"{key.replace('_', ' ')} {value}"


def field_text(value: Any) -> str | None:
    """A side's or scenario's field as a short phrase, or None when it is not shown.

    Scalars as they are, lists of scalars joined, and a rolled result with its details in
    brackets: ``Brilliant (Draw an Extra Card in Draw phase)``. The table and the roll
    are left to ``--json``.
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if _scalar(value):
        return None if value in ("", None) else str(value)
    if isinstance(value, list):
        if value and all(_scalar(v) for v in value):
            return ", ".join(str(v) for v in value)
        return None
    if not isinstance(value, dict):
        return None
    lead_key = next((k for k in _LEADS if _scalar(value.get(k)) and value.get(k)), None)
    details = [w for k, v in value.items() if k != lead_key and (w := _words(k, v))]
    if lead_key is None:
        return ", ".join(details) or None
    lead = str(value[lead_key])
    return f"{lead} ({'; '.join(details)})" if details else lead


def info_lines(
    data: Mapping[str, Any], skip: Sequence[str], width: int
) -> list[tuple[str, list[str]]]:
    """Return (label, wrapped lines) for each field of `data` worth a labelled line.

    A field ``X_name`` is said with the field ``X``: "Admiral: Leonardo Malaspina,
    Brilliant (...)". Fields that are long lists of records (ships, the map) are left out.
    """
    out: list[tuple[str, list[str]]] = []
    for key, value in data.items():
        if key in skip or (key.endswith("_name") and key.removesuffix("_name") in data):
            continue
        text = field_text(value)
        named = data.get(f"{key}_name")
        if isinstance(named, str) and named:
            text = f"{named}, {text}" if text else named
        if text is None:
            continue
        label = _label(key)
        keep = [named] if isinstance(named, str) else []
        out.append((label, wrap_text(f"{label}: {text}", width, "  ", "      ", keep)))
    return out


def _print_info(console: Console, data: Mapping[str, Any], skip: Sequence[str]) -> None:
    for label, lines in info_lines(data, skip, console.width):
        _print_lines(console, lines, bold=f"{label}:")


# ------------------------------------------------------------------------------- ships


@dataclass(frozen=True)
class Column:
    """One column of a units table: a field, or one rating of a dict of ratings."""

    key: str
    sub: str | None
    label: str
    short: str
    numeric: bool

    def value(self, row: dict[str, Any]) -> Any:
        value = row.get(self.key)
        if self.sub is not None:
            return value.get(self.sub) if isinstance(value, dict) else None
        return value


def _short(name: str, taken: set[str]) -> str:
    """A short header (at most 5 letters) for `name`, unique among `taken`."""
    key = name.replace(" ", "_")
    words = [w for w in key.split("_") if w]
    candidates = [name] if len(name) <= 4 else []
    candidates += [_SHORT[key]] if key in _SHORT else []
    initials = "".join(w[0] for w in words)
    candidates += [initials] if len(words) > 1 else []
    candidates += [name[:3], name[:4], name[:5]]
    for candidate in candidates:
        if candidate and candidate not in taken:
            return candidate
    n = 2
    while f"{name[:3]}{n}" in taken:
        n += 1
    return f"{name[:3]}{n}"


def columns(rows: list[dict[str, Any]], fields: tuple[str, ...] | None = None) -> list[Column]:
    """Return the columns of a units table: every scalar field and every rating.

    `fields` (a generator's ``summary_fields``) chooses and orders the fields when given.
    """
    keys: dict[str, Any] = {}
    for row in rows:
        for key, value in row.items():
            keys.setdefault(key, value)
    order = [k for k in (fields or keys) if k in keys and k != "navy"]
    out: list[Column] = []
    taken: set[str] = set()
    for key in order:
        value = keys[key]
        if _scalar(value):
            names: list[tuple[str | None, str]] = [(None, key.replace("_", " "))]
        elif isinstance(value, dict) and all(_scalar(v) for v in value.values()):
            subs: dict[str, None] = {}
            for row in rows:
                subs.update(dict.fromkeys(row.get(key) or {}))
            names = [(sub, sub.replace("_", " ")) for sub in subs]
        else:
            continue
        for sub, label in names:
            column = Column(key, sub, label, "", numeric=False)
            values = [column.value(row) for row in rows]
            numeric = all(
                isinstance(v, int | float) and not isinstance(v, bool)
                for v in values
                if v is not None
            )
            if all(v is None or v is False or v == "" for v in values):
                continue  # nothing to show in any row (no ship is an ally)
            short = label if key in ("name", "class") else _short(label, taken)
            taken.add(short)
            out.append(Column(key, sub, label, short, numeric))
    return out


def _table(rows: list[dict[str, Any]], cols: list[Column], short: bool) -> Table:
    table = Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=(0, 1),
        collapse_padding=True,
        header_style="bold",
    )
    for col in cols:
        table.add_column(
            Text(col.short if short else col.label),
            justify="right" if col.numeric else "left",
            no_wrap=True,
            overflow="fold",
        )
    for row in rows:
        table.add_row(*(Text(_cell(col.value(row))) for col in cols))
    return table


def key_lines(cols: list[Column], width: int) -> list[str]:
    """The key of a table's short headers ("Key: gun = gunnery, ..."); none if none is short."""
    pairs = [f"{c.short} = {c.label}" for c in cols if c.short != c.label]
    if not pairs:
        return []
    items = [p + "," for p in pairs[:-1]] + [pairs[-1]]
    return wrap_items(items, width, "Key: ", "     ")


def unit_block(row: dict[str, Any], cols: list[Column], width: int) -> list[str]:
    """One ship as a few lines: its name, then each field as "label value", wrapped."""
    name = str(row.get("name", ""))
    head = [name]
    items: list[str] = []
    for col in cols:
        value = col.value(row)
        if col.key == "name" or value is None or value is False or value == "":
            continue
        if value is True:
            head.append(col.label)
        elif col.key == "class" and col.sub is None:
            head.append(str(value))
        else:
            items.append(f"{col.label} {value}")
    first = wrap_items(_commas(head), width, "", "  ")
    return first + wrap_items(items, width, "  ", "  ", sep="   ")


def _fits(console: Console, table: Table) -> bool:
    """Whether `table` fits the width with every cell on one line (Rich clamps a plain
    measurement to the width, so it is measured on a wide page)."""
    wide = console.options.update(width=10_000, max_width=10_000)
    return console.measure(table, options=wide).maximum <= console.width


def _print_units(
    console: Console, rows: list[dict[str, Any]], fields: tuple[str, ...] | None
) -> None:
    """Print ships as a table if one fits the width, else as one block per ship."""
    cols = columns(rows, fields)
    for short in (False, True):
        table = _table(rows, cols, short)
        if _fits(console, table):
            console.print(table)
            if short:
                _print_lines(console, key_lines(cols, console.width), style="dim")
            for row in rows:
                _print_officers(console, row, "  ")
            return
    for row in rows:
        _print_lines(console, unit_block(row, cols, console.width), bold=str(row.get("name", "")))
        _print_officers(console, row, "  ")


# ------------------------------------------------------------------------------ people


def _person_parts(person: dict[str, Any]) -> list[tuple[str, list[str], str]]:
    """A duellist as (first-line prefix, items, separator) per line."""
    head = [f"{person['role']}:"] if person.get("role") else []
    head += [str(person["name"]), f"({person['nationality']}),"]
    head += [f"{person['height_cm']} cm,", f"style {person['style']}"]
    attrs = [f"{k[:3].upper()} {v}" for k, v in person["attributes"].items()]
    parts = [
        ("", head, " "),
        ("  ", [*attrs, f" hit points {person['hit_points']}"], "  "),
        ("  expertise: ", _commas(f"{k} {v}" for k, v in person["expertise"].items()), " "),
        ("  skills: ", _commas(f"{k} {v}" for k, v in person["skills"].items()), " "),
    ]
    for weapon in person["weapons"]:
        words = [
            f"{weapon['name']}",
            f"damage {weapon['damage']}",
            f"MinSTR {weapon['min_str']}",
            f"AdvSTR {weapon['adv_str']}",
            f"bonus {weapon['weapon_bonus']:+d}",
            f"parry {weapon['parry_bonus']:+d}",
        ]
        parts.append((f"  {weapon['hand']} hand: ", _commas(words), " "))
    parts.append(("  armour: ", [str(person["armour"])], " "))
    return parts


def _commas(words: Iterable[str]) -> list[str]:
    items = list(words)
    return [w + "," for w in items[:-1]] + items[-1:]


def person_lines(person: dict[str, Any], width: int | None = None) -> list[str]:
    """Return a duellist as a few readable lines (a table row cannot hold one).

    With `width`, each line is wrapped to it with a hanging indent; the name is not
    broken.
    """
    lines: list[str] = []
    for first, items, sep in _person_parts(person):
        if width is None:
            lines.append(first + sep.join(items))
        else:
            lines += wrap_items(
                items, width, first, " " * (len(first) - len(first.lstrip())) + "    ", sep
            )
    return lines


def _print_officers(console: Console, row: dict[str, Any], indent: str) -> None:
    """Print a ship's officers (high-seas), one line each under "Officers of NAME:"."""
    officers = [o for o in row.get("officers") or [] if isinstance(o, dict)]
    if not officers:
        return
    name = str(row.get("name", ""))
    _print_lines(console, wrap_text(f"Officers of {name}:", console.width, indent, keep=[name]))
    for officer in officers:
        _, items, sep = _person_parts(officer)[0]
        lines = wrap_items(items, console.width, indent + "  ", indent + "      ", sep)
        _print_lines(console, lines)


def _print_side(
    console: Console, side: Mapping[str, Any], units: str, fields: tuple[str, ...] | None
) -> None:
    name = str(side.get("name", ""))
    people = side.get(units, []) if units == "characters" else []
    if [p.get("name") for p in people] != [name]:  # a duellist's side is named after him
        _print_lines(console, wrap_text(name, console.width, keep=[name]), style="bold")
    navy = side.get("navy")
    skip = [*_SIDE_SKIP, units]
    if isinstance(navy, str) and navy and navy.casefold() not in name.casefold() and not people:
        skip.remove("navy")
    _print_info(console, side, skip)
    if units == "characters":
        for person in side.get(units, []):
            lines = person_lines(person, console.width)
            _print_lines(console, lines[:1], bold=str(person["name"]))
            _print_lines(console, lines[1:])
        return
    rows = side.get(units, [])
    if rows:
        _print_units(console, rows, fields)


def show_force(
    force: Mapping[str, Any],
    units: str,
    fields: tuple[str, ...] | None = None,
    console: Console | None = None,
) -> None:
    """Print one side's force (a fleet file's, or a person's as one): its name, admiral and
    other side-wide fields, its ships."""
    console = console or Console(highlight=False)
    _print_side(console, force, units, fields)
    console.print(f"seed {force.get('seed')}", style="dim")


def show_scenario(
    scenario: Scenario,
    units: str,
    fields: tuple[str, ...] | None = None,
    console: Console | None = None,
) -> None:
    """Print a scenario's briefing and each side with its side-wide fields and units."""
    console = console or Console(highlight=False)
    width = console.width
    title = f"{scenario['title']}  ({scenario['ruleset']}, seed {scenario['seed']})"
    _print_lines(console, wrap_text(title, width, "", "  "), bold=str(scenario["title"]))
    _print_info(console, scenario, _SCENARIO_SKIP)
    for side in scenario["sides"]:
        console.print()
        _print_side(console, side, units, fields)
    for key, lines in (
        ("setup", scenario.get("setup")),
        ("victory", scenario.get("victory")),
        ("special_rules", scenario.get("special_rules")),
    ):
        if lines:
            console.print()
            console.print(Text(key.replace("_", " ").capitalize(), style="bold"))
            for line in lines:
                _print_lines(console, wrap_text(str(line), width, "  • ", "    "))
    balance = scenario.get("balance")
    if balance:
        strengths = " against ".join(
            f"{s:g}" if isinstance(s, int | float) else str(s)
            for s in balance.get("strengths") or []
        )
        text = f"balance: {strengths} ({balance.get('measure', '')})"
        console.print()
        _print_lines(console, wrap_text(text, width, "", "  "), style="dim")
