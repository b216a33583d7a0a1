"""Target 4: render all artefacts of one player's report: < 150 ms classic map, < 1 s at 2,000 hexes.

    python -m benchmarks.render_report [--repeat N] [--quick]

Timed, per player report: the report model and the map picture built from the player's view and
events, then the text and HTML (Jinja2 templates), the map as SVG and as PNG (that SVG rendered
by resvg), and the JSON. Two games:

* classic: the scripted sample game (engine/warpwar/sample.py): Red's report at the start of
  turn 3, after two combats (the report in docs/report-sample.*).
* large: the large-game benchmark's blind 8-player game on a generated map of 2,000+ hexes with
  3,000 ships (benchmarks/large_game.py), after one game-turn with 50 battles; P1's report of
  that game-turn (its own ~375 ships, what it has seen, every event it may see).

Also printed: the size of each artefact, so a mail's weight is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from benchmarks.large_game import LargeGameSpec, build_large_game, play_game_turn
from benchmarks.timing import arguments, machine, measure, ms, speed_note, table
from engine.warpwar.events import AnyEvent
from engine.warpwar.orders import OrderResult
from engine.warpwar.picture import map_picture
from engine.warpwar.report import build_report
from engine.warpwar.sample import SAMPLE_DEADLINE, SAMPLE_SHEET, sample_game
from engine.warpwar.views import PlayerView, player_view
from functions.render.report import RenderedReport, render_report

CLASSIC_TARGET = 0.150
LARGE_TARGET = 1.0
LARGE = LargeGameSpec(players=8, ships=3000, battles=50, hexes=2000)
QUICK = LargeGameSpec(players=3, ships=90, battles=6, hexes=400)


@dataclass(frozen=True)
class Case:
    name: str
    view: PlayerView
    events: Sequence[AnyEvent]
    results: Sequence[OrderResult]
    target: float


def render_all(case: Case) -> RenderedReport:
    """Everything one player's results mail needs, from view and events to every artefact."""
    report = build_report(case.view, case.events, case.results, SAMPLE_SHEET, SAMPLE_DEADLINE)
    return render_report("warpwar", report, map_picture(case.view, case.events))


def classic_case() -> Case:
    game = sample_game()
    return Case("classic map (322 hexes)", game.view(), game.events, game.results, CLASSIC_TARGET)


def large_case(spec: LargeGameSpec) -> Case:
    game = build_large_game(spec)
    turn = play_game_turn(game)
    hexes = len(turn.state.map.hexes)
    view = player_view(turn.state, "P1")
    return Case(f"generated map ({hexes:,} hexes)", view, turn.events, (), LARGE_TARGET)


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments("Render every artefact of one player's report (text, HTML, PNG, SVG, JSON).", 20)
    args = parser.parse_args(argv)
    repeat = 2 if args.quick else args.repeat
    cases = [classic_case(), large_case(QUICK if args.quick else LARGE)]

    print(f"machine: {machine()}; {speed_note()}")
    rows = []
    sizes = []
    verdicts = []
    for case in cases:
        timing = measure(partial(render_all, case), repeat)
        out = render_all(case)
        rows.append((case.name, timing.runs, ms(timing.median), ms(timing.best)))
        sizes.append(
            (case.name, len(case.view.own_ships), len(out.text), len(out.html), len(out.png), len(out.svg),
             len(out.json))
        )  # fmt: skip
        met = "met" if timing.median < case.target else "NOT met"
        verdicts.append(
            f"target: {case.name} < {ms(case.target):.0f} ms: {met} (median {ms(timing.median):.1f} ms)"
        )
    print(table(("all artefacts of one report", "runs", "median ms", "best ms"), rows))
    print()
    print(table(("sizes in bytes", "own ships", "text", "HTML", "PNG", "SVG", "JSON"), sizes))
    print()
    print("\n".join(verdicts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
