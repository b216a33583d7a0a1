"""How the host's turn service plays a game by mail (game-agnostic): what the game waits for, a
step played, and each player's results of it as data.

The host (functions/host) schedules steps, stores states and orders, and mails; it knows no
game's rules. A game (engine/<game>/host.py) says what it waits for (``Pending``), plays a step
(``Played``) and describes each player's results (``Results``: a report model, a map picture,
pages to attach), which the host renders with the game's own templates
(``functions/templates/<game key>/``) and mails. Everything here is pure: no clock, no I/O.

A game's turn may hold several order phases (WarpWar: a player-turn, then the rounds of its
combats; Lighter Than Air: movement orders, then combat orders): each is a step, waiting for the
scopes (engine/core/mailgame.py) of that phase, with a map update mailed after it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from engine.core.mailgame import ScopedOrders
from engine.core.picture import Picture

TurnMode = Literal["sequential", "cycle"]
CombatMode = Literal["mail", "standing"]
ResultsKind = Literal["results", "combat"]
Clock = Literal["turn", "round"]
Tense = Literal["present", "past"]


class Wanted(BaseModel):
    """One player's orders for one scope ("turn:5", "combat:5/P1:2223:2", "move:3") that a step
    waits for."""

    model_config = ConfigDict(frozen=True)

    player: str
    scope: str


class Pending(BaseModel):
    """What a game waits for next, played together in one step.

    ``clock``: which of the game's deadlines applies (``GameRecord.deadline`` for a turn's orders,
    ``round_deadline`` for a combat round's). ``period``: changes when a new deadline period
    begins (a new player-turn in sequential mode, a new game-turn in cycle mode); it stays the
    same through the combats of a player-turn."""

    model_config = ConfigDict(frozen=True)

    clock: Clock
    wants: tuple[Wanted, ...]
    period: str
    standing: bool = False
    """Combats the step starts are fought to the end at once, from standing orders."""


class Deadlines(BaseModel):
    """The deadlines a player is told, as text in their own time zone (None: no deadline)."""

    model_config = ConfigDict(frozen=True)

    turn: str | None = None
    round: str | None = None


class Seat(BaseModel):
    """A seated player as the game sees one when it begins: id (``P1``…) and name."""

    model_config = ConfigDict(frozen=True)

    player_id: str
    name: str


class Page(BaseModel):
    """A file the host renders from the game's template ``template`` (under the game's template
    folder, e.g. ``replay.html``) with ``model`` as ``page``, and attaches as ``filename``."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    filename: str
    content_type: str
    template: str
    model: BaseModel


@dataclass(frozen=True)
class Results:
    """One player's results of a step, as data: the host renders ``report`` with the game's
    ``report.txt`` and ``report.html`` templates (as ``report``), draws ``picture`` as the map
    (inline PNG, SVG attached), attaches ``report`` as JSON and every page, and mails it with
    ``subject`` (without the game prefix)."""

    subject: str
    report: BaseModel
    picture: Picture | None
    game_name: str
    kind: ResultsKind = "results"
    pages: tuple[Page, ...] = ()
    stem: str = "results"
    """The attachments' file name stem (e.g. ``g1-turn-5``)."""


def _everyone(player: str) -> bool:
    return True


@dataclass(frozen=True)
class Played:
    """A step played: the new state, and each player's results of it."""

    state_json: str
    turn: int
    over: bool
    results: Callable[[str, Deadlines], Results]
    """(player, deadlines) -> the player's results of the step."""
    tells: Callable[[str], bool] = _everyone
    """(player) -> whether the player is mailed the step's results now. One who is not reads
    them with the next step that tells them, the steps joined (``TurnGame.joined``)."""
    account: object = field(default=None)
    """The game's own account of the step, read only by the game that played it (``joined``,
    ``replay``)."""


class TurnGame(Protocol):
    """A game's side of the turn service."""

    key: str
    name: str
    """The game's name for players ("WarpWar")."""

    def pending(self, state_json: str, turn_mode: TurnMode, combat_mode: CombatMode) -> Pending | None:
        """What the game waits for next; None when the game is over."""
        ...

    def robot_orders(
        self, state_json: str, player: str, level: str, scopes: Sequence[str]
    ) -> list[tuple[ScopedOrders, str]]:
        """A computer player's orders for ``scopes``, each with the mail text it wrote."""
        ...

    def play(self, state_json: str, pending: Pending, orders: Mapping[Wanted, str]) -> Played:
        """Play ``pending`` with the orders (JSON) that are in; missing orders are waived or
        left to standing orders, as the game's rules say."""
        ...

    def joined(self, steps: Sequence[Played]) -> Played:
        """Steps played one after the other (oldest first) as one: the last one's state, and
        each player's results of them all, for a player mailed none of them but the last."""
        ...

    def opening(self, state_json: str) -> Played:
        """The players' first results of a new game: where they stand, and their first sheet."""
        ...

    def replay(self, steps: Sequence[Played], player: str) -> Page:
        """The whole game for ``player`` once it is over (``steps``: every step from the
        opening), as a page to attach to the final mail."""
        ...

    def ending(self, state_json: str) -> str | None:
        """How a game that is over ended (the winners and by which rule); None while it runs."""
        ...

    def rules_summary(self) -> str:
        """The game in a dozen lines of plain text (at most 78 columns), for the welcome mail."""
        ...

    def without_orders(self, clock: Clock, tense: Tense = "present") -> str:
        """What the game does with a player's step on ``clock`` when no orders of theirs came,
        in the player's words: one clause of plain text, lower case and with no full stop, that
        the host's mails (welcome, reminders, absences, missed turns) put after a colon or in
        brackets ("your ships hold, nothing is built, income still comes"). The ``past`` tense
        tells of a step already played without them (the missed-turn notices)."""
        ...

    def new_state(self, game_id: str, options_json: str, seats: Sequence[Seat], seed: int) -> str:
        """A new game's state from its options (JSON of the game's own options model; ``{}``
        for the defaults) and its seated players, in seat order. ValueError says what is wrong
        with the options, in the GM's words."""
        ...

    def check_options(self, options_json: str) -> str:
        """The options, validated and with defaults filled in, as JSON. ValueError says what
        is wrong, in the GM's words."""
        ...
