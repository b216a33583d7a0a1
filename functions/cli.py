"""The ``warpmail`` command line.

``warpmail demo`` plays a complete WarpWar game on the classic map between two computer
commanders writing their orders as mail, prints it turn by turn in the rules' notation, and
writes every player's results (text, HTML, PNG and SVG map, JSON) to a folder.
``warpmail local ...`` runs the whole mail pipeline on this machine (functions/local/cli.py).
``warpmail game|player|turn|mail ...`` is the GM console (functions/console/, docs/gm.md), on the
local host's folder or on a deployed stack.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text
from typer.exceptions import TyperException

from functions.console.cli import RobotLevel, Scenario, game_app, mail_app, player_app, turn_app
from functions.console.errors import ConsoleError

app = typer.Typer(
    name="warpmail",
    help="WarpMail: a play-by-email game host. The GM console works on the local host's folder "
    "(--local, default out/local) or a deployed stack (--stack).",
    pretty_exceptions_enable=False,
)
app.add_typer(game_app, name="game")
app.add_typer(player_app, name="player")
app.add_typer(turn_app, name="turn")
app.add_typer(mail_app, name="mail")


@app.callback(invoke_without_command=True)
def backend_options(
    ctx: typer.Context,
    local: Annotated[
        Path, typer.Option(envvar="WARPMAIL_LOCAL_ROOT", help="The local host's folder.")
    ] = Path("out/local"),
    stack: Annotated[
        str | None, typer.Option(envvar="WARPMAIL_STACK", help="A deployed stack's name.")
    ] = None,
    profile: Annotated[
        str | None, typer.Option(envvar="AWS_PROFILE", help="AWS profile (with --stack).")
    ] = None,
    region: Annotated[
        str | None, typer.Option(envvar="AWS_REGION", help="AWS region (with --stack).")
    ] = None,
) -> None:
    """Where the GM console's games are: the local host's folder, or a deployed stack."""
    # Imported here: pydantic is a third of the import time, and --help needs no Choice.
    from functions.console.choice import Choice

    if ctx.invoked_subcommand is None:
        Console().print(ctx.get_help())
    ctx.obj = Choice(local=local, stack=stack, profile=profile, region=region)


@app.command()
def demo(
    scenario: Annotated[Scenario, typer.Option(help="The scenario.")] = Scenario.BASIC,
    seed: Annotated[int, typer.Option(help="The game's seed.")] = 4,
    turn_limit: Annotated[int, typer.Option(help="Game-turns before the game is scored.")] = 80,
    red: Annotated[RobotLevel, typer.Option(help="Red's robot level.")] = RobotLevel.CADET,
    blue: Annotated[RobotLevel, typer.Option(help="Blue's robot level.")] = RobotLevel.CADET,
    out: Annotated[Path, typer.Option(help="Folder for the reports.")] = Path("out/demo"),
    no_reports: Annotated[bool, typer.Option("--no-reports", help="Print the game only.")] = False,
) -> None:
    """Play a robot-vs-robot game on the classic map, printed in the rules' notation."""
    # Imported here, as every command's work: --help and tab completion must not load the game.
    from engine.games import DEFAULT_GAME
    from functions.demo import play_demo

    folder = None if no_reports else out
    won, log = play_demo(DEFAULT_GAME, scenario.value, seed, turn_limit, (red.value, blue.value), folder)
    sys.stdout.write("\n".join(log) + "\n")
    if folder is not None:
        sys.stderr.write(f"Each player's report after every game-turn is in {folder}/turn-NN/\n")
    raise typer.Exit(0 if won else 1)


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    add_help_option=False,
)
def local(ctx: typer.Context) -> None:
    """The mail pipeline on this machine: run-demo, play, serve (warpmail local --help)."""
    from functions.local import cli as local_cli

    raise typer.Exit(local_cli.main(ctx.args))


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; a refusal or a usage error is one red line (exit code 1 or 2)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        code = app(args=arguments, prog_name="warpmail", standalone_mode=False)
    except TyperException as error:
        _refuse(error.format_message())
        return error.exit_code
    except ConsoleError as error:
        _refuse(str(error))
        return 1
    except typer.Abort:
        return 1
    return code if isinstance(code, int) else 0


def _refuse(message: str) -> None:
    Console(stderr=True, soft_wrap=True).print(Text.assemble(("error: ", "red"), message))


if __name__ == "__main__":
    raise SystemExit(main())
