"""A game's history for its replay (functions/host/history.py): the line of stored versions that
led to the end, metadata-only versions passed over and a rollback's undone versions left out."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.turnhost import Deadlines, Played, Results
from functions.host import history
from functions.store import GameRecord


class Versions:
    """A store holding only the game's versions: (record, state JSON) by number."""

    def __init__(self, states: list[str]) -> None:
        self.versions = [
            (GameRecord(game_id="h", title="H", status="running", version=v), state)
            for v, state in enumerate(states)
        ]

    def state(self, game_id: str, version: int | None = None) -> tuple[GameRecord, str]:
        return self.versions[-1 if version is None else version]


class Stored:
    """A game host that plays nothing again: every step is shown as stored (its ``opening``)."""

    def opening(self, state_json: str) -> Played:
        return Played(state_json=state_json, turn=0, over=False, results=_no_render)

    def pending(self, state_json: str, turn_mode: str, combat_mode: str) -> None:
        return None


def _no_render(player: str, deadlines: Deadlines) -> Results:
    raise AssertionError("not rendered")


@pytest.mark.parametrize(
    ("states", "line"),
    [
        (["", "s1", "s2", "s3"], ["s1", "s2", "s3"]),  # created, started, two steps
        (["s1", "s1", "s2", "s2", "s3"], ["s1", "s2", "s3"]),  # a pause, a park: the state unchanged
        (["s1", "s2", "s3", "s4", "s2", "s5"], ["s1", "s2", "s5"]),  # rolled back to s2, played on
        (["s1", "s2", "s3", "s1", "s2", "s6"], ["s1", "s2", "s6"]),  # back to the start, s2 again
    ],
)
def test_the_history_is_the_line_of_versions_that_led_to_the_end(
    states: list[str], line: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history, "HOSTS", {"warpwar": Stored()})
    store: Any = Versions(states)
    game = store.state("h")[0]
    assert [step.state_json for step in history.history(store, game)] == line
