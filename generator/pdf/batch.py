"""Convention batches: many different, reproducible packets, in parallel, resumable.

Seeds are drawn from the batch seed, so the same batch seed gives the same packets. Each
packet is written atomically and entered in DIR/manifest.json (rewritten atomically after
every packet), so an interrupted batch leaves only whole files, each listed with its
checksum; ``resume`` keeps every packet whose file still matches and makes the rest.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import multiprocessing
import os
import random
import shlex
import signal
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import InputError, QuartermasterError
from generator.loading import load_rules
from generator.output import check_folder, check_target, ensure_dir, write_atomic
from generator.pdf import packet
from generator.render.paper import get_paper
from generator.render.pdf import html_to_pdf
from generator.render.templating import render_html
from generator.ruleset.model import Scenario

MANIFEST = "manifest.json"
MAX_COUNT = 10_000


@dataclass(frozen=True)
class BatchOptions:
    """What every packet of a batch shares; a resumed batch must match it.

    `rulesets` are taken in turn (packet 1 the first, packet 2 the second ...); `ships`,
    `navies`, `year` and `balanced` are the order every scenario is rolled by (the
    application layer rolls them: `generator.app.printed.batch_plan`); `without` and
    `spares` shape every packet.
    """

    rulesets: tuple[str, ...]
    seed: int
    count: int
    balanced: bool = True
    paper: str = "a4"
    mono: bool = False
    fillable: bool = False
    cache: bool = True
    rules_file: str | None = None
    ships: tuple[int, ...] = ()
    navies: tuple[str, ...] = ()
    year: int | None = None
    without: tuple[str, ...] = ()
    spares: int | None = None

    def ruleset(self, index: int) -> str:
        """Return the ruleset of packet `index` (0 first): the rulesets in turn."""
        return self.rulesets[index % len(self.rulesets)]

    def key(self) -> dict[str, Any]:
        """The manifest fields that identify the batch (cache is not one: same bytes)."""
        return {
            "rulesets": list(self.rulesets),
            "seed": self.seed,
            "count": self.count,
            "balanced": self.balanced,
            "ships": list(self.ships),
            "navies": list(self.navies),
            "year": self.year,
            "without": list(self.without),
            "spares": self.spares,
            "paper": self.paper,
            "mono": self.mono,
            "fillable": self.fillable,
            "rules": self.rules_file,
        }

    def command(self, ruleset: str, seed: int | str, title: str) -> str:
        """Return the command that makes one packet of the batch again, alone."""
        words = ["quartermaster", "packet", ruleset, "--seed", str(seed)]
        if self.ships:
            words += ["--ships", ",".join(map(str, self.ships))]
        if self.navies:
            words += ["--navies", ",".join(self.navies)]
        if self.year is not None:
            words += ["--year", str(self.year)]
        if not self.balanced:
            words.append("--unbalanced")
        if self.without:
            words += ["--without", ",".join(self.without)]
        if self.spares is not None:
            words += ["--spares", str(self.spares)]
        if self.paper != "a4":
            words += ["--paper", self.paper]
        words += [flag for flag, on in (("--mono", self.mono), ("--fillable", self.fillable)) if on]
        if self.rules_file:
            words += ["--rules", self.rules_file]
        words += ["--title", title]
        return shlex.join(words)


def batch_seeds(seed: int, count: int) -> list[int]:
    """Return `count` distinct packet seeds drawn from the batch `seed`."""
    rng = random.Random(f"batch:{seed}")
    seeds: list[int] = []
    seen: set[int] = set()
    while len(seeds) < count:
        candidate = rng.randrange(1, 2**31)
        if candidate not in seen:
            seen.add(candidate)
            seeds.append(candidate)
    return seeds


def packet_name(ruleset: str, index: int, seed: int) -> str:
    return f"{index + 1:03d}-{ruleset}-{seed}.pdf"


def make_packet(
    options: BatchOptions, index: int, scenario: Scenario, folder: str
) -> dict[str, Any]:
    """Lay out and write one packet of the batch; return its manifest entry."""
    rules = load_rules(Path(options.rules_file) if options.rules_file else None)
    made = packet.build_packet(
        rules,
        scenario,
        paper=options.paper,
        mono=options.mono,
        fillable=options.fillable,
        cache=options.cache,
        without=frozenset(options.without),
        spares=options.spares,
    )
    pdf = made.write()
    ruleset, seed = str(scenario["ruleset"]), int(scenario["seed"])
    name = packet_name(ruleset, index, seed)
    # written whole under a staging name; `run_batch` gives it its name and enters it in
    # the manifest in one step, so no packet is ever on disk without being listed
    write_atomic(_staged(Path(folder), name), pdf)
    balance = scenario.get("balance", {})
    return {
        "index": index + 1,
        "ruleset": ruleset,
        "seed": seed,
        "file": name,
        "pages": made.page_count(),
        "sha256": hashlib.sha256(pdf).hexdigest(),
        "title": scenario["title"],
        "sides": [side.get("name", "") for side in scenario["sides"]],
        "strengths": balance.get("strengths", []),
        "command": options.command(ruleset, seed, str(scenario["title"])),
    }


def _staged(folder: Path, name: str) -> Path:
    """Return where a worker leaves a finished packet for the parent to commit: a hidden
    ``.part`` name, which `_clean_leftovers` removes if the batch is interrupted."""
    return folder / f".{name}.staged.part"


class BatchInterrupted(QuartermasterError):
    """Ctrl-C during a batch: the workers are stopped, the manifest lists every packet on
    disk, and the same command with --resume makes the rest."""

    exit_code = 130


@contextlib.contextmanager
def _no_interrupt() -> Iterator[None]:
    """Hold a Ctrl-C back while a packet is committed (renamed into place and entered in
    the manifest), then deliver it; so a packet is on disk only if it is listed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """Return the manifest in `folder`, or None if there is none."""
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the manifest: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("packets"), list):
        raise InputError(f"{path}: not a Quartermaster batch manifest")
    return data


