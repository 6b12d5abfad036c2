"""`quartermaster serve`: the web app, on this machine unless asked otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from generator.cli.common import Command

commands = typer.Typer()


@commands.command("serve", cls=Command)
def serve_command(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="The address to listen on; any but this machine's (127.0.0.1) needs a key.",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8765,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Do not open the browser.")
    ] = False,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help="The folder game nights are kept in (default: $QM_DATA_DIR, else "
            "$XDG_DATA_HOME/quartermaster).",
            file_okay=False,
        ),
    ] = None,
    key: Annotated[
        str | None,
        typer.Option("--key", help="The key a browser or script must give (default: a new one)."),
    ] = None,
) -> None:
    """Start the web app and open it in the browser: build a game night, see every page,
    print it.

    Examples: quartermaster serve; quartermaster serve --host 0.0.0.0 --no-browser
    """
    from generator.web.server import ServeOptions, serve

    serve(ServeOptions(host, port, data, key, not no_browser), say=typer.echo)
