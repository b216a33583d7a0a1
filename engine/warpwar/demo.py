"""The README's demo (``warpmail demo``): a whole WarpWar game between two computer commanders,
through the order language, with every player's results as they would be mailed.

Each robot writes its orders as a mail from its own view; the mail is parsed as the host parses
a player's and the engine plays the parsed orders. The log is the game turn by turn in the
rules' notation, with each order mail; after every game-turn each player's results (the report
and its map, with the orders sheet for the next turn at its end) go to ``report``, which the
command line renders into files (functions/demo.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core.demo import ReportSink
from engine.core.turnhost import Results
from engine.warpwar import robot
from engine.warpwar.events import AnyEvent
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.host import GAME_NAME
from engine.warpwar.lang.parser import ParsedOrders
from engine.warpwar.lang.printer import order_text
from engine.warpwar.lang.sheet import orders_sheet
from engine.warpwar.narrate import narrate
from engine.warpwar.orders import OrderResult
from engine.warpwar.picture import map_picture
from engine.warpwar.report import build_report
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.views import player_view

PLAYERS = (PlayerSpec(id="Red", name="Red Fleet"), PlayerSpec(id="Blue", name="Blue Fleet"))


@dataclass
class Demo:
    """What the demo needs between game-turns: the log so far, and per player the events and
    order results not yet reported."""

    report: ReportSink | None
    log: list[str] = field(default_factory=list)
    unreported: dict[str, list[AnyEvent]] = field(default_factory=dict)
    results: dict[str, list[OrderResult]] = field(default_factory=dict)
    orders: dict[str, list[str]] = field(default_factory=dict)

    def mail(self, text: str, parsed: ParsedOrders) -> None:
        self.log += ["   | " + line for line in text.rstrip().splitlines()]
        if not parsed.rounds:
            self.orders[parsed.turn.player] = [order_text(o) for o in parsed.turn.orders]

    def happened(self, player: str, events: list[AnyEvent], results: list[OrderResult]) -> None:
        self.log += narrate(events)
        for p in PLAYERS:
            self.unreported.setdefault(p.id, []).extend(events)
        self.results[player] = results

    def write_reports(self, state: GameState, turn: int) -> None:
        """Every player's results after game-turn ``turn``."""
        if self.report is None:
            return
        for spec in PLAYERS:
            view = player_view(state, spec.id)
            events = self.unreported.pop(spec.id, [])
            sheet = orders_sheet(view) if state.stage is not Stage.OVER else ""
            results = self.results.pop(spec.id, [])
            report = build_report(view, events, results, sheet, order_texts=self.orders.pop(spec.id, []))
            picture = map_picture(view, events)
            mailed = Results(
                subject=f"Turn {turn}",
                report=report,
                picture=picture,
                game_name=GAME_NAME,
                stem=spec.id.lower(),
            )
            self.report(turn, spec.id, mailed)


class WarpWarDemo:
    """WarpWar's robot demo (engine/core/demo.py ``RobotDemo``): the classic map, Red and Blue."""

    def play(
        self,
        scenario: str,
        seed: int,
        turn_limit: int,
        levels: Sequence[str],
        report: ReportSink | None = None,
    ) -> tuple[bool, list[str]]:
        by_seat = {spec.id: robot.Level(level) for spec, level in zip(PLAYERS, levels, strict=False)}
        state, log = play_demo(Scenario(scenario), seed, turn_limit, by_seat, report)
        return bool(state.winners), log


def play_demo(
    scenario: Scenario,
    seed: int,
    turn_limit: int,
    levels: robot.Levels | None = None,
    report: ReportSink | None = None,
) -> tuple[GameState, list[str]]:
    """A whole robot-vs-robot game; returns the final state and the game log."""
    config = GameConfig(
        game_id=f"demo-{scenario.value}-{seed}",
        scenario=scenario,
        visibility=Visibility.OPEN,
        players=PLAYERS,
        turn_limit=turn_limit,
    )
    demo = Demo(report=report)
    outcome = WarpWar().new_game(Setup(config=config), seed)
    demo.log += narrate(outcome.events)
    state = outcome.state
    while state.stage is not Stage.OVER:
        player, turn = state.active_player.id, state.turn
        outcome = robot.play_turn(state, levels, sent=demo.mail)
        demo.happened(player, outcome.events, outcome.results)
        state = outcome.state
        if state.active == 0 or state.stage is Stage.OVER:
            demo.write_reports(state, turn)
        if state.active == 0 and state.stage is not Stage.OVER:
            demo.log += _fleet_records(state)
    return state, demo.log


def _fleet_records(state: GameState) -> list[str]:
    lines = ["-- Fleets --"]
    for player in state.players:
        bases = ", ".join(
            f"{b.star}:{b.stockpile}BP"
            for b in sorted(state.bases.values(), key=lambda b: b.star)
            if b.owner == player.id
        )
        lines.append(f"  {player.id} Bases {bases or 'none'}")
        lines += [f"    {ship.location} {ship.record()}" for ship in state.own_ships(player.id)]
    return lines
