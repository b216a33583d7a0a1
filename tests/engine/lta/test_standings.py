"""The final standings: how the game ended, by the scenario's rule, and one row per player."""

from __future__ import annotations

import pytest

from engine.lta import robot
from engine.lta.events import ShotFired
from engine.lta.game import LighterThanAir
from engine.lta.scenarios import PlayerSpec, Setup, outcome
from engine.lta.standings import standings
from engine.lta.state import Airship, GameState, Phase, Scenario, Status
from engine.lta.tables import Cargo, ShipClass, Weapon
from tests.engine.lta.builders import cargo, game, gun, zeppelin

GAME = LighterThanAir()


def _finished(state: GameState) -> GameState:
    """The state as the engine ends it (engine/lta/turn.py): the scenario's own winners and why."""
    over = outcome(state)
    assert over is not None, "the state is not at an end"
    winners, reason = over
    return state.model_copy(update={"phase": Phase.OVER, "winners": winners, "ended": reason})


def _down(ship: Airship, status: Status = Status.DESTROYED, edge: str | None = None) -> Airship:
    return ship.model_copy(update={"status": status, "exit_edge": edge})


def test_standings_are_refused_while_the_game_goes_on() -> None:
    with pytest.raises(ValueError, match="not over"):
        standings(game((zeppelin("A1", "Red"), zeppelin("B1", "Blue", at=(3, 3)))))


def test_a_fleet_battle_won_by_elimination_ranks_the_last_fleet_flying_first() -> None:
    red = zeppelin("A1", "Red")
    blue = (zeppelin("B1", "Blue", at=(3, 3)), zeppelin("B2", "Blue", cls=ShipClass.SCOUT, at=(5, 3)))
    state = _finished(game((red, _down(blue[0]), _down(blue[1], Status.CRASHED))))
    result = standings(state)
    assert result.winners == ("Red",) and not result.draw
    assert result.ending == "Red (Red) wins: theirs is the one fleet left flying (interpretation 12)."
    first, second = result.sides
    assert (first.player, first.rank, first.winner, first.flying, first.lost) == ("Red", 1, True, 1, 0)
    assert first.points_flying == red.cost > 0
    assert (second.player, second.rank, second.flying, second.lost, second.points_flying) == (
        "Blue",
        2,
        0,
        2,
        0,
    )
    assert first.cargo_delivered is None and second.cargo_lost is None


def test_a_fleet_battle_at_the_turn_limit_is_won_on_the_resource_points_still_flying() -> None:
    red = zeppelin("A1", "Red")
    blue = zeppelin("B1", "Blue", cls=ShipClass.SCOUT, at=(3, 3))
    green = zeppelin("C1", "Green", cls=ShipClass.DESTROYER, at=(20, 3))
    state = _finished(
        game((blue, red, green), players=("Blue", "Red", "Green")).model_copy(update={"turn": 12})
    )
    result = standings(state)
    assert [s.player for s in result.sides] == ["Red", "Green", "Blue"]
    assert [s.rank for s in result.sides] == [1, 2, 3]
    assert [s.points_flying for s in result.sides] == [red.cost, green.cost, blue.cost]
    assert result.ending.startswith("Red (Red) wins after turn 12, the turn limit: their Zeppelins still")
    assert f"Red (Red) {red.cost} RP" in result.ending and f"Blue (Blue) {blue.cost} RP" in result.ending


def test_a_draw_at_the_turn_limit_is_said_so_and_the_tied_share_the_first_rank() -> None:
    red, blue = zeppelin("A1", "Red"), zeppelin("B1", "Blue", at=(3, 3))
    result = standings(_finished(game((red, blue)).model_copy(update={"turn": 12})))
    assert result.draw and result.winners == ("Red", "Blue")
    assert result.ending.startswith("A draw between Red (Red) and Blue (Blue) after turn 12, the turn limit")
    assert [(s.rank, s.winner) for s in result.sides] == [(1, True), (1, True)]


