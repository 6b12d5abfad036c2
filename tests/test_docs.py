"""The habits of a finished tool: help with examples, shell completion, a version that
matches the changelog, and documentation whose examples work."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from generator import __version__
from generator.cli import app
from generator.loading import load_rules
from tests.conftest import REPO, run

HOUSE_EXAMPLE = REPO / "docs" / "house-rules-example.yaml"
# each module of generator.cli adds its commands to the root as a group without a name
COMMANDS = [
    command.name
    for group in app.registered_groups
    if group.typer_instance is not None
    for command in group.typer_instance.registered_commands
]


def test_every_command_is_registered_by_name() -> None:
    assert None not in COMMANDS
    assert {"lookup", "roll", "resolve", "play", "sheet", "packet", "batch"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_says_what_it_makes_and_shows_an_example(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, _ = run(capsys, str(command), "--help")
    assert code == 0
    assert f"Usage: quartermaster {command} " in out
    summary = out.split("\n\n")[1].strip()
    assert len(summary) > 20, summary
    # click rewraps the docstring: join it back before looking for the example
    text = " ".join(out.split())
    assert re.search(rf"Examples?: quartermaster {command}\b", text), out


def test_root_help_lists_every_command_and_completion(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in COMMANDS:
        assert f"  {command} " in out
    assert "--install-completion" in out and "--show-completion" in out


def _quartermaster(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )


def test_show_completion_prints_a_bash_script() -> None:
    # Typer names the shell itself unless detection is off; with it off, the shell is an
    # argument, so the test does not depend on the shell it runs under
    proc = _quartermaster(
        "--show-completion", "bash", _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1"
    )
    assert proc.returncode == 0, proc.stderr
    assert "_QUARTERMASTER_COMPLETE=complete_bash" in proc.stdout
    assert "complete -o default -F _quartermaster_completion quartermaster" in proc.stdout


def test_the_completion_script_completes_commands_and_options() -> None:
    commands = _quartermaster(
        _QUARTERMASTER_COMPLETE="complete_bash", COMP_WORDS="quartermaster pa", COMP_CWORD="1"
    )
    assert commands.returncode == 0, commands.stderr
    assert commands.stdout.split() == ["packet"]
    options = _quartermaster(
        _QUARTERMASTER_COMPLETE="complete_bash",
        COMP_WORDS="quartermaster sheet --fo",
        COMP_CWORD="2",
    )
    assert options.stdout.split() == ["--force"]


def test_version_matches_the_package_and_the_changelog(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"quartermaster {__version__}\n"
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert f'\nversion = "{__version__}"\n' in pyproject
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d\d-\d\d$", changelog, re.M)


def test_the_house_rules_example_loads_and_changes_tables() -> None:
    built_in = load_rules()
    house = load_rules(HOUSE_EXAMPLE)
    for table_id in ("tactical.broadside", "duel.hit-location"):
        ruleset, name = table_id.split(".")
        assert house.rulesets[ruleset].tables[name].house
        assert not built_in.rulesets[ruleset].tables[name].house or ruleset == "duel"
        assert house.rulesets[ruleset].tables[name] != built_in.rulesets[ruleset].tables[name]


@pytest.mark.parametrize(
    ("args", "built_in", "house"),
    [
        (("tactical.broadside", "roll=5"), "No Damage", "one random attribute"),
        (("duel.hit-location", "roll=3"), "Chest/Flank", "Head"),
    ],
)
def test_lookup_with_the_house_rules_example_shows_the_changed_value(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], built_in: str, house: str
) -> None:
    code, out, _ = run(capsys, "lookup", *args, "--json")
    assert code == 0 and built_in in json.loads(out)["result"]
    code, out, _ = run(capsys, "lookup", *args, "--rules", str(HOUSE_EXAMPLE), "--json")
    assert code == 0 and house in json.loads(out)["result"]
    code, out, _ = run(capsys, "lookup", *args, "--rules", str(HOUSE_EXAMPLE))
    assert code == 0 and house in out and "(house table)" in out


def test_the_house_rules_example_drives_the_resolver(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("resolve", "tactical.broadside", "cannon=0", "gunnery=0", "distance=2", "--odds")
    _, built_in, _ = run(capsys, *args, "--json")
    _, house, _ = run(capsys, *args, "--rules", str(HOUSE_EXAMPLE), "--json")
    assert json.loads(built_in) != json.loads(house)


def test_readme_links_the_docs_and_every_link_resolves() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for doc in ("docs/house-rules-example.yaml", "docs/convention-batches.md", "CHANGELOG.md"):
        assert f"({doc})" in readme, doc
    for doc in [REPO / "README.md", *(REPO / "docs").glob("*.md")]:
        text = doc.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#]+)\)", text):
            if "://" not in target:
                assert (doc.parent / target).exists(), f"{doc.name}: {target}"
