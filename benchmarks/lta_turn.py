"""Lighter Than Air: what a host pays per order phase, and a 100-game robot soak.

    python -m benchmarks.lta_turn [--games N] [--soak N]

Phases: ``--games`` (10) whole fleet-battle games between robots, for 2 and for 6 players, each
played as the turn service plays it (engine/lta/host.py ``LtaTurns``: the state as JSON in and
out of every call). Timed, each call on its own: every robot's orders for a phase (written from
its view and read back as a mail is), the phase played (``play``: the movement step, or the
combat step with wind, combat, damage, repairs and the next initiative), and every player's
results of it as data (``Played.results``: report model, map picture, pages). Median and 95th
percentile over every phase of every game.

Soak: ``--soak`` (100) robot games on the engine itself (no JSON between phases), both scenarios,
2 to 6 players; then every roll of every player is recomputed from the revealed seed and every
commitment checked (docs/lta-dice.md). Games a second, with and without the checking.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence

from benchmarks.timing import machine, table
from engine.core.rng import Rng
from engine.core.turnhost import Deadlines, Seat
from engine.lta import robot
from engine.lta.dice import commitment
from engine.lta.game import LighterThanAir
from engine.lta.host import LtaTurns
from engine.lta.scenarios import PlayerSpec, Setup
from engine.lta.state import GameState, Phase, Scenario
from engine.lta.views import player_view

DEADLINES = Deadlines(turn="Friday 14 March, 18:00 UTC", round="Saturday 15 March, 18:00 UTC")


def p95(samples: Sequence[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def host_phases(players: int, games: int) -> dict[str, list[float]]:
    """Seconds per call, by what was timed, over ``games`` robot games through ``LtaTurns``."""
    host = LtaTurns()
    seats = [Seat(player_id=f"P{i + 1}", name=f"Captain {i + 1}") for i in range(players)]
    times: dict[str, list[float]] = {"robots, movement": [], "robots, combat": []}
    times |= {"play, movement": [], "play, combat": [], "results, every player": []}
    for game in range(games):
        state = host.new_state("bench", json.dumps({"scenario": "fleet"}), seats, 100 + game)
        while (pending := host.pending(state, "cycle", "mail")) is not None:
            phase = "movement" if pending.clock == "turn" else "combat"
            start = time.perf_counter()
            orders = {}
            for wanted in pending.wants:
                [(part, _)] = host.robot_orders(state, wanted.player, "cadet", [wanted.scope])
                orders[wanted] = part.orders_json
            times[f"robots, {phase}"].append(time.perf_counter() - start)
            start = time.perf_counter()
            played = host.play(state, pending, orders)
            times[f"play, {phase}"].append(time.perf_counter() - start)
            start = time.perf_counter()
            for seat in seats:
                played.results(seat.player_id, DEADLINES)
            times["results, every player"].append(time.perf_counter() - start)
            state = played.state_json
    return times


def soak_game(number: int) -> GameState:
    lta = LighterThanAir()
    players = 2 + number % 5
    scenario = Scenario.CONVOY if number % 2 else Scenario.FLEET_BATTLE
    specs = tuple(PlayerSpec(id=f"P{i + 1}", name=f"Captain {i + 1}") for i in range(players))
    state = lta.new_game(Setup(game_id="soak", scenario=scenario, players=specs), 1000 + number).state
    while state.phase is not Phase.OVER:
        state = lta.process(state, [robot.orders(player_view(state, p)) for p in lta.awaiting(state)]).state
    return state


def verified(state: GameState) -> int:
    """Rolls recomputed from the revealed seeds; raises on any that does not match."""
    count = 0
    for player in state.players:
        if commitment(player.id, player.seed) != player.commitment:
            raise AssertionError(f"{player.id}'s seed does not match its commitment")
        rng = Rng(player.seed)
        for n, roll in enumerate(player.rolls, start=1):
            if (roll.n, roll.value) != (n, rng.d(roll.sides)):
                raise AssertionError(f"{player.id}'s roll {n} does not match its seed")
            count += 1
    return count


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10, help="robot games per size, phases timed")
    parser.add_argument("--soak", type=int, default=100, help="robot games in the soak")
    options = parser.parse_args(argv)
    rows = []
    for players in (2, 6):
        for what, samples in host_phases(players, options.games).items():
            ms = [1000 * s for s in samples]
            rows.append((players, what, len(ms), round(statistics.median(ms), 2), round(p95(ms), 2)))
    print(f"{options.games} fleet-battle games each, through LtaTurns (ms per call)")
    print(table(("players", "timed", "calls", "median ms", "p95 ms"), rows))
    start = time.perf_counter()
    finals = [soak_game(n) for n in range(options.soak)]
    played = time.perf_counter() - start
    start = time.perf_counter()
    rolls = sum(verified(state) for state in finals)
    checking = time.perf_counter() - start
    phases = sum(2 * s.turn for s in finals)  # a game ends only after a turn's combat
    print()
    print(f"soak: {options.soak} robot games, {phases} phases, {rolls} rolls re-verified")
    print(
        table(
            ("", "seconds", "games/s"),
            [
                ("played", round(played, 2), round(options.soak / played, 1)),
                (
                    "played and every roll re-verified",
                    round(played + checking, 2),
                    round(options.soak / (played + checking), 1),
                ),
            ],
        )
    )
    print(machine())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
