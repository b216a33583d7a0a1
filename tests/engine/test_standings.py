"""The end of a game (engine/warpwar/standings.py): how it ended and every side's standing, the
view with the fog of war lifted, and the history cut into game-turns for the replay."""

from __future__ import annotations

import pytest

from engine.warpwar import robot
from engine.warpwar.events import AnyEvent
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.orders import TurnOrders
from engine.warpwar.standings import (
    REVEALED,
    final_picture,
    final_view,
    frames,
    revealed_events,
    score,
    standings,
)
from engine.warpwar.state import (
    Base,
    GameConfig,
    GameState,
    Knowledge,
    PlayerSpec,
    Scenario,
    Stage,
    StarControl,
    Visibility,
)
from engine.warpwar.turn import submit_turn
from engine.warpwar.views import player_view
from tests.engine.builders import add_ship, make_state

RAIDER = "W1: TL0 PD=6 B=4 S=2"


def basic(turn_limit: int | None = None, visibility: Visibility = Visibility.OPEN) -> GameState:
    """P1 and P2 with one Base each (on 0101 and 1010), P1 to play, turn 2."""
    state = make_state(Scenario.BASIC, visibility, with_bases=False)
    for owner, star in (("P1", "0101"), ("P2", "1010")):
        state.bases[star] = Base(star=star, owner=owner)
        state.control[star] = StarControl(owner=owner, since_turn=0)
        state.knowledge[owner] = Knowledge(stars=sorted(s.hex for s in state.map.stars))
    config = state.config.model_copy(update={"turn_limit": turn_limit})
    return state.model_copy(update={"config": config})


def named(state: GameState, player: str, warpships: int) -> None:
    state.player(player).warpships_named = warpships


def finish(state: GameState) -> GameState:
    """P1's player-turn with no orders, then P2's: the end-of-turn checks run."""
    state = submit_turn(state, TurnOrders(player="P1")).state
    if state.stage is Stage.OVER:
        return state
    return submit_turn(state, TurnOrders(player="P2")).state


def test_a_base_left_to_the_enemy_ends_the_game_and_the_standings_say_so() -> None:
    # Given P1's raider alone at P2's only Base
    state = basic()
    add_ship(state, RAIDER, "P1", "1010")
    named(state, "P1", 1)
    # When P1's player-turn ends
    over = finish(state)
    # Then P2 is out and P1 wins by the rule of destroyed Bases
    result = standings(over)
    assert over.stage is Stage.OVER and result.winners == ("P1",) and not result.draw
    assert result.ending == "One (P1) wins: every enemy Base destroyed, the other sides eliminated."
    first, second = result.sides
    assert (first.player, first.winner, first.warpships, first.ships_built, first.ships_lost) == (
        "P1",
        True,
        1,
        1,
        0,
    )
    assert (second.player, second.eliminated, second.bases) == ("P2", True, 0)
    assert first.stars == 2 and first.star_value == 2 + 3  # Alpha, and Zeta taken with its Base


def test_the_turn_limit_goes_to_the_most_bp_when_bases_tie() -> None:
    state = basic(turn_limit=2)
    add_ship(state, RAIDER, "P1", "0101")
    over = finish(state)
    result = standings(over)
    assert result.winners == ("P1",)
    assert result.ending.startswith(
        "One (P1) wins at the turn limit (2 game-turns) on the most BP, Bases tied"
    )
    (_, ahead), (_, behind) = score(over, "P1"), score(over, "P2")
    assert ahead > behind
    assert f"One (P1) 1 Base, {ahead} BP; Two (P2) 1 Base, {behind} BP" in result.ending
    assert [s.player for s in result.sides] == ["P1", "P2"]


def test_the_turn_limit_goes_to_the_most_bases_first() -> None:
    state = basic(turn_limit=2)
    state.bases["0505"] = Base(star="0505", owner="P2")
    add_ship(state, RAIDER, "P1", "0101")
    result = standings(finish(state))
    assert result.winners == ("P2",)
    assert "Two (P2) wins at the turn limit (2 game-turns) on the most complete Bases" in result.ending
    assert result.sides[0].player == "P2" and result.sides[0].bases == 2


def test_a_tie_at_the_turn_limit_is_a_draw_and_says_by_which_measure() -> None:
    # Given the last player-turn of the game, both sides as strong
    state = basic(turn_limit=2)
    state.active = 1
    for base in state.bases.values():
        base.stockpile = 12
    result = standings(submit_turn(state, TurnOrders(player="P2")).state)
    assert result.draw and result.winners == ("P1", "P2")
    assert result.ending.startswith("A draw between One (P1) and Two (P2) at the turn limit (2 game-turns)")
    assert "tied on complete Bases and then on BP" in result.ending


def test_standings_wait_for_the_end() -> None:
    with pytest.raises(ValueError, match="not over"):
        standings(basic())


def test_the_final_view_lifts_the_fog_of_a_blind_game_the_player_view_keeps_it() -> None:
    # Given a blind game where P2 has a ship P1 has never seen
    state = basic(visibility=Visibility.BLIND)
    hidden = add_ship(state, RAIDER, "P2", "0808")
    # Then P1's view does not have it, the final view does (and names the game blind still)
    assert hidden.uid not in {s.ship for s in player_view(state, "P1").enemy_ships}
    view = final_view(state, "P1")
    assert hidden.uid in {s.ship for s in view.enemy_ships}
    assert view.visibility is Visibility.BLIND
    assert {s.hex: s.base_owner for s in view.stars}["1010"] == "P2"
    picture = final_picture(state, "P1")
    assert REVEALED in picture.subtitle
    assert any(hidden.uid in marker.title for marker in picture.markers)


def test_revealed_events_show_the_whole_record_to_everyone() -> None:
    state = basic(visibility=Visibility.BLIND)
    add_ship(state, RAIDER, "P2", "0808")
    events: list[AnyEvent] = list(submit_turn(state, TurnOrders(player="P1")).events)
    shown = revealed_events(state, events)
    assert shown and all(e.visible_to == ("P1", "P2") and not e.redacted for e in shown)
    assert len(shown) == sum(not e.redacted for e in events)


def test_frames_cut_a_game_into_its_game_turns() -> None:
    # Given a robot game of three game-turns, step by step
    config = GameConfig(
        game_id="f",
        scenario=Scenario.BASIC,
        players=(PlayerSpec(id="A", name="A"), PlayerSpec(id="B", name="B")),
        turn_limit=3,
    )
    opening = WarpWar().new_game(Setup(config=config), 5)
    steps: list[tuple[GameState, list[AnyEvent]]] = [(opening.state, list(opening.events))]
    state = opening.state
    while state.stage is not Stage.OVER:
        outcome = robot.play_turn(state)
        state = outcome.state
        steps.append((state, list(outcome.events)))
    # When it is cut into game-turns
    cut = frames(steps)
    # Then one frame a game-turn, each with its own events, the last at the end of the game
    assert [f.turn for f in cut] == [1, 2, 3]
    assert all(e.turn == f.turn for f in cut for e in f.events)
    assert sum(len(f.events) for f in cut) == sum(len(events) for _, events in steps)
    assert cut[-1].state is state and cut[-1].state.stage is Stage.OVER
    assert all(f.state.turn in (f.turn, f.turn + 1) for f in cut)
