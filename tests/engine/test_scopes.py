"""Scopes name their game-turn the same way in every game (engine/core/mailgame.py ``scope_turn``):
what the host's rollback and ``turn show`` select by, knowing no game's scope kinds."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.core.mailgame import combat_scope, scope_turn, turn_scope
from engine.lta.mailgame import fire_scope, move_scope


@given(st.integers(min_value=0, max_value=10_000))
def test_every_games_scopes_name_their_turn(turn: int) -> None:
    scopes = [turn_scope(turn), combat_scope(f"{turn}/P2", "2223", 3), move_scope(turn), fire_scope(turn)]
    assert [scope_turn(scope) for scope in scopes] == [turn] * 4


def test_a_scope_without_a_turn_is_of_none() -> None:
    assert [scope_turn(s) for s in ("", "turn", "turn:", "setup:x", "combat::2223:1")] == [0] * 5
