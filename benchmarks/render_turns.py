"""Rendering per game-turn: how many reports and map PNGs a sequential game renders.

    python -m benchmarks.render_turns [--players 2 4 6] [--turns 3] [--quick]

An open WarpWar game of N human players on a generated map, sequential turns, combats fought at
once from standing orders, played through the real turn service (functions/host/turns.py) on
the store under moto. Every tick each awaited player mails the cadet robot's orders for their
player-turn (written from their own view), then the game is processed, as the workflow would.
Counted over the first game-turns (not the opening, which mails everyone once): reports
rendered (``render_report``), map PNGs drawn (resvg), results mails sent, the wall time of the
processing (mail writing not included) and of it the rendering. Each size is played twice, under
the rule before issue 15 (every player-turn tells every player: N² reports a game-turn;
reproduced by making every step tell everyone, which in this game, its combats fought at once,
is exactly that rule) and under the rule now (engine/warpwar/host.py ``_told``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any
from unittest import mock

import boto3
import resvg_py
from moto import mock_aws

from benchmarks.mailed import submit_orders
from benchmarks.timing import machine, table
from engine.core.mailgame import combat_parts
from engine.core.turnhost import Seat
from engine.warpwar import host as warpwar_host
from engine.warpwar import robot
from engine.warpwar.mapgen import MapSpec
from engine.warpwar.options import WarpWarOptions
from engine.warpwar.state import GameState
from engine.warpwar.views import player_view
from functions.host import due, turns
from functions.render import mapimage
from functions.render import report as report_module
from functions.render import results as results_module
from functions.resources import resources
from functions.store import (
    GameRecord,
    GameSetup,
    PlayerRecord,
    Store,
    provision,
    split_awaited,
)

START = datetime(2030, 1, 1, 12, tzinfo=UTC)
TICK = timedelta(minutes=10)
GAME = "bench"
REGION = "eu-west-1"


RULES = ("everyone", "now")


@dataclass
class Counts:
    reports: int = 0
    pngs: int = 0
    mails: int = 0
    rendering: float = 0.0


@dataclass(frozen=True)
class Figures:
    rule: str
    players: int
    turns: int
    reports: int
    pngs: int
    mails: int
    seconds: float
    rendering: float


class Outbox:
    """A mailer that counts."""

    def __init__(self, counts: Counts) -> None:
        self.counts = counts

    def send(self, message: EmailMessage) -> str:
        self.counts.mails += 1
        return f"m{self.counts.mails}"


@contextmanager
def counted(counts: Counts) -> Iterator[None]:
    """Count every report rendered and every PNG drawn, wherever they are asked for."""
    render, draw = report_module.render_report, resvg_py.svg_to_bytes

    def report(*args: Any, **named: Any) -> Any:
        counts.reports += 1
        start = time.perf_counter()
        try:
            return render(*args, **named)
        finally:
            counts.rendering += time.perf_counter() - start

    def png(*args: Any, **named: Any) -> Any:
        counts.pngs += 1
        return draw(*args, **named)

    with (
        mock.patch.object(results_module, "render_report", report),
        mock.patch.object(resvg_py, "svg_to_bytes", png),
    ):
        yield


def new_game(store: Store, players: int) -> None:
    options = WarpWarOptions(map=MapSpec(players=players, hexes=max(400, 100 * players)), turn_limit=50)
    seats = [
        PlayerRecord(
            game_id=GAME, player_id=f"P{n}", name=f"Player {n}", address=f"p{n}@example.org", code_hash="x"
        )
        for n in range(1, players + 1)
    ]
    in_order = [Seat(player_id=p.player_id, name=p.name) for p in seats]
    state_json = warpwar_host.WarpWarTurns().new_state(GAME, options.model_dump_json(), in_order, 3)
    setup = GameSetup(options_json=options.model_dump_json(), seats=players)
    record = GameRecord(game_id=GAME, title="Bench", status="open", setup=setup, combat_mode="standing")
    store.create_game(due.start(record, state_json, START), seats, state_json)


def mail_orders(store: Store, now: datetime) -> None:
    """Each awaited player's player-turn orders, as the cadet writes them from their view."""
    game, state_json = store.state(GAME)
    state = GameState.model_validate_json(state_json)
    for scope, player in map(split_awaited, game.awaiting):
        if combat_parts(scope) is not None:
            continue
        text = robot.write_turn(player_view(state, player), robot.stream_for(state, player))
        submit_orders(store, GAME, state_json, player, text, now)


def run(players: int, game_turns: int, rule: str) -> Figures:
    """The game played until ``game_turns`` whole game-turns are done, under ``rule``."""
    counts = Counts()
    mapimage._pngs.clear()  # the same game is played under each rule: no PNG kept from the last
    told = (
        mock.patch.object(warpwar_host, "_told", lambda step: None) if rule == "everyone" else nullcontext()
    )
    with mock_aws(), told:
        described = resources("bench", region=REGION)
        dynamodb, s3 = boto3.client("dynamodb", region_name=REGION), boto3.client("s3", region_name=REGION)
        provision(described, dynamodb, s3)
        store = Store(described.settings(), dynamodb, s3)
        settings = store.settings
        new_game(store, players)
        mailer, now, seconds = Outbox(counts), START, 0.0
        with counted(counts):
            turns.process_game(GAME, now, store, mailer, settings)  # the opening
            base = Counts(counts.reports, counts.pngs, counts.mails, counts.rendering)
            while True:
                game = store.game(GAME)
                assert game is not None
                if game.turn > game_turns or game.status == "over":
                    break
                now += TICK
                mail_orders(store, now)
                start = time.perf_counter()
                turns.process_game(GAME, now, store, mailer, settings)
                seconds += time.perf_counter() - start
    return Figures(
        rule,
        players,
        game_turns,
        counts.reports - base.reports,
        counts.pngs - base.pngs,
        counts.mails - base.mails,
        seconds,
        counts.rendering - base.rendering,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--turns", type=int, default=3, help="game-turns counted")
    parser.add_argument("--quick", action="store_true", help="2 and 4 players, one game-turn")
    options = parser.parse_args(argv)
    sizes, game_turns = ([2, 4], 1) if options.quick else (options.players, options.turns)
    rows = []
    for players in sizes:
        for rule in RULES:
            f = run(players, game_turns, rule)
            per = f.turns
            rows.append(
                (
                    f.players,
                    f.rule,
                    f.reports,
                    f.pngs,
                    f.mails,
                    round(f.reports / per, 1),
                    round(1000 * f.seconds / per, 1),
                    round(1000 * f.rendering / per, 1),
                )
            )
    headers = ("players", "rule", "reports", "PNGs", "mails", "reports/turn", "ms/turn", "rendering ms/turn")
    print(f"{game_turns} game-turns each")
    print(table(headers, rows))
    print(machine())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
