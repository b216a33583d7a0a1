"""The games WarpMail hosts, by key. The typed entry makes mypy check that each game keeps to
the host's interface (engine/core/game.py)."""

from __future__ import annotations

from engine.core.game import Game
from engine.core.mailgame import MailGame
from engine.warpwar.game import Setup, Submission, WarpWar
from engine.warpwar.mailgame import WarpWarMail
from engine.warpwar.state import GameState
from engine.warpwar.views import PlayerView

WARPWAR: Game[Setup, GameState, Submission, PlayerView] = WarpWar()

GAMES = {WARPWAR.key: WARPWAR}

MAIL_GAMES: dict[str, MailGame] = {WARPWAR.key: WarpWarMail()}
