"""Shared fixtures: the loaded rules, the seed texts, a CLI runner, and renders made once.

The suite runs on several processes (pytest-xdist), which share one cache folder for the
session: the static sheets' disk cache (generator/render/cache.py) and, for the tests
only, every sheet rendered from its HTML and every packet the tests print (`shared`). A
page is laid out once per session however many tests read it; the same HTML gives the same
PDF bytes (tests/test_packet.py checks it across processes), so a render read back is the
render the test would have made.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.loading import Rules, load_rules

# the first process (the xdist controller, or a plain run) makes the folder; the workers
# it starts inherit the variable; the tests never touch the user's own cache
if "QM_TEST_CACHE" not in os.environ:
    os.environ["QM_TEST_CACHE"] = tempfile.mkdtemp(prefix="qm-test-cache-")
    _MADE_CACHE = True
else:
    _MADE_CACHE = False
CACHE = Path(os.environ["QM_TEST_CACHE"])
os.environ["QM_CACHE_DIR"] = str(CACHE)

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
WAIT_S = 600  # for another process making the same thing


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the xdist controller, or a plain run
        _compile_ahead(config)


def _compile_ahead(config: pytest.Config) -> None:
    """Compile the project's modules, and rewrite the test modules' asserts, once for the
    session, before its processes start.

    Each test process (two workers, and some fifty command lines the tests start) would
    otherwise compile every module it imports from source where none is compiled yet (a
    fresh clone) or where Python writes no bytecode (PYTHONDONTWRITEBYTECODE), and each
    worker would rewrite the asserts of all the test modules: 4 s of each worker's start.
    Here it is done once, into __pycache__ as Python and pytest keep it (git ignores it).
    """
    import compileall

    compileall.compile_dir(REPO / "generator", quiet=1)
    compileall.compile_dir(REPO / "tests", quiet=1, maxlevels=0)
    if not config.getoption("numprocesses", None):
        return  # one process: it rewrites each test module it runs once anyway
    try:
        # pytest's own cache of rewritten test modules, which its import hook reads even
        # where it writes none (these helpers are pytest's, not a public API: a pytest
        # that has moved them leaves the rewriting to each process, as before)
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        for source in _test_modules(config.args):
            pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(source, pyc) is None:
                source_hash, code = rewrite._rewrite_test(source, config)
                rewrite._write_pyc(state, code, source_hash, pyc)
    except (ImportError, AttributeError, KeyError, TypeError):
        pass


def _test_modules(args: list[str]) -> list[Path]:
    """The test modules a run of these arguments (paths, node ids) collects."""
    found: set[Path] = set()
    for arg in args:
        path = Path(arg.split("::")[0]).resolve()
        if path.is_dir():
            found.update(path.rglob("test_*.py"))
        elif path.name.startswith("test_") and path.suffix == ".py":
            found.add(path)
    return sorted(found)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _MADE_CACHE and not hasattr(session.config, "workerinput"):
        shutil.rmtree(CACHE, ignore_errors=True)


def shared(key: str, make: Callable[[], bytes]) -> bytes:
    """Return the bytes `make` gives, made once per session for every test process.

    The first process to ask makes them (others asking meanwhile wait for it) and keeps
    them in the session's cache folder under `key`.
    """
    path = CACHE / f"{key}.bin"
    failed = CACHE / f"{key}.failed"
    if path.exists():
        return path.read_bytes()
    try:
        lock = os.open(CACHE / f"{key}.lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        deadline = time.monotonic() + WAIT_S
        while not path.exists():
            if failed.exists():
                return make()  # fails here too, with its own message
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {WAIT_S} s for {key}") from None
            time.sleep(0.05)
        return path.read_bytes()
    return _make_holding(lock, key, make)


def offer(key: str, make: Callable[[], bytes]) -> None:
    """Keep what `make` gives under `key` for the session (as `shared` keeps it), unless a
    process has made it or is making it: never waits."""
    try:
        lock = os.open(CACHE / f"{key}.lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    _make_holding(lock, key, make)


def _make_holding(lock: int, key: str, make: Callable[[], bytes]) -> bytes:
    """Make the bytes under `key` holding its `lock`, and keep them (written whole, or a
    ``.failed`` mark that a process waiting for them reads)."""
    try:
        data = make()
    except BaseException:
        (CACHE / f"{key}.failed").touch()
        raise
    finally:
        os.close(lock)
    path = CACHE / f"{key}.bin"
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    part.write_bytes(data)
    os.replace(part, path)
    return data


LAYOUTS_KEPT = 8  # laid-out documents a test process keeps (a quick reference is large)


@pytest.fixture(scope="session", autouse=True)
def _renders_made_once() -> Iterator[None]:
    """Render each sheet's HTML once per session (`shared`), whichever test asks, and lay
    out the same HTML once per process (a test that walks the layout and the static sheet
    it renders share one)."""
    from generator.render import pdf

    real_pdf, real_layout = pdf.html_to_pdf, pdf.layout
    laid: OrderedDict[str, Any] = OrderedDict()

    def once(html: str, *, fillable: bool = False, boxes: Any = None) -> bytes:
        key = hashlib.sha256(repr((html, fillable, boxes)).encode()).hexdigest()
        return shared(f"html-{key}", lambda: real_pdf(html, fillable=fillable, boxes=boxes))

    def layout_once(html: str, *, fillable: bool = False, boxes: Any = None) -> Any:
        # a layout does not depend on the page boxes its pages declare when written: a
        # sheet laid out without them (a quick reference's size search) is the same sheet
        key = hashlib.sha256(repr((html, fillable, boxes if fillable else None)).encode())
        found = key.hexdigest()
        if found not in laid:
            laid[found] = real_layout(html, fillable=fillable, boxes=boxes)
            # what the tests read from this layout, for a test in any process to read
            # without laying the same sheet out again (tests/layouts.py)
            from tests.layouts import offer_facts

            offer_facts(html, fillable, laid[found])
            while len(laid) > LAYOUTS_KEPT:
                laid.popitem(last=False)
        elif boxes and not fillable:
            # the same document, its pages declaring these boxes when written
            pdf.keep_layout(html, laid[found])
            real_layout(html, fillable=False, boxes=boxes)
        laid.move_to_end(found)
        return laid[found]

    layout_once.__wrapped__ = real_layout  # type: ignore[attr-defined]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pdf, "html_to_pdf", once)
        patch.setattr(pdf, "layout", layout_once)
        yield


def _seeds_dir() -> Path | None:
    candidates = [REPO.parent / "shared" / "seeds"]
    if os.environ.get("QM_SEEDS"):
        candidates.insert(0, Path(os.environ["QM_SEEDS"]))
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="session")
def seeds() -> Path:
    """The folder of rule sources; CI always has it beside the clone."""
    found = _seeds_dir()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("the seeds folder ../shared/seeds is missing in CI")
        pytest.skip("../shared/seeds not beside this checkout (set QM_SEEDS to point at it)")
    return found


def seed_text(seeds: Path, prefix: str) -> str:
    (path,) = seeds.glob(f"{prefix}_*.txt")
    return path.read_text(encoding="utf-8")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI in this process as a user would; return (exit code, stdout, stderr)."""
    from generator.cli import main

    with pytest.raises(SystemExit) as caught:
        main(list(args))
    out, err = capsys.readouterr()
    code = caught.value.code
    return (code if isinstance(code, int) else 0), out, err


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Chromium for the web app's browser tests, launched once per test process
    (tests/web.py: skipped without it, failed in CI)."""
    from tests.web import launched_browser

    with launched_browser() as launched:
        yield launched


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The web app served on a free port, its game nights in `tmp_path` (tests/web.py)."""
    from tests.web import running_server

    with running_server(tmp_path / "data") as url:
        yield url