def test_a_game_with_no_zeppelin_left_flying_has_no_winner() -> None:
    red, blue = zeppelin("A1", "Red"), zeppelin("B1", "Blue", at=(3, 3))
    result = standings(_finished(game((_down(red), _down(blue, Status.CRASHED)))))
    assert result.winners == () and not result.draw
    assert result.ending == "Nobody wins: no Zeppelin is left flying (interpretation 12)."
    assert [s.rank for s in result.sides] == [1, 1]


def _convoy(*ships: Airship) -> GameState:
    state = game(ships, scenario=Scenario.CONVOY, sides={"Red": "convoy", "Blue": "raiders"})
    return state.model_copy(update={"convoy_cargo": 8})


FREIGHTER = zeppelin("A1", "Red", cls=ShipClass.FRIGATE, fittings=(cargo(Cargo.BULK_CARGO),) * 4)
RAIDER = zeppelin("B1", "Blue", fittings=(gun(Weapon.MACHINE_GUN),), at=(20, 3))


def test_a_convoy_won_counts_the_bulk_cargo_delivered_off_the_east_edge() -> None:
    other = zeppelin("A2", "Red", cls=ShipClass.FRIGATE, fittings=(cargo(Cargo.BULK_CARGO),) * 4, at=(2, 2))
    state = _finished(_convoy(_down(FREIGHTER, Status.DEPARTED, "E"), _down(other), RAIDER))
    result = standings(state)
    convoy, raiders = result.sides
    assert result.winners == ("Red",) and not result.draw
    assert result.ending == (
        "The convoy, Red (Red), wins when no Zeppelin of the convoy carrying Bulk Cargo was left "
        "flying on the map: it delivered 4 of its 8 Bulk Cargo off the east edge, at least half "
        "(interpretation 13)."
    )
    assert (convoy.player, convoy.rank, convoy.departed, convoy.lost, convoy.flying) == ("Red", 1, 1, 1, 0)
    assert (convoy.cargo_delivered, convoy.cargo_aboard, convoy.cargo_lost) == (4, 0, 4)
    assert (raiders.player, raiders.rank, raiders.flying, raiders.cargo_delivered) == ("Blue", 2, 1, None)


def test_a_convoy_lost_at_the_turn_limit_names_the_raiders_and_the_cargo_still_aboard() -> None:
    north = _down(FREIGHTER, Status.DEPARTED, "N")
    aboard = zeppelin("A2", "Red", cls=ShipClass.FRIGATE, fittings=(cargo(Cargo.BULK_CARGO),) * 4, at=(2, 2))
    state = _finished(_convoy(north, aboard, RAIDER).model_copy(update={"turn": 12}))
    result = standings(state)
    raiders, convoy = result.sides
    assert result.winners == ("Blue",) and not result.draw
    assert result.ending == (
        "The raiders, Blue (Blue), win after turn 12, the turn limit: the convoy delivered 0 of its "
        "8 Bulk Cargo off the east edge, less than half (interpretation 13)."
    )
    assert (raiders.rank, convoy.rank) == (1, 2)
    assert (convoy.cargo_delivered, convoy.cargo_aboard, convoy.cargo_lost) == (0, 4, 4)


@pytest.mark.parametrize("scenario", list(Scenario))
def test_robot_games_standings_agree_with_the_game_and_count_every_hit_scored(scenario: Scenario) -> None:
    players = tuple(PlayerSpec(id=f"P{i}", name=f"Captain {i}") for i in range(3))
    state = GAME.new_game(Setup(game_id="g", scenario=scenario, players=players), 9).state
    struck = dict.fromkeys((p.id for p in players), 0)
    while state.phase is not Phase.OVER:
        out = GAME.process(state, [robot.orders(GAME.view(state, p)) for p in GAME.awaiting(state)])
        for event in out.events:
            if isinstance(event, ShotFired) and event.hit:
                struck[state.ship(event.ship).owner] += 1  # type: ignore[union-attr]
        state = out.state
    result = standings(state)
    assert {s.player for s in result.sides if s.winner} == set(state.winners)
    assert {s.player: s.hits for s in result.sides} == struck and sum(struck.values()) > 0
    assert [s.rank for s in result.sides] == sorted(s.rank for s in result.sides)
    assert all(
        s.flying + s.departed + s.lost == sum(z.owner == s.player for z in state.ships) for s in result.sides
    )
