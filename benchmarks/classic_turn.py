"""Target 1: one full game-turn of a 2-player Advanced game on the classic map, at game-turn 20.

    python -m benchmarks.classic_turn [--repeat N] [--turn T] [--quick]

The state is built by robots (``robot.play_turn``) playing from a fixed seed up to the start of
game-turn ``T`` (20); the first seed, from 1 up, whose game is still going then and has combat
in that game-turn is used. The robots then play that game-turn once while their decisions are
recorded: each player's turn orders and every combat round's orders.

What is timed:

* engine: the game-turn replayed from the saved state with the recorded decisions, i.e. one
  ``play_player_turn`` per player (state copy, Build, Movement, every combat round, end of
  turn, knowledge, events), replay after replay as a host works through game-turns, the
  garbage collector running when its thresholds say. This is what a host pays per game-turn;
  the target is 500 a second.
* engine, cold: the same, each replay after a full collection, which leaves the processor's
  caches cold (how the benchmark timed it until 2026-11-22; shown for comparison).
* robots: the robots' thinking alone for that game-turn (their views and their decisions).
* self-play: ``robot.play_turn`` for each player, robots and engine together.

The replayed game-turn is checked to end in exactly the state the recorded one did.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.timing import arguments, machine, measure, ms, speed_note, table
from engine.core.rng import Rng
from engine.warpwar import robot
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.orders import RoundOrders, TurnOrders
from engine.warpwar.state import Combat, GameConfig, GameState, PlayerSpec, Scenario, Stage
from engine.warpwar.turn import Outcome, play_player_turn
from engine.warpwar.views import player_view

PLAYERS = (PlayerSpec(id="P1", name="One"), PlayerSpec(id="P2", name="Two"))
TARGET_PER_SECOND = 500
SEEDS = range(1, 21)

RoundKey = tuple[str, str, int]
"""Whose player-turn, which star, which round."""


@dataclass
class RecordedTurn:
    """A game-turn as the robots played it: where it started, what they decided, how it ended."""

    seed: int
    start: GameState
    orders: list[TurnOrders]
    rounds: dict[RoundKey, list[RoundOrders]]
    final_json: str
    events: int
    combats: int
    robot_seconds: float


def new_state(seed: int) -> GameState:
    config = GameConfig(game_id=f"bench-{seed}", scenario=Scenario.ADVANCED, players=PLAYERS)
    return WarpWar().new_game(Setup(config=config), seed).state


def play_to(state: GameState, turn: int) -> GameState | None:
    """Robots play until game-turn ``turn`` begins; None if the game ended first."""
    while state.stage is not Stage.OVER and state.turn < turn:
        state = robot.play_turn(state).state
    return state if state.stage is Stage.ORDERS and state.active == 0 else None


def record_turn(seed: int, start: GameState) -> RecordedTurn:
    """The robots play one game-turn from ``start``; their decisions and thinking time are kept."""
    rounds: dict[RoundKey, list[RoundOrders]] = {}
    thinking = 0.0

    def robots_fight(state: GameState, combat: Combat) -> list[RoundOrders]:
        nonlocal thinking
        began = time.perf_counter()
        decided = robot.rounds_for(state, combat)
        thinking += time.perf_counter() - began
        rounds[(state.active_player.id, combat.star, combat.round)] = decided
        return decided

    state = start
    orders: list[TurnOrders] = []
    events = combats = 0
    for _ in start.players:
        player = state.active_player.id
        began = time.perf_counter()
        rng = Rng(state.seed).derive(f"benchmark/{player}/{state.turn}")
        orders.append(robot.turn_orders(player_view(state, player), rng))
        thinking += time.perf_counter() - began
        outcome = play_player_turn(state, orders[-1], robots_fight)
        events += len(outcome.events)
        combats += sum(e.kind == "combat-began" for e in outcome.events)
        state = outcome.state
    return RecordedTurn(seed, start, orders, rounds, state.model_dump_json(), events, combats, thinking)


def replay(turn: RecordedTurn) -> list[Outcome]:
    """The engine's work for the game-turn, with every decision already made."""

    def recorded(state: GameState, combat: Combat) -> Sequence[RoundOrders]:
        return turn.rounds[(state.active_player.id, combat.star, combat.round)]

    state = turn.start
    outcomes = []
    for orders in turn.orders:
        outcomes.append(play_player_turn(state, orders, recorded))
        state = outcomes[-1].state
    return outcomes


def self_play(start: GameState) -> GameState:
    state = start
    for _ in start.players:
        state = robot.play_turn(state).state
    return state


def find_turn(turn: int, seeds: Sequence[int] = SEEDS) -> RecordedTurn:
    """The first seed whose game reaches game-turn ``turn`` and fights in it (else the first that
    merely reaches it)."""
    fallback: RecordedTurn | None = None
    for seed in seeds:
        state = play_to(new_state(seed), turn)
        if state is None:
            continue
        recorded = record_turn(seed, state)
        if recorded.combats:
            return recorded
        fallback = fallback or recorded
    if fallback is None:
        raise SystemExit(f"no seed in {seeds} reaches game-turn {turn}: the robots always finish sooner")
    return fallback


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments("One game-turn of a 2-player Advanced game on the classic map.", repeat=200)
    parser.add_argument("--turn", type=int, default=20, help="the game-turn to time (default 20)")
    args = parser.parse_args(argv)
    turn, repeat, seeds = (3, 3, SEEDS[:1]) if args.quick else (args.turn, args.repeat, SEEDS)

    recorded = find_turn(turn, seeds)
    if replay(recorded)[-1].state.model_dump_json() != recorded.final_json:
        raise SystemExit("the replayed game-turn did not end where the recorded one did")
    engine = measure(lambda: replay(recorded), repeat, back_to_back=True)
    cold = measure(lambda: replay(recorded), repeat)
    robots = sorted(
        record_turn(recorded.seed, recorded.start).robot_seconds for _ in range(max(1, repeat // 10))
    )
    robots_median = robots[len(robots) // 2]
    both = measure(lambda: self_play(recorded.start), max(1, repeat // 10))

    start = recorded.start
    print(f"machine: {machine()}; {speed_note()}")
    print(
        f"classic map, 2 players, Advanced, seed {recorded.seed}, game-turn {start.turn}: "
        f"{len(start.ships)} ships, {recorded.events} events, {recorded.combats} combats, "
        f"{len(recorded.rounds)} combat rounds"
    )
    print()
    rows = [
        ("engine: one game-turn", engine.runs, ms(engine.median), ms(engine.best), engine.per_second),
        ("engine, cold: after a full GC", cold.runs, ms(cold.median), ms(cold.best), cold.per_second),
        ("robots: their decisions", len(robots), ms(robots_median), ms(robots[0]), 1 / robots_median),
        ("self-play: robot.play_turn", both.runs, ms(both.median), ms(both.best), both.per_second),
    ]
    print(table(("game-turn", "runs", "median ms", "best ms", "game-turns/s"), rows))
    print()
    verdict = "met" if engine.per_second >= TARGET_PER_SECOND else "NOT met"
    print(f"target: >= {TARGET_PER_SECOND} engine game-turns/s: {verdict} ({engine.per_second:,.0f}/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
