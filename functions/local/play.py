"""``warpmail local play``: a newcomer's game against a robot, by mail, in one command.

A new game in the local host's folder (a fresh folder, or one with games: they carry on beside
it), made as a GM would make it (functions/console/): created with the game's defaults
(WarpWar: the Basic scenario on the classic map; Lighter Than Air: the fleet battle), or the
scenario named, with 24-hour turns processed as soon as the orders are in; the player invited
(the welcome mail holds their secret code), the other seat given to a robot of the chosen level,
and started, which mails the player their turn-1 results with the orders sheet.
:func:`instructions` says what to mail where, and where the replies will be.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel

from engine.games import GAME_NAMES
from functions.console.backend import LocalBackend
from functions.console.games import NewGame, create_game, default_game, game_setup, start_game
from functions.console.players import invite
from functions.local.host import LocalHost
from functions.mail.codes import ALPHABET
from functions.mail.compose import game_address
from functions.store import Store

GAME_ID = "play"
_CODE = re.compile(rf"^\s*CODE\s+([{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}-[{ALPHABET}]{{2}})\s*$", re.MULTILINE)
_EXAMPLE = re.compile(r"^# ([A-Z].*)$")
_HEADER = re.compile(r"^(GAME|PLAYER|TURN|CODE)\b|^END$")


class NewPlay(BaseModel):
    """The game made, and the mails that tell the player about it (outbox ids)."""

    game_id: str
    game: str
    """The game's key in engine/games.py."""
    game_address: str
    address: str
    player_id: str
    robot: str
    code: str
    welcome: str
    opening: str


def free_game_id(store: Store) -> str:
    """``play``, else ``play-2``, ``play-3``, ...: the first id no game has."""
    number = 1
    while store.game(game_id := GAME_ID if number == 1 else f"{GAME_ID}-{number}") is not None:
        number += 1
    return game_id


def new_play(
    host: LocalHost, address: str, robot: str, now: datetime, game: str = "", scenario: str = ""
) -> NewPlay:
    """A running game of ``game`` (the default game when "") for ``address`` against a ``robot``
    (cadet or admiral) in ``host``, in the game's ``scenario`` (its default when ""): one
    operation, so a serve or a GM command on the same folder sees all of it or none. A scenario
    or game the host does not have is a ConsoleError that names it."""
    with host.operation():
        backend = LocalBackend(host.root, host=host)
        game_id = free_game_id(backend.store)
        title = f"You against the {robot} robot"
        game = game or default_game()
        options = {"scenario": scenario} if scenario else {}
        setup = game_setup(game, options, seats=2, seed=secrets.randbelow(2**31))
        create_game(backend, NewGame(game_id=game_id, title=title, game=game, setup=setup), now)
        invited = invite(backend, game_id, address, now, name="You")
        welcome = host.collect()
        start_game(backend, game_id, now, fill=robot)
        opening = host.collect()
    (welcome_id,) = welcome
    (opening_id,) = [stem for stem in opening if stem.endswith("-results")]
    code = _CODE.search(_text(host, welcome_id))
    if code is None:
        raise RuntimeError(f"no secret code in the welcome mail {welcome_id}")
    return NewPlay(
        game_id=game_id,
        game=game,
        game_address=game_address(game_id, host.resources.mail_domain),
        address=invited.player.address,
        player_id=invited.player.player_id,
        robot=robot,
        code=code.group(1),
        welcome=welcome_id,
        opening=opening_id,
    )


def _text(host: LocalHost, outbox_id: str) -> str:
    return (host.outbox_folder / f"{outbox_id}.txt").read_text(encoding="utf-8")


def first_orders(host: LocalHost, play: NewPlay) -> list[str]:
    """A whole order block to send: the opening orders sheet's lines from GAME to END with the
    code filled in; when the sheet's orders are all examples (commented out, as WarpWar's are),
    its first example order (each is good on its own) taken in. A sheet whose orders are written
    out (Lighter Than Air's: a MOVE ... STAY for each Zeppelin) is good as it stands."""
    lines = _text(host, play.opening).splitlines()
    start = lines.index(f"GAME {play.game_id}")
    block = [line for line in lines[start : lines.index("END", start) + 1] if not line.startswith("#")]
    block = [f"CODE {play.code}" if line.startswith("CODE ") else line for line in block]
    if any(not _HEADER.match(line) for line in block):
        return block
    example = next((found.group(1) for line in lines[start:] if (found := _EXAMPLE.match(line))), None)
    return block if example is None else [*block[:-1], example, block[-1]]


def instructions(host: LocalHost, play: NewPlay, port: int, tick_seconds: float) -> list[str]:
    outbox: Path = host.outbox_folder
    return [
        f"{GAME_NAMES[play.game]}: game {play.game_id}, you ({play.address}, {play.player_id}) "
        f"against the {play.robot} robot.",
        f"  Your turn-1 results and orders sheet: {outbox / play.opening}.txt (.html with the map)",
        f"  Your secret code: {play.code} (in {outbox / play.welcome}.txt)",
        f"Mail your orders from {play.address} to {play.game_address}",
        f"  through the SMTP server on 127.0.0.1:{port} (no login, no TLS)",
        f"  (or as an .eml file dropped into {host.inbox}/), any subject, the orders sheet's",
        "  block with your code and your orders, e.g.:",
        *(f"    {line}" for line in first_orders(host, play)),
        f"Replies land in {outbox}/: the acknowledgement at once, the results when the robot",
        f"  has played (the turn workflow runs every {tick_seconds:g} s).",
        "Ctrl-C (or SIGTERM) stops; the game is saved: 'warpmail local serve' carries it on.",
    ]