def _write_manifest(
    folder: Path, options: BatchOptions, entries: dict[int, dict[str, Any]]
) -> None:
    packets = [entries[i] for i in sorted(entries)]
    data = {**options.key(), "packets": packets}
    write_atomic(
        folder / MANIFEST, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode()
    )
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["index", "ruleset", "seed", "file", "pages", "sha256", "title", "sides"])
    for p in packets:
        writer.writerow(
            [
                p["index"],
                p.get("ruleset", ""),
                p["seed"],
                p["file"],
                p["pages"],
                p["sha256"],
                p["title"],
                " | ".join(p["sides"]),
            ]
        )
    write_atomic(folder / "manifest.csv", text.getvalue().encode("utf-8"))


def _clean_leftovers(folder: Path) -> None:
    for leftover in folder.glob(".*.part"):
        leftover.unlink(missing_ok=True)


def plan_batch(
    folder: Path, options: BatchOptions, resume: bool
) -> tuple[dict[int, dict[str, Any]], list[int]]:
    """Return the entries to keep and the indices still to make."""
    seeds = batch_seeds(options.seed, options.count)
    existing = read_manifest(folder)
    if existing is not None and not resume:
        raise InputError(
            f"{folder}: already holds a batch (manifest.json); add --resume to finish it, "
            "or choose another folder"
        )
    kept: dict[int, dict[str, Any]] = {}
    if existing is not None:
        theirs = {k: existing.get(k) for k in options.key()}
        if theirs != options.key():
            differ = ", ".join(k for k in options.key() if theirs[k] != options.key()[k])
            raise InputError(f"{folder}: the batch there was made with other options ({differ})")
        for entry in existing["packets"]:
            index = int(entry.get("index", 0)) - 1
            matches = 0 <= index < options.count and entry.get("seed") == seeds[index]
            if matches and _sha256(folder / str(entry.get("file"))) == entry.get("sha256"):
                kept[index] = entry
    todo = [i for i in range(options.count) if i not in kept]
    return kept, todo


def check_batch_options(options: BatchOptions, jobs: int) -> None:
    """Refuse a count or a number of workers a batch cannot have."""
    if not 1 <= options.count <= MAX_COUNT:
        raise InputError(f"--count {options.count}: between 1 and {MAX_COUNT}")
    if jobs < 1:
        raise InputError(f"--jobs {jobs}: at least 1")


