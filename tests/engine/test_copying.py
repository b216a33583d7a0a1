"""Model copies (``copying``) and events made by a step (``Step.event``): the shortcuts taken for
speed give exactly what pydantic's own way would."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError

from engine.warpwar.context import Step
from engine.warpwar.copying import copy_model
from engine.warpwar.events import ShipMoved
from engine.warpwar.ships import Ship
from engine.warpwar.state import GameState, Visibility
from tests.engine.builders import robot_game_states


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")

    tags: list[str]
    _notes: list[str] = PrivateAttr(default_factory=list)


def test_a_copy_of_a_model_with_extra_fields_and_private_attributes_shares_none_of_them() -> None:
    # Given a model holding an extra field and a private attribute, both changeable
    original = _Loose(tags=["a"], more=["x"])
    original._notes.append("n")
    # When it is copied and every part of the copy is changed
    copy = copy_model(original)
    assert copy == original
    assert copy.model_extra == {"more": ["x"]}
    assert copy._notes == ["n"]
    copy.tags.append("b")
    copy.model_extra["more"].append("y")
    copy._notes.append("m")
    # Then the original is as it was
    assert original.tags == ["a"]
    assert original.model_extra == {"more": ["x"]}
    assert original._notes == ["n"]


def test_a_copy_of_a_ship_has_no_extra_fields_or_private_attributes_and_the_same_fields_set() -> None:
    state = robot_game_states(Visibility.OPEN, seed=11, limit=10)[-1]
    ship = next(iter(state.ships.values()))
    copy = copy_model(ship)
    assert copy == ship
    assert copy.__pydantic_extra__ is None
    assert copy.__pydantic_private__ is None
    assert copy.model_fields_set == ship.model_fields_set
    assert copy.model_fields_set is not ship.model_fields_set


def _step() -> Step:
    state: GameState = robot_game_states(Visibility.OPEN, seed=11, limit=10)[-1].clone()
    return Step(state)


def test_an_event_made_by_a_step_is_the_one_its_class_makes() -> None:
    step = _step()
    made = step.event(ShipMoved, ("Red", "Blue", "Red"), ship="Red.W1", path=("0101", "0102"), mp_used=1)
    expected = ShipMoved(
        turn=step.state.turn,
        player_turn=step.state.active_player.id,
        visible_to=("Blue", "Red"),
        ship="Red.W1",
        path=("0101", "0102"),
        mp_used=1,
    )
    assert made == expected
    assert made.model_dump_json() == expected.model_dump_json()
    assert made.model_fields_set == expected.model_fields_set


def test_an_event_made_by_a_step_is_validated() -> None:
    step = _step()
    with pytest.raises(ValidationError):
        step.event(ShipMoved, ("Red",), ship="Red.W1", path=("0101",), mp_used="many")
    with pytest.raises(ValidationError):
        step.event(ShipMoved, ("Red",), ship="Red.W1", path=("0101",), mp_used=1, speed=3)


def test_a_step_follows_the_ships_of_a_hex_and_their_owners() -> None:
    # Given a step and a ship in it
    step = _step()
    ship: Ship = next(s for s in step.ships.values() if s.carried_by is None and not s.carrying)
    before = ship.location
    # When the ship moves to an empty hex
    empty = next(h for h in step.state.map.hexes if not step.uids_at(h))
    step.place(ship, empty)
    # Then the ship is there, the index knows it there with its owner, and no longer where it was
    assert ship.location == empty
    assert "location" in ship.model_fields_set
    assert step.ship_owners_at(empty) == {ship.uid: ship.owner}
    assert ship.uid not in step.ship_owners_at(before)
    assert step.owners_at(empty) == {ship.owner}
    assert step.has_enemy_ships_at(empty, "nobody")
    assert not step.has_enemy_ships_at(empty, ship.owner)
    assert step.enemy_ships_at(empty, "nobody") == [ship]
