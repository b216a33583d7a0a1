"""The ``warpmail`` command line.

``warpmail demo`` plays a complete WarpWar game on the classic map between two computer
commanders and prints it turn by turn, in the rules' notation.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine.warpwar import robot
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.narrate import narrate
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.turn import Outcome


def play_demo(scenario: Scenario, seed: int, turn_limit: int) -> tuple[GameState, list[str]]:
    """A whole robot-vs-robot game; returns the final state and the game log."""
    config = GameConfig(
        game_id=f"demo-{scenario.value}-{seed}",
        scenario=scenario,
        visibility=Visibility.OPEN,
        players=(PlayerSpec(id="Red", name="Red Fleet"), PlayerSpec(id="Blue", name="Blue Fleet")),
        turn_limit=turn_limit,
    )
    outcome: Outcome = WarpWar().new_game(Setup(config=config), seed)
    log = narrate(outcome.events)
    state = outcome.state
    while state.stage is not Stage.OVER:
        outcome = robot.play_turn(state)
        log += narrate(outcome.events)
        state = outcome.state
        if state.active == 0 and state.stage is not Stage.OVER:
            log += _fleet_records(state)
    return state, log


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="warpmail", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="play a robot-vs-robot game on the classic map")
    demo.add_argument("--scenario", choices=[s.value for s in Scenario], default=Scenario.BASIC.value)
    demo.add_argument("--seed", type=int, default=4)
    demo.add_argument("--turn-limit", type=int, default=80)
    args = parser.parse_args(argv)
    state, log = play_demo(Scenario(args.scenario), args.seed, args.turn_limit)
    sys.stdout.write("\n".join(log) + "\n")
    return 0 if state.winners else 1


if __name__ == "__main__":
    raise SystemExit(main())
