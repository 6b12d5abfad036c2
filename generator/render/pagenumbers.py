"""The one page-numbering style of every printed kind: "Page 3 of 8".

A page that also has a name of its own (a map tile "A1", the card backs, a log's second
side) says the name first and the number after it: "A1 · Page 3 of 8". Drawn sheets call
`page_label`; text documents laid out by WeasyPrint put `CSS_PAGE_LABEL` in a page-margin
box, which numbers the pages the same way once layout knows how many there are.
"""

from __future__ import annotations

# "Page N of M" for an @page margin box: WeasyPrint fills in the counters after layout
CSS_PAGE_LABEL = '"Page " counter(page) " of " counter(pages)'

# between a page's own name and its number
SEPARATOR = " · "

# the CSS string a page's element names its page by (``string-set: page-name ...``)
CSS_PAGE_NAME = "page-name"

# "Turns 1–21 · Page 1 of 2" for an @page margin box, the name being the one the page's
# element set in `CSS_PAGE_NAME`: a sheet whose every page has a name of its own
CSS_NAMED_PAGE_LABEL = f'string({CSS_PAGE_NAME}) "{SEPARATOR}" {CSS_PAGE_LABEL}'


def page_label(number: int, total: int, name: str | None = None) -> str:
    """Return the label of page `number` of `total`: "Page 3 of 8", or "A1 · Page 3 of 8".

    Args:
        number: the page's place among the pages of the same sheet, counted from 1.
        total: how many pages the sheet has.
        name: the page's own name, if it has one (a map tile "A1", "Card backs").

    Raises:
        ValueError: when `number` is not between 1 and `total`.
    """
    if not 1 <= number <= total:
        raise ValueError(f"page {number} of {total}: the page number must be from 1 to {total}")
    label = f"Page {number} of {total}"
    if name:
        return f"{name}{SEPARATOR}{label}"
    return label
