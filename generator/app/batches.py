"""Convention batches for the web app: `make_batch` run in the background, one at a time,
in a folder of the data folder, with its progress, its index and a zip of its packets.

A batch is the folder ``DATA/batches/N/``: what `quartermaster batch -o` writes there
(packets, manifest, index), ``job.json`` (what was asked, how far it is, how it ended) and,
once done, ``packets.zip``. It is made in a process of its own (`start_batch`): laying out
pages holds a worker for minutes, and WeasyPrint does not lay out two documents at once in
one process, so the server's own previews go on meanwhile. Only that process writes
``job.json`` while it runs (atomically, after every packet); a batch said to be running whose
process is gone (the server was stopped or restarted) is said stopped (`read_batch`), never
running forever.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import tempfile
import threading
import time
import zipfile
from dataclasses import asdict, dataclass, field
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from generator.app.checks import read_order, words
from generator.app.generated import seed_or_fresh
from generator.app.inputs import check_ruleset, load_rules
from generator.app.requests import QUIET, BatchRequest, Listener, OrderOptions, PrintOptions
from generator.errors import InputError, OutputError, QuartermasterError, one_line
from generator.generate import scenario as scenarios
from generator.output import ensure_dir, write_atomic
from generator.pdf.packet import LEAVE_OUT

BATCHES = "batches"
JOB = "job.json"
ZIP = "packets.zip"
INDEX = "index.pdf"
#: worker processes a batch lays its packets out with: one, so that the other core (of the
#: two a club's laptop has) keeps answering the app's pages
JOBS = 1
STATES = ("running", "done", "failed")
#: the sections a batch's packets may leave out (``--without``)
SECTIONS = LEAVE_OUT

# the batch processes this server started, by batch folder: a batch said to be running is
# running only while its process lives
_started: dict[Path, BaseProcess] = {}
_starting = threading.Lock()


@dataclass(frozen=True)
class BatchOrder:
    """A batch as the Conventions page asks for it: `quartermaster batch`'s options but the
    folder (the app chooses it) and the workers (`JOBS`).

    Attributes:
        rulesets: the ruleset, or several comma-separated (taken in turn).
        count: how many packets.
        seed: the batch seed; None draws one (shown with the batch).
    """

    rulesets: str
    count: int
    seed: int | None = None
    order: OrderOptions = OrderOptions()  # noqa: RUF009 (frozen: one shared default)
    without: str | None = None
    spares: int | None = None
    printing: PrintOptions = PrintOptions()  # noqa: RUF009 (frozen: one shared default)

    def request(self, folder: Path) -> BatchRequest:
        """Return the request `quartermaster batch ... -o FOLDER` makes of these options."""
        return BatchRequest(
            rulesets=self.rulesets,
            count=self.count,
            output=folder,
            seed=self.seed,
            order=self.order,
            without=self.without,
            spares=self.spares,
            jobs=JOBS,
            printing=self.printing,
        )


@dataclass(frozen=True)
class Batch:
    """A batch as its ``job.json`` says, its state checked (`read_batch`).

    Attributes:
        state: ``running``, ``done`` or ``failed``.
        done: packets made so far, of `total`.
        error: why it failed, in one line.
        asked: the options, as the page shows them.
        pages: the pages of all its packets, once done.
    """

    id: int
    state: str
    done: int
    total: int
    asked: dict[str, Any]
    started: float
    error: str | None = None
    finished: float | None = None
    pages: int | None = None
    pid: int | None = None
    folder: Path = field(default=Path(), compare=False)

    def status(self) -> dict[str, Any]:
        """Return what ``GET /api/batches/{id}`` answers: state, done, total (and error)."""
        found: dict[str, Any] = {
            "id": self.id,
            "state": self.state,
            "done": self.done,
            "total": self.total,
        }
        if self.error is not None:
            found["error"] = self.error
        if self.pages is not None:
            found["pages"] = self.pages
        found["asked"] = self.asked
        return found

    @property
    def index(self) -> Path:
        return self.folder / INDEX

    @property
    def zip(self) -> Path:
        return self.folder / ZIP

    def download_name(self, suffix: str) -> str:
        """Return the name the batch's index or zip is offered under."""
        rulesets = "-".join(self.asked.get("rulesets", []))
        return f"batch-{self.id}-{rulesets}-{self.asked.get('seed')}.{suffix}"


