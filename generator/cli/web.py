"""`quartermaster serve`: the web app, on this machine unless asked otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from generator.cli.common import Command, JsonOption, RulesOption, load_rules, print_json

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


games = typer.Typer(
    name="game",
    help="Games at the table: start one from a scenario file, list them (play them in "
    "'quartermaster serve').",
    no_args_is_help=True,
)
commands.add_typer(games, name="game")

DataOption = Annotated[
    Path | None,
    typer.Option(
        "--data",
        help="The folder game nights and games are kept in (default: as 'serve' keeps them).",
        file_okay=False,
    ),
]


@games.command("start", cls=Command)
def game_start(
    file: Annotated[
        Path,
        typer.Argument(
            help="A scenario file (as 'quartermaster scenario -o' writes it), or a fleet file.",
            dir_okay=False,
        ),
    ],
    rules_file: RulesOption = None,
    data: DataOption = None,
    address: Annotated[
        str,
        typer.Option(
            "--address", help="The web app's address the links start with (as 'serve' prints it)."
        ),
    ] = "http://127.0.0.1:8765",
    as_json: JsonOption = False,
) -> None:
    """Keep FILE as a game night and start a game from it; print its links: the GM's and
    one per side (a side's link shows that side's ships only).

    Example: quartermaster game start scenario-tactical-1805.yaml
    """
    from generator.app.games import links, start_game_from_file
    from generator.app.inputs import check_input
    from generator.app.saved import open_store
    from generator.loading import HouseRules

    check_input(file, "FILE", "a scenario file")
    house = None
    if rules_file is not None:
        load_rules(rules_file)  # checked, with its lines, before anything is kept
        house = HouseRules(rules_file.name, rules_file.read_bytes())
    store = open_store(data)
    saved, game = start_game_from_file(store, file, house)
    found = links(game, address)
    if as_json:
        print_json({"id": game.id, "night": saved.id, "links": found})
        return
    typer.echo(f"Game {game.id}: {game.title} (game night {saved.id}), kept in {store.path}")
    typer.echo(f"  GM: {found['gm']}")
    names = [str(side.get("name")) for side in game.scenario.get("sides", [])]
    for name, url in zip(names, found["sides"], strict=True):
        typer.echo(f"  {name}: {url}")
    typer.echo("Open them while 'quartermaster serve' runs.")


@games.command("list", cls=Command)
def game_list(data: DataOption = None, as_json: JsonOption = False) -> None:
    """List the games kept, the one started last first.

    Example: quartermaster game list
    """
    from generator.app.games import games as all_games
    from generator.app.saved import open_store

    found = all_games(open_store(data))
    if as_json:
        print_json(
            [{"id": g.id, "title": g.title, "ruleset": g.ruleset, "turn": g.turn} for g in found]
        )
        return
    if not found:
        typer.echo("No games yet: 'quartermaster game start FILE' starts one.")
    for g in found:
        state = "ended" if g.ended else f"turn {g.turn}"
        typer.echo(f"{g.id:>4}  {g.title}  ({g.ruleset}, {state})")


@games.command("read", cls=Command)
def game_read(
    file: Annotated[
        Path,
        typer.Argument(
            help="A fillable ship's log or packet of the game, filled in any PDF reader.",
            dir_okay=False,
        ),
    ],
    game: Annotated[int, typer.Option("--game", help="The game it belongs to (its number).")],
    data: DataOption = None,
    as_json: JsonOption = False,
) -> None:
    """Read FILE, a fillable ship's log (or a whole packet) filled in a PDF reader, back
    into the game --game names: every ship with a field in FILE gets her log as FILE has
    it marked.

    Example: quartermaster game read packet-convoy-7-filled.pdf --game 3
    """
    from generator.app.games import game as game_of
    from generator.app.paper import MAX_PDF_BYTES, read_filled
    from generator.app.saved import open_store
    from generator.errors import InputError

    try:
        if file.stat().st_size > MAX_PDF_BYTES:
            raise InputError(f"{file}: larger than {MAX_PDF_BYTES // (1024 * 1024)} MB")
        raw = file.read_bytes()
    except OSError as exc:
        raise InputError(f"{file}: cannot read: {exc.strerror or exc}") from None
    store = open_store(data)
    read = read_filled(store, game_of(store, game), raw, str(file))
    if as_json:
        print_json(read.to_json())
        return
    for line in read.lines():
        typer.echo(line)
