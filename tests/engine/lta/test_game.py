"""The Game protocol, the turn sequence, initiative, scenarios and victory, and whole games."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.core.game import Game
from engine.core.rng import Rng
from engine.lta import robot
from engine.lta.dice import Dice
from engine.lta.fleet import Design
from engine.lta.game import LighterThanAir
from engine.lta.hexmap import COLUMNS, MAX_ALTITUDE, ROWS, Facing, on_map
from engine.lta.orders import CombatOrders, FireOrder, MovementOrders, MoveOrder, Submission
from engine.lta.scenarios import MAX_FLEET, Setup, outcome
from engine.lta.state import GameState, Phase, Scenario, Status
from engine.lta.tables import Cargo, ShipClass, Weapon
from engine.lta.turn import _rank, play_movement
from engine.lta.views import PlayerView
from tests.engine.lta.builders import cargo, game, gun, seed_opening, zeppelin

GAME = LighterThanAir()
TYPED: Game[Setup, GameState, Submission, PlayerView] = GAME


def _setup(n: int = 2, scenario: Scenario = Scenario.FLEET_BATTLE, **kw: object) -> Setup:
    return Setup.model_validate(
        {
            "game_id": "g",
            "scenario": scenario,
            "players": [{"id": f"P{i}", "name": f"P{i}"} for i in range(n)],
            **kw,
        }
    )


@pytest.mark.parametrize("scenario", list(Scenario))
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_a_new_game_places_every_fleet_on_the_map_apart_and_awaits_movement_orders(
    scenario: Scenario, n: int
) -> None:
    state = TYPED.new_game(_setup(n, scenario), 1).state
    assert GAME.waiting(state).phase is Phase.MOVEMENT and TYPED.awaiting(state) == [
        f"P{i}" for i in range(n)
    ]
    places = [(s.col, s.row, s.altitude) for s in state.ships]
    assert len(set(places)) == len(places) and all(on_map(c, r) for c, r, _ in places)
    assert {s.owner for s in state.ships} == {f"P{i}" for i in range(n)}
    assert state.initiative.winner == state.initiative.ranking[0] == state.initiative.chooser


def test_interpretation_8_ties_are_re_rolled_among_the_tied_only() -> None:
    """Interpretation 8: "All ties are re-rolled"."""
    dice = Dice(
        {
            "Red": seed_opening((6, 4), (6, 2)),
            "Blue": seed_opening((6, 4), (6, 5)),
            "Green": seed_opening((6, 6)),
        },
        {},
        1,
        "initiative",
    )
    assert _rank(["Red", "Blue", "Green"], dice, "initiative") == ["Green", "Blue", "Red"]
    assert [(r.stream, r.purpose) for r in dice.rolled] == [
        ("Red", "initiative"),
        ("Blue", "initiative"),
        ("Green", "initiative"),
        ("Red", "initiative re-roll"),
        ("Blue", "initiative re-roll"),
    ]


def test_interpretation_8_the_chooser_moving_last_reverses_the_order_and_others_choices_are_ignored() -> None:
    state = TYPED.new_game(_setup(3), 2).state
    chooser = state.initiative.chooser
    others = [p for p in state.initiative.ranking if p != chooser]
    orders = [MovementOrders(player=chooser, initiative="last")] + [
        MovementOrders(player=p, initiative="first") for p in others
    ]
    after = TYPED.process(state, orders).state
    assert after.initiative.choice == "last" and after.initiative.order == tuple(
        reversed(state.initiative.ranking)
    )
    unchosen = TYPED.process(state, [MovementOrders(player=p, initiative="last") for p in others]).state
    assert unchosen.initiative.order == state.initiative.ranking


def test_interpretation_8_on_later_turns_the_previous_winner_chooses() -> None:
    state = TYPED.new_game(_setup(3), 5).state
    for _ in range(3):
        winner = state.initiative.winner
        state = TYPED.process(TYPED.process(state, []).state, []).state
        assert state.turn > 1 and state.initiative.chooser == winner


def test_interpretation_8_the_earlier_mover_takes_the_hex() -> None:
    red = zeppelin("A1", "Red", at=(10, 10), facing=Facing.N)
    blue = zeppelin("B1", "Blue", at=(10, 8), facing=Facing.S)
    state = game((red, blue), phase=Phase.MOVEMENT)
    orders = [MovementOrders(player="Red", moves=(MoveOrder(ship="A1", steps="F"),))]
    orders.append(MovementOrders(player="Blue", moves=(MoveOrder(ship="B1", steps="F"),)))
    first = play_movement(state, orders)
    assert first.state.ship("A1").position == (10, 9)  # type: ignore[union-attr]
    assert first.state.ship("B1").position == (10, 8)  # type: ignore[union-attr]
    assert [r.ok for r in first.results] == [True, False]
    last = play_movement(
        state, [*orders, MovementOrders(player="Red", initiative="last", moves=orders[0].moves)]
    )
    assert last.state.ship("B1").position == (10, 9)  # type: ignore[union-attr]


def test_orders_for_others_ships_unknown_ships_and_the_wrong_phase_are_refused_not_raised() -> None:
    state = TYPED.new_game(_setup(2), 1).state
    orders: list[Submission] = [
        MovementOrders(player="P0", moves=(MoveOrder(ship="B1", steps="F"), MoveOrder(ship="Z9", steps="F"))),
        CombatOrders(player="P1", fire=(FireOrder(ship="B1", item=1, target="A1"),)),
    ]
    out = GAME.process(state, orders)
    assert [r.ok for r in out.results] == [False, False, False]
    assert out.state.ships == state.ships and out.state.phase is Phase.COMBAT


def test_orders_from_a_player_with_nothing_flying_are_answered() -> None:
    red, blue = (
        zeppelin("A1", "Red"),
        zeppelin("B1", "Blue", at=(3, 3)).model_copy(update={"status": Status.DESTROYED}),
    )
    state = game((red, blue), phase=Phase.MOVEMENT).model_copy(
        update={"initiative": game((red,)).initiative.model_copy(update={"ranking": ("Red",)})}
    )
    moved = play_movement(state, [MovementOrders(player="Blue", moves=(MoveOrder(ship="B1", steps="F"),))])
    assert [(r.player, r.ok, r.note) for r in moved.results] == [
        ("Blue", False, "you have no Zeppelin flying")
    ]
    fired = GAME.process(
        moved.state, [CombatOrders(player="Blue", fire=(FireOrder(ship="B1", item=0, target="A1"),))]
    )
    assert [(r.player, r.ok) for r in fired.results] == [("Blue", False)]


def test_a_game_that_is_over_stays_as_it_is() -> None:
    state = game((zeppelin(),)).model_copy(update={"phase": Phase.OVER})
    assert TYPED.process(state, []).state == state and TYPED.awaiting(state) == []


@pytest.mark.parametrize(
    ("fleets", "message"),
    [
        (
            {"P0": [{"name": "Big", "cls": "Scout", "fittings": [{"kind": "L.Cannon", "arc": "F"}] * 2}]},
            "slots",
        ),
        ({"P0": [{"name": f"S{i}", "cls": "Battleship"} for i in range(4)]}, "budget"),
        ({"P9": [{"name": "X", "cls": "Scout"}]}, "not in the game"),
        ({"P0": [{"name": "X", "cls": "Scout"}, {"name": "x", "cls": "Scout"}]}, "own name"),
        ({"P0": [{"name": f"S{i}", "cls": "Scout"} for i in range(MAX_FLEET + 1)]}, "at most"),
    ],
)
def test_interpretation_11_fleet_building_refuses_what_breaks_the_rules_or_the_budget(
    fleets: dict[str, object], message: str
) -> None:
    """Interpretation 11: budgets of Resource Points and at most 8 Zeppelins."""
    with pytest.raises(ValidationError, match=message):
        _setup(2, fleets=fleets)


def test_interpretation_13_the_convoy_carries_at_least_4_bulk_cargo() -> None:
    """Interpretation 13."""
    with pytest.raises(ValidationError, match="Bulk Cargo"):
        _setup(2, Scenario.CONVOY, fleets={"P0": [{"name": "Empty", "cls": "Frigate"}]})
    built = _setup(2, fleets={"P0": [Design(name="Solo", cls=ShipClass.SCOUT, small_arms=True)]})
    assert [d.name for d in built.fleet(0)] == ["Solo"] and len(built.fleet(1)) == 3
    with pytest.raises(ValidationError):
        _setup(7)


def test_interpretation_12_fleet_battle_last_fleet_flying_wins_else_the_strongest_at_the_limit() -> None:
    """Interpretation 12."""
    red, blue = zeppelin("A1", "Red"), zeppelin("B1", "Blue", cls=ShipClass.SCOUT, at=(3, 3))
    state = game((red, blue))
    assert outcome(state) is None
    assert outcome(state.model_copy(update={"turn": 12})) == (
        ("Red",),
        "the turn limit: the strongest fleet still flying wins",
    )
    gone = state.model_copy(update={"ships": (red, blue.model_copy(update={"status": Status.DESTROYED}))})
    assert outcome(gone) == (("Red",), "one fleet is left flying")
    both = (
        red.model_copy(update={"status": Status.CRASHED}),
        blue.model_copy(update={"status": Status.DEPARTED}),
    )
    assert outcome(state.model_copy(update={"ships": both})) == ((), "no Zeppelin is left flying")


def test_interpretation_13_convoy_wins_with_half_its_bulk_cargo_off_the_east_edge() -> None:
    """Interpretation 13: Bulk Cargo "May apply to scenario victory conditions"."""
    freighter = zeppelin("A1", "Red", cls=ShipClass.FRIGATE, fittings=(cargo(Cargo.BULK_CARGO),) * 4)
    raider = zeppelin("B1", "Blue", fittings=(gun(Weapon.MACHINE_GUN),), at=(20, 3))
    state = game((freighter, raider), scenario=Scenario.CONVOY, sides={"Red": "convoy", "Blue": "raiders"})
    state = state.model_copy(update={"convoy_cargo": 8})
    assert outcome(state) is None
    east = freighter.model_copy(update={"status": Status.DEPARTED, "exit_edge": "E"})
    assert outcome(state.model_copy(update={"ships": (east, raider)})) == (
        ("Red",),
        "the convoy delivered 4 of 8 Bulk Cargo",
    )
    north = east.model_copy(update={"exit_edge": "N"})
    assert outcome(state.model_copy(update={"ships": (north, raider)}))[0] == ("Blue",)  # type: ignore[index]


def _random_orders(state: GameState, rng: Rng) -> list[Submission]:
    """Orders any player could write: moves of random letters, fire from random items at random
    Zeppelins, a random first-or-last; some of them refused by the rules, none of them malformed."""
    orders: list[Submission] = []
    ids = [s.id for s in state.ships]
    for player in GAME.awaiting(state):
        mine = [s for s in state.ships if s.owner == player]
        if state.phase is Phase.MOVEMENT:
            moves = tuple(
                MoveOrder(ship=s.id, steps="".join(rng.choice("FFFLRUD") for _ in range(rng.randint(0, 6))))
                for s in mine
            )
            orders.append(
                MovementOrders(player=player, initiative=rng.choice(["first", "last", None]), moves=moves)
            )
        else:
            fire = tuple(
                FireOrder(ship=s.id, item=rng.randint(0, len(s.items) + 1), target=rng.choice(ids))
                for s in mine
                for _ in range(rng.randint(0, 4))
            )
            orders.append(CombatOrders(player=player, fire=fire))
    return orders


def _check(state: GameState) -> None:
    assert GameState.model_validate_json(state.model_dump_json()) == state
    for ship in state.ships:
        assert 0 <= ship.gas <= ship.gas_max and 0 <= ship.altitude <= MAX_ALTITUDE
        assert all(i.shots is None or i.shots >= 0 for i in ship.items)
        if ship.flying:
            assert 1 <= ship.col <= COLUMNS and 1 <= ship.row <= ROWS and ship.altitude >= 1
    for player in state.players:
        rng = Rng(player.seed)
        assert [rng.d(r.sides) for r in player.rolls] == [r.value for r in player.rolls]


def _fuzz(seed: int, scenario: Scenario, n: int) -> list[str]:
    rng = Rng(seed)
    state = GAME.new_game(_setup(n, scenario), seed).state
    dumps = [state.model_dump_json()]
    while state.phase is not Phase.OVER:
        state = GAME.process(state, _random_orders(state, rng)).state
        _check(state)
        dumps.append(state.model_dump_json())
    return dumps


@pytest.mark.parametrize(
    ("seed", "scenario", "n"),
    [(1, Scenario.FLEET_BATTLE, 2), (2, Scenario.CONVOY, 4), (3, Scenario.FLEET_BATTLE, 6)],
)
def test_fuzz_whole_games_of_random_orders_never_raise_keep_the_state_valid_and_replay_byte_for_byte(
    seed: int, scenario: Scenario, n: int
) -> None:
    first = _fuzz(seed, scenario, n)
    assert first == _fuzz(seed, scenario, n)
    assert len(first) > 2 and '"phase":"over"' in first[-1]


@pytest.mark.parametrize("scenario", list(Scenario))
def test_robot_captains_play_a_game_to_a_finish_giving_orders_only_for_their_own_flying_ships(
    scenario: Scenario,
) -> None:
    state = GAME.new_game(_setup(3, scenario), 9).state
    shots = 0
    while state.phase is not Phase.OVER:
        orders = [robot.orders(GAME.view(state, p)) for p in GAME.awaiting(state)]
        for o in orders:
            ships = [m.ship for m in o.moves] if isinstance(o, MovementOrders) else [f.ship for f in o.fire]
            assert all(state.ship(s).owner == o.player and state.ship(s).flying for s in ships)  # type: ignore[union-attr]
        out = GAME.process(state, orders)
        shots += sum(r.ok for r in out.results if r.phase == "combat")
        state = out.state
    assert state.ended and shots > 0
    assert any(s.status is not Status.FLYING for s in state.ships)
