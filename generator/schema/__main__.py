"""Print the file formats of every ruleset as markdown (docs/file-formats.md).

python -m generator.schema > docs/file-formats.md
"""

from __future__ import annotations

import sys

from generator.loading import load_rules
from generator.schema import describe_all


def main() -> None:
    sys.stdout.write(describe_all(load_rules()))


if __name__ == "__main__":
    main()
