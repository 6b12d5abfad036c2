"""Benchmark packets and batches against the issue's targets. Run on demand:

    python benchmarks/bench_packets.py            # the full run (several minutes)
    python benchmarks/bench_packets.py --quick    # smaller counts, for a first look

Prints, side by side:
- naive: the pages of one tactical packet made one document per sheet (each sheet laid out
  or drawn on its own) and merged with pypdf: the reference;
- a 40-packet tactical batch with 2 jobs, amortised per page (target at most 25 ms), with a
  warm disk cache (the static sheets already in it, as on a GM's machine after the first
  packet) and with an empty one (it pays for its static sheets once per worker), and the
  same with --no-cache (everything rendered for every packet);
- one tactical packet from a cold process (target at most 3 s), with an empty disk cache
  and with the static sheets, the validated rules and the compiled templates already in it
  (generator/render/cache.py);
- peak memory of a 10- and a 40-packet batch (target: within 20 % of each other).
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def naive_ms_per_page(seed: int) -> float:
    """Make every sheet of one packet as its own PDF (static sheets too: nothing cached),
    merge them: ms per page."""
    from pypdf import PdfWriter

    from generator.generate.scenario import roll_scenario
    from generator.loading import load_rules
    from generator.pdf.packet import packet_plan
    from generator.render.sheets import get_kind, render_sheet, static_sheet_pdf

    rules = load_rules()
    scenario = roll_scenario(rules, "tactical", seed)
    plan = packet_plan("tactical")
    jobs: list[tuple[str, dict[str, object] | None]] = [(k, scenario) for k in plan["cover"]]
    for index in range(len(scenario["sides"])):
        side_only = {**scenario, "sides": [scenario["sides"][index]]}
        jobs += [(k, side_only) for k in plan["per_side"]]
    jobs += [(k, scenario if get_kind(k).data == "scenario" else None) for k in plan["shared"]]
    jobs += [(k, None) for k in plan["spares"]]
    render_sheet("briefing", rules, data=scenario)  # warm up fonts and imports
    start = time.perf_counter()
    writer = PdfWriter()
    for kind, data in jobs:
        if data is None:
            pdf = static_sheet_pdf(kind, rules, ruleset="tactical", cache=False)
        else:
            pdf = render_sheet(kind, rules, data=data, ruleset="tactical")
        writer.append(io.BytesIO(pdf))
    out = io.BytesIO()
    writer.write(out)
    elapsed = time.perf_counter() - start
    return elapsed * 1000 / len(writer.pages)


def batch_run(count: int, cache: bool, jobs: int = 2, warm: bool = False) -> dict[str, float]:
    """Run a batch in a child process; return seconds, pages and the peak memory (MiB).

    Args:
        warm: first make (untimed) a one-packet batch into the same disk cache.
    """
    with tempfile.TemporaryDirectory() as folder:
        if warm:
            command = ["batch", "tactical", "--count", "1", "--seed", "1"]
            subprocess.run(
                [sys.executable, "-m", "generator", *command, "-o", str(Path(folder) / "warm")],
                capture_output=True,
                check=True,
                cwd=ROOT,
                env=os.environ | {"QM_CACHE_DIR": str(Path(folder) / "cache")},
            )
        code = (
            "import json, resource, sys, time\n"
            f"sys.path.insert(0, {str(ROOT)!r})\n"
            "from pathlib import Path\n"
            "from generator.pdf.batch import BatchOptions, run_batch\n"
            "start = time.perf_counter()\n"
            f"options = BatchOptions(('tactical',), 2026, {count}, cache={cache})\n"
            f"m = run_batch(Path({folder!r}), options, jobs={jobs})\n"
            "took = time.perf_counter() - start\n"
            "self_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "kids_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
            "print(json.dumps({'seconds': took, 'pages': sum(p['pages'] for p in m['packets']),"
            " 'peak_mib': max(self_kib, kids_kib) / 1024}))\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ | {"QM_CACHE_DIR": str(Path(folder) / "cache")},
        )
        result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
        return result


def cold_packet_seconds(warm: bool, runs: int = 3) -> float:
    """Median seconds of `quartermaster packet tactical` as a new process; `warm`: with the
    static sheets already in the disk cache (a first, untimed run puts them there)."""
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(runs + (1 if warm else 0)):
            cache = Path(folder) / ("cache" if warm else f"cache{seed}")
            start = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "generator",
                    "packet",
                    "tactical",
                    "--seed",
                    str(seed + 1),
                    "-o",
                    str(Path(folder) / f"p{seed}.pdf"),
                ],
                check=True,
                capture_output=True,
                cwd=ROOT,
                env=os.environ | {"QM_CACHE_DIR": str(cache)},
            )
            if not (warm and seed == 0):
                times.append(time.perf_counter() - start)
    return statistics.median(times)


def row(label: str, value: float, note: str = "") -> None:
    print(f"{label:<68} {value:9.2f}   {note}")


def main() -> None:
    quick = "--quick" in sys.argv
    big, small = (10, 4) if quick else (40, 10)
    print(f"python {sys.version.split()[0]}; batch sizes {small} and {big}")
    row("naive: one document per sheet, merged (ms/page)", naive_ms_per_page(1805))
    warm = batch_run(big, cache=True, warm=True)
    warm_page = warm["seconds"] * 1000 / warm["pages"]
    verdict = "ok" if warm_page <= 25 else "OVER TARGET"
    row(
        f"batch of {big}, 2 jobs, warm disk cache (ms/page over {int(warm['pages'])} pages)",
        warm_page,
        f"target <= 25: {verdict}",
    )
    cached = batch_run(big, cache=True)
    per_page = cached["seconds"] * 1000 / cached["pages"]
    pages = int(cached["pages"])
    verdict = "ok" if per_page <= 25 else "OVER TARGET"
    row(
        f"batch of {big}, 2 jobs, empty disk cache (ms/page over {pages} pages)",
        per_page,
        f"target <= 25: {verdict}",
    )
    fresh = batch_run(big, cache=False)
    fresh_page = fresh["seconds"] * 1000 / fresh["pages"]
    ratio = fresh_page / per_page
    row(
        f"batch of {big}, 2 jobs, --no-cache (ms/page)",
        fresh_page,
        f"the cached batch is {ratio:.2f}x faster",
    )
    for on_disk, label in ((False, "empty disk cache"), (True, "static sheets on disk")):
        cold = cold_packet_seconds(on_disk)
        verdict = "ok" if cold <= 3 else "OVER TARGET"
        row(
            f"one tactical packet, cold process, {label} (s, median of 3)",
            cold,
            f"target <= 3: {verdict}",
        )
    few = batch_run(small, cache=True)
    growth = cached["peak_mib"] / few["peak_mib"] - 1
    verdict = "ok" if abs(growth) <= 0.20 else "GROWS"
    row(f"peak memory, batch of {small} (MiB)", few["peak_mib"])
    row(
        f"peak memory, batch of {big} (MiB)",
        cached["peak_mib"],
        f"growth {growth * 100:+.1f} %, target within 20 %: {verdict}",
    )


if __name__ == "__main__":
    main()
