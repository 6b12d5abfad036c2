"""Every machine tests the same libraries: constraints.txt pins every dependency, and the
venv running the tests holds exactly those versions (the README's commands install with
`-c constraints.txt`; `bash scripts/lock` refreshes it on purpose)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    text = (REPO / "constraints.txt").read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        assert sep and _NAME.fullmatch(name) and version.strip(), (
            f"constraints.txt:{number}: '{line}' is not NAME==VERSION"
        )
        pins[_canonical(name)] = version.strip()
    return pins


def _declared() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted.extend(extra)
    names = []
    for requirement in wanted:
        match = _NAME.match(requirement)
        assert match, requirement
        names.append(_canonical(match[0]))
    return names


def test_every_declared_dependency_is_pinned() -> None:
    pins = _pins()
    missing = [name for name in _declared() if name not in pins]
    assert not missing, f"not pinned in constraints.txt: {', '.join(missing)} (bash scripts/lock)"


def test_the_venv_holds_the_pinned_versions() -> None:
    pins = _pins()
    wrong = []
    for name, version in pins.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            wrong.append(f"{name} not installed (pinned {version})")
            continue
        if installed != version:
            wrong.append(f"{name} {installed} (pinned {version})")
    assert not wrong, (
        "this venv is not the pinned one: "
        + "; ".join(wrong)
        + " (install with: pip install -c constraints.txt -e '.[test]')"
    )
