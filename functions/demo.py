"""The README's demo: a whole WarpWar game between two computer commanders, through the order
language, with every player's results written out as they would be mailed.

Each robot writes its orders as a mail from its own view; the mail is parsed as the host parses
a player's and the engine plays the parsed orders. The log printed is the game turn by turn in
the rules' notation, with each order mail; after every game-turn each player's report (text,
HTML, PNG and SVG map, JSON) is written to the output folder, with the orders sheet for the
next turn at its end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.warpwar import robot
from engine.warpwar.events import AnyEvent
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.lang.parser import ParsedOrders
from engine.warpwar.lang.printer import order_text
from engine.warpwar.lang.sheet import orders_sheet
from engine.warpwar.narrate import narrate
from engine.warpwar.orders import OrderResult
from engine.warpwar.picture import map_picture
from engine.warpwar.report import build_report
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.views import player_view
from functions.render.report import render_report

PLAYERS = (PlayerSpec(id="Red", name="Red Fleet"), PlayerSpec(id="Blue", name="Blue Fleet"))


@dataclass
class Demo:
    """What the demo needs between game-turns: the log so far, and per player the events and
    order results not yet reported."""

    out: Path | None
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
        if self.out is None:
            return
        folder = self.out / f"turn-{turn:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        for spec in PLAYERS:
            view = player_view(state, spec.id)
            events = self.unreported.pop(spec.id, [])
            sheet = orders_sheet(view) if state.stage is not Stage.OVER else ""
            results = self.results.pop(spec.id, [])
            report = build_report(view, events, results, sheet, order_texts=self.orders.pop(spec.id, []))
            rendered = render_report("warpwar", report, map_picture(view, events))
            stem = folder / spec.id.lower()
            stem.with_suffix(".txt").write_text(rendered.text, encoding="utf-8")
            stem.with_suffix(".html").write_text(rendered.html, encoding="utf-8")
            stem.with_suffix(".svg").write_text(rendered.svg, encoding="utf-8")
            stem.with_suffix(".json").write_text(rendered.json, encoding="utf-8")
            stem.with_suffix(".png").write_bytes(rendered.png)


def play_demo(
    scenario: Scenario,
    seed: int,
    turn_limit: int,
    levels: robot.Levels | None = None,
    out: Path | None = None,
) -> tuple[GameState, list[str]]:
    """A whole robot-vs-robot game; returns the final state and the game log."""
    config = GameConfig(
        game_id=f"demo-{scenario.value}-{seed}",
        scenario=scenario,
        visibility=Visibility.OPEN,
        players=PLAYERS,
        turn_limit=turn_limit,
    )
    demo = Demo(out=out)
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