class NotNow(InputError):
    """Asked of a batch at the wrong time: a second batch while one is being made, the
    downloads of one not done (HTTP 409)."""

    http_status = 409


class NoSuchBatch(InputError):
    """A batch number the data folder has no batch of (HTTP 404)."""

    http_status = 404


def batches_folder(data: Path) -> Path:
    """Return the folder the batches of the data folder `data` are kept in."""
    return data / BATCHES


def check_batch(order: BatchOrder) -> None:
    """Refuse, in the command line's words, what `make_batch` would refuse of `order`
    before any packet is made: so a bad option is answered at once, and no batch is kept."""
    from generator.pdf import batch, packet

    packet.check_packet_options(order.printing.paper.lower(), words(order.without), order.spares)
    rules = load_rules(None)
    chosen = words(order.rulesets)
    if not chosen:
        raise InputError("rulesets: choose at least one ruleset")
    for ruleset in chosen:
        check_ruleset(rules, ruleset)
    asked = read_order(order.order)
    for ruleset in chosen:
        scenarios.check_order(rules, ruleset, asked)
    if not 1 <= order.count <= batch.MAX_COUNT:
        raise InputError(f"--count {order.count}: between 1 and {batch.MAX_COUNT}")


def _asked(order: BatchOrder, seed: int) -> dict[str, Any]:
    return {
        "rulesets": words(order.rulesets),
        "count": order.count,
        "seed": seed,
        "ships": order.order.ships,
        "navies": order.order.navies,
        "year": order.order.year,
        "balanced": order.order.balanced,
        "without": words(order.without),
        "spares": order.spares,
        "paper": order.printing.paper.lower(),
        "mono": order.printing.mono,
        "fillable": order.printing.fillable,
    }


def start_batch(data: Path, order: BatchOrder, listener: Listener = QUIET) -> Batch:
    """Check `order`, keep it as a new batch under `data` and start making it in a process
    of its own; return it (running).

    Raises:
        InputError: an option the command line refuses (nothing is kept).
        NotNow: a batch is being made already.
    """
    check_batch(order)
    seed = seed_or_fresh(order.seed, listener)
    order = BatchOrder(**{**_fields(order), "seed": seed})
    with _starting:
        running = [b for b in list_batches(data) if b.state == "running"]
        if running:
            raise NotNow(
                f"batch {running[0].id} is being made ({running[0].done} of "
                f"{running[0].total} packets): one batch at a time, start this one when it is done"
            )
        folder = _new_folder(batches_folder(data))
        number = int(folder.name)
        job = Batch(number, "running", 0, order.count, _asked(order, seed), time.time())
        _write_job(folder, job)
        context = multiprocessing.get_context("spawn")  # never fork a threaded server
        process = context.Process(
            target=run_batch_job, args=(str(folder), order), name=f"batch {number}", daemon=True
        )
        process.start()
        _started[folder.resolve()] = process
    return read_batch(data, number)


def _fields(order: BatchOrder) -> dict[str, Any]:
    return {name: getattr(order, name) for name in order.__dataclass_fields__}


def _new_folder(parent: Path) -> Path:
    ensure_dir(parent)
    number = max((int(p.name) for p in parent.iterdir() if p.name.isdigit()), default=0) + 1
    while True:
        folder = parent / str(number)
        try:
            folder.mkdir()
        except FileExistsError:
            number += 1
            continue
        except OSError as exc:
            raise OutputError(f"{folder}: cannot make the folder: {exc.strerror}") from None
        return folder


def _write_job(folder: Path, job: Batch) -> None:
    data = asdict(job)
    data.pop("folder")
    write_atomic(folder / JOB, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode())


def _read_job(folder: Path) -> Batch | None:
    try:
        data = json.loads((folder / JOB).read_text(encoding="utf-8"))
        job = Batch(**data, folder=folder)
    except (OSError, ValueError, TypeError):
        return None  # not a batch of ours (or one being made this instant)
    return job if job.state in STATES else None


def _alive(pid: int | None) -> bool:
    """Return whether a batch's process `pid` still runs: alive, and (where the system
    says) a multiprocessing child still, not another program given its number since."""
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False  # another user's process: not a batch of ours
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc here: alive is all that can be told
    return b"multiprocessing" in command


