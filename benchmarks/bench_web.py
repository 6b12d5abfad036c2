"""The web app's timings as a GM meets them, over real HTTP to a server in this process.

    python benchmarks/bench_web.py

A server (`generator.web.server.create_app` under uvicorn, on a free loopback port, a
fresh data folder, the user's disk cache of static sheets as it is) is asked, in turn:

- to make a game night (tactical, seed 1805);
- for its packet the first time (the server's first layout: fonts and templates load);
- for the packet with other options (black and white): a packet in a warm server;
- for page 1 as a 800 px PNG preview, the packet made (what a page of thumbnails asks);
- for twenty previews at once (the thumbnails of one page), wall time until all are in;

each beside the reference measured in the same run: one trivial WeasyPrint page laid out and
written in this (warm) process. Issue 25's goals for a warm process: a 43-page packet in at
most 1 s and its first page's preview in at most 0.3 s.
"""

from __future__ import annotations

import concurrent.futures
import io
import json
import socket
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _get(url: str, data: bytes | None = None) -> bytes:
    headers = {"content-type": "application/json"} if data is not None else {}
    request = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=300) as answer:
        body: bytes = answer.read()
    return body


def _timed(work: object) -> float:
    assert callable(work)
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    import uvicorn
    import weasyprint

    from generator.app.preview import page_count
    from generator.app.saved import open_store
    from generator.web.server import create_app

    def trivial() -> None:
        weasyprint.HTML(string="<p>Quartermaster</p>").write_pdf(io.BytesIO())

    trivial()
    reference = statistics.median(_timed(trivial) for _ in range(5))

    port = _free_port()
    app = create_app(open_store(Path(tempfile.mkdtemp(prefix="qm-bench-web-"))))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"

    rows: list[tuple[str, float]] = []
    made: dict[str, object] = {}

    def make() -> None:
        order = json.dumps({"ruleset": "tactical", "seed": 1805}).encode()
        made.update(json.loads(_get(base + "/api/scenarios", order)))

    rows.append(("make a game night (tactical, seed 1805)", _timed(make)))
    number = made["id"]
    pages: dict[str, int] = {}

    def packet(query: str) -> None:
        pdf = _get(f"{base}/api/scenarios/{number}/packet.pdf?{query}")
        pages[query] = page_count(pdf)

    rows.append(("first packet in the server (A4)", _timed(lambda: packet("paper=a4"))))
    rows.append(("a packet in a warm server (A4, mono)", _timed(lambda: packet("paper=a4&mono=1"))))
    rows.append(
        (
            "page 1 as an 800 px PNG (packet made)",
            _timed(lambda: _get(f"{base}/api/scenarios/{number}/pages/1.png?width=800")),
        )
    )

    def twenty() -> None:
        urls = [
            f"{base}/api/scenarios/{number}/pages/{n % 20 + 1}.png?width=300&mono=1"
            for n in range(20)
        ]
        with concurrent.futures.ThreadPoolExecutor(20) as pool:
            list(pool.map(_get, urls))

    rows.append(("twenty 300 px previews at once", _timed(twenty)))
    server.should_exit = True

    print(f"packet pages: {pages}")
    print(f"reference: one trivial WeasyPrint page in this process: {reference * 1000:.0f} ms")
    print(f"{'what':48} {'seconds':>8} {'x ref':>8}")
    for what, seconds in rows:
        print(f"{what:48} {seconds:8.3f} {seconds / reference:8.1f}")


if __name__ == "__main__":
    main()
