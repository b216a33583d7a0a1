"""The GM console's commands: ``warpmail game|player|turn|mail ...`` (docs/gm.md).

Each command opens the backend the root options chose (functions/console/backend.py), calls one
service, prints what it did (tables for listings, a progress bar for long work) and closes the
backend. A refusal is one red line and exit code 1 (functions/cli.py ``main``).

The services, the store and the game are imported by the command that runs, never here: typer
builds the whole command tree for ``--help`` and tab completion, which must answer at once.
The option choices taken from the engine (:class:`Scenario`, :class:`RobotLevel`, for the
demo and the robots) are therefore mirrored here; tests/test_cli.py holds them to the engine's.
A game's own options (``game create --scenario``, ``--option key=value``) are not: the game
checks them (``TurnGame.check_options``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from functions.console.errors import ConsoleError
from functions.console.inputs import read_hours, read_time, read_timezone, read_weekdays

if TYPE_CHECKING:
    from functions.console.backend import Backend
    from functions.console.mail import SentMail
    from functions.console.players import PlayerChange
    from functions.store import GameRecord, MailLogEntry, PlayerRecord


class Scenario(StrEnum):
    """The demo's scenarios: engine.warpwar.state.Scenario's values."""

    BASIC = "basic"
    ADVANCED = "advanced"


class TurnMode(StrEnum):
    SEQUENTIAL = "sequential"
    CYCLE = "cycle"


class CombatMode(StrEnum):
    MAIL = "mail"
    STANDING = "standing"


class MissedAction(StrEnum):
    ALERT = "alert"
    STANDBY = "standby"
    ROBOT = "robot"


class AbsencePolicy(StrEnum):
    WAIT = "wait"
    PLAY = "play"


class RobotLevel(StrEnum):
    """engine.warpwar.robot.Level's values."""

    CADET = "cadet"
    ADMIRAL = "admiral"


game_app = typer.Typer(help="Games: create, open for sign-up, list, show, start, pause, resume, end.")
player_app = typer.Typer(help="Players: invite, change address, reset code, replace, robot, remove, list.")
turn_app = typer.Typer(help="Turns: run now, extend, show, resend reports, roll back, replay.")
mail_app = typer.Typer(help="Mail: the GM's bulletin, direct mail, delivering mail, the mail log.")

GAME = Annotated[str, typer.Argument(help="The game's id (also its mail address, <id>@<domain>).")]
PLAYER = Annotated[str, typer.Argument(help="The player: id (P1), name or address.")]


def _out() -> Console:
    return Console(soft_wrap=True)


@contextmanager
def _backend(ctx: typer.Context) -> Iterator[Backend]:
    from functions.console.backend import open_backend
    from functions.console.choice import Choice

    choice = ctx.obj if isinstance(ctx.obj, Choice) else Choice()
    opened = open_backend(choice)
    try:
        yield opened
    finally:
        opened.close()


def _now() -> datetime:
    return datetime.now(UTC)


def _when(moment: datetime | None, zone: str) -> str:
    from functions.host.deadlines import deadline_text

    return deadline_text(moment, zone) or "-"


def _text(text: str | None, file: Path | None) -> str:
    if file is not None:
        try:
            return file.read_text(encoding="utf-8")
        except OSError as error:
            raise ConsoleError(f"cannot read {file}: {error.strerror}") from error
    return text or ""


def _mails(sent: list[SentMail]) -> None:
    out = _out()
    for one in sent:
        if one.error:
            out.print(f"[red]not sent[/] to {escape(one.to)}: {escape(one.error)}")
        else:
            out.print(f"mailed {one.to}: {one.subject}")


# --- game ---


