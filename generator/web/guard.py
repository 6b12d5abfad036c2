"""What keeps the web app safe to run at a club: a key when it listens beyond this
machine, a limit on what a request may send, and a check that a change comes from the app's
own pages.

- **Key.** Bound to a loopback address the app needs no key. Bound to any other address,
  every request needs it (but a game's links, which carry their own token:
  `_opened_by_token`): as ``?key=KEY`` (which sets a session cookie, so the link the
  server prints opens the app), as that cookie, or as ``Authorization: Bearer KEY``.
  Without it the answer is 401 and nothing else.
- **Size.** A request body over `MAX_BODY_BYTES` is refused with 413 before it is read
  whole.
- **Cross-site requests.** A change (POST, PUT, PATCH, DELETE) is refused with 403 when the
  browser says it comes from another site (``Origin``/``Sec-Fetch-Site``); a form must
  carry the app's form token (`form_token`), which another site's page cannot read, and an
  API call must send JSON, which another site's page cannot send without asking first.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs, urlencode

from generator.yamlfile import MAX_FILE_BYTES

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the largest request body: a scenario or fleet file at the size the command line reads,
#: with room for the form around it
MAX_BODY_BYTES = MAX_FILE_BYTES + 64 * 1024
COOKIE = "qm_key"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def is_loopback(host: str) -> bool:
    """Return whether `host` (``--host``) is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def form_token(secret: str) -> str:
    """Return the token the app's forms carry (the same for every form of one server)."""
    return hmac.new(secret.encode(), b"quartermaster-form", hashlib.sha256).hexdigest()[:32]


async def _answer(send: Send, status: int, message: str, *, json_body: bool) -> None:
    if json_body:
        body = json.dumps({"error": message}).encode()
        kind = b"application/json"
    else:
        body = f"{status}: {message}\n".encode()
        kind = b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def _cookies(header: str) -> dict[str, str]:
    found = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            found[name] = value
    return found


class Guard:
    """The ASGI middleware that enforces the key, the size limit and the same-site rule."""

    def __init__(self, app: ASGIApp, *, key: str | None) -> None:
        self.app = app
        self.key = key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        is_api = scope["path"].startswith("/api/")
        if self.key is not None and not _opened_by_token(scope["path"]):
            given = self._key_given(scope, headers)
            if given is None or not hmac.compare_digest(given, self.key):
                await _answer(send, 401, "a key is needed: open the link the server printed",
                              json_body=is_api)  # fmt: skip
                return
            if _query_key(scope) is not None:
                await self._set_cookie_and_redirect(scope, send)
                return
        if scope["method"] in UNSAFE:
            refused = _cross_site(headers)
            if refused:
                await _answer(send, 403, refused, json_body=is_api)
                return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            await _answer(send, 413, f"a request may send at most {MAX_BODY_BYTES} bytes",
                          json_body=is_api)  # fmt: skip
            return
        await self.app(scope, _limited(receive), send)

    def _key_given(self, scope: Scope, headers: dict[str, str]) -> str | None:
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        query = _query_key(scope)
        if query is not None:
            return query
        return _cookies(headers.get("cookie", "")).get(COOKIE)

    async def _set_cookie_and_redirect(self, scope: Scope, send: Send) -> None:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        query.pop("key", None)
        rest = urlencode(query, doseq=True)
        target = scope["path"] + (f"?{rest}" if rest else "")
        assert self.key is not None
        cookie = f"{COOKIE}={self.key}; Path=/; HttpOnly; SameSite=Strict"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", target.encode("latin-1")),
                    (b"set-cookie", cookie.encode("latin-1")),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})


def _opened_by_token(path: str) -> bool:
    """Return whether `path` is opened by a game's token rather than the key: a game's
    pages (``/play/TOKEN``), a game's API (``/api/games/N...``, which checks the token
    itself) and the pages' stylesheet and scripts, so that a player's phone reaches its
    side's link and nothing else."""
    if path.startswith(("/play/", "/static/")):
        return True
    return path.startswith("/api/games/") and len(path) > len("/api/games/")


def _query_key(scope: Scope) -> str | None:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get("key")
    return values[0] if values else None


def _cross_site(headers: dict[str, str]) -> str | None:
    """Return why a change is refused as coming from another site, or None."""
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return "a change must come from Quartermaster's own pages"
    origin = headers.get("origin")
    host = headers.get("host")
    if origin not in (None, "null") and host is not None and origin.split("://", 1)[-1] != host:
        return "a change must come from Quartermaster's own pages"
    return None


class TooLarge(Exception):
    """A body that said no length ran past `MAX_BODY_BYTES`."""


def _limited(receive: Receive) -> Receive:
    seen = 0

    async def counted() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY_BYTES:
                raise TooLarge
        return message

    return counted
