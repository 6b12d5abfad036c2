"""Read a YAML file safely, keeping the line of every key and item.

PyYAML's ``safe_load`` forgets where things were. We compose the node graph with the safe
(C where available) parser and build plain Python values ourselves, recording each
value's line under its key path, so validation can say "file:line". Building walks
aliases afresh each time, so it also counts how far a file expands and refuses alias
bombs before they cost memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.errors import InputError

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_NODES = 400_000

Key = str | int
KeyPath = tuple[Key, ...]

_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_constructor = yaml.constructor.SafeConstructor()
_PLAIN_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:omap"}


@dataclass
class YamlDoc:
    """A parsed YAML document and the line (1-based) of each key path in it."""

    path: Path
    data: Any
    lines: dict[KeyPath, int] = field(default_factory=dict)

    def line(self, keypath: KeyPath) -> int | None:
        """Return the line of `keypath`, or of its nearest ancestor that has one."""
        for end in range(len(keypath), -1, -1):
            found = self.lines.get(keypath[:end])
            if found is not None:
                return found
        return None


class _Builder:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: dict[KeyPath, int] = {}
        self.count = 0

    def fail(self, node: yaml.Node, message: str) -> InputError:
        return InputError(f"{self.path}:{node.start_mark.line + 1}: {message}")

    def build(self, node: yaml.Node, keypath: KeyPath) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise InputError(
                f"{self.path}: refused: the file expands past {MAX_NODES} values "
                "(too large, or an alias bomb)"
            )
        self.lines.setdefault(keypath, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and node.tag not in _PLAIN_TAGS:
            raise self.fail(node, f"tag '{node.tag}' is not allowed (plain YAML only)")
        if isinstance(node, yaml.MappingNode):
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail(key_node, "merge keys ('<<') are not supported")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, "a mapping key must be a plain value")
                key = _constructor.construct_object(key_node)
                if not isinstance(key, str | int) or isinstance(key, bool):
                    raise self.fail(key_node, f"key {key!r} must be text or a whole number")
                if key in result:
                    raise self.fail(key_node, f"duplicate key '{key}'")
                self.lines[(*keypath, key)] = key_node.start_mark.line + 1
                result[key] = self.build(value_node, (*keypath, key))
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*keypath, i)) for i, item in enumerate(node.value)]
        try:
            return _constructor.construct_object(node)
        except yaml.constructor.ConstructorError as exc:
            raise self.fail(node, f"cannot read value: {exc.problem}") from None


def read_yaml(path: Path) -> YamlDoc:
    """Parse `path` safely into plain values with line numbers.

    Raises:
        InputError: the file is missing, too big, not YAML, or expands too far.
    """
    return parse_yaml(read_limited(path), path)


def read_limited(path: Path) -> bytes:
    """Return the bytes of the file `path`, refusing one missing, not a file, unreadable
    or over `MAX_FILE_BYTES`, each in one line naming it.

    Raises:
        InputError: as said.
    """
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not path.is_file():
        raise InputError(f"{path}: not a file")
    if size > MAX_FILE_BYTES:
        raise InputError(f"{path}: refused: {size} bytes is over the {MAX_FILE_BYTES} byte limit")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None


def parse_yaml(raw: bytes, path: Path) -> YamlDoc:
    """Parse `raw`, the bytes of a file named `path` (read from disk, or sent to the web
    app), as `read_yaml` does; every message names `path`.

    Raises:
        InputError: too big, not UTF-8, not YAML, or expands too far.
    """
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(
            f"{path}: refused: {len(raw)} bytes is over the {MAX_FILE_BYTES} byte limit"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        node = yaml.compose(text, Loader=_SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = exc.problem or exc.context or "invalid YAML"
        raise InputError(f"{where}: YAML syntax error: {problem}") from None
    except yaml.reader.ReaderError as exc:
        # a character YAML does not allow (a control character, U+FFFE ...): one line
        line = text.count("\n", 0, exc.position) + 1
        code = exc.character if isinstance(exc.character, int) else None
        what = f"character U+{code:04X}" if code is not None else "a character"
        raise InputError(
            f"{path}:{line}: YAML syntax error: {what} is not allowed in YAML"
        ) from None
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: YAML error: {exc}") from None
    if node is None:
        return YamlDoc(path, None)
    builder = _Builder(path)
    data = builder.build(node, ())
    return YamlDoc(path, data, builder.lines)
