"""The Jinja2 environment: strict (a missing variable is an error) and escaping (a name with
``<`` or ``&`` prints as written)."""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import (
    BytecodeCache,
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
)

from generator.render.pagenumbers import CSS_NAMED_PAGE_LABEL, CSS_PAGE_LABEL, CSS_PAGE_NAME
from generator.resources import resource_dir
from generator.text import signed


@cache
def environment() -> Environment:
    """Return the shared template environment (templates/ beside or inside the package).

    Compiled templates are kept in the disk cache (Jinja checks each against its source), so
    a new process does not compile them again.
    """
    env = Environment(
        loader=FileSystemLoader(str(resource_dir("templates"))),
        bytecode_cache=_bytecode_cache(),
        undefined=StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["signed"] = signed
    # the one page-numbering style, for every template's running footer (partials.html.j2)
    env.globals["page_label_css"] = CSS_PAGE_LABEL
    env.globals["named_page_label_css"] = CSS_NAMED_PAGE_LABEL
    env.globals["page_name_css"] = CSS_PAGE_NAME
    return env


def _bytecode_cache() -> BytecodeCache | None:
    from generator.render.cache import cache_folder

    folder = cache_folder()
    if folder is None:
        return None
    try:
        (folder / "jinja").mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # a cache folder that cannot be written is skipped
    return FileSystemBytecodeCache(str(folder / "jinja"))


def render_html(template: str, **context: Any) -> str:
    """Render `template` with `context` into HTML text."""
    return environment().get_template(template).render(**context)
