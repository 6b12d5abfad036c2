"""The rulesets Quartermaster knows: one spec file each, in specs/.

This is the one place the rulesets are listed. A ruleset is its rules data
(``data/ID.yaml``), its generator and resolver modules, and its spec (``specs/ID.yaml``),
which names those modules, says what a game-night packet of it holds, and carries what
differs per ruleset on each sheet kind it serves (a section per kind under ``sheets:``,
declared by that kind's own module, all checked at once by ``generator.render.specs`` the
first time a sheet reads one). Nothing else in the code names a ruleset.

Reading the specs costs a few milliseconds (small YAML files, the C parser), so the hot
commands (``roll``, ``lookup``) may ask for the list freely.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from generator.errors import DataError, InputError
from generator.resources import resource_dir
from generator.yamlfile import YamlDoc, read_yaml

# what a game-night packet holds, in order:
#   cover:    sheets about the whole scenario, first (the first is told how to print it)
#   per_side: sheets for each side (given the scenario with that side only), to hand out
#   per_unit: sheets for each unit of a side that is a person (a duellist)
#   officers: sheets for each officer of each ship
#   shared:   sheets for the table, after the sides
#   spares:   blank sheets
#   notes:    sheets for the GM alone, last
#   handout:  the shared sheets each side's handout holds too (the rest are the GM's)
# every section starts on a sheet of paper of its own (generator.pdf.packet.impose)
PACKET_SECTIONS = (
    "cover",
    "per_side",
    "per_unit",
    "officers",
    "shared",
    "spares",
    "notes",
    "handout",
)
_KEYS = {
    "ruleset",
    "order",
    "default",
    "generator",
    "resolvers",
    "cell_formats",
    "packet",
    "sheets",
}
_REQUIRED = _KEYS - {"default", "cell_formats"}
_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True)
class RulesetSpec:
    """One ruleset's spec: where its code is, its packet, and its sheets' sections."""

    id: str
    order: int
    default: bool
    generator: str  # the module whose import registers the ruleset's generator
    resolvers: str  # the module whose import registers its resolvers
    cell_formats: str | None  # the module whose import registers its own cell formats
    packet: Mapping[str, tuple[str, ...]]
    # kind -> that kind's section, as written (checked by generator.render.specs)
    sheets: Mapping[str, Any]
    doc: YamlDoc

    def where(self, *keypath: str | int) -> str:
        """Return ``file:line`` of a key path in this spec, for error messages."""
        line = self.doc.line(("sheets", *keypath) if keypath else ())
        return f"{self.doc.path}:{line}" if line is not None else str(self.doc.path)


class SpecError(DataError):
    """A spec in specs/ is malformed; carries every problem found, one line each
    (``file:line: key.path: what``). Exit code 2, as a rules file's problems: whoever adds
    or edits a ruleset fixes its spec."""

    def __init__(self, problems: str | Iterable[str]) -> None:
        super().__init__([problems] if isinstance(problems, str) else problems)


def _fail(doc: YamlDoc, keypath: tuple[str | int, ...], message: str) -> SpecError:
    line = doc.line(keypath)
    return SpecError(f"{doc.path}:{line if line is not None else 1}: {message}")


def _read_spec(path: Path) -> RulesetSpec:
    doc = read_yaml(path)
    raw = doc.data
    if not isinstance(raw, dict):
        raise _fail(doc, (), "a ruleset spec is a mapping")
    missing, unknown = _REQUIRED - set(raw), set(raw) - _KEYS
    if missing or unknown:
        what = "; ".join(
            [f"missing {', '.join(sorted(missing))}"] * bool(missing)
            + [f"unknown {', '.join(sorted(unknown))}"] * bool(unknown)
        )
        raise _fail(doc, (), f"{what} (a spec has {', '.join(sorted(_KEYS))})")
    if raw["ruleset"] != path.stem or not _ID.fullmatch(path.stem):
        raise _fail(doc, ("ruleset",), f"'ruleset' must be the file's name, '{path.stem}'")
    if not isinstance(raw["order"], int) or isinstance(raw["order"], bool):
        raise _fail(doc, ("order",), "'order' must be a whole number (the place in lists)")
    for key in ("generator", "resolvers", "cell_formats"):
        if key not in raw:
            continue
        if not isinstance(raw[key], str) or not _MODULE.fullmatch(raw[key]):
            raise _fail(doc, (key,), f"'{key}' must name a Python module")
    packet = raw["packet"]
    if not isinstance(packet, dict) or set(packet) - set(PACKET_SECTIONS):
        raise _fail(doc, ("packet",), f"'packet' may only have {', '.join(PACKET_SECTIONS)}")
    for section, kinds in packet.items():
        if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
            raise _fail(doc, ("packet", section), f"'{section}' must be a list of sheet kinds")
    for index, kind in enumerate(packet.get("handout", [])):
        if kind not in packet.get("shared", []):
            raise _fail(
                doc, ("packet", "handout", index), f"'{kind}' is not one of the shared sheets"
            )
    sheets = raw["sheets"]
    if not isinstance(sheets, dict) or not all(
        isinstance(v, dict) or v is None for v in sheets.values()
    ):
        raise _fail(doc, ("sheets",), "'sheets' maps sheet kinds to their sections (or {})")
    return RulesetSpec(
        id=path.stem,
        order=raw["order"],
        default=raw.get("default") is True,
        generator=raw["generator"],
        resolvers=raw["resolvers"],
        cell_formats=raw.get("cell_formats"),
        packet={key: tuple(packet.get(key, ())) for key in PACKET_SECTIONS},
        sheets={kind: section or {} for kind, section in sheets.items()},
        doc=doc,
    )


@cache
def ruleset_specs() -> dict[str, RulesetSpec]:
    """Return every ruleset's spec by id, in their order (checked)."""
    specs = [_read_spec(path) for path in sorted(resource_dir("specs").glob("*.yaml"))]
    specs.sort(key=lambda spec: (spec.order, spec.id))
    defaults = [spec.id for spec in specs if spec.default]
    if len(defaults) != 1:
        raise SpecError(
            f"{resource_dir('specs')}: exactly one ruleset spec says 'default: true' "
            f"(found: {', '.join(defaults) or 'none'})"
        )
    return {spec.id: spec for spec in specs}


