"""What the web app's browser tests share: Chromium (Debian's, driven by Playwright), a
server in a thread on a free port, and screenshots kept where `QM_SCREENSHOTS` says.

Without Chromium a browser test skips with one line; in CI (`CI` set) it fails instead, so
none is ever skipped there (.ci/run installs Chromium when it is missing).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.app.saved import open_store
from generator.web.server import create_app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
SHOTS = os.environ.get("QM_SCREENSHOTS")  # a folder to keep the screenshots in


def need_chromium() -> str:
    """Return Chromium's path; without it skip (one line), or fail in CI."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing in CI (apt-get install chromium)")
        pytest.skip("no Chromium here (Debian: apt-get install chromium)")
    return CHROMIUM


@contextlib.contextmanager
def launched_browser() -> Iterator[Any]:
    """Chromium, launched once for the tests that ask (the `browser` fixture)."""
    chromium = need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@contextlib.contextmanager
def running_server(folder: Path) -> Iterator[str]:
    """The web app keeping its game nights in `folder`, served on a free loopback port in
    a thread until the block ends; yields its address."""
    import uvicorn

    app = create_app(open_store(folder))
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web app did not start")
        time.sleep(0.02)
    port = running.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(10)


def shot(page: Any, name: str) -> None:
    """Keep a full-page screenshot of `page` as NAME.png, when `QM_SCREENSHOTS` is set."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