def run_batch(
    folder: Path,
    options: BatchOptions,
    *,
    scenarios: Callable[[], Sequence[Scenario]],
    jobs: int = 1,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Make (or finish) a batch in `folder` with `jobs` worker processes; return the manifest.

    Args:
        scenarios: rolls the batch's scenarios, every one in order (a resumed batch's
            too), called once the folder is found fit for the batch.
    """
    check_batch_options(options, jobs)
    ensure_dir(folder)
    _clean_leftovers(folder)
    entries, todo = plan_batch(folder, options, resume)
    planned = scenarios()
    _write_manifest(folder, options, entries)
    if progress:
        progress(len(entries), options.count)
    # closed on the way out: a Ctrl-C raised here, between two packets, must still stop the
    # workers (GeneratorExit at the pool's yield) before the folder is cleaned, or they go
    # on writing staged files and the interpreter waits for them at exit
    made = _run(options, todo, planned, folder, jobs)
    try:
        for entry in made:
            # the file, the entry and the manifest in one step that a Ctrl-C waits for; what
            # is said made is counted from the entries, so it is what the manifest lists
            with _no_interrupt():
                os.replace(_staged(folder, entry["file"]), folder / entry["file"])
                entries[entry["index"] - 1] = entry
                _write_manifest(folder, options, entries)
            if progress:
                progress(len(entries), options.count)
    except KeyboardInterrupt:
        made.close()
        _clean_leftovers(folder)
        raise BatchInterrupted(
            f"interrupted: {len(entries)} of {options.count} packets are made and listed in "
            f"{folder / MANIFEST}; the same command with --resume makes the rest"
        ) from None
    finally:
        made.close()  # any other way out stops the workers too
    write_index(folder, options, [entries[i] for i in sorted(entries)])
    data = read_manifest(folder)
    assert data is not None
    return data


def _run(
    options: BatchOptions,
    todo: list[int],
    scenarios: Sequence[Scenario],
    folder: Path,
    jobs: int,
) -> Generator[dict[str, Any], None, None]:
    if jobs == 1 or len(todo) <= 1:
        for index in todo:
            yield make_packet(options, index, scenarios[index], str(folder))
        return
    # never more workers than packets to make, nor than a few per CPU (a typo such as
    # --jobs 100000 must not fork the machine to death)
    workers = min(jobs, len(todo), 4 * (os.cpu_count() or 1))
    with ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupt) as pool:
        futures = [pool.submit(make_packet, options, i, scenarios[i], str(folder)) for i in todo]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:
            # Ctrl-C (or a failed packet): stop at once. Packets in progress are dropped
            # (their staged files are removed): waiting for them took up to a minute.
            # The pool's manager thread is kept first: shutdown(wait=False) forgets it.
            manager = getattr(pool, "_executor_manager_thread", None)
            pool.shutdown(wait=False, cancel_futures=True)
            children = multiprocessing.active_children()
            for child in children:
                child.terminate()
            # a worker is gone only once it is reaped: until then it may still create a
            # staged file after the parent has cleaned the folder (seen on a loaded machine)
            for child in children:
                child.join(timeout=30)
            # and the manager thread once it has closed its wake-up pipe: closing it while
            # concurrent.futures' exit hook writes to it printed a traceback after our
            # message (OSError: Bad file descriptor, seen once on a loaded machine)
            if manager is not None:
                manager.join(timeout=30)
            raise


def _ignore_interrupt() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the workers itself (a worker
    interrupted on its own would print a traceback and break the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def write_index(folder: Path, options: BatchOptions, packets: list[dict[str, Any]]) -> Path:
    """Write DIR/index.pdf: every scenario of the batch with its seed, sides and file."""
    html = render_html(
        "batch_index.html.j2",
        doc_title=f"Batch index — {', '.join(options.rulesets)}, seed {options.seed}",
        doc_subject=f"{len(packets)} scenarios of {', '.join(options.rulesets)} "
        f"from batch seed {options.seed}",
        bookmarks=(),
        paper=get_paper(options.paper),
        mono=options.mono,
        fillable=False,
        options=options.key(),
        remake=options.command("RULESET", "SEED", "TITLE").replace("'", ""),
        packets=packets,
    )
    return write_atomic(folder / "index.pdf", html_to_pdf(html))


def check_batch_targets(folder: Path, options: BatchOptions, *, force: bool) -> None:
    """Refuse, before any packet is made, to overwrite files in `folder` we did not write.

    A folder holding our manifest.json is a batch of ours: `run_batch` then finishes it
    (--resume) or refuses. Otherwise every file the batch would write (the manifests, the
    index and each packet) must be absent or our own output, unless `force`.
    """
    check_folder(folder)
    if folder.is_dir() and read_manifest(folder) is not None:
        return
    names = [MANIFEST, "manifest.csv", "index.pdf"]
    if options.count <= MAX_COUNT:  # a larger count is refused by run_batch
        seeds = batch_seeds(options.seed, options.count)
        names += [packet_name(options.ruleset(i), i, s) for i, s in enumerate(seeds)]
    for name in names:
        check_target(folder / name, force=force)
