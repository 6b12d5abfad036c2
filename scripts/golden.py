"""The byte-identical check: run Quartermaster over fixed inputs, record every output, compare.

  python scripts/golden.py make DIR [--only A,B] [--tree PATH] [--isolated]
  python scripts/golden.py compare --base DIR [--new DIR | --out DIR] [--only A,B] [--tree PATH]

`make` runs the CLI of the checkout --tree PATH (default: the repository holding this script)
over a fixed set of cases: every ruleset's packet, scenario, fleet or duellist, every sheet
kind (blank and rolled), a batch, tables, lookups, resolvers, dice, and refusals. It writes
a folder DIR/CASE per case (each step's N.stdout.txt, N.stderr.txt, N.exit.txt, and under
files/ every file the commands wrote, names chosen by the tool included) and
DIR/manifest.json (case -> sha256 and size of each output; the commit, "+dirty" if the tree
has changes); DIR/timings.txt has the times.

`compare --base DIR` makes a new set from --tree (into a temp dir it keeps, or --out DIR), or
takes an existing one (--new DIR), and prints one line per differing case, with a short diff
for text and the differing pages or objects for PDFs. Exit code: 0 all identical, 1 some
differ, 2 bad usage. `--only tactical,json` keeps the cases whose name holds either part.

Commands run two at a time, each in a fresh temp cwd, with PYTHONPATH=PATH (the tree's code
and its data, templates and sheets), a render cache new for the run (QM_CACHE_DIR),
COLUMNS=100, TZ=UTC, LANG=C.UTF-8, NO_COLOR=1. By default each of two worker processes
imports the CLI once and runs commands through `generator.cli.main` as the tests do (about
half the time); --isolated runs each as `python -m generator` instead. Nothing is
normalised: two makes on one commit give identical manifests.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import io
import json
import os
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pypdf import PageObject, PdfReader

REPO = Path(__file__).resolve().parents[1]
JOBS = 2
MANIFEST = "manifest.json"
TIMINGS = "timings.txt"  # beside the manifest, not in it: times vary
DIFF_LINES = 12  # unified-diff lines shown per differing text output
PDF_OBJECTS_SHOWN = 10
TEXT_SUFFIXES = (".txt", ".json", ".yaml", ".yml", ".csv", ".md", ".html")

RULESETS = ("tactical", "flob", "duel", "high-seas", "convoy", "impulse")
NAVAL = ("tactical", "flob", "high-seas", "convoy", "impulse")
SEEDS = {"tactical": 1805, "flob": 1798, "duel": 7, "high-seas": 1650, "convoy": 1744, "impulse": 4}

# sheet kind -> (the rulesets it serves, about rolled data (--seed), printable blank)
SHEETS: dict[str, tuple[tuple[str, ...], bool, bool]] = {
    "briefing": (RULESETS, True, False),
    "cards": (("tactical", "flob"), False, True),
    "character": (("duel",), True, True),
    "counters": (("impulse", "convoy", "tactical"), True, False),
    "duel-record": (("duel",), True, True),
    "gm-notes": (RULESETS, True, True),
    "map": (("impulse", "convoy", "tactical", "flob"), True, False),
    "playsheet": (("convoy",), False, True),
    "quick-reference": (RULESETS, False, True),
    "roster": (NAVAL, True, True),
    "ship-log": (NAVAL, True, True),
}


@dataclass(frozen=True)
class Case:
    """One case: commands run in turn in one fresh folder, after writing its input files."""

    name: str
    group: str
    steps: tuple[tuple[str, ...], ...]
    inputs: tuple[tuple[str, str], ...] = ()
    weight: int = 1  # rough cost, to start the slow cases first


def _case(name: str, group: str, *commands: str, weight: int = 1, **inputs: str) -> Case:
    """A case from its command lines (shell words, without 'quartermaster')."""
    steps = tuple(tuple(shlex.split(command)) for command in commands)
    files = tuple((file.replace("_", "."), text) for file, text in inputs.items())
    return Case(name, group, steps, files, weight)


def cases() -> list[Case]:
    """Return every case, in a fixed order."""
    found: list[Case] = []
    add = found.append
    # packets: every ruleset (the file name chosen by the tool), and the options that change
    # what is drawn
    for ruleset in RULESETS:
        add(
            _case(
                f"packet-{ruleset}", "packet", f"packet {ruleset} --seed {SEEDS[ruleset]}", weight=8
            )
        )
    for name, command in (
        ("tactical-letter-handouts", "tactical --seed 1805 --paper letter --handouts"),
        ("flob-mono", "flob --seed 3 --mono"),
        ("convoy-title", 'convoy --seed 11 --title "The Wager\'s Last Convoy & <Co>" -o t.pdf'),
        (
            "impulse-fillable-without",
            "impulse --seed 5 --fillable --without map,gm-notes --spares 2",
        ),
        (
            "flob-ships-navies-year",
            "flob --seed 3 --ships 3 --navies british,french --year 1798 "
            "--without map --spares 2 --handouts -o tuesday.pdf",
        ),
        ("high-seas-unbalanced-fillable", "high-seas --seed 8 --unbalanced --fillable"),
    ):
        add(_case(f"packet-{name}", "packet", f"packet {command}", weight=8))
    # scenarios: terminal text, JSON and YAML on stdout, saved files
    for ruleset in RULESETS:
        scenario = f"scenario {ruleset} --seed {SEEDS[ruleset]}"
        add(_case(f"scenario-{ruleset}-text", "scenario", scenario))
        add(_case(f"scenario-{ruleset}-json", "scenario", f"{scenario} --json"))
        add(_case(f"scenario-{ruleset}-yaml", "scenario", f"{scenario} --yaml"))
        add(
            _case(
                f"scenario-{ruleset}-files",
                "scenario",
                f"{scenario} -o scenario.yaml",
                f"{scenario} -o scenario.json",
            )
        )
    add(
        _case(
            "scenario-flob-unbalanced-json",
            "scenario",
            "scenario flob --seed 9 --unbalanced --ships 2,4 --json",
        )
    )
    # fleets (the naval rulesets) and the duellist
    for ruleset in NAVAL:
        fleet = f"fleet {ruleset} --seed {SEEDS[ruleset]}"
        add(_case(f"fleet-{ruleset}-text", "fleet", fleet))
        add(_case(f"fleet-{ruleset}-json", "fleet", f"{fleet} --json"))
    add(
        _case(
            "fleet-flob-navy-year-yaml",
            "fleet",
            "fleet flob --seed 2 --ships 3 --navy british --year 1798 --yaml",
        )
    )
    add(_case("character-duel-text", "character", "character --seed 7"))
    add(_case("character-duel-json", "character", "character --seed 7 --json"))
    add(_case("character-duel-yaml-file", "character", "character --seed 7 -o duellist.yaml"))
    # sheets: every kind for every ruleset it serves, rolled and (where it can be) blank, A4,
    # named by the tool
    for kind, (serves, rolled, blank) in SHEETS.items():
        for ruleset in serves:
            sheet = f"sheet {kind} --ruleset {ruleset}"
            if blank:
                add(_case(f"sheet-{kind}-{ruleset}-blank", "sheet", sheet, weight=2))
            if rolled:
                add(
                    _case(
                        f"sheet-{kind}-{ruleset}-seed",
                        "sheet",
                        f"{sheet} --seed {SEEDS[ruleset]}",
                        weight=2,
                    )
                )
    for name, command in (
        (
            "ship-log-flob-letter-mono-fillable",
            "ship-log --ruleset flob --seed 1805 --paper letter --mono --fillable",
        ),
        ("cards-tactical-letter", "cards --ruleset tactical --paper letter"),
        ("cards-flob-letter-mono", "cards --ruleset flob --paper letter --mono"),
        (
            "quick-reference-flob-letter-mono",
            "quick-reference --ruleset flob --paper letter --mono",
        ),
        ("roster-tactical-blank-fillable", "roster --ruleset tactical --fillable"),
        ("map-convoy-letter", "map --ruleset convoy --seed 1744 --paper letter"),
        (
            "briefing-high-seas-letter-mono",
            "briefing --ruleset high-seas --seed 3 --paper letter --mono",
        ),
        ("duel-record-seed-fillable", "duel-record --seed 7 --fillable -o record.pdf"),
        ("character-letter", "character --seed 8 --paper letter"),
    ):
        add(_case(f"sheet-{name}", "sheet", f"sheet {command}", weight=2))
    # a fleet rolled, printed and fought from its file (the README's walk-through), and a
    # duellist printed from hers
    add(
        _case(
            "sheet-from-fleet-impulse",
            "sheet",
            "fleet impulse --ships 2 --navy british --seed 4 -o british.yaml",
            "sheet roster --from british.yaml -o roster.pdf",
            "sheet ship-log --from british.yaml -o logs.pdf",
            "scenario impulse --side british.yaml --seed 1 -o battle.yaml",
            "packet impulse --from battle.yaml -o battle.pdf",
            weight=10,
        )
    )
    add(
        _case(
            "sheet-from-character-duel",
            "sheet",
            "character --seed 5 -o hero.json",
            "sheet character --from hero.json -o hero.pdf",
            "sheet duel-record --from hero.json -o record.pdf",
            weight=3,
        )
    )
    # batches: each ruleset on one worker process, and two mixed on two
    for ruleset in RULESETS:
        add(
            _case(
                f"batch-{ruleset}",
                "batch",
                f"batch {ruleset} --count 3 --seed 2026 --jobs 1 -o con",
                weight=20,
            )
        )
    add(
        _case(
            "batch-tactical-flob-jobs2",
            "batch",
            "batch tactical,flob --count 3 --seed 12 --jobs 2 --without gm-notes -o club",
            weight=20,
        )
    )
    # listings, tables, lookups
    add(_case("rulesets-text", "tables", "rulesets"))
    add(_case("rulesets-json", "tables", "rulesets --json"))
    for ruleset in RULESETS:
        add(_case(f"tables-{ruleset}-text", "tables", f"tables {ruleset}"))
    add(_case("tables-flob-json", "tables", "tables flob --json"))
    for table in (
        "flob.broadside",
        "tactical.broadside",
        "impulse.damage-effects",
        "convoy.gunnery",
        "duel.weapons",
        "high-seas.cannon-fire",
        "flob.turn-sequence",
    ):
        add(_case(f"tables-{table}-text", "tables", f"tables {table}"))
    add(_case("tables-flob.broadside-json", "tables", "tables flob.broadside --json"))
    lookup = "lookup impulse.damage-effects roll=14 hits=6"
    add(_case("lookup-impulse-damage-text", "lookup", lookup))
    add(_case("lookup-impulse-damage-json", "lookup", f"{lookup} --json"))
    add(_case("lookup-tactical-broadside-text", "lookup", "lookup tactical.broadside 7"))
    # resolvers and resolutions
    add(_case("resolvers-text", "resolve", "resolvers"))
    add(_case("resolvers-json", "resolve", "resolvers --json"))
    add(_case("resolvers-flob-text", "resolve", "resolvers flob"))
    add(_case("resolvers-flob.broadside-text", "resolve", "resolvers flob.broadside"))
    for name, command in (
        ("tactical-flight-test", "tactical.flight-test flagship=yes courage=1"),
        (
            "tactical-broadside",
            "tactical.broadside ammo=Grapeshot distance=3 cannon=5 gunnery=1 target_crew=2",
        ),
        ("flob-broadside", "flob.broadside attack=5 ammo=double-round-shot"),
        ("duel-attack", "duel.attack expertise=12 weapon=Rapier strength=11"),
        ("high-seas-cannon-fire", "high-seas.cannon-fire range=Medium target=hull guns=24"),
        ("convoy-gunnery", "convoy.gunnery guns=3 raking=yes"),
        ("impulse-fire-combat", "impulse.fire-combat guns=8 to_hit=5"),
    ):
        add(_case(f"resolve-{name}-text", "resolve", f"resolve {command} --seed 7"))
        add(_case(f"resolve-{name}-json", "resolve", f"resolve {command} --seed 7 --json"))
    add(_case("resolve-flob-broadside-odds", "resolve", "resolve flob.broadside attack=5 --odds"))
    add(_case("resolve-duel-attack-help", "resolve", "resolve duel.attack --help"))
    # dice
    add(_case("roll-2d6+3-text", "dice", "roll 2d6+3 --seed 1"))
    add(_case("roll-4d6kh3-times-text", "dice", "roll 4d6kh3 --seed 1805 --times 6"))
    add(_case("roll-8d6>=5-json", "dice", "roll '8d6>=5' --seed 2 --json"))
    add(_case("odds-2d6-text", "dice", "odds 2d6"))
    add(_case("odds-8d6>=5-json", "dice", "odds '8d6>=5' --json"))
    add(_case("odds-1d20+5-vs-text", "dice", "odds 1d20+5 --vs 1d20+3"))
    # refusals: one line on stderr, exit code 2
    for name, command in (
        ("packet-unknown-ruleset", "packet tactics --seed 1"),
        ("packet-long-title", f"packet tactical --seed 1 --title {'A' * 121}"),
        ("packet-bad-paper", "packet tactical --seed 1 --paper a5"),
        ("packet-bad-without", "packet tactical --seed 1 --without maps"),
        ("roll-bad-expression", "roll 2d6+"),
        ("odds-bad-vs", "odds 2d6 --vs d"),
        ("lookup-bad-value", "lookup impulse.damage-effects roll=14 hits=banana"),
        ("tables-unknown-table", "tables flob.broadsides"),
        ("sheet-unknown-kind", "sheet shiplog"),
        ("sheet-cards-duel", "sheet cards --ruleset duel"),
        ("sheet-briefing-blank", "sheet briefing --ruleset tactical"),
        ("sheet-map-blank", "sheet map --ruleset flob"),
        ("resolve-bad-input", "resolve flob.broadside attack=banana"),
        ("fleet-duel", "fleet duel --seed 1"),
        ("unknown-command", "rol 2d6"),
    ):
        add(_case(f"refusal-{name}", "refusal", command))
    add(
        _case(
            "refusal-packet-broken-from",
            "refusal",
            "packet tactical --from broken.yaml",
            broken_yaml="ruleset: tactical\nsides: [unclosed\n",
        )
    )
    add(
        _case(
            "refusal-house-rules-unknown-table",
            "refusal",
            "tables tactical --rules house.yaml",
            house_yaml="tactical:\n  no-such-table:\n    title: Nothing\n",
        )
    )
    return found


def select(every: Sequence[Case], only: str | None) -> list[Case]:
    """Return the cases whose name contains one of `only`'s comma-separated parts."""
    if not only:
        return list(every)
    parts = [part for part in only.split(",") if part]
    return [case for case in every if any(part in case.name for part in parts)]


