"""Check ruleset files: ``python -m generator.loading data/flob.yaml ...``."""

from __future__ import annotations

import sys
from pathlib import Path

from generator.loading import check_files


def main(argv: list[str]) -> int:
    problems = check_files([Path(a) for a in argv])
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s) in {len(argv)} file(s)")
    return 2 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
