"""Every player's results mail, whatever the game: what the turn service asks a hosted game
(``GameHost``), and how a game's rendered results become the mail sent (``results_mail``).

The game decides what its players wait for (``Pending``), plays a step (``Played``) and renders
each player's results (``Rendered``: text, HTML, files); the host only schedules, stores, and
addresses the mail. Deadlines reach the game as text already in the player's own time zone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from engine.core.mailgame import ScopedOrders
from functions.host.deadlines import deadline_attachments, deadline_text
from functions.mail.compose import Attachment, MailKind, OutgoingMail
from functions.store.records import GameRecord, PlayerRecord

TurnMode = Literal["sequential", "cycle"]
CombatMode = Literal["mail", "standing"]


class Wanted(BaseModel):
    """One player's orders for one scope ("turn:5", "combat:5/P1:2223:2") that a step waits for."""

    model_config = ConfigDict(frozen=True)

    player: str
    scope: str


class Pending(BaseModel):
    """What a game waits for next, played together in one step.

    ``clock``: which of the game's deadlines applies (``GameRecord.deadline`` for player-turns,
    ``round_deadline`` for combat rounds). ``period``: changes when a new deadline period begins
    (a new player-turn in sequential mode, a new game-turn in cycle mode); it stays the same
    through the combats of a player-turn."""

    model_config = ConfigDict(frozen=True)

    clock: Literal["turn", "round"]
    wants: tuple[Wanted, ...]
    period: str
    standing: bool = False
    """Combats the step starts are fought to the end at once, from standing orders."""


class Deadlines(BaseModel):
    """The deadlines a player is told, as text in their own time zone (None: no deadline)."""

    model_config = ConfigDict(frozen=True)

    turn: str | None = None
    round: str | None = None


@dataclass(frozen=True)
class Rendered:
    """One player's results, ready to mail: the subject (without the game prefix), the text and
    HTML bodies, and the files (an inline image has a ``content_id``)."""

    subject: str
    text: str
    html: str | None
    files: tuple[Attachment, ...]
    game_name: str
    kind: MailKind = "results"


def _everyone(player: str) -> bool:
    return True


@dataclass(frozen=True)
class Played:
    """A step played: the new state, and each player's results of it."""

    state_json: str
    turn: int
    over: bool
    render: Callable[[str, Deadlines], Rendered]
    """(player, deadlines) -> the player's results of the step."""
    tells: Callable[[str], bool] = _everyone
    """(player) -> whether the player is mailed the step's results now. One who is not (a step
    that fought only combat rounds the player is not in) reads them with the next step that
    tells them, the steps joined (``GameHost.joined``)."""
    account: object = None
    """The game's own account of the step, read only by the game that played it (``joined``)."""


class GameHost(Protocol):
    """What the turn service asks a game (the WarpWar one: functions/host/warpwar_host.py)."""

    key: str

    def pending(self, state_json: str, turn_mode: TurnMode, combat_mode: CombatMode) -> Pending | None:
        """What the game waits for next; None when the game is over."""
        ...

    def robot_orders(
        self, state_json: str, player: str, level: str, scopes: Sequence[str]
    ) -> list[tuple[ScopedOrders, str]]:
        """A computer player's orders for ``scopes``, each with the mail text it wrote."""
        ...

    def play(self, state_json: str, pending: Pending, orders: Mapping[Wanted, str]) -> Played:
        """Play ``pending`` with the orders (JSON) that are in; missing orders are waived (a
        player-turn) or left to standing orders (a combat round)."""
        ...

    def joined(self, steps: Sequence[Played]) -> Played:
        """Steps played one after the other (oldest first) as one: the last one's state, and
        each player's results of them all, for a player mailed none of them but the last."""
        ...

    def opening(self, state_json: str) -> Played:
        """The players' first results of a new game: where they stand, and their first sheet."""
        ...

    def replay(self, steps: Sequence[Played], player: str) -> Attachment:
        """A finished game's history as a page for ``player``: every step from the opening to
        the end, oldest first (a step the host could not play again: its ``opening``)."""
        ...

    def ending(self, state_json: str) -> str | None:
        """How the game ended, in a sentence (the winners, and by which rule); None while it
        goes on."""
        ...

    def rules_summary(self) -> str:
        """The game in a dozen lines of plain text (at most 78 columns), for the welcome mail."""
        ...

    def new_state(self, options_json: str, players: Sequence[PlayerRecord], seed: int) -> str:
        """A new game's state from its options (``GameSetup.options_json``) and its seated
        players, in seat order (their ``game_id`` names the game). ValueError says what is
        wrong with the options, in the GM's words."""
        ...


def results_mail(game: GameRecord, player: PlayerRecord, rendered: Rendered) -> OutgoingMail:
    """The player's results as a mail, with the game's turn deadline as a calendar file."""
    return OutgoingMail(
        to=player.address,
        subject=rendered.subject,
        text=rendered.text,
        html=rendered.html,
        attachments=rendered.files + deadline_attachments(game, player),
        game_id=game.game_id,
        player_id=player.player_id,
        kind=rendered.kind,
        game_name=rendered.game_name,
    )


def deadlines_for(game: GameRecord, player: PlayerRecord) -> Deadlines:
    return Deadlines(
        turn=deadline_text(game.deadline, player.timezone),
        round=deadline_text(game.round_deadline, player.timezone),
    )