def _environment(tree: Path, cache: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("QM_", "PYTHON", "FORCE_COLOR", "CLICOLOR", "XDG_CACHE"))
    }
    env.update(
        PYTHONPATH=str(tree),
        QM_CACHE_DIR=str(cache),
        COLUMNS="100",
        LINES="40",
        TZ="UTC",
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        NO_COLOR="1",
        TERM="dumb",
    )
    return env


# -- running: one process per command (--isolated), or commands in long-lived workers --------


class Runner:
    """Runs commands of the tree's CLI: each its own process, or in a worker that imported
    the CLI once (`serve`), which saves the start-up (WeasyPrint's import alone is ~1 s)."""

    def __init__(self, env: dict[str, str], isolated: bool) -> None:
        self.env = env
        self.worker: subprocess.Popen[str] | None = None
        if not isolated:
            self.worker = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "serve"],
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )

    def run(self, argv: Sequence[str], cwd: Path, stdout: Path, stderr: Path) -> int:
        """Run one command in `cwd`, its output going to the two files; return its code."""
        if self.worker is None:
            with stdout.open("wb") as out, stderr.open("wb") as err:
                return subprocess.run(
                    [sys.executable, "-m", "generator", *argv],
                    cwd=cwd,
                    env=self.env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    check=False,
                ).returncode
        assert self.worker.stdin is not None and self.worker.stdout is not None
        order = {"argv": list(argv), "cwd": str(cwd), "stdout": str(stdout), "stderr": str(stderr)}
        self.worker.stdin.write(json.dumps(order) + "\n")
        self.worker.stdin.flush()
        answer = self.worker.stdout.readline()
        if not answer:
            raise RuntimeError(
                f"the worker stopped running {shlex.join(argv)}: see {stderr} and above"
            )
        code: int = json.loads(answer)["code"]
        return code

    def close(self) -> None:
        if self.worker is not None:
            assert self.worker.stdin is not None
            self.worker.stdin.close()
            self.worker.wait()


