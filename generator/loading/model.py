"""The validated rules: frozen, typed, and shared by resolvers, generators and sheets."""

from __future__ import annotations

import copyreg
import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from generator.text import fold

Cell = Any  # str | int | Mapping[str, Any], frozen
HOUSE_MARK = "(house table)"  # what names a table as the project's own, after its title


def _read_only(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(mapping)


# frozen rules can be pickled (a snapshot of the validated data in the disk cache)
copyreg.pickle(MappingProxyType, lambda proxy: (_read_only, (dict(proxy),)))


def freeze(value: Any) -> Any:
    """Return `value` with dicts made read-only mappings and lists made tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Return plain dicts and lists again (for JSON and YAML output)."""
    kind = type(value)
    if kind in _ATOMS:  # most of what a table holds: told apart without an ABC check
        return value
    if kind is MappingProxyType or kind is dict or isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


_ATOMS = frozenset({str, int, float, bool, type(None)})


@dataclass(frozen=True)
class AxisValue:
    """One row or column heading: a label, or a numeric range with open ends."""

    label: str
    numeric: bool
    low: int | None = None
    high: int | None = None
    match: tuple[str, ...] = ()

    def contains(self, number: int) -> bool:
        """Return whether `number` falls in this value's range."""
        if not self.numeric:
            return False
        return (self.low is None or number >= self.low) and (
            self.high is None or number <= self.high
        )

    def matches(self, word: str) -> bool:
        """Return whether the input `word` names this label."""
        folded = fold(word)
        return folded == fold(self.label) or any(folded == fold(m) for m in self.match)


@dataclass(frozen=True)
class Axis:
    """An axis of a table: its input name, title, values and the dice rolled on it."""

    name: str
    title: str
    values: tuple[AxisValue, ...]
    dice: str | None = None
    modified: bool = False

    @cached_property
    def numeric(self) -> bool:
        """Every value is a number or a range (a label axis may hold some, see lookup)."""
        return bool(self.values) and all(v.numeric for v in self.values)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(v.label for v in self.values)


@dataclass(frozen=True)
class Source:
    """Where a table came from: a seed file and heading, or a house reason."""

    seed: str | None = None
    heading: str | None = None
    house: str | None = None

    def describe(self) -> str:
        if self.house is not None:
            return f"house table: {self.house}"
        return f"{self.seed}, “{self.heading}”"


@dataclass(frozen=True)
class Modifier:
    """One line of a modifiers list."""

    id: str
    label: str
    value: int | str
    by: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    group: str | None = None
    per: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class RuleItem:
    """A paragraph or bullet of rules text, with an optional lead-in and sub-items."""

    text: str
    label: str | None = None
    items: tuple[RuleItem, ...] = ()

    def walk(self) -> Iterator[RuleItem]:
        yield self
        for item in self.items:
            yield from item.walk()


@dataclass(frozen=True)
class Table:
    """One table of a ruleset, of kind ``table``, ``modifiers`` or ``rules``."""

    ruleset: str
    key: str
    title: str
    kind: str
    source: Source
    house: bool = False
    note: str | None = None
    notes: tuple[str, ...] = ()
    see: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    description: str | None = None
    # kind: table
    axes: tuple[Axis, ...] = ()
    cells: tuple[Any, ...] = ()
    cell_format: str | None = None
    # kind: modifiers
    modifiers: tuple[Modifier, ...] = ()
    roll: str | None = None
    # kind: rules
    items: tuple[RuleItem, ...] = ()
    ordered: bool = False

    @property
    def id(self) -> str:
        return f"{self.ruleset}.{self.key}"

    @property
    def marked_title(self) -> str:
        """The title as the terminal, the JSON and the resolvers' texts name the table: a
        house table's with "(house table)" after it (``house: true`` says it, not the title).
        A sheet prints the title alone (`generator.render.words.table_title`)."""
        return f"{self.title} {HOUSE_MARK}" if self.house else self.title

    def cell(self, *indices: int) -> Cell:
        """Return the cell at one index per axis."""
        node: Any = self.cells
        for index in indices:
            node = node[index]
        return node

    def modifier(self, modifier_id: str) -> Modifier:
        """Return the modifier with id `modifier_id` (KeyError if absent)."""
        for mod in self.modifiers:
            if mod.id == modifier_id:
                return mod
        raise KeyError(modifier_id)


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: its id, title, seed, description and tables in file order."""

    id: str
    title: str
    source: str
    description: str
    tables: Mapping[str, Table]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class NameLists:
    """Ship names per navy, personal names per nationality and sea areas (house data).

    ``navies[navy]["ships"]`` and ``places`` hold plain names, read as ever; the years and
    seas that fit each name are in the fields after them, asked through the methods. A
    ``year`` of None means any year. Windows are ``(from, until)``, inclusive, None open.
    """

    navies: Mapping[str, Mapping[str, Any]]
    people: Mapping[str, Mapping[str, Any]]
    places: tuple[str, ...] = ()
    #: sea id -> what it is called ("channel" -> "the English Channel ...")
    seas: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: navy -> (first, last) year it fought under sail
    spans: Mapping[str, tuple[int, int]] = field(default_factory=lambda: MappingProxyType({}))
    #: navy -> ((from, until, title), ...) in file order
    eras: Mapping[str, tuple[tuple[int, int, str], ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: navy -> ((sea, from, until), ...) in file order
    navy_seas: Mapping[str, tuple[tuple[str, int | None, int | None], ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: navy -> ((ship name, from, until), ...) in file order
    ship_years: Mapping[str, tuple[tuple[str, int | None, int | None], ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: place -> its sea, in file order (the same names as ``places``)
    place_seas: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: wars at sea, in file order: (name, from, until, first side's navies, second side's)
    wars: tuple[tuple[str, int, int, tuple[str, ...], tuple[str, ...]], ...] = ()

    @staticmethod
    def fits(year: int | None, first: int | None, last: int | None) -> bool:
        """Return whether `year` lies in the window `first`..`until` (None: open, or any)."""
        return year is None or ((first is None or first <= year) and (last is None or year <= last))

    def navy_years(self, navy: str) -> tuple[int, int]:
        """Return the first and last year `navy` fought under sail (KeyError if unknown)."""
        return self.spans[navy]

    def navy_title(self, navy: str, year: int | None = None) -> str:
        """Return what `navy` was called in `year` (its era's title, else its title)."""
        if year is not None:
            for first, last, title in self.eras.get(navy, ()):
                if first <= year <= last:
                    return title
        return str(self.navies[navy]["title"])

    def people_of(self, navy: str) -> str:
        """Return the people list `navy`'s officers and crews are named from: its
        ``people``, else its own id (the loader checks there is such a list)."""
        return str(self.navies[navy].get("people", navy))

    def ship_names(self, navy: str, year: int | None = None) -> list[str]:
        """Return the ship names of `navy` that fit `year`, in file order."""
        found = self._ship_names.get((navy, year))
        if found is None:
            if navy not in self.ship_years:
                found = tuple(str(name) for name in self.navies[navy]["ships"])
            else:
                found = tuple(
                    name
                    for name, first, last in self.ship_years[navy]
                    if self.fits(year, first, last)
                )
            self._ship_names[navy, year] = found
        return list(found)

    @cached_property
    def _ship_names(self) -> dict[tuple[str, int | None], tuple[str, ...]]:
        # every ship a scenario rolls asks for its navy's names in the scenario's year: they
        # are found once (the lists are read-only, and so are these)
        return {}

    def seas_of(self, navy: str, year: int | None = None) -> list[str]:
        """Return the sea ids `navy` sailed in `year`, in file order."""
        return [
            sea for sea, first, last in self.navy_seas.get(navy, ()) if self.fits(year, first, last)
        ]

    def places_for(self, navies: Iterable[str], year: int | None = None) -> list[str]:
        """Return the places for an action between `navies` in `year`, in file order.

        Places in a sea every navy sailed; else in a sea any of them sailed; else all places.
        Unknown navies raise KeyError.
        """
        sailed = []
        for navy in navies:
            if navy not in self.navies:
                raise KeyError(navy)
            sailed.append(set(self.seas_of(navy, year)))
        for seas in (set.intersection(*sailed) if sailed else set(), set().union(*sailed)):
            found = [place for place, sea in self.place_seas.items() if sea in seas]
            if found:
                return found
        return list(self.places)

    def foes(self, navy: str, year: int) -> list[str]:
        """Return the navies (sorted) `navy` fought in a war of `year` (`wars`)."""
        return self._across(navy, year, enemies=True)

    def allies(self, navy: str, year: int) -> list[str]:
        """Return the navies (sorted) on `navy`'s side of a war of `year` (`wars`)."""
        return self._across(navy, year, enemies=False)

    def _across(self, navy: str, year: int, enemies: bool) -> list[str]:
        kept = self._sides.get((navy, year, enemies))
        if kept is None:
            found: set[str] = set()
            for _, first, last, one, other in self.wars:
                if first <= year <= last:
                    for mine, theirs in ((one, other), (other, one)):
                        if navy in mine:
                            found.update(theirs if enemies else mine)
            found.discard(navy)
            kept = self._sides[navy, year, enemies] = tuple(sorted(found))
        return list(kept)

    @cached_property
    def _sides(self) -> dict[tuple[str, int, bool], tuple[str, ...]]:
        # a navy's foes and allies in a year, asked for at every roll of a scenario's sides:
        # found once (the wars are read-only, and so are these)
        return {}

    def navies_for(self, year: int | None = None) -> list[str]:
        """Return the navy ids (sorted) whose years contain `year` (all of them for None)."""
        found = self._navies_for.get(year)
        if found is None:
            found = self._navies_for[year] = tuple(
                sorted(
                    navy
                    for navy, (first, last) in self.spans.items()
                    if self.fits(year, first, last)
                )
            )
        return list(found)

    @cached_property
    def _navies_for(self) -> dict[int | None, tuple[str, ...]]:
        return {}


@dataclass(frozen=True)
class HouseRules:
    """A house-rules file in hand (an upload, a game night's kept copy): its name, which
    messages quote as they quote a file on disk (``house.yaml:3: ...``), and its bytes."""

    name: str
    raw: bytes = field(repr=False)

    @property
    def digest(self) -> str:
        """The SHA-256 of the bytes: what says which house rules these are."""
        return hashlib.sha256(self.raw).hexdigest()


@dataclass(frozen=True)
class Rules:
    """Every ruleset, validated, plus the name lists.

    Attributes:
        house_files: the house-rules files applied, by name (none: the built-in rules).
        house_digest: the SHA-256 of those files' bytes (None: the built-in rules): what
            tells rules apart, where two house files may share a name.
    """

    rulesets: Mapping[str, Ruleset]
    names: NameLists | None = None
    house_files: tuple[str, ...] = ()
    house_digest: str | None = None

    def table(self, table_id: str) -> Table:
        """Return the table with full id ``ruleset.table`` (KeyError if absent)."""
        ruleset_id, _, key = table_id.partition(".")
        return self.rulesets[ruleset_id].tables[key]

    def all_tables(self) -> Iterator[Table]:
        for ruleset in self.rulesets.values():
            yield from ruleset.tables.values()
