"""Benchmark the dice commands against the issue's targets. Run on demand:

    python benchmarks/bench_dice.py

Prints, side by side:
- `quartermaster roll 2d6` as a whole process (median of 21 runs; target at most 0.35 s);
- `quartermaster odds 8d6>=5` and `lookup` as processes, for reference;
- in-process rolling of 4d6kh3+2, ours against the d20 library (pip install d20 to
  compare; target: ours at least as fast).
"""

from __future__ import annotations

import random
import shutil
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _cli() -> list[str]:
    script = shutil.which("quartermaster")
    return [script] if script else [sys.executable, "-m", "generator"]


def process_median(args: list[str], runs: int = 21) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([*_cli(), *args], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def per_call_us(fn: object, number: int = 20_000, repeat: int = 5) -> float:
    best = min(timeit.repeat(fn, number=number, repeat=repeat))  # type: ignore[arg-type]
    return best / number * 1e6


def row(label: str, value: float, unit: str, note: str = "") -> None:
    print(f"{label:<50} {value:8.3f} {unit:<3} {note}")


def main() -> None:
    from generator.dice import parse, roll

    print(f"CLI: {' '.join(_cli())}")
    roll_s = process_median(["roll", "2d6", "--seed", "1"])
    verdict = "ok" if roll_s <= 0.35 else "OVER TARGET"
    row(
        "quartermaster roll 2d6 (process, median of 21)",
        roll_s,
        "s",
        f"target <= 0.35 s: {verdict}",
    )
    row(
        "quartermaster odds 8d6>=5 (process, median of 11)",
        process_median(["odds", "8d6>=5"], 11),
        "s",
    )
    lookup_args = ["lookup", "flob.broadside", "attack=5", "roll=7"]
    row("quartermaster lookup (process, median of 11)", process_median(lookup_args, 11), "s")

    rng = random.Random(1)
    node = parse("4d6kh3+2")
    ours_text = per_call_us(lambda: roll("4d6kh3+2", rng))
    row("ours: roll 4d6kh3+2, parsed once", per_call_us(lambda: roll(node, rng)), "us")
    row("ours: roll '4d6kh3+2' from text (parse cache)", ours_text, "us")
    try:
        import d20  # type: ignore[import-untyped]
    except ImportError:
        print("d20 library not installed (pip install d20): the design notes measured 26 us")
        return
    theirs = per_call_us(lambda: d20.roll("4d6kh3+2"))
    verdict = "ok" if ours_text <= theirs else "SLOWER THAN d20"
    row("d20:  roll '4d6kh3+2' (its parse cache)", theirs, "us", f"ours <= d20: {verdict}")


if __name__ == "__main__":
    main()
