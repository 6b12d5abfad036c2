"""Issue 25's rows: a first packet, a cached one, a batch, memory, and a warm process.

    python benchmarks/bench_first_packet.py           # the full run (a few minutes)
    python benchmarks/bench_first_packet.py --quick   # fewer repeats, for a first look

Every row is measured in the same run as its reference, on this machine, so a ratio means
the same thing on a fast machine and a slow one (run it with nothing else running):

- reference A: a new Python process that imports WeasyPrint, lays out and writes one
  trivial page (wall and CPU seconds, median);
- reference B: in a warm process, laying out and writing one page holding a 60-cell table
  with WeasyPrint (ms, median);
- the first packet ever (tactical, seed 1805, A4, no disk cache: ``QM_CACHE_DIR=off``), a
  new process: CPU seconds against A's (goal at most 2.0x);
- a packet in a new process with the static sheets already in the disk cache: wall seconds
  against A's (goal at most 1.5x);
- a 16-packet tactical batch with 2 jobs, the static sheets on disk, per page against B
  (goal at most 0.10x);
- the batch's peak memory, 16 packets against 8 (goal at most 1.2x);
- a warm process (as the web app is) making a 43-page tactical packet through the app layer
  (goal at most 1 s) and drawing its first page as a PNG preview (goal at most 0.3 s).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
SEED = 1805

TRIVIAL = """
import sys, weasyprint
weasyprint.HTML(string="<p>Quartermaster</p>").write_pdf(sys.argv[1])
"""

TABLE = """
import io, json, statistics, time, weasyprint
cells = "".join(
    "<tr>" + "".join(f"<td>cell {r}.{c}</td>" for c in range(6)) + "</tr>" for r in range(10)
)
html = f"<table border=1>{cells}</table>"
times = []
for _ in range(REPEATS + 2):
    start = time.perf_counter()
    weasyprint.HTML(string=html).write_pdf(io.BytesIO())
    times.append(time.perf_counter() - start)
print(json.dumps({"ms": statistics.median(times[2:]) * 1000}))
"""

WARM = """
import io, json, os, statistics, sys, tempfile, time
from generator.app.preview import page_count, page_png
from generator.app.printed import make_packet
from generator.app.requests import PacketRequest

make_packet(PacketRequest(ruleset="tactical", seed=SEED))  # the process warms up
packets, previews, pages = [], [], []
for seed in range(SEED + 1, SEED + 1 + REPEATS):
    start = time.perf_counter()
    pdf = make_packet(PacketRequest(ruleset="tactical", seed=seed))[0].pdf
    packets.append(time.perf_counter() - start)
    pages.append(page_count(pdf))
    start = time.perf_counter()
    page_png(pdf, 1)
    previews.append(time.perf_counter() - start)
print(json.dumps({
    "packet_s": statistics.median(packets),
    "preview_s": statistics.median(previews),
    "pages": statistics.median(pages),
}))
"""


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run `args` as a child process; return its wall seconds, CPU seconds (user and
    system, its own children included) and what it printed."""
    cpu_before = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        args, cwd=ROOT, env=os.environ | (env or {}), capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr.strip()[-500:]}")
    return wall, _children_cpu() - cpu_before, done.stdout


def median_run(
    make: list[str], repeats: int, env_for: Callable[[int], dict[str, str]] | None = None
) -> tuple[float, float]:
    """Run `make` `repeats` times (``{i}`` in it the run's number); median wall and CPU."""
    walls, cpus = [], []
    for index in range(repeats):
        env = env_for(index) if env_for else None
        args = [part.replace("{i}", str(index)) for part in make]
        wall, cpu, _out = run(args, env)
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def row(label: str, value: str, reference: str, ratio: float, goal: float) -> None:
    verdict = "met" if ratio <= goal else f"MISSED by {ratio / goal:.2f}x"
    print(f"| {label} | {value} | {reference} | {ratio:.2f}x | at most {goal:.2f}x: {verdict} |")


