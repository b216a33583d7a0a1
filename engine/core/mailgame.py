"""What the host asks a game about mail (game-agnostic).

The host finds the game and the player, authenticates the mail and stores what the game
accepts; the game reads the mail. Everything crosses this boundary as text and data: the stored
state as JSON, the mail body as text, the accepted orders as JSON per *scope* (the thing they are
orders for), and the acknowledgement as the game's own pydantic model, which the host renders
(functions/render) and never inspects beyond :class:`Reading`.

Scopes are strings the store can sort and select by prefix, ``<kind>:<turn>…``, the game-turn
first after the kind (``scope_turn``): WarpWar's ``turn:<n>`` for a player-turn's orders and
``combat:<turn>:<star>:<round>`` for one round of one combat; Lighter Than Air's ``move:<n>`` and
``fire:<n>``. The ``<turn>`` of a combat names
the turn it is fought in, so that a later combat at the same star never takes an earlier one's
orders for its own; a game whose turns have several combats at one star names them apart (WarpWar
writes the player-turn, ``5/P2``: game-turn 5, P2's player-turn).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict

Earlier = Callable[[str], str | None]
"""The player's latest stored orders JSON for a scope, or None: what an ADD mail adds to."""


def turn_scope(turn: int) -> str:
    return f"turn:{turn}"


def scope_turn(scope: str) -> int:
    """The game-turn a scope belongs to, whatever the game: the number that begins the field after
    the kind ("turn:5", "move:5", "combat:5/P1:2223:2" are of turn 5); 0 for a scope without one."""
    field = scope.split(":")[1] if ":" in scope else ""
    digits = field[: len(field) - len(field.lstrip("0123456789"))]
    return int(digits) if digits else 0


def combat_scope(turn: int | str, star: str, round_: int) -> str:
    """The scope of round ``round_`` of the combat at ``star`` fought in ``turn``."""
    return f"combat:{turn}:{star}:{round_}"


class CombatScope(BaseModel):
    """The parts of a combat scope."""

    model_config = ConfigDict(frozen=True)

    turn: str
    star: str
    round: int


def combat_parts(scope: str) -> CombatScope | None:
    """The turn, star and round of a combat scope; None for any other scope."""
    parts = scope.split(":")
    if len(parts) != 4 or parts[0] != "combat" or not parts[3].isdigit():
        return None
    return CombatScope(turn=parts[1], star=parts[2], round=int(parts[3]))


def no_earlier(scope: str) -> str | None:
    """For a reading with nothing stored before it."""
    return None


class ScopedOrders(BaseModel):
    """Accepted orders for one scope: what the host stores as one submission."""

    model_config = ConfigDict(frozen=True)

    scope: str
    orders_json: str


class Reading(BaseModel):
    """What a game made of one order mail from one player."""

    model_config = ConfigDict(frozen=True)

    game_id: str
    player: str
    turn: int
    submitted: bool
    """True when orders were accepted to be stored (never for CHECK or a mail with nothing usable)."""
    parts: tuple[ScopedOrders, ...]
    """The submission per scope after this mail (an ADD mail already merged with ``earlier``);
    empty when nothing was submitted."""
    ready: bool
    """True when the submission counts as the player's orders in, so that the game may play the
    scope before its deadline; False for orders kept although some lines were refused, until the
    player confirms them (a clean mail, or the game's own word for "done"). Stored orders are
    used at the deadline either way."""
    verdict: str
    """One line saying what became of the mail (for the mail log and the subject line)."""
    ack: BaseModel
    """The game's acknowledgement as data, rendered by the host's renderer for this game."""


class MailGame(Protocol):
    """A game's side of play by mail."""

    key: str

    def read_orders(
        self,
        state_json: str,
        player: str,
        body: str,
        deadline: str | None = None,
        notes: Sequence[str] = (),
        earlier: Earlier = no_earlier,
    ) -> Reading:
        """Read, check and accept an order mail's ``body`` from ``player`` against the stored state.

        ``notes`` are problems the host met reading the mail (a guessed charset, a broken MIME
        structure), passed on to the player in the acknowledgement. Never raises on anything a
        player writes."""
        ...

    def sheet(self, state_json: str, player: str, deadline: str | None = None) -> str:
        """The form the player fills in next: the orders sheet, or the combat sheet(s) while the
        player has combats to fight."""
        ...

    def order_lines(self, scope: str, orders_json: str) -> list[str]:
        """Stored orders as the player would write them, one per line (for STATUS)."""
        ...

    def help_text(self) -> str:
        """A short summary of the game's order language, for HELP."""
        ...

    def help_topic(self, topic: str) -> str | None:
        """The answer to ``HELP <topic>`` (any case; e.g. WarpWar's ``HELP CRT``), or None when
        the game has no such topic: the host then answers with the general HELP."""
        ...

    def command(self, state_json: str, player: str, word: str, argument: str) -> str | None:
        """The game's answer (plain text) to a mail command of its own (e.g. Lighter Than Air's
        ``ROLLS``) from ``player``, already authenticated by the host; ``argument``: the rest of
        the command's line. None when the game has no such command: the host then says so.
        Never raises on anything a player writes."""
        ...

    def names(self, state_json: str) -> dict[str, str]:
        """Player id -> the name the game gives that player (in reports, sheets and orders)."""
        ...

    def rename(self, state_json: str, player: str, name: str) -> str:
        """The state with ``player`` called ``name`` everywhere the game names them (a seat
        given to a newcomer); nothing else changes. ValueError for a player not in the game."""
        ...
