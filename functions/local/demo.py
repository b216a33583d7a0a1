"""The local demo: a two-player WarpWar game played by mail through the whole local pipeline.

Red is a player whose orders come as ``.eml`` files: from ``orders`` (``turn-3.eml``,
``turn-3-red-combat-0606-1.eml``, ... named after what the game awaits) when there is one, else written by
the cadet robot from Red's own view, into the host's ``inbox/`` folder. Blue is a robot seat,
which the turn workflow plays itself. Each step: the schedule ticks (the workflow processes what
is due and mails Red the results), then Red's mail files are dropped and delivered (the inbound
function reads them and mails the acknowledgement). Every mail ends up in ``outbox/``.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from pydantic import BaseModel

from engine.core.mailgame import combat_parts
from engine.core.turnhost import Seat
from engine.games import DEFAULT_GAME, TURN_GAMES
from functions.host import due
from functions.local.host import LocalHost
from functions.mail.codes import hash_code
from functions.mail.compose import game_address
from functions.store import GameRecord, PlayerRecord, Store, split_awaited

GAME_ID = "demo"
RED = PlayerRecord(
    game_id=GAME_ID, player_id="Red", name="Red Fleet", address="red@example.org", code_hash=""
)
BLUE = PlayerRecord(
    game_id=GAME_ID,
    player_id="Blue",
    name="Blue Fleet",
    address="blue@example.org",
    code_hash="",
    robot="cadet",
)
RED_CODE = "WARP-2DEM-7K"
"""Red's secret code (fixed, so that order files written once stay valid)."""


class DemoResult(BaseModel):
    ticks: int
    mails_in: int
    turn: int
    status: str
    outbox: int
    seconds: float


def create_game(store: Store, seed: int, turn_limit: int, now: datetime) -> None:
    """The demo game, running, Red to play first (unless it exists already: a restarted host)."""
    if store.game(GAME_ID) is not None:
        return
    seats = [Seat(player_id=p.player_id, name=p.name) for p in (RED, BLUE)]
    options = TURN_GAMES[DEFAULT_GAME].check_options(json.dumps({"turn_limit": turn_limit}))
    state_json = TURN_GAMES[DEFAULT_GAME].new_state(GAME_ID, options, seats, seed)
    record = GameRecord(game_id=GAME_ID, title="WarpMail demo", status="open", game=DEFAULT_GAME)
    game = due.start(record, state_json, now)
    players = [
        RED.model_copy(update={"code_hash": hash_code(RED_CODE)}),
        BLUE.model_copy(update={"code_hash": hash_code(RED_CODE + "-blue")}),
    ]
    store.create_game(game, players, state_json)


def red_mail_text(state_json: str, scope: str) -> str:
    """What Red (written by the cadet robot) sends for ``scope``, with Red's secret code."""
    ((_, text),) = TURN_GAMES[DEFAULT_GAME].robot_orders(state_json, RED.player_id, "cadet", [scope])
    lines = text.splitlines()
    return "\n".join([lines[0], f"CODE {RED_CODE}", *lines[1:]]) + "\n"


def red_mail(text: str, domain: str, scope: str) -> bytes:
    message = EmailMessage()
    message["From"] = f"{RED.name} <{RED.address}>"
    message["To"] = game_address(GAME_ID, domain)
    message["Subject"] = f"Orders, {scope.replace(':', ' ')}"
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content(text)
    return message.as_bytes()


def file_name(scope: str) -> str:
    """``turn-7.eml``; ``turn-7-red-combat-1415-2.eml``: round 2 of the combat at 1415 in Red's
    player-turn of turn 7 (the same star can see a combat in each player-turn, and a mail
    file used twice would be a duplicate delivery, ignored)."""
    fight = combat_parts(scope)
    if fight is None:
        return scope.replace(":", "-") + ".eml"
    when = fight.turn.replace("/", "-").lower()
    return f"turn-{when}-combat-{fight.star}-{fight.round}.eml"


def run_demo(
    root: Path,
    orders: Path | None = None,
    record: Path | None = None,
    seed: int = 4,
    turn_limit: int = 6,
    max_ticks: int = 200,
    say: Callable[[str], None] = print,
) -> DemoResult:
    """Play the demo game in a local host at ``root`` until it is over or nothing moves."""
    started = time.monotonic()
    ticks = mails_in = 0
    sent: set[tuple[int, str]] = set()
    with LocalHost(root) as host:
        store = Store(host.resources.settings(), dynamodb=host.client("dynamodb"), s3=host.client("s3"))
        clock = datetime.now(UTC)
        create_game(store, seed, turn_limit, clock)
        game = store.game(GAME_ID)
        while game is not None and game.status == "running" and ticks < max_ticks:
            version = game.version
            execution = host.tick(now=clock)
            ticks += 1
            game, state_json = store.state(GAME_ID)
            say(
                f"tick {ticks}: {execution.status} in {execution.seconds:.1f}s, "
                f"turn {game.turn}, {game.status}"
            )
            if execution.status != "SUCCEEDED" or game.parked:
                say(
                    f"  stopped: {execution.error or ''} {execution.cause or ''} {game.parked or ''}".rstrip()
                )
                break
            scopes = [
                s
                for s, p in map(split_awaited, game.awaiting)
                if p == RED.player_id and (game.version, s) not in sent
            ]
            if not scopes and game.version == version:
                # Everything Red owes is in and the game did not move: wait for the deadline.
                deadline = game.round_deadline or game.deadline
                if deadline is None or deadline <= clock:
                    say("  nothing due and no deadline ahead: stopped")
                    break
                clock = deadline
                say(f"  waiting for the deadline: the clock moves to {clock:%Y-%m-%d %H:%M} UTC")
                continue
            sent |= {(game.version, scope) for scope in scopes}
            for scope in scopes:
                source = orders / file_name(scope) if orders is not None else None
                if source is not None and source.exists():
                    raw = source.read_bytes()
                else:
                    raw = red_mail(red_mail_text(state_json, scope), host.resources.mail_domain, scope)
                (host.inbox / file_name(scope)).write_bytes(raw)
                if record is not None:
                    record.mkdir(parents=True, exist_ok=True)
                    name = file_name(scope)
                    shutil.copyfile(host.inbox / name, record / name)
            mails_in += len(host.scan_inbox())
        final = store.game(GAME_ID)
        outbox = len(host.outbox())
    return DemoResult(
        ticks=ticks,
        mails_in=mails_in,
        turn=final.turn if final else 0,
        status=final.status if final else "missing",
        outbox=outbox,
        seconds=round(time.monotonic() - started, 1),
    )
