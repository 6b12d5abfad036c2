"""The web app (`quartermaster serve`): a Starlette ASGI app under uvicorn.

`create_app` builds it around a store of game nights; `serve` runs it. Pages and API
call the application layer (`generator.app`); nothing here lays out a page or rolls a
die itself.
"""

from __future__ import annotations

import secrets
import threading
import webbrowser
from dataclasses import dataclass
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from generator.app.saved import open_store
from generator.app.store import Conflict, NotFound, Store
from generator.errors import CheckedProblems, InputError, QuartermasterError, one_line
from generator.web import api, campaigns, games, pages, paper
from generator.web.guard import MAX_BODY_BYTES, Guard, TooLarge, is_loopback
from generator.web.state import AppState

HERE = Path(__file__).resolve().parent
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765


def status_of(error: QuartermasterError) -> int:
    """Return the HTTP status that answers `error`."""
    given = getattr(error, "http_status", None)
    if isinstance(given, int):
        return given
    if isinstance(error, NotFound):
        return 404
    if isinstance(error, Conflict):
        return 409
    if isinstance(error, CheckedProblems):
        return 422
    if isinstance(error, InputError):
        return 400
    return 500


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, QuartermasterError)
    status = status_of(exc)
    message = one_line(str(exc).splitlines()[0]) if str(exc) else "refused"
    if request.url.path.startswith("/api/"):
        body: dict[str, object] = {"error": message}
        if isinstance(exc, CheckedProblems):
            body["problems"] = [{"path": p, "message": m} for p, m in exc.located]
            body["error"] = f"{len(exc.located)} problem(s): {message}"
        return JSONResponse(body, status_code=status)
    return pages.error_page(request, status, exc)


async def _too_large(request: Request, exc: Exception) -> Response:
    message = f"the request body is too large (at most {MAX_BODY_BYTES} bytes)"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=413)
    return pages.error_page(request, 413, InputError(message))


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
    return pages.error_page(request, exc.status_code, InputError(str(exc.detail)))


def create_app(store: Store, *, key: str | None = None) -> Starlette:
    """Return the web app serving `store`; with `key`, every request must carry it."""
    app = Starlette(
        routes=[
            *api.ROUTES,
            *games.API_ROUTES,
            *pages.ROUTES,
            *games.routes(pages.LENT),
            *paper.routes(pages.LENT),
            *campaigns.API_ROUTES,
            *campaigns.routes(pages.LENT),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        middleware=[Middleware(Guard, key=key)],
        exception_handlers={
            QuartermasterError: _refused,
            TooLarge: _too_large,
            HTTPException: _http,
        },
    )
    app.state.quartermaster = AppState(store, key)
    return app


@dataclass(frozen=True)
class ServeOptions:
    """How `quartermaster serve` was started."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    data: Path | None = None
    key: str | None = None
    open_browser: bool = True


def check_serve(options: ServeOptions) -> str | None:
    """Check the options; return the key the server needs (None on a loopback address)."""
    if not 1 <= options.port <= 65535:
        raise InputError(f"--port: {options.port} is not a port (1 to 65535)")
    if options.key is not None and len(options.key) < 16:
        raise InputError("--key: at least 16 characters")
    if is_loopback(options.host):
        return options.key
    return options.key or secrets.token_urlsafe(24)


def serve(options: ServeOptions, say: object = print) -> None:
    """Run the web app until interrupted; say the link it serves (with its key) first."""
    import uvicorn

    key = check_serve(options)
    store = open_store(options.data)
    app = create_app(store, key=key)
    shown = "localhost" if is_loopback(options.host) else options.host
    link = f"http://{shown}:{options.port}/" + (f"?key={key}" if key else "")
    assert callable(say)
    say(f"Quartermaster is at {link}  (Ctrl-C stops it; game nights are kept in {store.path})")
    if options.open_browser:
        threading.Timer(1.0, lambda: webbrowser.open(link)).start()
    uvicorn.run(app, host=options.host, port=options.port, log_level="warning")
