"""Target 2: one game-turn of a large blind game in under a second.

    python -m benchmarks.large_blind_turn [--repeat N] [--quick]

8 players, Advanced, blind, on a generated map of 2,000+ hexes with 3,000 ships, 50 of the
battle stars contested in the game-turn (see ``benchmarks.large_game`` for how the state is
built). Timed: the whole game-turn, i.e. every player's player-turn (state copy, Build,
Movement, every round of every combat on standing orders, end of turn, knowledge, events)
and then every player's view, with Python's garbage collector on as in production. Also
reported: the views alone; the game-turn with the collector off, to show its share (a host
may tune it: see docs/performance.md); and the memory the game-turn needs at its peak
(tracemalloc, in a separate run: tracing slows Python down several times).

The script checks that the game-turn really had the ships and battles it claims.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from benchmarks.large_game import LargeGameSpec, build_large_game, play_game_turn
from benchmarks.timing import arguments, machine, measure, mib, ms, peak_memory, speed_note, table
from engine.warpwar.views import player_view

TARGET_SECONDS = 1.0
FULL = LargeGameSpec(players=8, ships=3000, battles=50, hexes=2000)
QUICK = LargeGameSpec(players=3, ships=90, battles=6, hexes=400)


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments("One game-turn of an 8-player blind game with 3,000 ships and 50 battles.", repeat=5)
    args = parser.parse_args(argv)
    spec, repeat = (QUICK, 1) if args.quick else (FULL, args.repeat)

    began = time.perf_counter()
    game = build_large_game(spec)
    built = time.perf_counter() - began
    result = play_game_turn(game)
    battles = result.count("combat-began")
    ships = len(game.state.ships)
    if ships != spec.ships or battles < spec.battles:
        raise SystemExit(f"expected {spec.ships} ships and {spec.battles} battles, got {ships} and {battles}")
    state = game.state
    facts = [
        f"map: {len(state.map.hexes):,} hexes, {len(state.map.stars)} stars; {len(state.players)} players, "
        f"blind, Advanced; state built in {built:.2f} s",
        f"game-turn: {ships:,} ships, {battles} battles, {result.rounds()} combat rounds, "
        f"{result.count('ship-destroyed')} ships destroyed, {result.count('ship-retreated')} escaped or "
        f"withdrew, {len(result.events):,} events; {len(result.state.ships):,} ships left",
    ]
    # Only the starting state stays alive while timing: the collector should not be paying for
    # this script's leftovers.
    del result

    whole = measure(lambda: play_game_turn(game), repeat)
    no_collector = measure(lambda: play_game_turn(game), repeat, collector=False)
    peak = peak_memory(lambda: play_game_turn(game))
    final = play_game_turn(game).state
    views = measure(lambda: [player_view(final, p.id) for p in final.players], repeat)

    print(f"machine: {machine()}; {speed_note()}")
    print("\n".join(facts))
    print()
    rows = [
        ("whole game-turn, views included", whole),
        (f"of which the {len(state.players)} views", views),
        ("the game-turn, GC off (diagnostic)", no_collector),
    ]
    cells = [(name, t.runs, ms(t.median), ms(t.best)) for name, t in rows]
    print(table(("timed", "runs", "median ms", "best ms"), cells))
    print(f"peak memory during the game-turn: {mib(peak):.1f} MiB (tracemalloc)")
    print()
    verdict = "met" if whole.median < TARGET_SECONDS else "NOT met"
    print(f"target: game-turn < {TARGET_SECONDS:.0f} s: {verdict} (median {whole.median:.3f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