@game_app.command("create")
def game_create(
    ctx: typer.Context,
    game_id: GAME,
    title: Annotated[str, typer.Option(help="The game's title (default: its id).")] = "",
    game: Annotated[
        str | None, typer.Option(help="Which game, by its key (default: the host's own first game).")
    ] = None,
    scenario: Annotated[str | None, typer.Option(help="Game option: the scenario (basic, advanced).")] = None,
    map_kind: Annotated[
        str | None, typer.Option("--map", help="Game option: the map (classic, or generated).")
    ] = None,
    map_seed: Annotated[
        int | None, typer.Option(help="Game option: seed of a generated map (default: the game's seed).")
    ] = None,
    hexes: Annotated[
        int | None, typer.Option(help="Game option: hexes of a generated map (at least 400, 100 per player).")
    ] = None,
    size: Annotated[
        str | None, typer.Option(help="Game option: size of a generated map, WIDTHxHEIGHT (e.g. 30x20).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(help="Any option of the game, KEY=VALUE (the value as JSON, else text); repeatable."),
    ] = None,
    seats: Annotated[int, typer.Option("--players", min=2, max=8, help="Number of players (2-8).")] = 2,
    turn_mode: Annotated[
        TurnMode, typer.Option(help="One player-turn at a time, or whole game-turns.")
    ] = TurnMode.SEQUENTIAL,
    combat_mode: Annotated[
        CombatMode, typer.Option(help="Combat rounds by mail, or standing orders.")
    ] = CombatMode.MAIL,
    visibility: Annotated[
        str | None, typer.Option(help="Game option: who sees what (open, or blind: refereed).")
    ] = None,
    turn_limit: Annotated[
        int | None, typer.Option(min=1, help="Game option: game-turns before the game is scored.")
    ] = None,
    deadline: Annotated[
        str | None, typer.Option(help="Deadline time of day, HH:MM (default: --turn-hours on).")
    ] = None,
    timezone: Annotated[str, typer.Option(help="Time zone of the deadline (Europe/Paris).")] = "UTC",
    weekdays: Annotated[
        str, typer.Option(help="Days a deadline may fall on: mon-fri, sat,sun, ...")
    ] = "mon-sun",
    min_hours: Annotated[float, typer.Option(min=0, help="Hours a turn lasts at least.")] = 0,
    grace_hours: Annotated[
        float, typer.Option(min=0, help="Hours missing orders are waited for after the deadline.")
    ] = 0,
    reminders: Annotated[
        str, typer.Option(help="Reminders, hours before the deadline ('none': no reminders).")
    ] = "24,2",
    turn_hours: Annotated[
        float, typer.Option(min=0.01, help="Hours of a turn when there is no --deadline time.")
    ] = 24,
    round_hours: Annotated[float, typer.Option(min=0.01, help="Hours of a combat round by mail.")] = 2,
    early: Annotated[
        bool, typer.Option("--early/--no-early", help="Process a turn as soon as its orders are in.")
    ] = True,
    missed_limit: Annotated[
        int, typer.Option(min=1, help="Missed turns in a row before the GM is alerted.")
    ] = 3,
    missed_action: Annotated[
        MissedAction, typer.Option(help="Then: alert only, a standby, a robot.")
    ] = MissedAction.ALERT,
    absence_days: Annotated[
        int, typer.Option(min=0, help="Longest absence a player may declare (days).")
    ] = 14,
    absence_count: Annotated[int, typer.Option(min=0, help="Absences a player may declare in the game.")] = 2,
    absence_policy: Annotated[
        AbsencePolicy, typer.Option(help="During an absence: wait, or play on.")
    ] = AbsencePolicy.PLAY,
    gm_address: Annotated[
        str, typer.Option(help="Where the host alerts the GM (default: the host's sender).")
    ] = "",
    seed: Annotated[int | None, typer.Option(help="Seed of the game's dice (default: a random one).")] = None,
) -> None:
    """Create a game in set-up: its options, its schedule; then open it or invite players."""
    from functions.console import games
    from functions.store import Schedule

    now = _now()
    given = {
        "scenario": scenario,
        "visibility": visibility,
        "map": map_kind,
        "map_seed": map_seed,
        "hexes": hexes,
        "size": size,
        "turn_limit": turn_limit,
    }
    options = {key: value for key, value in given.items() if value is not None} | _options(option or [])
    key = game or games.default_game()
    setup = games.game_setup(key, options, seats, secrets.randbelow(2**31) if seed is None else seed)
    plan = Schedule(
        deadline_time=None if deadline is None else read_time(deadline),
        timezone=read_timezone(timezone, now),
        weekdays=read_weekdays(weekdays),
        min_hours=min_hours,
        grace_hours=grace_hours,
        reminders=read_hours(reminders),
        missed_limit=missed_limit,
        missed_action=missed_action.value,
        absence_days=absence_days,
        absence_count=absence_count,
        absence_policy=absence_policy.value,
    )
    spec = games.NewGame(
        game_id=game_id,
        title=title,
        game=key,
        setup=setup,
        schedule=plan,
        turn_mode=turn_mode.value,
        combat_mode=combat_mode.value,
        early=early,
        turn_hours=turn_hours,
        round_hours=round_hours,
        gm_address=gm_address,
    )
    with _backend(ctx) as backend:
        created = games.create_game(backend, spec, now)
        address = f"{created.game_id}@{backend.settings.mail_domain}"
    _out().print(
        f"created game {created.game_id} ({created.title}), {seats} seats, seed {setup.seed}: {address}"
    )


def _options(written: Sequence[str]) -> dict[str, object]:
    """``--option KEY=VALUE`` pairs as the game's options: a value that reads as JSON (a
    number, true, an object) is that, any other is text."""
    options: dict[str, object] = {}
    for pair in written:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise ConsoleError(f"--option {pair}: write KEY=VALUE, e.g. --option turn_limit=20")
        try:
            options[key.strip()] = json.loads(value)
        except ValueError:
            options[key.strip()] = value
    return options


@game_app.command("open")
def game_open(ctx: typer.Context, game_id: GAME) -> None:
    """Open the game for sign-up: players JOIN by mail until it starts."""
    from functions.console import games

    with _backend(ctx) as backend:
        game = games.open_game(backend, game_id, _now())
        address = f"{game.game_id}@{backend.settings.mail_domain}"
    _out().print(f"game {game.game_id} is open: players send 'JOIN {game.game_id} <their name>' to {address}")


@game_app.command("list")
def game_list(ctx: typer.Context) -> None:
    """Every game: status, turn, seats, next deadline (in each game's time zone)."""
    from functions.console import games

    with _backend(ctx) as backend:
        summaries = games.list_games(backend)
    table = Table("game", "title", "status", "turn", "seats", "standby", "next deadline", "parked")
    for summary in summaries:
        game = summary.game
        table.add_row(
            game.game_id,
            game.title,
            game.status,
            str(game.turn),
            f"{summary.seated}/{game.setup.seats}",
            str(summary.standby),
            _when(game.next_deadline(), game.schedule.timezone),
            game.parked or "",
        )
    _out().print(table)


@game_app.command("show")
def game_show(
    ctx: typer.Context,
    game_id: GAME,
    tz: Annotated[
        str | None, typer.Option("--tz", help="Show times in this zone (default: the game's).")
    ] = None,
) -> None:
    """A game: status, turn, who has sent what is awaited, deadlines, missed turns, problems."""
    from functions.console import games

    with _backend(ctx) as backend:
        view = games.show_game(backend, game_id)
    game = view.game
    zone = read_timezone(tz, _now()) if tz else game.schedule.timezone
    out = _out()
    out.print(
        f"[bold]{game.game_id}[/] {game.title}: {game.status}, turn {game.turn}, version {game.version}"
    )
    if view.ending:
        out.print(f"[bold]over[/]: {escape(view.ending)}")
    if game.pause_reason:
        out.print(f"paused: {game.pause_reason}")
    if game.parked:
        out.print(f"[red]parked[/]: {game.parked}")
    out.print(
        f"deadline {_when(game.deadline, zone)}; combat round deadline {_when(game.round_deadline, zone)}"
    )
    if game.bulletin:
        out.print(f"bulletin for the next results: {game.bulletin}")
    now = _now()
    header = ("player", "name", "address", "role", "robot", "missed", "last mail")
    rows = [
        (
            p.player_id,
            p.name,
            p.address,
            p.role,
            p.robot or "",
            str(game.missed.get(p.player_id, 0)),
            _ago(view.last_mail.get(p.player_id), now) if p.address else "",
        )
        for p in view.players
    ]
    out.print(_plain(header, rows, (6, 20, 30, 7, 7, 6, 10)), markup=False, highlight=False)
    awaited = Table("awaited", "player", "in", "version", "received")
    for entry in view.awaited:
        name = entry.player.name if entry.player else entry.player_id
        received = _when(entry.received_at, zone) if entry.received_at else ""
        awaited.add_row(
            entry.scope, name, "yes" if entry.version else "no", str(entry.version or ""), received
        )
    out.print(awaited)
    if view.problems:
        out.print(_log_table(view.problems, zone, "mail problems (latest)"))


WIDTH = 100
"""Columns the plain-text listings fit in."""


def _plain(header: tuple[str, ...], rows: Sequence[tuple[str, ...]], widest: tuple[int, ...]) -> str:
    """Rows as aligned plain text: each column as wide as its widest cell, at most ``widest``
    (longer cells are cut with "~"), two spaces apart."""
    widths = [min(cap, max(len(row[i]) for row in [header, *rows])) for i, cap in enumerate(widest)]
    lines = []
    for row in [header, *rows]:
        cells = [
            cell if len(cell) <= width else cell[: width - 1] + "~"
            for cell, width in zip(row, widths, strict=True)
        ]
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip())
    return "\n".join(lines)


