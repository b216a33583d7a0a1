"""The GM's players: invite (a seat, or a standby place), change an address, reset a secret
code, replace a player by a standby or a newcomer, hand a seat to a robot, remove, list."""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel

from functions.console.backend import Backend
from functions.console.errors import ConsoleError
from functions.console.lookup import require_game, require_player, seated
from functions.console.mail import SentMail, notify, send
from functions.host import seats
from functions.host.commands.join import free_player_id
from functions.host.names import name_problem
from functions.mail.codes import hash_code, new_code
from functions.store import GameRecord, PlayerRecord

ADDRESS = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")
ROBOT_LEVELS = ("cadet", "admiral")


class Invited(BaseModel):
    player: PlayerRecord
    mail: SentMail


def _address(written: str) -> str:
    address = written.strip().lower()
    if ADDRESS.match(address) is None:
        raise ConsoleError(f"'{written}' is not a mail address: write e.g. ann@example.org")
    return address


def _check_newcomer(players: list[PlayerRecord], game: GameRecord, address: str, name: str) -> None:
    present = [p for p in players if p.role != "removed"]
    if any(p.address == address for p in present):
        raise ConsoleError(f"{address} is in game {game.game_id} already")
    why = name_problem(name)
    if why is not None:
        raise ConsoleError(f"{why} Give another with --name.")
    if any(name.lower() in (p.name.lower(), p.player_id.lower()) for p in present):
        raise ConsoleError(f"the name {name} is taken in game {game.game_id}: give another with --name")


def invite(
    backend: Backend,
    game_id: str,
    address: str,
    now: datetime,
    name: str = "",
    standby: bool = False,
    timezone: str = "",
) -> Invited:
    """A new player with a fresh secret code, mailed the welcome: a seat before the game starts,
    else (or with ``standby``) a standby's place (``S1``...), welcomed as JOIN welcomes one.
    ``timezone``: the player's, for their deadlines; "" the game's."""
    game = require_game(backend.store, game_id, "setup", "open", "running", "paused")
    players = backend.store.players(game.game_id)
    address = _address(address)
    name = " ".join((name or address.split("@")[0]).split())
    _check_newcomer(players, game, address, name)
    started = game.status in ("running", "paused")
    if not standby and started:
        raise ConsoleError(
            f"game {game.game_id} has started: invite with --standby, then 'warpmail player replace'"
        )
    if not standby and len(seated(players)) >= game.setup.seats:
        raise ConsoleError(f"the {game.setup.seats} seats of game {game.game_id} are taken: use --standby")
    code = new_code()
    player = PlayerRecord(
        game_id=game.game_id,
        player_id=free_player_id(players, standby),
        name=name,
        address=address,
        code_hash=hash_code(code),
        timezone=timezone or game.schedule.timezone,
        role="standby" if standby else "player",
    )
    if not backend.store.add_player(player):
        raise ConsoleError(f"game {game.game_id} changed meanwhile: run the command again")
    if standby:
        welcome = seats.standby_welcome(game, player, code)
    else:
        welcome = seats.welcome_mail(game, player, code, None, now)
    return Invited(player=player, mail=send(backend, welcome, now, f"welcome to {player.player_id}"))


class PlayerChange(BaseModel):
    player: PlayerRecord
    mails: list[SentMail]


def _update(backend: Backend, player: PlayerRecord, **changes: object) -> PlayerRecord:
    changed = player.model_copy(update=changes)
    backend.store.update_player(changed)
    return changed


def change_address(backend: Backend, game_id: str, written: str, address: str, now: datetime) -> PlayerChange:
    """The player's registered address; both the old and the new one are told (the old one
    not if it is bouncing). The address's bouncing mark goes with it; the player's own address
    given again, while it is marked, lifts the mark (:func:`resume_mail`)."""
    game = require_game(backend.store, game_id)
    player = require_player(backend.store, game, written)
    new = _address(address)
    if new == player.address and player.bouncing:
        return PlayerChange(player=resume_mail(backend, player), mails=[])
    if any(p.address == new and p.role != "removed" for p in backend.store.players(game.game_id)):
        raise ConsoleError(f"{new} is in game {game.game_id} already")
    changed = _update(backend, player, address=new, bouncing="")
    paragraphs = [ADDRESS_CHANGED.format(game_id=game.game_id, old=player.address, new=new)]
    mails = notify(backend, game, [player, changed], "Your address was changed", paragraphs, now)
    return PlayerChange(player=changed, mails=mails)