def _checked(job: Batch) -> Batch:
    """Return `job` with a batch said to be running, whose process is gone, said stopped
    (and kept so)."""
    if job.state != "running":
        return job
    ours = _started.get(job.folder.resolve())
    if ours is not None:
        # started here: a process that has not said its pid yet is still starting
        if ours.is_alive():
            return job
        again = _read_job(job.folder)  # it may have finished since `job` was read
        if again is not None and again.state != "running":
            return again
    elif _alive(job.pid):
        return job  # started by an earlier server, and its process still works
    stopped = Batch(
        **{
            **asdict(job),
            "state": "failed",
            "error": f"stopped before it was done (the server was stopped): "
            f"{job.done} of {job.total} packets were made",
            "finished": time.time(),
        }
    )
    _write_job(job.folder, stopped)
    return stopped


def read_batch(data: Path, number: int) -> Batch:
    """Return batch `number` of the data folder `data`, its state checked.

    Raises:
        NoSuchBatch: there is none of that number.
    """
    folder = batches_folder(data) / str(number)
    job = _read_job(folder)
    if job is None:
        raise NoSuchBatch(f"batch {number}: there is no such batch")
    return _checked(job)


def list_batches(data: Path) -> list[Batch]:
    """Return every batch of the data folder `data`, the latest first, states checked."""
    parent = batches_folder(data)
    if not parent.is_dir():
        return []
    numbers = sorted((int(p.name) for p in parent.iterdir() if p.name.isdigit()), reverse=True)
    found = (_read_job(parent / str(number)) for number in numbers)
    return [_checked(job) for job in found if job is not None]


# --- in the batch's own process ---------------------------------------------------------


class _Progress(Listener):
    """Keeps the batch's ``job.json`` up to date as its packets are made."""

    def __init__(self, folder: Path, job: Batch) -> None:
        self.folder = folder
        self.job = job

    def update(self, **changes: Any) -> None:
        self.job = Batch(**{**asdict(self.job), **changes})
        _write_job(self.folder, self.job)

    def progress(self, done: int, total: int) -> None:
        self.update(done=done, total=total)


def run_batch_job(folder: str, order: BatchOrder) -> None:
    """Make the batch kept in `folder` (`start_batch` calls it in a process of its own):
    the packets, manifest and index as `quartermaster batch` makes them, then the zip;
    ``job.json`` says how far it is and how it ended."""
    from generator.app.printed import make_batch
    from generator.pdf.batch import BatchInterrupted

    place = Path(folder)
    job = _read_job(place)
    assert job is not None  # written by start_batch before this process started
    told = _Progress(place, job)
    told.update(pid=os.getpid())
    try:
        manifest = make_batch(order.request(place), told)
        names = [str(p["file"]) for p in manifest["packets"]]
        write_zip(place, [*names, "manifest.json", "manifest.csv", INDEX])
    except (BatchInterrupted, KeyboardInterrupt):  # Ctrl-C to the server reaches it too
        told.update(
            state="failed",
            error=f"stopped before it was done (the server was stopped): {told.job.done} of "
            f"{told.job.total} packets were made",
            finished=time.time(),
        )
        return
    except QuartermasterError as exc:
        told.update(state="failed", error=one_line(str(exc).splitlines()[0]), finished=time.time())
        return
    except BaseException as exc:
        told.update(
            state="failed",
            error=f"something went wrong: {type(exc).__name__}: {one_line(str(exc))}",
            finished=time.time(),
        )
        raise
    pages = sum(int(p["pages"]) for p in manifest["packets"])
    told.update(state="done", done=len(names), pages=pages, finished=time.time())


def write_zip(folder: Path, names: list[str]) -> Path:
    """Write ``packets.zip`` in `folder`, holding the files `names` of it, through a
    temporary file and a rename (the PDFs are stored: they are compressed already)."""
    target = folder / ZIP
    handle, temp = tempfile.mkstemp(prefix=f".{ZIP}.", suffix=".part", dir=folder)
    os.close(handle)
    try:
        with zipfile.ZipFile(temp, "w", compression=zipfile.ZIP_STORED) as archive:
            for name in names:
                archive.write(folder / name, arcname=name)
        os.replace(temp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise OutputError(f"{target}: writing failed: {exc.strerror or exc}") from None
        raise
    return target
