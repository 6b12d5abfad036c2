"""Say where a problem in a rules file is: ``file:line: table key.path: what``.

Every check of the loader adds its problems here, so that a file's problems are all
reported at once, each naming the spot a GM editing it can go straight to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.yamlfile import KeyPath, YamlDoc


@dataclass
class Problems:
    """Collects problems as one-line messages: ``file:line: where: what``."""

    messages: list[str] = field(default_factory=list)

    def add(self, doc: YamlDoc, keypath: KeyPath, message: str, where: str = "") -> None:
        line = doc.line(keypath)
        location = f"{doc.path}:{line}" if line is not None else str(doc.path)
        self.messages.append(f"{location}: {where}{': ' if where else ''}{message}")

    def __bool__(self) -> bool:
        return bool(self.messages)


def describe_path(keypath: KeyPath) -> str:
    """Return a key path as a problem names it: ``sides[0].ships[2].name``."""
    out = ""
    for key in keypath:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


@dataclass
class TableContext:
    """Where one table sits in its file: adds problems named by the table and key path."""

    doc: YamlDoc
    base: KeyPath
    table_id: str
    problems: Problems

    def add(self, rel: KeyPath, message: str) -> None:
        where = self.table_id + (f" {describe_path(rel)}" if rel else "")
        self.problems.add(self.doc, self.base + rel, message, where)
