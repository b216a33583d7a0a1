"""Rendering per game-turn (issue 15): a sequential game of N players renders and mails each
player about twice a game-turn (after their own player-turn, and when their next one begins),
not N times; a player told nothing gets the steps they missed joined into their next mail; the
map's PNG is drawn once per distinct picture in a process."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from benchmarks.mailed import submit_orders
from engine.core.picture import Picture
from engine.core.turnhost import Deadlines, Results, Seat
from engine.warpwar import host as warpwar_host
from engine.warpwar import robot
from engine.warpwar.events import AnyEvent
from engine.warpwar.mapgen import MapSpec
from engine.warpwar.options import WarpWarOptions
from engine.warpwar.picture import map_picture
from engine.warpwar.report import Report
from engine.warpwar.sample import sample_game
from engine.warpwar.state import GameState
from engine.warpwar.views import player_view
from functions.host import due, turns
from functions.host.deadlines import deadline_text
from functions.mail.ses import Mailer
from functions.render import mapimage
from functions.render import results as render_results
from functions.render.report import RenderedReport
from functions.store import GameRecord, GameSetup, PlayerRecord, Store, split_awaited

GAME = "four"
PLAYERS = ("P1", "P2", "P3", "P4")
START = datetime(2025, 3, 1, 12, tzinfo=UTC)
TICK = timedelta(minutes=10)


@dataclass(frozen=True)
class Render:
    player: str
    events: tuple[AnyEvent, ...]
    deadlines: Deadlines


@dataclass
class Watch:
    """Every report rendered (whose, from which events, with which deadlines) and every mail."""

    renders: list[Render] = field(default_factory=list)
    mails: list[str] = field(default_factory=list)

    def send(self, message: EmailMessage) -> str:
        self.mails.append(str(message["To"]).split("@")[0].upper())
        return f"m{len(self.mails)}"


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Watch:
    watched = Watch()
    results_of = warpwar_host.results_of

    def noted(
        player: str, state: GameState, events: Sequence[AnyEvent], *rest: object, **named: object
    ) -> Results:
        deadlines = rest[-1] if rest else named["deadlines"]
        assert isinstance(deadlines, Deadlines)
        watched.renders.append(Render(player, tuple(events), deadlines))
        return results_of(player, state, events, *rest, **named)  # type: ignore[arg-type]

    def quick(game: str, report: Report, picture: Picture, templates: Path) -> RenderedReport:
        """The map not drawn (test_map_png draws it): here only who is rendered counts."""
        return RenderedReport(text=report.sheet, html="<p></p>", png=b"", svg="", json="{}")

    monkeypatch.setattr(warpwar_host, "results_of", noted)
    monkeypatch.setattr(render_results, "render_report", quick)
    return watched


def new_game(store: Store) -> None:
    options = WarpWarOptions(map=MapSpec(players=len(PLAYERS), hexes=400), turn_limit=20)
    seats = [
        PlayerRecord(game_id=GAME, player_id=p, name=p, address=f"{p.lower()}@example.org", code_hash="x")
        for p in PLAYERS
    ]
    in_order = [Seat(player_id=p.player_id, name=p.name) for p in seats]
    state_json = warpwar_host.WarpWarTurns().new_state(GAME, options.model_dump_json(), in_order, 3)
    setup = GameSetup(options_json=options.model_dump_json(), seats=len(PLAYERS))
    record = GameRecord(game_id=GAME, title="Four", status="open", setup=setup, combat_mode="standing")
    store.create_game(due.start(record, state_json, START), seats, state_json)


def play_one_player_turn(store: Store, mailer: Mailer, now: datetime) -> str:
    """The awaited player mails the cadet's orders and the game is processed: one step. Returns
    the player whose player-turn it was."""
    game, state_json = store.state(GAME)
    state = GameState.model_validate_json(state_json)
    (_, player), *_ = map(split_awaited, game.awaiting)
    text = robot.write_turn(player_view(state, player), robot.stream_for(state, player))
    submit_orders(store, GAME, state_json, player, text, now)
    summary = turns.process_game(GAME, now, store, mailer, store.settings)
    assert summary.steps == 1, summary
    return player


def test_a_four_player_game_turn_renders_each_player_twice_and_joins_what_they_missed(
    store: Store, watch: Watch
) -> None:
    # Given a four-player sequential game whose opening mailed everyone
    new_game(store)
    turns.process_game(GAME, START, store, watch, store.settings)
    assert sorted(r.player for r in watch.renders) == list(PLAYERS)
    watch.renders.clear()
    watch.mails.clear()
    # When every player plays their player-turn of game-turn 1
    now, steps = START, []
    for _ in PLAYERS:
        now += TICK
        before = len(watch.renders)
        actor = play_one_player_turn(store, watch, now)
        game = store.game(GAME)
        assert game is not None
        steps.append((actor, game, watch.renders[before:]))
    # Then each step rendered (and mailed) two players: the one who played, the one whose
    # player-turn began; 8 reports for the game-turn, not 16
    assert len(watch.renders) == len(watch.mails) == 2 * len(PLAYERS)
    assert [actor for actor, _, _ in steps] == list(PLAYERS)
    own = {}
    for actor, game, renders in steps:
        awaited = split_awaited(game.awaiting[0])[1]
        assert sorted(r.player for r in renders) == sorted({actor, awaited})
        # the player whose turn it now is gets their sheet with their deadline
        mine = next(r for r in renders if r.player == awaited)
        assert mine.deadlines.turn == deadline_text(game.deadline, "UTC") is not None
        # (the actor's mail tells exactly their step: they were told at its start)
        own[actor] = next(r.events for r in renders if r.player == actor)
    # and P4, told nothing by P1's and P2's steps, got every step since the opening when its
    # player-turn began
    first_to_p4 = next(r for r in watch.renders if r.player == "P4")
    assert all(own[p] for p in PLAYERS[:3])
    assert first_to_p4.events == own["P1"] + own["P2"] + own["P3"]


class Broken:
    """A mailer that fails, as SES does when it is down."""

    def send(self, message: EmailMessage) -> str:
        raise ConnectionError("SES unreachable")


def test_a_retry_after_a_crash_mails_the_players_told_once_with_what_they_missed(
    store: Store, watch: Watch
) -> None:
    # Given a four-player game past its opening and P1's player-turn
    new_game(store)
    turns.process_game(GAME, START, store, watch, store.settings)
    play_one_player_turn(store, watch, START + TICK)
    p1_step = next(r.events for r in watch.renders if r.player == "P1" and r.events)
    # and P2's player-turn committed by an attempt whose mailer failed
    watch.renders.clear()
    watch.mails.clear()
    with pytest.raises(ConnectionError):
        play_one_player_turn(store, Broken(), START + 2 * TICK)
    # When the workflow retries, then runs once more
    retried = turns.process_game(GAME, START + 2 * TICK, store, watch, store.settings)
    again = turns.process_game(GAME, START + 2 * TICK, store, watch, store.settings)
    # Then the retry mails P2 (who played) and P3 (whose turn begins) once each, P3's mail
    # beginning with P1's player-turn, which P3 was not told; the next run mails nothing
    assert (retried.steps, retried.mails, again.mails) == (0, 2, 0)
    assert sorted(watch.mails) == ["P2", "P3"]
    to_p3 = next(r for r in watch.renders if r.player == "P3")
    assert to_p3.events[: len(p1_step)] == p1_step and len(to_p3.events) > len(p1_step)


def test_the_map_png_is_drawn_once_per_distinct_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given two maps' SVGs no other test draws, and resvg counted
    game = sample_game()
    sample = mapimage.svg_text(mapimage.canvas(map_picture(game.view("Red"), game.events)))
    svg, other = (sample.replace("</svg>", f"<!-- {name} --></svg>") for name in ("once", "other"))
    drawn: list[str] = []
    draw = mapimage.draw_png

    def counted(text: str) -> bytes:
        drawn.append(text)
        return draw(text)

    monkeypatch.setattr(mapimage, "draw_png", counted)
    # When each is asked for twice, the first again after the other
    first, second, again, other_again = (mapimage.png_bytes(s) for s in (svg, other, svg, other))
    # Then each was drawn once, and the PNG kept is the bytes resvg draws
    assert drawn == [svg, other]
    assert first == again == draw(svg)
    assert second == other_again
