"""Read and check the name lists (data/names.yaml): the navies with their years, eras, seas
and ship names, the people their officers are named from, the places a battle is fought at
and the wars that set navies against each other.
"""

from __future__ import annotations

from typing import Any

from generator.loading.model import NameLists, freeze
from generator.loading.problems import Problems
from generator.suggest import unknown
from generator.yamlfile import KeyPath, YamlDoc

MIN_SHIP_NAMES = 12  # a fleet of twelve must never run out of names in any year
_NAVY_KEYS = ("title", "years", "seas", "eras", "people", "note", "ships")
_Window = tuple[int | None, int | None]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _window(
    doc: YamlDoc, where: KeyPath, entry: dict[str, Any], problems: Problems
) -> _Window | None:
    """Read the optional `from`/`until` years of a mapping entry (None: a problem)."""
    first, last = entry.get("from"), entry.get("until")
    for key, value in (("from", first), ("until", last)):
        if value is not None and not _whole(value):
            problems.add(doc, (*where, key), f"'{key}' must be a year (a whole number)")
            return None
    if first is not None and last is not None and first > last:
        problems.add(doc, (*where, "from"), f"'from' {first} is after 'until' {last}")
        return None
    return first, last


def _outside(window: _Window, span: tuple[int, int] | None) -> str | None:
    """Say how `window` misses `span` entirely (None: they meet, or no span to compare)."""
    if span is None:
        return None
    first, last = window
    if (first is not None and first > span[1]) or (last is not None and last < span[0]):
        shown = f"{first if first is not None else ''}-{last if last is not None else ''}"
        return f"{shown} is outside the navy's years {span[0]}-{span[1]}"
    return None


def _dated(
    doc: YamlDoc, at: KeyPath, item: Any, key: str, what: str, usage: str, problems: Problems
) -> tuple[str, _Window] | None:
    """Read a text entry, or `{key: text, from?, until?}` for one of some years only; None
    (reported) when it is neither. `what` names it, `usage` is the message for a bad one."""
    window: _Window | None = (None, None)
    if isinstance(item, dict):
        unknown = sorted(set(item) - {key, "from", "until"}, key=str)
        if unknown:
            problems.add(doc, (*at, unknown[0]), f"unknown key '{unknown[0]}' in {what}")
            return None
        window = _window(doc, at, item, problems)
        item = item.get(key)
    if not isinstance(item, str) or not item.strip():
        problems.add(doc, at, usage)
        return None
    if window is None:
        return None
    return item, window


def _build_sea_list(
    doc: YamlDoc,
    where: KeyPath,
    raw: Any,
    vocabulary: dict[str, str] | None,
    span: tuple[int, int] | None,
    problems: Problems,
) -> list[tuple[str, int | None, int | None]]:
    """Read a navy's `seas`: sea ids, or {sea, from?, until?} for a navy there only a while."""
    if not isinstance(raw, list) or not raw:
        problems.add(
            doc, where, "'seas' must be a non-empty list of sea ids (see 'seas' at the top)"
        )
        return []
    seas: list[tuple[str, int | None, int | None]] = []
    for i, item in enumerate(raw):
        at = (*where, i)
        read = _dated(
            doc, at, item, "sea", "a sea entry",
            "a sea is a sea id or {sea: ID, from: YEAR, until: YEAR}", problems,
        )  # fmt: skip
        if read is None:
            continue
        item, window = read
        if vocabulary is not None and item not in vocabulary:
            problems.add(doc, at, f"unknown sea '{item}' (known: {', '.join(vocabulary)})")
            continue
        if any(item == sea for sea, _, _ in seas):
            problems.add(doc, at, f"sea '{item}' appears twice")
            continue
        outside = _outside(window, span)
        if outside:
            problems.add(doc, at, f"sea '{item}' {outside}")
            continue
        seas.append((item, *window))
    return seas


