"""A game's robot demo (``warpmail demo``): a whole game between computer players, without the
mail pipeline, as a log in the game's own notation and each player's results as they would be
mailed (engine/games.py ``DEMOS``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from engine.core.turnhost import Results

ReportSink = Callable[[int, str, Results], None]
"""(game-turn, player, the player's results after it): where the demo hands each report."""


class RobotDemo(Protocol):
    def play(
        self,
        scenario: str,
        seed: int,
        turn_limit: int,
        levels: Sequence[str],
        report: ReportSink | None = None,
    ) -> tuple[bool, list[str]]:
        """Play a game of ``scenario`` (the game's own scenario name) with the robots of
        ``levels`` in seat order; (whether someone won, the game's log). ValueError: a
        scenario or a level the game does not have."""
        ...
