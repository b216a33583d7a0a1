"""The one small interface every game hosted by WarpMail implements.

The host (``functions/``) stores states, collects orders and delivers views; it knows nothing of
any game's rules. A game is pure: same state and orders in, same state, events and results out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from pydantic import BaseModel

SetupT = TypeVar("SetupT", bound=BaseModel, contravariant=True)
StateT = TypeVar("StateT", bound=BaseModel)
StateT_co = TypeVar("StateT_co", bound=BaseModel, covariant=True)
OrdersT = TypeVar("OrdersT", bound=BaseModel, contravariant=True)
ViewT = TypeVar("ViewT", bound=BaseModel, covariant=True)


class Outcome(Protocol[StateT_co]):
    """What processing returns: the new state, the events (each with its audience), and the
    fate of every order."""

    @property
    def state(self) -> StateT_co: ...

    @property
    def events(self) -> Sequence[BaseModel]: ...

    @property
    def results(self) -> Sequence[BaseModel]: ...


class Game(Protocol[SetupT, StateT, OrdersT, ViewT]):
    key: str

    def new_game(self, setup: SetupT, seed: int) -> Outcome[StateT]: ...

    def process(self, state: StateT, orders: Sequence[OrdersT]) -> Outcome[StateT]: ...

    def awaiting(self, state: StateT) -> list[str]:
        """The players whose orders the game waits for now."""
        ...

    def view(self, state: StateT, player: str) -> ViewT: ...
