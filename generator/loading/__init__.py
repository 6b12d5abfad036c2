"""Load and validate the rules: data/*.yaml, the name lists, and house-rules files.

``load_rules()`` is the one way in. It reads every file, reports every problem at once as
a `DataError` (each line naming file, line, table and key), and returns frozen `Rules`.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path

from generator import __version__, diskcache, yamlfile
from generator.errors import DataError, InputError
from generator.loading.build import build_ruleset, build_table
from generator.loading.cells import format_sources
from generator.loading.house_shape import check_house_table
from generator.loading.model import (
    Axis,
    AxisValue,
    HouseRules,
    Modifier,
    NameLists,
    RuleItem,
    Rules,
    Ruleset,
    Source,
    Table,
    freeze,
    thaw,
)
from generator.loading.names import build_names
from generator.loading.problems import Problems
from generator.resources import data_dir
from generator.rulesets import ruleset_ids
from generator.suggest import unknown
from generator.yamlfile import YamlDoc, parse_yaml, read_limited, read_yaml

__all__ = [
    "Axis",
    "AxisValue",
    "HouseRules",
    "Modifier",
    "NameLists",
    "RuleItem",
    "Rules",
    "Ruleset",
    "Source",
    "Table",
    "load_rules",
    "thaw",
]


def _read(path: Path, problems: Problems) -> YamlDoc | None:
    try:
        return read_yaml(path)
    except InputError as exc:
        problems.messages.append(str(exc))
        return None


def _house_file(path: Path) -> HouseRules:
    """Return the house-rules file at `path` in hand, named as given.

    Raises:
        InputError: missing, not a file, unreadable or too big (as `read_yaml` says it).
    """
    return HouseRules(str(path), read_limited(path))


def _apply_house_rules(
    house: HouseRules, rulesets: dict[str, Ruleset], problems: Problems
) -> dict[str, Ruleset]:
    """Replace built-in tables with those of the house-rules file `house`.

    Each house table is validated like the built-in data, then checked against the table
    it replaces (`check_house_table`): it keeps the kind, params, modifier ids, axis names,
    cell fields and dice the code reads. Unknown ruleset and table ids name the nearest.
    Every message names the file by `house.name`, with its line.
    """
    try:
        doc = parse_yaml(house.raw, Path(house.name))
    except InputError as exc:
        problems.messages.append(str(exc))
        return rulesets
    raw = doc.data
    if not isinstance(raw, dict) or not raw:
        problems.add(
            doc, (), "a house-rules file maps ruleset ids to tables that replace built-in ones"
        )
        return rulesets
    updated = dict(rulesets)
    for ruleset_id, tables in raw.items():
        if ruleset_id not in rulesets:
            problems.add(doc, (ruleset_id,), unknown("ruleset", str(ruleset_id), ruleset_ids()))
            continue
        base = rulesets[ruleset_id]
        if not isinstance(tables, dict) or not tables:
            problems.add(doc, (ruleset_id,), f"'{ruleset_id}' must map table ids to tables")
            continue
        replaced = dict(base.tables)
        for key, table_raw in tables.items():
            if key not in base.tables:
                choices = [table.id for table in base.tables.values()]
                listing = f"tables of {ruleset_id}"
                problems.add(
                    doc,
                    (ruleset_id, key),
                    unknown("table", f"{ruleset_id}.{key}", choices, listing=listing)
                    + "; house rules replace built-in tables, they cannot add new ones",
                )
                continue
            table = build_table(
                doc, (ruleset_id, key), ruleset_id, key, table_raw, problems, base.source
            )
            if table is not None:
                check_house_table(doc, (ruleset_id, key), base.tables[key], table, problems)
                replaced[key] = table
        updated[ruleset_id] = Ruleset(
            id=base.id,
            title=base.title,
            source=base.source,
            description=base.description,
            tables=freeze(replaced),
            notes=base.notes,
        )
    return updated


def _check_references(rules: Rules, problems: Problems) -> None:
    for table in rules.all_tables():
        for ref in table.see:
            ruleset_id, _, key = ref.partition(".")
            ruleset = rules.rulesets.get(ruleset_id)
            if ruleset is None or key not in ruleset.tables:
                problems.messages.append(f"{table.id}: 'see' names '{ref}', which is not a table")


def _load_files(directory: Path, problems: Problems) -> tuple[dict[str, Ruleset], NameLists | None]:
    rulesets: dict[str, Ruleset] = {}
    for ruleset_id in ruleset_ids():
        path = directory / f"{ruleset_id}.yaml"
        if not path.exists():
            problems.messages.append(f"{path}: missing: every ruleset needs its data file")
            continue
        doc = _read(path, problems)
        if doc is not None:
            built = build_ruleset(doc, ruleset_id, problems)
            if built is not None:
                rulesets[ruleset_id] = built
    names = None
    names_path = directory / "names.yaml"
    if names_path.exists():
        doc = _read(names_path, problems)
        if doc is not None:
            names = build_names(doc, problems)
    else:
        problems.messages.append(f"{names_path}: missing: the generators need the name lists")
    return rulesets, names


@cache
def _builtin(directory: Path) -> tuple[dict[str, Ruleset], NameLists | None]:
    """Return the validated data of `directory`: from its snapshot in the disk cache when
    the files and the code that checks them are unchanged, else read, checked and kept."""
    key = _snapshot_key(directory)
    kept = diskcache.load(key, ".pickle") if key else None
    if kept is not None:
        with contextlib.suppress(Exception):  # an unreadable snapshot is read again
            loaded: tuple[dict[str, Ruleset], NameLists | None] = pickle.loads(kept)
            return loaded
    problems = Problems()
    rulesets, names = _load_files(directory, problems)
    if problems:
        raise DataError(problems.messages)
    if key:
        diskcache.store(key, pickle.dumps((rulesets, names), protocol=5), ".pickle")
    return rulesets, names


def _snapshot_key(directory: Path) -> str | None:
    """Name the validated data of `directory`: a hash of every data file, the ruleset
    specs that list them, the loader's own code, the cell formats' code (the rulesets' own
    too) and the version (None: no disk cache)."""
    if diskcache.cache_folder() is None:
        return None
    digest = hashlib.sha256(f"rules\0{__version__}\0{ruleset_ids()}\0".encode())
    for path in sorted(directory.glob("*.yaml")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    loader = [*sorted(Path(__file__).parent.glob("*.py")), Path(yamlfile.__file__)]
    for path in [*loader, *(p for p in format_sources() if p not in loader)]:
        digest.update(path.read_bytes())
    return "rules-" + digest.hexdigest()


def load_rules(
    house_rules: Path | HouseRules | None = None, directory: Path | None = None
) -> Rules:
    """Load, validate and return every ruleset, with `house_rules` applied on top.

    Args:
        house_rules: a house-rules YAML file whose tables replace built-in ones: on disk,
            or in hand (an upload; its messages name it by its name, as a file's do).
        directory: where the ruleset files are (default: the bundled data/).

    Raises:
        DataError: listing every problem found, one line each.
    """
    source = (directory or data_dir()).resolve()
    rulesets, names = _builtin(source)
    if house_rules is None:
        return _builtin_rules(rulesets, names)
    if isinstance(house_rules, HouseRules):
        house = house_rules
    else:
        try:
            house = _house_file(house_rules)
        except InputError as exc:
            raise DataError([str(exc)]) from None
    return _house_rules(house, source, rulesets, names)


# the rules made with house rules, by (data folder, digest, name), the last few kept
_HOUSE: OrderedDict[tuple[Path, str, str], tuple[object, Rules]] = OrderedDict()
_HOUSE_KEPT = 8
_HOUSE_LOCK = threading.Lock()


def _house_rules(
    house: HouseRules, source: Path, rulesets: dict[str, Ruleset], names: NameLists | None
) -> Rules:
    """The rules of `source`'s data with `house` applied, made once for the same bytes
    (and name) while they are among the last few asked for: a long-running web app
    shares them between requests as it shares the built-in ones (`_builtin_rules`)."""
    key = (source, house.digest, house.name)
    with _HOUSE_LOCK:
        kept = _HOUSE.get(key)
        if kept is not None and kept[0] is rulesets:
            _HOUSE.move_to_end(key)
            return kept[1]
    problems = Problems()
    updated = _apply_house_rules(house, rulesets, problems)
    if problems:
        raise DataError(problems.messages)
    rules = _checked(
        Rules(
            rulesets=freeze(updated),
            names=names,
            house_files=(house.name,),
            house_digest=house.digest,
        )
    )
    with _HOUSE_LOCK:
        _HOUSE[key] = (rulesets, rules)
        _HOUSE.move_to_end(key)
        while len(_HOUSE) > _HOUSE_KEPT:
            _HOUSE.popitem(last=False)
    return rules


# the rules made from the built-in data `_builtin` last gave, by that data's identity
_BUILT: list[tuple[object, Rules]] = []


def _builtin_rules(rulesets: dict[str, Ruleset], names: NameLists | None) -> Rules:
    """The rules as the data files give them, checked and made once for each load of the
    files (`_builtin`: once per process): they are frozen, so every use (each request of a
    long-running web app) shares them and what has been worked out from them
    (`generator.schema.context` keeps that per rules object)."""
    if _BUILT and _BUILT[0][0] is rulesets:
        return _BUILT[0][1]
    rules = _checked(Rules(rulesets=freeze(rulesets), names=names, house_files=()))
    _BUILT[:] = [(rulesets, rules)]
    return rules


def _checked(rules: Rules) -> Rules:
    """Return `rules` once the references across its tables are checked."""
    problems = Problems()
    _check_references(rules, problems)
    if problems:
        raise DataError(problems.messages)
    return rules


def check_files(paths: list[Path]) -> list[str]:
    """Validate individual ruleset files (named after their ruleset id); return problems."""
    problems = Problems()
    for path in paths:
        doc = _read(path, problems)
        if doc is None:
            continue
        if path.stem == "names":
            build_names(doc, problems)
        elif path.stem in ruleset_ids():
            build_ruleset(doc, path.stem, problems)
        else:
            problems.messages.append(
                f"{path}: not a ruleset file ({', '.join(ruleset_ids())}, names)"
            )
    return problems.messages
