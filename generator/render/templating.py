"""The Jinja2 environment: strict (a missing variable is an error) and escaping (a name with
``<`` or ``&`` prints as written)."""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from generator.resources import resource_dir
from generator.text import signed


@cache
def environment() -> Environment:
    """Return the shared template environment (templates/ beside or inside the package)."""
    env = Environment(
        loader=FileSystemLoader(str(resource_dir("templates"))),
        undefined=StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["signed"] = signed
    return env


def render_html(template: str, **context: Any) -> str:
    """Render `template` with `context` into HTML text."""
    return environment().get_template(template).render(**context)