def resume_mail(backend: Backend, player: PlayerRecord) -> PlayerRecord:
    """Mail to ``player``'s address again, once the player says it works (a full mailbox
    emptied, a spam report taken back): the mark goes from every record with the address, in
    every game, as SES's mark went on them all. Nothing is mailed: the GM has just heard from
    the player. SES's own suppression list may hold the address too (docs/gm.md)."""
    marked = {(p.game_id, p.player_id) for p in [player, *backend.store.players_by_address(player.address)]}
    for game_id, player_id in sorted(marked):
        # The address index may lag: each record is read again from the table, and changed.
        current = next((p for p in backend.store.players(game_id) if p.player_id == player_id), None)
        if current is not None and current.address == player.address and current.bouncing:
            backend.store.update_player(current.model_copy(update={"bouncing": ""}))
    return player.model_copy(update={"bouncing": ""})


def reset_code(backend: Backend, game_id: str, written: str, now: datetime) -> PlayerChange:
    """A new secret code, mailed to the registered address; the old one no longer works."""
    game = require_game(backend.store, game_id)
    player = require_player(backend.store, game, written)
    code = new_code()
    changed = _update(backend, player, code_hash=hash_code(code))
    paragraphs = [NEW_CODE.format(game_id=game.game_id, code=code)]
    return PlayerChange(
        player=changed, mails=notify(backend, game, [changed], "Your new secret code", paragraphs, now)
    )


def replace(
    backend: Backend, game_id: str, written: str, newcomer_address: str, now: datetime, name: str = ""
) -> PlayerChange:
    """The seat of ``written`` to a standby of the game (by address), or to a newcomer; the
    newcomer is mailed a welcome with the full current report, the one leaving a goodbye."""
    game = require_game(backend.store, game_id, "running", "paused")
    seat = require_player(backend.store, game, written)
    address = _address(newcomer_address)
    standby = next(
        (p for p in backend.store.players(game.game_id) if p.address == address and p.role == "standby"), None
    )
    name = name or (standby.name if standby is not None else address.split("@")[0])
    try:
        seats.seat_player(
            backend.store, backend.mailer, backend.settings, game, seat.player_id, address, name, now
        )
    except seats.SeatError as error:
        raise ConsoleError(str(error)) from error
    return PlayerChange(player=require_player(backend.store, game, seat.player_id), mails=[])


def to_robot(backend: Backend, game_id: str, written: str, level: str, now: datetime) -> PlayerChange:
    """The seat played by the computer at ``level`` from the next step on; its player is told."""
    if level not in ROBOT_LEVELS:
        raise ConsoleError(f"robot level {level}: choose {' or '.join(ROBOT_LEVELS)}")
    game = require_game(backend.store, game_id, "setup", "open", "running", "paused")
    player = require_player(backend.store, game, written)
    if player.role != "player":
        raise ConsoleError(f"{player.name} ({player.player_id}) holds no seat in game {game.game_id}")
    changed = _update(backend, player, robot=level)
    mails = []
    if player.robot is None and player.address:
        paragraphs = [TO_ROBOT.format(game_id=game.game_id)]
        mails = notify(backend, game, [player], "Your seat is played by the computer", paragraphs, now)
    return PlayerChange(player=changed, mails=mails)


def remove(backend: Backend, game_id: str, written: str, now: datetime) -> PlayerChange:
    """The player may no longer send orders; a seat of a started game goes to a cadet robot."""
    game = require_game(backend.store, game_id)
    player = require_player(backend.store, game, written)
    if player.role == "removed":
        raise ConsoleError(f"{player.name} ({player.player_id}) was removed already")
    keeps_seat = player.role == "player" and game.status in ("running", "paused")
    robot = (player.robot or "cadet") if keeps_seat else player.robot
    changed = _update(backend, player, role="removed", robot=robot)
    paragraphs = [REMOVED.format(game_id=game.game_id)]
    return PlayerChange(
        player=changed, mails=notify(backend, game, [player], "You left the game", paragraphs, now)
    )


def list_players(backend: Backend, game_id: str) -> list[PlayerRecord]:
    game = require_game(backend.store, game_id)
    return backend.store.players(game.game_id)


def bouncing_note(player: PlayerRecord) -> str:
    """What ``player list`` shows beside a bouncing address: the mark ("bounce 2026-11-27") as
    "bouncing since 2026-11-27: bounce"; empty when the address is not marked."""
    if not player.bouncing:
        return ""
    kind, _, since = player.bouncing.partition(" ")
    return f"bouncing since {since}: {kind}" if since else f"bouncing: {kind}"


ADDRESS_CHANGED = (
    "The GM changed your registered address in game {game_id} from {old} to {new}. Mail from the "
    "game goes to {new} from now on, and orders are accepted from it only."
)
NEW_CODE = (
    "The GM gave you a new secret code for game {game_id}: {code}. Every order mail needs it (a "
    "line CODE {code}); the old code no longer works. Keep this mail and share the code with no one."
)
TO_ROBOT = (
    "The GM handed your seat in game {game_id} to a computer player, which writes its orders from "
    "the next turn on. Write to the GM if you want it back."
)
REMOVED = "The GM removed you from game {game_id}: mail from you is no longer read as orders."
