"""The games the turn service plays, by key: engine/games.py ``TURN_GAMES``, each game's
``TurnGame`` loaded on its first lookup."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.turnhost import TurnGame
from engine.games import TURN_GAMES

HOSTS: Mapping[str, TurnGame] = TURN_GAMES