def import_code(spec: RulesetSpec, key: str) -> None:
    """Import the module `spec` names under `key` (``generator``, ``resolvers`` or
    ``cell_formats``)."""
    module = str(getattr(spec, key))
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or not module.startswith(exc.name):
            raise
        line = spec.doc.line((key,))
        raise SpecError(f"{spec.doc.path}:{line}: {key} module '{module}' not found") from exc


def ruleset_ids() -> tuple[str, ...]:
    """Return the ids of every ruleset, in order."""
    return tuple(ruleset_specs())


def default_ruleset() -> str:
    """Return the ruleset a packet is made for when none is named."""
    return next(spec.id for spec in ruleset_specs().values() if spec.default)


def get_spec(ruleset: str) -> RulesetSpec:
    """Return the spec of `ruleset` (a known id: ask `ruleset_ids` first)."""
    return ruleset_specs()[ruleset]


def serving(kind: str) -> tuple[str, ...]:
    """Return the rulesets whose spec has a section for the sheet kind `kind`, in order."""
    return tuple(spec.id for spec in ruleset_specs().values() if kind in spec.sheets)


def sheet_section(ruleset: str, kind: str) -> tuple[Mapping[str, Any], RulesetSpec]:
    """Return the section of `ruleset`'s spec for sheet `kind` as written (a sheet reads it
    checked: `generator.render.specs.section`) and the spec itself (for its `where`), or
    raise naming the rulesets the kind serves."""
    spec = get_spec(ruleset)
    if kind not in spec.sheets:
        raise InputError(f"--ruleset: the {kind} sheet serves {', '.join(serving(kind))}")
    return spec.sheets[kind], spec