def _ago(moment: datetime | None, now: datetime) -> str:
    """How long ago: "40m ago", "5h ago", "3d ago"; "never"."""
    if moment is None:
        return "never"
    return f"{_span(now - moment)} ago"


def _left(deadline: datetime | None, now: datetime) -> str:
    """Time left to ``deadline``: "5h 10m", or "overdue 2h"; "-" when there is none."""
    if deadline is None:
        return "-"
    if deadline < now:
        return f"overdue {_span(now - deadline)}"
    return _span(deadline - now)


def _span(span: timedelta) -> str:
    minutes = max(int(span.total_seconds() // 60), 0)
    days, hours = divmod(minutes // 60, 24)
    if days:
        return f"{days}d {hours}h"
    return f"{hours}h {minutes % 60}m" if hours else f"{minutes}m"


def _players_table(shown: list[PlayerRecord], game: GameRecord | None = None) -> Table:
    from functions.console.players import bouncing_note

    table = Table("player", "name", "address", "role", "robot", "missed", "time zone")
    for player in shown:
        missed = game.missed.get(player.player_id, 0) if game is not None else 0
        # Text, not markup: an address is the player's own words.
        address = Text(player.address)
        if player.bouncing:
            address.append(f" ({bouncing_note(player)})", style="red")
        table.add_row(
            player.player_id,
            player.name,
            address,
            player.role,
            player.robot or "",
            str(missed or ""),
            player.timezone,
        )
    return table


@game_app.command("late")
def game_late(ctx: typer.Context) -> None:
    """Who is late, across the running games: each awaited player whose orders are not in, their
    missed turns in a row, the last mail from them, and the time left to the deadline."""
    from functions.console import games

    now = _now()
    with _backend(ctx) as backend:
        late = games.late_players(backend)
    if not late:
        _out().print("nobody is late: every order awaited is in")
        return
    header = ("game", "player", "awaited", "missed", "last mail", "deadline in")
    rows = [
        (
            row.game.game_id,
            f"{row.player.player_id} {row.player.name}",
            row.scope,
            str(row.missed),
            _ago(row.last_mail, now),
            _left(row.deadline, now),
        )
        for row in late
    ]
    _out().print(_plain(header, rows, (16, 24, 20, 6, 10, 12)), markup=False, highlight=False)


@game_app.command("start")
def game_start(
    ctx: typer.Context,
    game_id: GAME,
    robots: Annotated[
        RobotLevel | None, typer.Option(help="Give the empty seats to robots of this level.")
    ] = None,
) -> None:
    """Start the game: its state from the set-up and the seated players; every player is mailed
    the opening results and the first orders sheet."""
    from functions.console import games

    with _backend(ctx) as backend:
        started = games.start_game(backend, game_id, _now(), None if robots is None else robots.value)
    game = started.game
    out = _out()
    out.print(f"game {game.game_id} started: turn {game.turn}, {len(started.players)} players")
    out.print(
        f"first deadline {_when(game.deadline, game.schedule.timezone)}; {started.mails} results mails sent"
    )
    if started.unsent:
        out.print(f"[red]not all sent[/] (the next workflow run sends them): {started.unsent}")


@game_app.command("pause")
def game_pause(
    ctx: typer.Context,
    game_id: GAME,
    reason: Annotated[str, typer.Option(help="Mailed to the players.")] = "",
) -> None:
    """Pause the game: nothing is processed, its deadlines wait; the players are told."""
    from functions.console import games

    with _backend(ctx) as backend:
        changed = games.pause_game(backend, game_id, reason, _now())
    _out().print(f"game {changed.game.game_id} is paused")
    _mails(changed.mails)


@game_app.command("resume")
def game_resume(ctx: typer.Context, game_id: GAME) -> None:
    """Resume a paused game: its deadlines move on by the paused time; the players are told."""
    from functions.console import games

    with _backend(ctx) as backend:
        changed = games.resume_game(backend, game_id, _now())
    game = changed.game
    _out().print(f"game {game.game_id} goes on: deadline {_when(game.deadline, game.schedule.timezone)}")
    _mails(changed.mails)


@game_app.command("end")
def game_end(
    ctx: typer.Context,
    game_id: GAME,
    reason: Annotated[str, typer.Option(help="Mailed to the players.")] = "",
) -> None:
    """End the game now; the players are told why."""
    from functions.console import games

    with _backend(ctx) as backend:
        changed = games.end_game(backend, game_id, reason, _now())
    _out().print(f"game {changed.game.game_id} is over")
    _mails(changed.mails)


# --- player ---


def _invite(ctx: typer.Context, game_id: str, address: str, name: str, standby: bool, timezone: str) -> None:
    from functions.console import players

    now = _now()
    with _backend(ctx) as backend:
        zone = read_timezone(timezone, now) if timezone else ""
        invited = players.invite(backend, game_id, address, now, name=name, standby=standby, timezone=zone)
    player = invited.player
    _out().print(f"{player.name} ({player.address}) is {player.player_id} of game {game_id}, {player.role}")
    _mails([invited.mail])


INVITE_NAME = Annotated[str, typer.Option(help="The player's name (default: the address before the @).")]
INVITE_STANDBY = Annotated[bool, typer.Option("--standby", help="A standby, to replace a player later.")]
INVITE_ZONE = Annotated[
    str, typer.Option("--timezone", help="The player's time zone, for deadlines (default: the game's).")
]


@player_app.command("invite")
def player_invite(
    ctx: typer.Context,
    game_id: GAME,
    address: Annotated[str, typer.Argument(help="The player's mail address.")],
    name: INVITE_NAME = "",
    standby: INVITE_STANDBY = False,
    timezone: INVITE_ZONE = "",
) -> None:
    """Seat a player by address (or a standby): a new secret code, mailed with the welcome."""
    _invite(ctx, game_id, address, name, standby, timezone)


@player_app.command("add", hidden=True)
def player_add(
    ctx: typer.Context,
    game_id: GAME,
    address: Annotated[str, typer.Argument(help="The player's mail address.")],
    name: INVITE_NAME = "",
    standby: INVITE_STANDBY = False,
    timezone: INVITE_ZONE = "",
) -> None:
    """The same as invite."""
    _invite(ctx, game_id, address, name, standby, timezone)


def _changed(change: PlayerChange, what: str) -> None:
    player = change.player
    _out().print(f"{player.name} ({player.player_id}) of game {player.game_id}: {what}")
    _mails(change.mails)


@player_app.command("address")
def player_address(
    ctx: typer.Context,
    game_id: GAME,
    player: PLAYER,
    address: Annotated[str, typer.Argument(help="The new address.")],
) -> None:
    """Change a player's registered address (both addresses are told)."""
    from functions.console import players

    with _backend(ctx) as backend:
        change = players.change_address(backend, game_id, player, address, _now())
    _changed(change, f"address now {change.player.address}")


@player_app.command("reset-code")
def player_reset_code(ctx: typer.Context, game_id: GAME, player: PLAYER) -> None:
    """Give a player a new secret code, mailed to their address."""
    from functions.console import players

    with _backend(ctx) as backend:
        change = players.reset_code(backend, game_id, player, _now())
    _changed(change, "new secret code mailed")


@player_app.command("replace")
def player_replace(
    ctx: typer.Context,
    game_id: GAME,
    player: PLAYER,
    newcomer: Annotated[str, typer.Argument(help="A standby's address, or a new player's.")],
    name: Annotated[str, typer.Option(help="The new player's name (a newcomer who is no standby).")] = "",
) -> None:
    """Give a player's seat to a standby or a newcomer, mailed a welcome and the current report."""
    from functions.console import players

    with _backend(ctx) as backend:
        change = players.replace(backend, game_id, player, newcomer, _now(), name=name)
    _changed(change, f"seat now played by {change.player.address}")


@player_app.command("robot")
def player_robot(
    ctx: typer.Context,
    game_id: GAME,
    player: PLAYER,
    level: Annotated[RobotLevel, typer.Option(help="The robot's level.")] = RobotLevel.CADET,
) -> None:
    """Hand a seat to a computer player."""
    from functions.console import players

    with _backend(ctx) as backend:
        change = players.to_robot(backend, game_id, player, level.value, _now())
    _changed(change, f"played by a {level.value} robot")


@player_app.command("remove")
def player_remove(ctx: typer.Context, game_id: GAME, player: PLAYER) -> None:
    """Remove a player (a seat of a started game goes to a cadet robot)."""
    from functions.console import players

    with _backend(ctx) as backend:
        change = players.remove(backend, game_id, player, _now())
    _changed(change, "removed")


@player_app.command("list")
def player_list(ctx: typer.Context, game_id: GAME) -> None:
    """The players of a game: seats, standbys, removed."""
    from functions.console import players

    with _backend(ctx) as backend:
        listed = players.list_players(backend, game_id)
        game = backend.store.game(game_id)
    _out().print(_players_table(listed, game))


# --- turn ---


@turn_app.command("run")
def turn_run(
    ctx: typer.Context,
    game_id: Annotated[
        str | None, typer.Argument(help="A game to unpark (and with --force, to play now).")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Play what the game waits for now, missing orders waived.")
    ] = False,
) -> None:
    """Run the turn workflow now, as the schedule does."""
    from functions.console import turns

    if force and game_id is None:
        raise ConsoleError("--force needs the game: warpmail turn run <game> --force")
    with _backend(ctx) as backend:
        run = turns.run_now(backend, _now(), game_id, force)
    out = _out()
    out.print(f"workflow {run.workflow.name}: {run.workflow.status} {run.workflow.detail}".rstrip())
    if run.game is not None:
        game = run.game
        out.print(f"game {game.game_id}: {game.status}, turn {game.turn}, version {game.version}")


@turn_app.command("unpark")
def turn_unpark(
    ctx: typer.Context,
    game_ids: Annotated[list[str] | None, typer.Argument(help="Games to unpark.")] = None,
    all_parked: Annotated[
        bool, typer.Option("--all-parked", help="Every parked game (of those named, if any).")
    ] = False,
) -> None:
    """Release parked games and run the turn workflow for them at once."""
    from functions.console import turns

    with _backend(ctx) as backend:
        unparked = turns.unpark(backend, _now(), game_ids or [], all_parked)
    out = _out()
    if not unparked.games:
        out.print("no game is parked")
    for game in unparked.games:
        out.print(f"game {game.game_id}: unparked; {game.status}, turn {game.turn}, version {game.version}")
    out.print(
        f"workflow {unparked.workflow.name}: {unparked.workflow.status} {unparked.workflow.detail}".rstrip()
    )


@turn_app.command("extend")
def turn_extend(
    ctx: typer.Context,
    game_id: GAME,
    hours: Annotated[float, typer.Option("--hours", help="Hours to add to the deadline.")],
) -> None:
    """Extend the deadline; every player is told the new one."""
    from functions.console import turns

    with _backend(ctx) as backend:
        extended = turns.extend(backend, game_id, hours, _now())
    game = extended.game
    _out().print(f"game {game.game_id}: deadline {_when(game.deadline, game.schedule.timezone)}")
    _mails(extended.mails)


@turn_app.command("show")
def turn_show(
    ctx: typer.Context,
    game_id: GAME,
    turn: Annotated[
        int | None, typer.Option("--turn", min=0, help="The turn (default: the current one).")
    ] = None,
    player: Annotated[
        str | None, typer.Option("--player", help="Print this player's results of the turn.")
    ] = None,
) -> None:
    """A turn's orders (the latest of each player) and the results mails kept for it."""
    from functions.console import turns

    with _backend(ctx) as backend:
        view = turns.show_turn(backend, game_id, turn)
        shown = [r for r in view.results if player is None or r.player_id.lower() == player.lower()]
        text = turns.results_text(backend, shown[-1].key) if player is not None and shown else ""
    out = _out()
    out.print(f"game {view.game.game_id}, turn {view.turn}")
    orders = Table("player", "scope", "version", "received", "orders")
    for sent in view.orders:
        when = _when(sent.received_at, view.game.schedule.timezone)
        orders.add_row(sent.player_id, sent.scope, str(sent.version), when, "\n".join(sent.lines) or "(none)")
    out.print(orders)
    results = Table("version", "player", "results mail (state bucket)")
    for kept in shown:
        results.add_row(str(kept.version), kept.player_id, kept.key)
    out.print(results)
    if text:
        out.print(text, markup=False, highlight=False)


@turn_app.command("resend")
def turn_resend(
    ctx: typer.Context,
    game_id: GAME,
    player: Annotated[str | None, typer.Option("--player", help="Only this player.")] = None,
) -> None:
    """Send every player's latest results mail again (or one player's)."""
    from functions.console import turns

    with _backend(ctx) as backend:
        sent = turns.resend(backend, game_id, _now(), player)
    if not sent:
        _out().print("no results mail has been sent yet")
    _mails(sent)


@turn_app.command("rollback")
def turn_rollback(
    ctx: typer.Context,
    game_id: GAME,
    turn: Annotated[int, typer.Option("--turn", min=1, help="Go back to the start of this turn.")],
    reason: Annotated[str, typer.Option(help="Mailed to the players.")] = "",
) -> None:
    """Roll the game back to the start of a turn; everyone is told and sent that turn's report."""
    from functions.console import turns

    with _backend(ctx) as backend:
        rolled = turns.rollback(backend, game_id, turn, _now(), reason)
    game = rolled.game
    _out().print(
        f"game {game.game_id} is back at turn {game.turn} (version {rolled.to_version} again, as version "
        f"{game.version}); deadline {_when(game.deadline, game.schedule.timezone)}"
    )
    _mails(rolled.mails)


@turn_app.command("replay")
def turn_replay(ctx: typer.Context, game_id: GAME) -> None:
    """Replay the game from its start with the stored orders; check every stored state."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from functions.console import turns

    columns = (TextColumn("replaying"), BarColumn(), MofNCompleteColumn())
    with _backend(ctx) as backend, Progress(*columns, transient=True) as progress:
        task = progress.add_task("replay", total=None)
        report = turns.replay(
            backend, game_id, lambda done, total: progress.update(task, completed=done, total=total)
        )
    out = _out()
    out.print(f"{report.checked} steps reproduced exactly, {report.skipped} versions skipped (no step)")
    for mismatch in report.mismatches:
        out.print(f"[red]version {mismatch.version} not reproduced[/]: {mismatch.why}")
    if report.mismatches:
        raise typer.Exit(1)


# --- mail ---


TEXT = Annotated[str | None, typer.Argument(help="The text (or --file).")]
FILE = Annotated[Path | None, typer.Option("--file", help="Read the text from this file.")]


@mail_app.command("bulletin")
def mail_bulletin(ctx: typer.Context, game_id: GAME, text: TEXT = None, file: FILE = None) -> None:
    """The GM's bulletin: printed first in every player's next results, marked as the GM's."""
    from functions.console import mail

    with _backend(ctx) as backend:
        bulletin = mail.set_bulletin(backend, game_id, _text(text, file), _now())
    _out().print(f"game {bulletin.game.game_id}: the bulletin goes out with the next results")
    if bulletin.replaced:
        _out().print(f"(it replaces: {bulletin.replaced})")


@mail_app.command("send")
def mail_send(
    ctx: typer.Context,
    game_id: GAME,
    player: PLAYER,
    text: TEXT = None,
    file: FILE = None,
) -> None:
    """Mail one player directly, from the GM."""
    from functions.console import mail

    with _backend(ctx) as backend:
        sent = mail.send_direct(backend, game_id, player, _text(text, file), _now())
    _mails([sent])


@mail_app.command("deliver")
def mail_deliver(
    ctx: typer.Context,
    files: Annotated[list[Path], typer.Argument(help="Raw mails (.eml) to deliver.")],
) -> None:
    """Deliver raw mail to the host as the mail server would (the inbound function reads it)."""
    from functions.console import mail

    raws = []
    for path in files:
        try:
            raws.append(path.read_bytes())
        except OSError as error:
            raise ConsoleError(f"cannot read {path}: {error.strerror}") from error
    with _backend(ctx) as backend:
        keys = mail.deliver(backend, raws)
    for path, key in zip(files, keys, strict=True):
        _out().print(f"delivered {path} as {key}")


@mail_app.command("log")
def mail_log(
    ctx: typer.Context,
    game_id: Annotated[str, typer.Argument(help="The game ('-': mail that named no game).")],
    problems: Annotated[bool, typer.Option("--problems", help="Only mail rejected or not sent.")] = False,
    tz: Annotated[str, typer.Option("--tz", help="Show times in this zone.")] = "UTC",
) -> None:
    """The audit of a game's mail: in, out, rejected and why."""
    from functions.console import mail

    zone = read_timezone(tz, _now())
    with _backend(ctx) as backend:
        entries = mail.mail_log(backend, None if game_id == "-" else game_id, problems=problems)
    _out().print(_log_table(entries, zone, f"mail log of {game_id}"))


def _log_table(entries: list[MailLogEntry], zone: str, title: str) -> Table:
    table = Table("at", "way", "address", "subject", "why", title=title)
    for entry in entries:
        table.add_row(_when(entry.at, zone), entry.direction, entry.address, entry.subject, entry.reason)
    return table