def serve() -> int:
    """Be a worker: run each command read from stdin (JSON) in this process, as the tests do
    (`generator.cli.main`), with fd 1 and 2 sent to its files; answer its exit code."""
    import generator
    from generator.cli import main as cli_main  # the tree's, from PYTHONPATH

    tree = Path(os.environ["PYTHONPATH"]).resolve()
    if Path(generator.__file__).resolve().parent != tree / "generator":
        print(f"golden worker: imported {generator.__file__}, not {tree}'s", file=sys.stderr)
        return 2

    answers = os.fdopen(os.dup(1), "w")
    for line in sys.stdin:
        order = json.loads(line)
        os.chdir(order["cwd"])
        code = 0
        with open(order["stdout"], "wb") as out, open(order["stderr"], "wb") as err:
            kept = os.dup(1), os.dup(2)
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            try:
                cli_main(order["argv"])
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(kept[0], 1)
                os.dup2(kept[1], 2)
                os.close(kept[0])
                os.close(kept[1])
        answers.write(json.dumps({"code": code}) + "\n")
        answers.flush()
    return 0


def run_case(case: Case, runner: Runner, out: Path, scratch: Path) -> float:
    """Run `case` in a fresh folder; write its outputs under out/CASE; return seconds taken."""
    start = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="case-", dir=scratch))
    for name, text in case.inputs:
        (work / name).write_text(text, encoding="utf-8")
    folder = out / case.name
    folder.mkdir(parents=True)
    for number, argv in enumerate(case.steps, 1):
        code = runner.run(
            argv, work, folder / f"{number}.stdout.txt", folder / f"{number}.stderr.txt"
        )
        (folder / f"{number}.exit.txt").write_text(f"{code}\n", encoding="utf-8")
    shutil.copytree(work, folder / "files")
    shutil.rmtree(work)
    return time.perf_counter() - start


