"""Target 3: how the time and memory of a game-turn grow with ships, players and battles.

    python -m benchmarks.scaling [--repeat N] [--quick]

Large blind games built as in ``benchmarks.large_game`` (generated map of 2,000 hexes), in
three sweeps from the 8-player, 3,000-ship, 50-battle game of ``benchmarks.large_blind_turn``:
ships (750 to 6,000), players (2 to 8) and battles (0 to 100). For each: the median time of a
whole game-turn (views included), the time per ship, the peak memory the game-turn needs on top
of its starting state (tracemalloc), and the memory the starting state itself holds. Times
are given as median and best: on a shared machine the best is the steadier measure of the
engine's own cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from benchmarks.large_game import LargeGameSpec, build_large_game, play_game_turn
from benchmarks.timing import (
    arguments,
    machine,
    measure,
    mib,
    ms,
    peak_memory,
    retained_memory,
    speed_note,
    table,
)

BASE = LargeGameSpec(players=8, ships=3000, battles=50, hexes=2000)
SWEEPS = {
    "ships": [replace(BASE, ships=n) for n in (750, 1500, 3000, 6000)],
    "players": [replace(BASE, players=n) for n in (2, 4, 8)],
    "battles": [replace(BASE, battles=n) for n in (0, 25, 50, 100)],
}
QUICK_BASE = LargeGameSpec(players=2, ships=40, battles=2, hexes=400)
QUICK_SWEEPS = {
    "ships": [replace(QUICK_BASE, ships=n) for n in (40, 80)],
    "players": [replace(QUICK_BASE, players=n, ships=60) for n in (2, 3)],
    "battles": [replace(QUICK_BASE, battles=n) for n in (0, 2)],
}


def measure_size(spec: LargeGameSpec, repeat: int) -> tuple[object, ...]:
    game, state_bytes = retained_memory(lambda: build_large_game(spec))
    result = play_game_turn(game)
    battles, rounds = result.count("combat-began"), result.rounds()
    del result  # only the starting state stays alive while timing
    timing = measure(lambda: play_game_turn(game), repeat)
    peak = peak_memory(lambda: play_game_turn(game))
    return (
        spec.players,
        spec.ships,
        battles,
        rounds,
        ms(timing.median),
        ms(timing.best),
        timing.best * 1e6 / spec.ships,
        mib(state_bytes),
        mib(peak),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments("Time and memory of a game-turn by ships, players and battles.", repeat=3)
    args = parser.parse_args(argv)
    sweeps, repeat = (QUICK_SWEEPS, 1) if args.quick else (SWEEPS, args.repeat)
    print(f"machine: {machine()}; {speed_note()}")
    headers = (
        "players",
        "ships",
        "battles",
        "rounds",
        "median ms",
        "best ms",
        "best us/ship",
        "state MiB",
        "peak MiB",
    )
    for name, specs in sweeps.items():
        print()
        print(f"by {name} ({repeat} game-turns each; peak: extra memory during one game-turn)")
        print(table(headers, [measure_size(spec, repeat) for spec in specs]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
