"""The verification script in docs/lta-dice.md checks a real game's revealed lists, and catches
a changed roll and a changed seed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.lta import robot
from engine.lta.game import LighterThanAir
from engine.lta.scenarios import PlayerSpec, Setup
from engine.lta.state import Phase

DOC = Path(__file__).resolve().parents[3] / "docs" / "lta-dice.md"
GAME = LighterThanAir()


def _script() -> dict[str, Any]:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert code is not None
    namespace: dict[str, Any] = {"__name__": "lta_dice_doc"}
    exec(compile(code.group(1), str(DOC), "exec"), namespace)
    return namespace


def _records() -> list[dict[str, Any]]:
    setup = Setup(game_id="v", players=(PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue")))
    state = GAME.new_game(setup, 21).state
    while state.phase is not Phase.OVER:
        state = GAME.process(state, [robot.orders(GAME.view(state, p)) for p in GAME.awaiting(state)]).state
    view = GAME.view(state, "Red")
    assert view.revealed is not None
    return [
        {
            "player": p,
            "seed": view.revealed.seeds[p],
            "commitment": view.commitments[p],
            "rolls": [r.model_dump() for r in view.revealed.rolls[p]],
        }
        for p in ("Red", "Blue")
    ]


def test_the_docs_script_verifies_every_roll_of_a_finished_game_and_catches_tampering() -> None:
    verify = _script()["verify"]
    records = _records()
    for record in records:
        assert verify(record) == len(record["rolls"]) > 10
    changed = dict(
        records[0], rolls=[dict(records[0]["rolls"][0], value=records[0]["rolls"][0]["value"] % 6 + 1)]
    )
    with pytest.raises(AssertionError, match="roll 1"):
        verify(changed)
    with pytest.raises(AssertionError, match="hash"):
        verify(dict(records[0], seed=records[0]["seed"] + 1))
