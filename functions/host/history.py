"""A game's history, for the replay attached to the final mail: every step from its start to
its end, read from the stored versions of its state.

Why the stored versions, not a replay from the start alone: they are what was committed and
mailed, whatever happened between (a GM's rollback, a seat given to a robot, orders changed);
a replay from the start would need every order the game ever used and stop at the first
version it cannot reproduce. Each version is still played again from the one before with the
orders stored (``play_again``, as functions/host/sending.py does for the mails a step owes), for
its events, and that replay is checked to give the state committed; a version that does not
(a GM's change) is shown as it was stored, without events. After a rollback the line of
history is the one that led to the end: the versions undone (from the state the rollback went
back to onwards) are left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import pairwise

from engine.core.turnhost import Played, TurnGame
from functions.host.due import gather
from functions.host.hosts import HOSTS
from functions.host.ports import TurnStore
from functions.render.results import Rendered, render_page
from functions.store.records import GameRecord


@dataclass
class Final:
    """What every player's final mail adds to their results: the replay of the game ``game``
    ends (its last version), the history read once for them all, when first needed."""

    store: TurnStore
    game: GameRecord
    steps: list[Played] | None = field(default=None, init=False)

    def with_replay(self, rendered: Rendered, player: str) -> Rendered:
        if self.steps is None:
            self.steps = history(self.store, self.game)
        if not self.steps:
            return rendered
        page = HOSTS[self.game.game].replay(self.steps, player)
        return replace(rendered, files=(*rendered.files, render_page(self.game.game, page)))


def history(store: TurnStore, game: GameRecord) -> list[Played]:
    """Every step of game ``game`` up to its version, oldest first: the opening, then each
    step played again (or, not reproduced, as stored)."""
    host = HOSTS[game.game]
    line: list[tuple[GameRecord, str]] = []
    found: dict[str, int] = {}
    for version in range(game.version + 1):
        try:
            record, state_json = store.state(game.game_id, version)
        except LookupError:
            continue
        if not state_json:
            continue  # created, not started yet
        at = found.get(state_json)
        if at is not None:
            # Metadata only (the same state), or a rollback: what came after that state is undone.
            for _, undone_json in line[at + 1 :]:
                found.pop(undone_json, None)
            del line[at + 1 :]
            continue
        found[state_json] = len(line)
        line.append((record, state_json))
    if not line:
        return []
    steps = [host.opening(line[0][1])]
    for (before, before_json), (_, state_json) in pairwise(line):
        played = play_again(store, host, before, before_json, state_json)
        steps.append(played if played is not None else host.opening(state_json))
    return steps


def play_again(
    store: TurnStore, host: TurnGame, before: GameRecord, before_json: str, state_json: str
) -> Played | None:
    """The step from ``before`` (its state ``before_json``) played again with the orders stored;
    None unless it gives ``state_json``."""
    pending = host.pending(before_json, before.turn_mode, before.combat_mode)
    if pending is None:
        return None
    played = host.play(before_json, pending, gather(store, before, pending))
    return played if played.state_json == state_json else None
