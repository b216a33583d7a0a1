"""The games WarpMail hosts, by key. The typed loaders make mypy check that each game keeps to
the host's interfaces (engine/core/game.py, engine/core/mailgame.py).

A game's modules are imported on its first lookup, not with this module: importing WarpWar
costs about half a second (its pydantic models), which a Lambda function that never meets a game
(the scheduler's ``find_due``, a duplicate or automatic mail) should not pay at its cold start
(benchmarks/import_time.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from engine.core.game import Game
    from engine.core.mailgame import MailGame
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


def _lta() -> Game[lta_scenarios.Setup, lta_state.GameState, lta_orders.Submission, lta_views.PlayerView]:
    from engine.lta.game import LighterThanAir

    return LighterThanAir()


def _lta_mail() -> MailGame:
    from engine.lta.mailgame import LtaMail

    return LtaMail()


GAMES: Mapping[str, Game[Any, Any, Any, Any]] = Registry({"warpwar": _warpwar, "lta": _lta})

MAIL_GAMES: Mapping[str, MailGame] = Registry({"warpwar": _warpwar_mail, "lta": _lta_mail})

GAME_COMMANDS: Mapping[str, tuple[str, ...]] = {"lta": ("ROLLS",)}
"""The mail commands each game answers itself (``MailGame.command``), beyond the host's own:
written here, not asked of the games, so that reading a mail's command word loads no game."""


def __getattr__(name: str) -> object:
    """``WARPWAR``, the typed WarpWar game, loaded on first use like the registries' entries."""
    if name == "WARPWAR":
        return GAMES["warpwar"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
