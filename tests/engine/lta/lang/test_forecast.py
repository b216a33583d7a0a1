"""The forecast in the answer to an order mail: where each Zeppelin ends before the wind (the
engine's own movement), each shot's range, arc, chance and ammunition, from the player's view."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.lta.game import LighterThanAir
from engine.lta.hexmap import COLUMNS, MAX_ALTITUDE, ROWS, Arc, Facing, label, step
from engine.lta.lang.forecast import forecast
from engine.lta.mailgame import Acknowledgement, LtaMail
from engine.lta.orders import CombatOrders, FireOrder, MovementOrders, MoveOrder
from engine.lta.scenarios import PlayerSpec, Setup
from engine.lta.state import Airship, GameState, Item, Phase
from engine.lta.tables import Cargo, Weapon
from engine.lta.views import player_view

GAME = LighterThanAir()
ENDS = re.compile(r"^(\w+) .* ends in (\d{4}) facing (\w+) at altitude (\d)")
LEAVES = re.compile(r"^(\w+) .* leaves the map by the (\w) edge")


def _state() -> GameState:
    players = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))
    return GAME.new_game(Setup(game_id="g1", players=players), 1).state


def _with(state: GameState, **ships: Airship) -> GameState:
    return state.model_copy(update={"ships": tuple(ships.get(s.id, s) for s in state.ships)})


placements = st.tuples(
    st.integers(1, COLUMNS), st.integers(1, ROWS), st.sampled_from(Facing), st.integers(1, MAX_ALTITUDE)
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(placements, min_size=3, max_size=3),
    st.lists(st.text(alphabet="FLRUD", max_size=5), min_size=3, max_size=3),
    st.permutations(["A1", "A2", "A3"]),
)
def test_the_forecast_end_of_every_move_is_the_engines_own(
    places: list[tuple[int, int, Facing, int]], steps: list[str], order: list[str]
) -> None:
    state = _state()
    # Red's three Zeppelins anywhere on the map (two may share a hex, never a hex and altitude).
    moved: dict[str, Airship] = {}
    for ship_id, (col, row, facing, altitude) in zip(("A1", "A2", "A3"), places, strict=True):
        if any((m.col, m.row, m.altitude) == (col, row, altitude) for m in moved.values()):
            altitude = 10 - altitude if altitude != 5 else 4
        ship = state.ship(ship_id)
        assert ship is not None
        moved[ship_id] = ship.model_copy(
            update={"col": col, "row": row, "facing": facing, "altitude": altitude}
        )
    state = _with(state, **moved)
    orders = MovementOrders(
        player="Red", moves=tuple(MoveOrder(ship=s, steps=p) for s, p in zip(order, steps, strict=True))
    )
    after = GAME.process(state, [orders]).state
    lines = forecast(player_view(state, "Red"), orders)
    assert len(lines) == 3
    for ship_id, line in zip(order, lines, strict=True):
        engine = after.ship(ship_id)
        assert engine is not None
        if engine.flying:
            found = ENDS.match(line)
            assert found is not None, line
            assert found.groups() == (
                ship_id,
                label(engine.col, engine.row),
                engine.facing.name,
                str(engine.altitude),
            )
            assert "then the wind (1D12): 8/12 blown 0-2 hexes, 2/12 turned a hex side" in line
        else:
            found = LEAVES.match(line)
            assert found is not None and found.groups() == (ship_id, engine.exit_edge), line


def test_movement_points_spent_and_a_move_cut_short_are_forecast() -> None:
    state = _state()
    a1, a2 = state.ship("A1"), state.ship("A2")
    assert a1 is not None and a2 is not None
    # A1 sits right behind A2 (the hex ahead of A1), same altitude.
    col, row = step(a1.col, a1.row, a1.facing)
    state = _with(state, A2=a2.model_copy(update={"col": col, "row": row}))
    turned = forecast(
        player_view(state, "Red"), MovementOrders(player="Red", moves=(MoveOrder(ship="A1", steps="RFF"),))
    )
    assert ", 3 of 3 Movement Points; then the wind" in turned[0]
    blocked = forecast(
        player_view(state, "Red"), MovementOrders(player="Red", moves=(MoveOrder(ship="A1", steps="FR"),))
    )
    assert (
        "0 of 3 Movement Points; it stops short at step 1 (F): another Zeppelin holds that hex" in blocked[0]
    )


@pytest.mark.parametrize(
    ("altitude", "up", "down"),
    [
        (1, "up a step", "down to the ground"),
        (5, "up a step", "down a step"),
        (MAX_ALTITUDE, "nothing (at the ceiling)", "down a step"),
    ],
)
def test_the_wind_clause_says_what_the_table_may_do_at_this_altitude(
    altitude: int, up: str, down: str
) -> None:
    state = _state()
    a1 = state.ship("A1")
    assert a1 is not None
    state = _with(state, A1=a1.model_copy(update={"altitude": altitude}))
    [line] = forecast(player_view(state, "Red"), MovementOrders(player="Red", moves=(MoveOrder(ship="A1"),)))
    assert line.endswith(f"1/12 {up}, 1/12 {down}")


def _duel(
    kind: Weapon | Cargo, hexes: int = 2, arc: Arc | None = Arc.FORWARD, shots: int | None = None
) -> GameState:
    """Red's A1 armed with one ``kind`` as item 1 with ``shots``, Blue's B1 ``hexes``
    ahead of it at the same altitude; the game waits for combat orders."""
    state = _state().model_copy(update={"phase": Phase.COMBAT})
    a1, b1 = state.ship("A1"), state.ship("B1")
    assert a1 is not None and b1 is not None
    col, row = a1.col, a1.row
    for _ in range(hexes):
        col, row = step(col, row, a1.facing)
    weapon = Item(key=1, kind=kind, arc=arc, shots=shots)
    return _with(
        state,
        A1=a1.model_copy(update={"items": (weapon,)}),
        B1=b1.model_copy(update={"col": col, "row": row, "altitude": a1.altitude}),
    )


def _fire(state: GameState, *orders: tuple[int, str]) -> list[str]:
    fire = tuple(FireOrder(ship="A1", item=item, target=target) for item, target in orders)
    return forecast(player_view(state, "Red"), CombatOrders(player="Red", fire=fire))


@pytest.mark.parametrize(
    ("kind", "reach", "odds", "column"),
    [
        (Weapon.LARGE_CANNON, 15, "hits on 1-3 of a d6: 50 %", "Flamethrw/L.Cannon"),
        (Weapon.SMALL_CANNON, 10, "hits on 1-4 of a d6: 67 %", "Small Cannon"),
        (Weapon.MACHINE_GUN, 6, "hits on 1-5 of a d6: 83 %", "Machine Gun/Small Arms"),
        (Weapon.FLAME_THROWER, 3, "hits on 1-3 of a d6: 50 %", "Flamethrw/L.Cannon"),
        (Cargo.PASSENGERS, 4, "hits on 1-3 of a d6: 50 %", "Machine Gun/Small Arms"),
    ],
)
def test_each_weapon_forecasts_its_range_chance_and_column_from_the_weapons_table(
    kind: Weapon | Cargo, reach: int, odds: str, column: str
) -> None:
    shots = None if kind is Cargo.PASSENGERS else 5
    [line] = _fire(_duel(kind, shots=shots), (1, "B1"))
    assert line.startswith(f"FIRE A1 1 AT B1 ({kind} at Dreadnought): 2 hexes, range {reach}, forward arc")
    assert f"in range and arc now; {odds}, Damage Table column {column}; " in line
    assert line.endswith("4 shots left in it" if shots else "ammunition unlimited")


def test_small_arms_forecast_from_the_weapons_table() -> None:
    [line] = _fire(_duel(Weapon.MACHINE_GUN, shots=5), (0, "B1"))
    assert "FIRE A1 SA AT B1 (Small Arms at Dreadnought): 2 hexes, range 4" in line
    assert (
        "hits on 1-3 of a d6: 50 %, Damage Table column Machine Gun/Small Arms; ammunition unlimited" in line
    )


def test_out_of_range_and_out_of_arc_shots_are_warned_and_spend_nothing() -> None:
    far = _fire(_duel(Weapon.FLAME_THROWER, hexes=4, shots=5), (1, "B1"))[0]
    assert (
        "4 hexes, range 3, forward arc; WARNING, not in range and arc now:"
        " Dreadnought is out of range (3 hexes)" in far
    )
    assert far.endswith(
        "if the wind brings it in, hits on 1-3 of a d6: 50 %, Damage Table column Flamethrw/L.Cannon"
    )
    aft = _fire(_duel(Weapon.MACHINE_GUN, arc=Arc.AFT, shots=5), (1, "B1"))[0]
    assert "WARNING, not in range and arc now: Dreadnought is forward; item 1 fires aft" in aft
    assert "shots left" not in far + aft


def test_ammunition_left_counts_the_ammo_cargo_and_every_shot_before() -> None:
    state = _duel(Weapon.LARGE_CANNON, shots=0)
    a1 = state.ship("A1")
    assert a1 is not None
    ammo = Item(key=2, kind=Cargo.AMMO, shots=10, ammo_for=Weapon.LARGE_CANNON)
    state = _with(state, A1=a1.model_copy(update={"items": (*a1.items, ammo)}))
    assert _fire(state, (1, "B1"))[0].endswith("0 shots left in it, 9 in Ammo")


def test_a_bomb_forecasts_its_one_to_three() -> None:
    state = _duel(Cargo.BOMBS, hexes=0, arc=None)
    b1 = state.ship("B1")
    assert b1 is not None
    state = _with(state, B1=b1.model_copy(update={"altitude": b1.altitude - 1}))
    [line] = _fire(state, (1, "B1"))
    assert (
        line == "FIRE A1 1 AT B1 (Bombs at Dreadnought); in range and arc now;"
        " destroys on 1-3 of a d6: 50 %; 0 Bombs left aboard"
    )


def test_a_check_mail_gets_the_forecast_and_refused_lines_get_none() -> None:
    body = "\n".join(
        ["GAME g1", "PLAYER Red", "TURN 1", "CODE x", "CHECK", "MOVE A1 FF", "MOVE Nobody F", "END"]
    )
    ack = LtaMail().read_orders(_state().model_dump_json(), "Red", body).ack
    assert isinstance(ack, Acknowledgement) and not ack.submitted
    assert len(ack.forecast) == 1 and ack.forecast[0].startswith("A1 Dreadnought ends in ")
    assert "2 of 3 Movement Points" in ack.forecast[0]


def test_the_guides_example_is_the_forecast_of_its_orders() -> None:
    """docs/lta-players.md, "What the answer tells you": the example, wrapped, is what the
    forecast says for those orders."""
    guide = (Path(__file__).resolve().parents[4] / "docs" / "lta-players.md").read_text(encoding="utf-8")
    example = " ".join(guide.split("FORECAST (before the wind)\n", 1)[1].split("```", 1)[0].split())
    moves = MovementOrders(player="Red", moves=(MoveOrder(ship="A1", steps="FFR"),))
    lines = [
        *forecast(player_view(_state(), "Red"), moves),
        *_fire(_duel(Weapon.LARGE_CANNON, shots=5), (1, "B1")),
    ]
    assert example == " ".join(lines)