def tree_commit(tree: Path) -> str:
    """Return the tree's commit, with "+dirty" when its work tree has changes."""
    head = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    changes = subprocess.run(
        ["git", "-C", str(tree), "status", "--porcelain"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return head + ("+dirty" if changes else "")


def digest_folder(folder: Path) -> dict[str, dict[str, object]]:
    """Return each file under `folder` (relative path) with its sha256 and size."""
    found: dict[str, dict[str, object]] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            found[path.relative_to(folder).as_posix()] = {
                "sha256": hashlib.sha256(data).hexdigest(),
                "size": len(data),
            }
    return found


def write_manifest(out: Path, chosen: Iterable[Case], commit: str) -> None:
    """Write out/manifest.json for the cases made under `out`."""
    manifest = {
        "commit": commit,
        "cases": {
            case.name: {
                "commands": [list(argv) for argv in case.steps],
                "outputs": digest_folder(out / case.name),
            }
            for case in chosen
        },
    }
    text = json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    (out / MANIFEST).write_text(text, encoding="utf-8")


def _package_used(env: dict[str, str], cwd: Path) -> Path:
    """Return the folder of the `generator` package that commands run with `env` import."""
    found = subprocess.run(
        [sys.executable, "-c", "import generator; print(generator.__file__)"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return Path(found).resolve().parent


def make(out: Path, only: str | None, tree: Path, jobs: int = JOBS, isolated: bool = False) -> int:
    """Make the set of outputs in `out` (which must not exist or be empty)."""
    chosen = select(cases(), only)
    if not chosen:
        print(f"error: --only {only!r} matches no case", file=sys.stderr)
        return 2
    if out.exists() and any(out.iterdir()):
        print(f"error: {out} is not empty; give a new folder", file=sys.stderr)
        return 2
    if not (tree / "generator" / "__init__.py").is_file():
        print(f"error: --tree {tree} has no generator package", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    commit = tree_commit(tree)
    started = time.perf_counter()
    waiting: queue.SimpleQueue[Case] = queue.SimpleQueue()
    for case in sorted(chosen, key=lambda case: -case.weight):  # the slow ones first
        waiting.put(case)
    seconds: list[tuple[Case, float]] = []

    def work(env: dict[str, str], scratch: Path) -> None:
        runner = Runner(env, isolated)
        try:
            while True:
                try:
                    case = waiting.get_nowait()
                except queue.Empty:
                    return
                seconds.append((case, run_case(case, runner, out, scratch)))
        finally:
            runner.close()

    with tempfile.TemporaryDirectory(prefix="qm-golden-") as temp:
        scratch = Path(temp)
        cache = scratch / "render-cache"  # fresh for this run: nothing from older code
        cache.mkdir()
        env = _environment(tree, cache)
        used = _package_used(env, scratch)
        if used != tree / "generator":
            print(f"error: with PYTHONPATH={tree} Python imports {used}", file=sys.stderr)
            return 2
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for done in [pool.submit(work, env, scratch) for _ in range(jobs)]:
                done.result()
    wall = time.perf_counter() - started
    write_manifest(out, chosen, commit)
    per_group: dict[str, list[float]] = {}
    for case, took in seconds:
        per_group.setdefault(case.group, []).append(took)
    lines = [
        f"{group:10} {len(took):4} cases {sum(took):7.1f} s (summed over its cases)"
        for group, took in sorted(per_group.items(), key=lambda item: -sum(item[1]))
    ]
    how = "one process per command" if isolated else "in-process workers"
    lines.append(
        f"{len(chosen)} cases from {commit} in {wall:.1f} s wall ({jobs} at a time, {how}): {out}"
    )
    slowest = sorted(seconds, key=lambda done: -done[1])
    every = [f"{took:7.1f} s  {case.name}" for case, took in slowest]
    (out / TIMINGS).write_text("\n".join([*lines, "", *every]) + "\n", encoding="utf-8")
    print("\n".join(lines))
    print("slowest: " + ", ".join(f"{case.name} {took:.0f} s" for case, took in slowest[:5]))
    return 0


# -- comparing ---------------------------------------------------------------------------


def _read_manifest(folder: Path) -> dict[str, dict[str, dict[str, dict[str, object]]]]:
    cases_made: dict[str, dict[str, dict[str, dict[str, object]]]] = json.loads(
        (folder / MANIFEST).read_text(encoding="utf-8")
    )["cases"]
    return cases_made


def _text_diff(old: Path, new: Path, name: str) -> list[str]:
    before = old.read_text(encoding="utf-8", errors="replace").splitlines()
    after = new.read_text(encoding="utf-8", errors="replace").splitlines()
    lines = list(difflib.unified_diff(before, after, f"base/{name}", f"new/{name}", lineterm=""))
    shown = lines[: DIFF_LINES + 2]
    if len(lines) > len(shown):
        shown.append(f"... {len(lines) - len(shown)} more diff lines")
    return shown


def _pdf_objects(reader: PdfReader) -> dict[int, bytes]:
    """Return every object of `reader` by number, as bytes to compare (a stream's data too)."""
    found: dict[int, bytes] = {}
    for number in range(1, int(reader.trailer.get("/Size", 0))):
        try:
            value = reader.get_object(number)
        except Exception as exc:  # a missing or damaged object reads as what went wrong
            found[number] = f"unreadable: {exc}".encode()
            continue
        if value is None:
            continue
        written = io.BytesIO()  # as the file has it: references by number, streams encoded
        value.write_to_stream(written)
        found[number] = written.getvalue()
    return found


def _pdf_diff(old: Path, new: Path) -> list[str]:
    """Say which pages' content streams differ, else which objects do (cheap, via pypdf)."""
    try:
        before, after = PdfReader(old), PdfReader(new)
        if len(before.pages) != len(after.pages):
            return [f"pages: {len(before.pages)} -> {len(after.pages)}"]
        pages = [
            str(number)
            for number, (one, two) in enumerate(zip(before.pages, after.pages, strict=True), 1)
            if _content(one) != _content(two)
        ]
        if pages:
            return [f"content streams differ on page(s) {', '.join(pages)}"]
        old_objects, new_objects = _pdf_objects(before), _pdf_objects(after)
        objects = [
            str(number)
            for number in sorted(set(old_objects) | set(new_objects))
            if old_objects.get(number) != new_objects.get(number)
        ]
        if not objects:
            return ["same pages and objects: the file's layout differs (xref, trailer)"]
        shown = ", ".join(objects[:PDF_OBJECTS_SHOWN])
        more = (
            f" and {len(objects) - PDF_OBJECTS_SHOWN} more"
            if len(objects) > PDF_OBJECTS_SHOWN
            else ""
        )
        return [f"same page content; objects differ: {shown}{more}"]
    except Exception as exc:  # a damaged PDF is itself a difference to report
        return [f"cannot read it with pypdf ({type(exc).__name__}: {exc})"]


def _content(page: PageObject) -> bytes:
    contents = page.get_contents()
    return b"" if contents is None else contents.get_data()


def compare_sets(
    base: Path, new: Path, only: str | None = None, say: Callable[[str], None] = print
) -> int:
    """Compare two made sets case by case; print what differs; return 1 if any, else 0."""
    old_cases, new_cases = _read_manifest(base), _read_manifest(new)
    names = sorted(set(old_cases) | set(new_cases))
    if only:
        parts = [part for part in only.split(",") if part]
        names = [name for name in names if any(part in name for part in parts)]
    differing = 0
    for name in names:
        if name not in new_cases or name not in old_cases:
            say(f"DIFF {name}: only in {'base' if name in old_cases else 'new'}")
            differing += 1
            continue
        before, after = old_cases[name]["outputs"], new_cases[name]["outputs"]
        changed = sorted(
            output
            for output in set(before) | set(after)
            if before.get(output, {}).get("sha256") != after.get(output, {}).get("sha256")
        )
        if not changed:
            continue
        differing += 1
        say(f"DIFF {name}: {', '.join(changed)}")
        for output in changed:
            old, fresh = base / name / output, new / name / output
            if output not in before or output not in after:
                say(f"  {output}: only in {'base' if output in before else 'new'}")
            elif not (old.is_file() and fresh.is_file()):
                say(f"  {output}: file missing beside the manifest")
            elif output.endswith(".pdf"):
                for line in _pdf_diff(old, fresh):
                    say(f"  {output}: {line}")
            elif output.endswith(TEXT_SUFFIXES):
                for line in _text_diff(old, fresh, f"{name}/{output}"):
                    say(f"  {line}")
    say(
        f"{differing} of {len(names)} cases differ"
        if differing
        else f"all {len(names)} cases identical"
    )
    return 1 if differing else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="golden.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("make", help="make a set of outputs in DIR")
    made.add_argument("dir", type=Path)
    compared = commands.add_parser("compare", help="make a new set and compare it with --base")
    compared.add_argument("--base", type=Path, required=True, help="a set made by make")
    compared.add_argument("--new", type=Path, help="compare this set instead of making one")
    compared.add_argument("--out", type=Path, help="make the new set here (default: a temp dir)")
    for sub in (made, compared):
        sub.add_argument("--only", help="cases whose name contains one of A,B,...")
        sub.add_argument("--tree", type=Path, default=REPO, help="the checkout to run")
        sub.add_argument("--jobs", type=int, default=JOBS, help="commands run at once")
        sub.add_argument("--isolated", action="store_true", help="one process per command (slower)")
    commands.add_parser("serve", help="(internal) run commands read from stdin")
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve()
    tree = args.tree.resolve()
    try:
        return _make_or_compare(args, tree)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def _make_or_compare(args: argparse.Namespace, tree: Path) -> int:
    if args.command == "make":
        return make(args.dir.resolve(), args.only, tree, args.jobs, args.isolated)
    if not (args.base / MANIFEST).is_file():
        print(f"error: --base {args.base} has no {MANIFEST}", file=sys.stderr)
        return 2
    new = args.new
    if new is None:
        new = args.out or Path(tempfile.mkdtemp(prefix="golden-new-"))
        made_code = make(new.resolve(), args.only, tree, args.jobs, args.isolated)
        if made_code:
            return made_code
        print(f"new set: {new}")
    elif not (new / MANIFEST).is_file():
        print(f"error: --new {new} has no {MANIFEST}", file=sys.stderr)
        return 2
    return compare_sets(args.base, new, args.only)


if __name__ == "__main__":
    sys.exit(main())
