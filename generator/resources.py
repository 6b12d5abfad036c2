"""Find the project's bundled folders (data/, specs/, templates/, sheets/).

In a checkout (or an editable install) they sit at the top of the repository, beside the
package. In a built wheel hatchling copies them into ``generator/_bundled/``. Every
module asks here, so both layouts behave the same.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from generator.errors import QuartermasterError

_PACKAGE = Path(__file__).resolve().parent


@cache
def resource_dir(name: str) -> Path:
    """Return the folder `name` (``data``, ``specs``, ``templates`` or ``sheets``)."""
    for candidate in (_PACKAGE / "_bundled" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise QuartermasterError(f"cannot find the bundled folder '{name}' near {_PACKAGE}")


def data_dir() -> Path:
    """Return the folder holding the rules YAML files."""
    return resource_dir("data")
