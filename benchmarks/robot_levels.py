"""How much better the admiral plays than the cadet: a table of wins on the classic map.

    python -m benchmarks.robot_levels [--games N] [--turn-limit T]

Each seed is played in both scenarios, the admiral moving first in even-numbered games and
second in odd ones, through the order language (``robot.play_turn``). A game that reaches the
turn limit is scored by the engine (most Bases, then most BP); a shared score counts as a draw.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Sequence

from engine.warpwar import robot
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.robot import Level
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage

ADMIRAL = PlayerSpec(id="Admiral", name="Admiral")
CADET = PlayerSpec(id="Cadet", name="Cadet")
LEVELS = {ADMIRAL.id: Level.ADMIRAL, CADET.id: Level.CADET}


def play(scenario: Scenario, seed: int, admiral_first: bool, turn_limit: int) -> GameState:
    """One admiral-against-cadet game on the classic map, played to its end."""
    players = (ADMIRAL, CADET) if admiral_first else (CADET, ADMIRAL)
    config = GameConfig(game_id=f"levels-{seed}", scenario=scenario, players=players, turn_limit=turn_limit)
    state = WarpWar().new_game(Setup(config=config), seed).state
    while state.stage is not Stage.OVER:
        state = robot.play_turn(state, LEVELS).state
    return state


def result(state: GameState) -> str:
    """``admiral``, ``cadet`` or ``draw``."""
    return "draw" if len(state.winners) != 1 else state.winners[0].lower()


def win_table(games: int, turn_limit: int) -> dict[Scenario, Counter[str]]:
    table: dict[Scenario, Counter[str]] = {}
    for scenario in Scenario:
        table[scenario] = Counter(
            result(play(scenario, seed, admiral_first=seed % 2 == 0, turn_limit=turn_limit))
            for seed in range(1, games + 1)
        )
    return table


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games per scenario (default 20)")
    parser.add_argument("--turn-limit", type=int, default=60, help="game-turns before scoring (default 60)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    table = win_table(args.games, args.turn_limit)
    print(f"admiral vs cadet, classic map, {args.games} games per scenario, turn limit {args.turn_limit}")
    print(f"{'scenario':<10} {'admiral':>8} {'cadet':>8} {'draw':>8}")
    for scenario, counts in table.items():
        print(f"{scenario.value:<10} {counts['admiral']:>8} {counts['cadet']:>8} {counts['draw']:>8}")
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