def _build_eras(
    doc: YamlDoc, where: KeyPath, raw: Any, span: tuple[int, int] | None, problems: Problems
) -> list[tuple[int, int, str]]:
    """Read a navy's `eras`: {from, until, title}, inside its years, never overlapping."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add(doc, where, "'eras' must be a list of {from: YEAR, until: YEAR, title: ...}")
        return []
    eras: list[tuple[int, int, str]] = []
    for i, era in enumerate(raw):
        at = (*where, i)
        if not isinstance(era, dict) or set(era) != {"from", "until", "title"}:
            problems.add(doc, at, "an era is {from: YEAR, until: YEAR, title: ...}, nothing else")
            continue
        title = era["title"]
        if not isinstance(title, str) or not title.strip():
            problems.add(doc, (*at, "title"), "an era's title must be text")
            continue
        window = _window(doc, at, era, problems)
        if window is None:
            continue
        first, last = era["from"], era["until"]
        if span is not None and (first < span[0] or last > span[1]):
            problems.add(
                doc, at, f"era {first}-{last} is outside the navy's years {span[0]}-{span[1]}"
            )
            continue
        clash = next((e for e in eras if first <= e[1] and e[0] <= last), None)
        if clash is not None:
            problems.add(doc, at, f"era {first}-{last} overlaps era {clash[0]}-{clash[1]}")
            continue
        eras.append((first, last, title))
    return eras


def _build_ships(
    doc: YamlDoc,
    where: KeyPath,
    group: str,
    raw: Any,
    span: tuple[int, int] | None,
    problems: Problems,
) -> list[tuple[str, int | None, int | None]]:
    """Read a navy's `ships`: names, or {name, from?, until?} for a name of some years only."""
    if not isinstance(raw, list) or not raw:
        problems.add(doc, where, f"'{group}' needs a non-empty 'ships' list")
        return []
    ships: list[tuple[str, int | None, int | None]] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        at = (*where, i)
        if isinstance(item, str) and item in seen:
            problems.add(doc, at, f"'{item}' appears twice in {group}.ships")
            continue
        read = _dated(
            doc, at, item, "name", "a ship entry",
            "a ship is a name, or {name: ..., from: YEAR, until: YEAR} (either year optional)",
            problems,
        )  # fmt: skip
        if read is None:
            continue
        item, window = read
        if item in seen:
            problems.add(doc, at, f"'{item}' appears twice in {group}.ships")
            continue
        seen.add(item)
        outside = _outside(window, span)
        if outside:
            problems.add(doc, at, f"'{item}' {outside}, so it is never used")
            continue
        ships.append((item, *window))
    if span is not None and ships:
        for year in range(span[0], span[1] + 1):
            count = sum(1 for _, a, b in ships if NameLists.fits(year, a, b))
            if count < MIN_SHIP_NAMES:
                problems.add(
                    doc,
                    where,
                    f"'{group}' has only {count} ship names for {year} "
                    f"(a fleet needs {MIN_SHIP_NAMES} in every year of its span)",
                )
                break
    return ships


def _build_places(
    doc: YamlDoc, raw: Any, vocabulary: dict[str, str] | None, problems: Problems
) -> dict[str, str]:
    """Read `places`: {name, sea} each, the sea one of the vocabulary's."""
    if not isinstance(raw, list) or not raw:
        problems.add(doc, ("places",), "'places' must be a non-empty list of {name: ..., sea: ...}")
        return {}
    places: dict[str, str] = {}
    for i, item in enumerate(raw):
        at = ("places", i)
        if (
            not isinstance(item, dict)
            or set(item) != {"name", "sea"}
            or not isinstance(item["name"], str)
            or not item["name"].strip()
            or not isinstance(item["sea"], str)
        ):
            problems.add(doc, at, "a place is {name: ..., sea: SEA-ID}")
            continue
        name, sea = item["name"], item["sea"]
        if vocabulary is not None and sea not in vocabulary:
            problems.add(doc, (*at, "sea"), f"unknown sea '{sea}' (known: {', '.join(vocabulary)})")
        elif name in places:
            problems.add(doc, at, f"the place '{name}' appears twice in 'places'")
        else:
            places[name] = sea
    return places


