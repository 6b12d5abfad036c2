"""What a change just did, said on the night page after its redirect.

The words travel in the link itself (``said=`` lines), signed with the app's secret so that
a link from elsewhere cannot put words in the page; no session state is kept.
"""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlencode

from starlette.requests import Request

from generator.web.state import state_of

#: the most lines of words a redirect carries to the night page
MOST_SAID = 4


def _sign(request: Request, lines: list[str]) -> str:
    secret = state_of(request).secret.encode()
    text = "\n".join(lines).encode()
    return hmac.new(secret, b"said:" + text, hashlib.sha256).hexdigest()[:32]


def said_link(request: Request, number: int, lines: list[str], anchor: str = "forces") -> str:
    """Return the night page's link that says `lines` (signed), scrolled to `anchor`."""
    lines = lines[:MOST_SAID]
    query = urlencode([*(("said", line) for line in lines), ("sig", _sign(request, lines))])
    return f"/nights/{number}?{query}#{anchor}"


def said_on_page(request: Request) -> list[str]:
    """Return the lines the night page's link says, if the app signed them (else none)."""
    lines = request.query_params.getlist("said")[:MOST_SAID]
    sig = request.query_params.get("sig", "")
    if not lines or not hmac.compare_digest(sig, _sign(request, lines)):
        return []
    return lines