def batch(folder: Path, count: int) -> dict[str, float]:
    """A `count`-packet tactical batch, 2 jobs, in a child process, into `folder`'s disk
    cache (warmed first by an untimed one-packet batch): seconds, pages, peak MiB."""
    cache = {"QM_CACHE_DIR": str(folder / "cache")}
    run([PYTHON, "-m", "generator", "batch", "tactical", "--count", "1", "--seed", "1",
         "-o", str(folder / f"warm{count}")], cache)  # fmt: skip
    code = (
        "import json, resource, time\n"
        "from pathlib import Path\n"
        "from generator.app.printed import make_batch\n"
        "from generator.app.requests import BatchRequest\n"
        "start = time.perf_counter()\n"
        f"m = make_batch(BatchRequest('tactical', {count}, Path({str(folder / 'b')!r} + "
        f"'{count}'), seed=2026, jobs=2))\n"
        "took = time.perf_counter() - start\n"
        "peak = max(resource.getrusage(who).ru_maxrss\n"
        "           for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))\n"
        "print(json.dumps({'seconds': took, 'pages': sum(p['pages'] for p in m['packets']),"
        " 'peak_mib': peak / 1024}))\n"
    )
    _wall, _cpu, out = run([PYTHON, "-c", code], cache)
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    quick = "--quick" in sys.argv
    repeats = 3 if quick else 5
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {repeats} repeats")
    print(f"load average at the start: {os.getloadavg()[0]:.2f}\n")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        trivial = folder / "trivial.py"
        trivial.write_text(TRIVIAL, encoding="utf-8")
        ref_wall, ref_cpu = median_run([PYTHON, str(trivial), str(folder / "t.pdf")], repeats)
        _w, _c, out = run([PYTHON, "-c", TABLE.replace("REPEATS", str(repeats))])
        table_ms = json.loads(out)["ms"]
        print(f"reference A, a trivial WeasyPrint page in a new process: {ref_wall:.2f} s wall, "
              f"{ref_cpu:.2f} CPU-s")  # fmt: skip
        print(f"reference B, a warm 60-cell WeasyPrint table page: {table_ms:.1f} ms\n")
        print("| what (tactical, seed 1805, A4) | now | reference | ratio | goal |")
        print("| --- | --- | --- | --- | --- |")

        packet = [PYTHON, "-m", "generator", "packet", "tactical", "--seed", str(SEED), "-o"]
        wall, cpu = median_run(
            [*packet, str(folder / "first{i}.pdf")], repeats, lambda i: {"QM_CACHE_DIR": "off"}
        )
        row(
            "first packet ever (`QM_CACHE_DIR=off`)",
            f"{cpu:.2f} CPU-s ({wall:.2f} s wall)",
            f"{ref_cpu:.2f} CPU-s",
            cpu / ref_cpu,
            2.0,
        )

        cached = {"QM_CACHE_DIR": str(folder / "cache")}
        run([*packet, str(folder / "warmup.pdf")], cached)  # puts the static sheets on disk
        wall, cpu = median_run(
            [*packet[:-3], "--seed", f"{SEED + 1}{{i}}", "-o", str(folder / "cached{i}.pdf")],
            repeats,
            lambda i: cached,
        )
        row(
            "a packet in a new process, static sheets cached",
            f"{wall:.2f} s wall ({cpu:.2f} CPU-s)",
            f"{ref_wall:.2f} s wall",
            wall / ref_wall,
            1.5,
        )

        big, small = (8, 4) if quick else (16, 8)
        made = batch(folder, big)
        per_page = made["seconds"] * 1000 / made["pages"]
        row(
            f"a {big}-packet batch, 2 jobs, static sheets on disk, per page",
            f"{per_page:.1f} ms ({int(made['pages'])} pages)",
            f"{table_ms:.1f} ms",
            per_page / table_ms,
            0.10,
        )
        fewer = batch(folder, small)
        row(
            f"peak memory, {big} packets against {small}",
            f"{made['peak_mib']:.0f} MiB against {fewer['peak_mib']:.0f} MiB",
            "",
            made["peak_mib"] / fewer["peak_mib"],
            1.2,
        )

        _w, _c, out = run(
            [PYTHON, "-c", WARM.replace("REPEATS", str(repeats)).replace("SEED", str(SEED))],
            cached,
        )
        warm = json.loads(out.strip().splitlines()[-1])
        row(
            f"a warm process: a {warm['pages']:.0f}-page packet (app layer)",
            f"{warm['packet_s']:.2f} s wall",
            "1 s",
            warm["packet_s"] / 1.0,
            1.0,
        )
        row(
            "a warm process: its first page as a PNG preview",
            f"{warm['preview_s'] * 1000:.0f} ms wall",
            "0.3 s",
            warm["preview_s"] / 0.3,
            1.0,
        )
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