def _build_navies(
    doc: YamlDoc, entries: dict[str, Any], vocabulary: dict[str, str] | None, problems: Problems
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check every navy; return the plain navies (ships as names) and the richer facts."""
    navies: dict[str, Any] = {}
    facts: dict[str, dict[str, Any]] = {"spans": {}, "eras": {}, "seas": {}, "ships": {}}
    for group, body in entries.items():
        where = ("navies", group)
        if not isinstance(body, dict) or not isinstance(body.get("title"), str):
            problems.add(doc, where, f"'{group}' needs a 'title' and its lists")
            continue
        unknown = [key for key in body if key not in _NAVY_KEYS]
        if unknown:
            problems.add(
                doc,
                (*where, unknown[0]),
                f"unknown key '{unknown[0]}' (a navy has: {', '.join(_NAVY_KEYS)})",
            )
        years = body.get("years")
        span: tuple[int, int] | None = None
        if (
            isinstance(years, list)
            and len(years) == 2
            and all(_whole(y) for y in years)
            and years[0] <= years[1]
        ):
            span = (years[0], years[1])
        else:
            problems.add(
                doc,
                (*where, "years"),
                f"'{group}' needs 'years: [first, last]', two whole years, first <= last",
            )
        if "note" in body and not (isinstance(body["note"], str) and body["note"].strip()):
            problems.add(doc, (*where, "note"), "a note must be text")
        seas = _build_sea_list(doc, (*where, "seas"), body.get("seas"), vocabulary, span, problems)
        eras = _build_eras(doc, (*where, "eras"), body.get("eras"), span, problems)
        ships = _build_ships(doc, (*where, "ships"), group, body.get("ships"), span, problems)
        navies[group] = {**body, "ships": [name for name, _, _ in ships]}
        if span is not None:
            facts["spans"][group] = span
        facts["eras"][group] = eras
        facts["seas"][group] = seas
        facts["ships"][group] = ships
    return navies, facts


def _build_wars(
    doc: YamlDoc, raw: Any, spans: dict[str, tuple[int, int]], problems: Problems
) -> list[tuple[str, int, int, tuple[str, ...], tuple[str, ...]]]:
    """Read `wars` (optional): {house, note, list: [{name, from, until, sides}]}, each war's
    two sides lists of navy ids that sailed in its years, no navy on both."""
    if raw is None:
        return []
    usage = "'wars' is {house: true, note: ..., list: [{name, from, until, sides}]}"
    if not isinstance(raw, dict) or not isinstance(raw.get("list"), list):
        problems.add(doc, ("wars",), usage)
        return []
    if not (isinstance(raw.get("note"), str) and raw["note"].strip()):
        problems.add(doc, ("wars",), "'wars' needs a 'note' saying where the list comes from")
    wars: list[tuple[str, int, int, tuple[str, ...], tuple[str, ...]]] = []
    for i, war in enumerate(raw["list"]):
        at: KeyPath = ("wars", "list", i)
        if not isinstance(war, dict) or set(war) != {"name", "from", "until", "sides"}:
            problems.add(doc, at, "a war is {name, from: YEAR, until: YEAR, sides: [[...], [...]]}")
            continue
        window = _window(doc, at, war, problems)
        if window is None:
            continue
        if None in window:
            problems.add(doc, at, "a war needs both 'from' and 'until' years")
            continue
        if not isinstance(war["name"], str) or not war["name"].strip():
            problems.add(doc, (*at, "name"), "a war's name must be text")
            continue
        sides = war["sides"]
        if (
            not isinstance(sides, list)
            or len(sides) != 2
            or not all(isinstance(side, list) and side for side in sides)
        ):
            problems.add(doc, (*at, "sides"), "'sides' is two non-empty lists of navy ids")
            continue
        first, last = war["from"], war["until"]
        bad = False
        for s, side in enumerate(sides):
            for n, navy in enumerate(side):
                span = spans.get(navy) if isinstance(navy, str) else None
                if span is None:
                    problems.add(doc, (*at, "sides", s, n), f"unknown navy {navy!r}")
                    bad = True
                elif first < span[0] or last > span[1]:
                    problems.add(
                        doc,
                        (*at, "sides", s, n),
                        f"'{navy}' sails {span[0]}-{span[1]}, not all of {first}-{last}",
                    )
                    bad = True
        if not bad and set(sides[0]) & set(sides[1]):
            problems.add(doc, (*at, "sides"), "a navy is on both sides")
            bad = True
        if not bad:
            wars.append((str(war["name"]), first, last, tuple(sides[0]), tuple(sides[1])))
    return wars


def _check_navy_people(
    doc: YamlDoc, navy: str, body: dict[str, Any], people: dict[str, Any], problems: Problems
) -> None:
    """Check that `navy`'s names are drawn from a people list: its ``people``, else the
    list of its own id."""
    if "people" in body:
        named = body["people"]
        if not isinstance(named, str) or named not in people:
            what = unknown("people list", str(named), people, listing="people")
            problems.add(doc, ("navies", navy, "people"), what)
    elif navy not in people:
        problems.add(
            doc,
            ("navies", navy),
            f"'{navy}' has no people list of its own: say which crews it "
            f"('people: ...', one of {', '.join(people)})",
        )


def build_names(doc: YamlDoc, problems: Problems) -> NameLists | None:
    """Check the name lists of `doc` (data/names.yaml), adding every problem to `problems`;
    return them, or None when the navies or the people are missing or unreadable."""
    raw = doc.data
    if not isinstance(raw, dict):
        problems.add(doc, (), "the name lists must be a mapping with 'navies' and 'people'")
        return None
    if raw.get("house") is not True:
        problems.add(doc, ("house",), "the name lists are house data: say 'house: true'")
    vocabulary: dict[str, str] | None = None
    seas_raw = raw.get("seas")
    if (
        isinstance(seas_raw, dict)
        and seas_raw
        and all(
            isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in seas_raw.items()
        )
    ):
        vocabulary = dict(seas_raw)
    else:
        problems.add(
            doc,
            ("seas",),
            "'seas' must map each sea id to its name (e.g. channel: the English Channel)",
        )
    sections: dict[str, dict[str, Any]] = {}
    facts: dict[str, Any] = {}
    navies = raw.get("navies")
    if not isinstance(navies, dict) or not navies:
        problems.add(doc, ("navies",), "missing 'navies'")
    else:
        sections["navies"], facts = _build_navies(doc, navies, vocabulary, problems)
    entries = raw.get("people")
    lists = ("given_male", "given_female", "surnames")
    if not isinstance(entries, dict) or not entries:
        problems.add(doc, ("people",), "missing 'people'")
    else:
        for group, body in entries.items():
            where = ("people", group)
            if not isinstance(body, dict) or not isinstance(body.get("title"), str):
                problems.add(doc, where, f"'{group}' needs a 'title' and its lists")
                continue
            for list_name in lists:
                names = body.get(list_name)
                if not isinstance(names, list) or not names:
                    problems.add(
                        doc, (*where, list_name), f"'{group}' needs a non-empty '{list_name}' list"
                    )
                    continue
                seen: set[str] = set()
                for i, name in enumerate(names):
                    if not isinstance(name, str) or not name.strip():
                        problems.add(doc, (*where, list_name, i), "a name must be text")
                    elif name in seen:
                        problems.add(
                            doc,
                            (*where, list_name, i),
                            f"'{name}' appears twice in {group}.{list_name}",
                        )
                    seen.add(str(name))
        sections["people"] = entries
        for navy, body in sections.get("navies", {}).items():
            _check_navy_people(doc, navy, body, entries, problems)
    places = _build_places(doc, raw.get("places"), vocabulary, problems)
    wars = _build_wars(doc, raw.get("wars"), facts.get("spans", {}), problems)
    if len(sections) < 2:
        return None
    return NameLists(
        navies=freeze(sections["navies"]),
        people=freeze(sections["people"]),
        places=tuple(places),
        seas=freeze(vocabulary or {}),
        spans=freeze(facts["spans"]),
        eras=freeze(facts["eras"]),
        navy_seas=freeze(facts["seas"]),
        ship_years=freeze(facts["ships"]),
        place_seas=freeze(places),
        wars=tuple(wars),
    )
