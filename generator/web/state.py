"""What one running web app holds: its store of game nights, its renderer and its secrets."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import anyio.to_thread
from starlette.requests import Request

from generator.app.store import Store
from generator.web.guard import form_token
from generator.web.work import Renderer

T = TypeVar("T")


@dataclass
class AppState:
    """The store, the renderer, the key (None on a loopback address) and the secret the
    form token is made from."""

    store: Store
    key: str | None = None
    renderer: Renderer = field(default_factory=Renderer)
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(32))

    @property
    def token(self) -> str:
        return form_token(self.secret)

    async def run_quick(self, work: Callable[[], T]) -> T:
        """Run `work` (a roll, a check, a write: well under a second) off the event loop."""
        return await anyio.to_thread.run_sync(work)


def state_of(request: Request) -> AppState:
    found: AppState = request.app.state.quartermaster
    return found
