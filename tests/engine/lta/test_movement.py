"""Movement orders and the wind."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.lta.dice import Dice
from engine.lta.hexmap import COLUMNS, MAX_ALTITUDE, ROWS, Facing, distance, step
from engine.lta.movement import blow, move
from engine.lta.state import Airship, Status
from engine.lta.tables import Cargo, ShipClass
from tests.engine.lta.builders import cargo, seed_opening, zeppelin

steps = st.text(alphabet="FLRUD", max_size=12)
classes = st.sampled_from(list(ShipClass))


@settings(max_examples=200, deadline=None)
@given(
    classes,
    steps,
    st.integers(1, COLUMNS),
    st.integers(1, ROWS),
    st.integers(1, MAX_ALTITUDE),
    st.sampled_from(list(Facing)),
    st.integers(0, 2),
    st.booleans(),
)
def test_movement_points_are_never_overspent_and_altitude_stays_1_to_9(
    cls: ShipClass,
    orders: str,
    col: int,
    row: int,
    altitude: int,
    facing: Facing,
    engine_hits: int,
    steering: bool,
) -> None:
    """Interpretations 2 and 22: each letter costs a Movement Point; orders never reach the ground."""
    ship = zeppelin(cls=cls, at=(col, row), altitude=altitude, facing=facing).model_copy(
        update={"engine_hits": engine_hits, "steering_hit": steering}
    )
    after, spent, short = move(ship, orders, set())
    assert spent <= ship.move_points
    assert spent <= len(orders)
    assert (spent == len(orders)) or short or after.status is Status.DEPARTED
    assert 1 <= after.altitude <= MAX_ALTITUDE
    if steering:
        assert after.facing == ship.facing
    if after.flying:
        assert 1 <= after.col <= COLUMNS and 1 <= after.row <= ROWS


def test_a_move_turns_climbs_and_advances_one_point_a_letter() -> None:
    ship = zeppelin(cls=ShipClass.SCOUT, at=(10, 10), facing=Facing.N, altitude=5)
    after, spent, short = move(ship, "FRUF", set())
    assert (spent, short) == (4, "")
    assert after.position == step(*step(10, 10, Facing.N), Facing.NE)
    assert (after.facing, after.altitude) == (Facing.NE, 6)


def test_a_move_past_the_movement_points_stops_there_and_says_so() -> None:
    ship = zeppelin(cls=ShipClass.BATTLESHIP, at=(10, 10))
    after, spent, short = move(ship, "FFF", set())
    assert spent == 2 and after.position == (10, 8)
    assert "only 2 Movement Points" in short


def test_interpretation_22_an_engine_adds_a_point_and_an_engine_hit_takes_one() -> None:
    """Interpretation 22: "Increase Base Speed +1" and "Base Speed -1", never below 0."""
    ship = zeppelin(cls=ShipClass.BATTLESHIP, fittings=(cargo(Cargo.ENGINE),))
    assert ship.move_points == 3
    assert ship.model_copy(update={"engine_hits": 5}).move_points == 0


def test_a_steering_hit_stops_every_turn() -> None:
    ship = zeppelin().model_copy(update={"steering_hit": True})
    after, spent, short = move(ship, "FL", set())
    assert spent == 1 and after.facing is Facing.N and "cannot turn" in short


def test_interpretation_8_a_zeppelin_cannot_enter_a_hex_held_at_its_altitude() -> None:
    """Interpretation 8: one Zeppelin to a hex and altitude; the earlier mover holds it."""
    ship = zeppelin(at=(10, 10), altitude=5)
    after, spent, short = move(ship, "FF", {(10, 9, 5)})
    assert after.position == (10, 10) and spent == 0 and "holds that hex" in short
    passed_over, spent, short = move(ship, "UFF", {(10, 9, 5)})
    assert passed_over.position == (10, 8) and short == ""


def test_interpretation_9_no_order_takes_a_zeppelin_to_the_ground() -> None:
    """Interpretation 9: altitude 0 is the ground; orders stop at 1."""
    after, spent, short = move(zeppelin(altitude=1), "D", set())
    assert after.altitude == 1 and spent == 0 and "ground" in short


def test_interpretation_10_moving_off_the_map_leaves_the_battle_by_that_edge() -> None:
    """Interpretation 10: a Zeppelin that leaves the map has departed, by the edge it crossed."""
    after, spent, _ = move(zeppelin(at=(10, 1), facing=Facing.N), "FF", set())
    assert after.status is Status.DEPARTED and after.exit_edge == "N" and spent == 1


def _wind(ship: Airship, *dice: tuple[int, int]) -> tuple[Airship, str]:
    return blow(ship, Dice({"Red": seed_opening(*dice)}, {}, 1, "combat"))


def test_wind_pushes_by_the_direction_and_speed_rolled_on_the_owners_dice() -> None:
    """Interpretation 14: a Zeppelin's wind is rolled on its owner's stream."""
    ship = zeppelin(at=(10, 10), facing=Facing.N)
    after, said = _wind(ship, (12, 5), (6, 6))
    assert after.position == (10, 12) and after.facing is Facing.N and said == "blown S 2 hexes"
    after, said = _wind(ship, (12, 8), (6, 3))
    assert after.position == (11, 10) and said == "blown E 1 hex"
    after, said = _wind(ship, (12, 2), (6, 2))
    assert after.position == (10, 10)


def test_wind_rotations_and_altitude_pushes_roll_no_speed() -> None:
    ship = zeppelin(at=(10, 10), facing=Facing.N, altitude=5)
    dice = Dice({"Red": seed_opening((12, 9))}, {}, 1, "combat")
    after, _ = blow(ship, dice)
    assert after.facing is Facing.NW and [r.sides for r in dice.rolled] == [12]
    assert _wind(ship, (12, 10))[0].facing is Facing.NE
    assert _wind(ship, (12, 11))[0].altitude == 6
    assert _wind(ship, (12, 12))[0].altitude == 4


def test_interpretations_9_and_23_the_wind_caps_at_9_and_a_push_down_from_1_crashes() -> None:
    """Interpretations 9 and 23."""
    assert _wind(zeppelin(altitude=MAX_ALTITUDE), (12, 11))[0].altitude == MAX_ALTITUDE
    crashed = _wind(zeppelin(altitude=1), (12, 12))[0]
    assert crashed.status is Status.CRASHED and crashed.altitude == 0


def test_wind_off_the_map_departs() -> None:
    after, said = _wind(zeppelin(at=(COLUMNS, 10)), (12, 8), (6, 5))
    assert after.status is Status.DEPARTED and after.exit_edge == "E" and "off the map" in said


@given(st.integers(0, 2**64 - 1), st.integers(1, COLUMNS), st.integers(1, ROWS), st.integers(1, MAX_ALTITUDE))
def test_the_wind_is_deterministic_per_seed_and_moves_at_most_two_hexes(
    seed: int, col: int, row: int, altitude: int
) -> None:
    ship = zeppelin(at=(col, row), altitude=altitude)
    first = blow(ship, Dice({"Red": seed}, {}, 1, "combat"))
    again = blow(ship, Dice({"Red": seed}, {}, 1, "combat"))
    assert first == again
    after = first[0]
    assert 0 <= after.altitude <= MAX_ALTITUDE and abs(after.altitude - altitude) <= 1
    if after.flying:
        assert distance(ship.position, after.position) <= 2
