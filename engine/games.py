"""The games WarpMail hosts, by key. The typed loaders make mypy check that each game keeps to
the host's interfaces (engine/core/game.py, engine/core/mailgame.py, engine/core/turnhost.py).

A game plugs in here, in each of the three registries (and ``DEMOS`` for a robot demo,
``GAME_COMMANDS`` for mail commands of its own),
and with its templates in functions/templates/<key>/: the host names no game anywhere else.

A game's modules are imported on its first lookup, not with this module: importing WarpWar
costs about half a second (its pydantic models), which a Lambda function that never meets a game
(the scheduler's ``find_due``, a duplicate or automatic mail) should not pay at its cold start
(benchmarks/import_time.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from engine.core.demo import RobotDemo
    from engine.core.game import Game
    from engine.core.mailgame import MailGame
    from engine.core.turnhost import TurnGame
    from engine.warpwar.game import Setup, Submission
    from engine.warpwar.state import GameState
    from engine.warpwar.views import PlayerView

    WARPWAR: Game[Setup, GameState, Submission, PlayerView]
    from engine.lta import orders as lta_orders
    from engine.lta import scenarios as lta_scenarios
    from engine.lta import state as lta_state
    from engine.lta import views as lta_views

T = TypeVar("T")


class Registry(Mapping[str, T]):
    """Entries by key, each made by its loader on the first lookup, then kept."""

    def __init__(self, loaders: Mapping[str, Callable[[], T]]) -> None:
        self._loaders = dict(loaders)
        self._loaded: dict[str, T] = {}

    def __getitem__(self, key: str) -> T:
        if key not in self._loaded:
            self._loaded[key] = self._loaders[key]()
        return self._loaded[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaders)

    def __len__(self) -> int:
        return len(self._loaders)


def _warpwar() -> Game[Setup, GameState, Submission, PlayerView]:
    from engine.warpwar.game import WarpWar

    return WarpWar()


def _warpwar_mail() -> MailGame:
    from engine.warpwar.mailgame import WarpWarMail

    return WarpWarMail()


def _warpwar_turns() -> TurnGame:
    from engine.warpwar.host import WarpWarTurns

    return WarpWarTurns()


def _warpwar_demo() -> RobotDemo:
    from engine.warpwar.demo import WarpWarDemo

    return WarpWarDemo()


def _lta() -> Game[lta_scenarios.Setup, lta_state.GameState, lta_orders.Submission, lta_views.PlayerView]:
    from engine.lta.game import LighterThanAir

    return LighterThanAir()


def _lta_mail() -> MailGame:
    from engine.lta.mailgame import LtaMail

    return LtaMail()


def _lta_turns() -> TurnGame:
    from engine.lta.host import LtaTurns

    return LtaTurns()


DEFAULT_GAME = "warpwar"
"""The game the host makes when none is named (the console's ``game create``, the demos)."""

GAMES: Mapping[str, Game[Any, Any, Any, Any]] = Registry({"warpwar": _warpwar, "lta": _lta})

MAIL_GAMES: Mapping[str, MailGame] = Registry({"warpwar": _warpwar_mail, "lta": _lta_mail})

TURN_GAMES: Mapping[str, TurnGame] = Registry({"warpwar": _warpwar_turns, "lta": _lta_turns})
"""How the turn service plays each game, and what it mails its players."""

DEMOS: Mapping[str, RobotDemo] = Registry({"warpwar": _warpwar_demo})
"""The games with a robot demo (``warpmail demo``)."""

GAME_NAMES: Mapping[str, str] = {"warpwar": "WarpWar", "lta": "Lighter Than Air Warfare"}
"""Each game's name for players (its ``TurnGame.name``), written here, not asked of the games, so
that a mail's subject (``[WarpWar g1] ...``) names its game without loading it."""

GAME_COMMANDS: Mapping[str, tuple[str, ...]] = {"lta": ("ROLLS",)}
"""The mail commands each game answers itself (``MailGame.command``), beyond the host's own:
written here, not asked of the games, so that reading a mail's command word loads no game."""


def __getattr__(name: str) -> object:
    """``WARPWAR``, the typed WarpWar game, loaded on first use like the registries' entries."""
    if name == "WARPWAR":
        return GAMES["warpwar"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
