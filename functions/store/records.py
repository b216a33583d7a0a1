"""What the store keeps, as pydantic records: the store's whole boundary.

Identifiers (game, player, scope) never contain ``#``, the separator of the table's keys. Times are
timezone-aware and kept in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    StringConstraints,
    field_validator,
)

SEPARATOR = "#"


def _to_utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def _iso(moment: datetime) -> str:
    return moment.isoformat()


# Written as "2025-03-01T18:00:00+00:00" everywhere, the form the table's sort keys compare.
UtcDatetime = Annotated[AwareDatetime, AfterValidator(_to_utc), PlainSerializer(_iso, when_used="json")]
Ident = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=r"^[^#]+$")]


def awaited(scope: str, player_id: str) -> str:
    """The ``GameRecord.awaiting`` entry for ``player_id``'s orders for ``scope``: "turn:5#P1"."""
    return f"{scope}{SEPARATOR}{player_id}"


def split_awaited(entry: str) -> tuple[str, str]:
    """(scope, player_id) of an ``awaiting`` entry."""
    scope, player_id = entry.split(SEPARATOR)
    return scope, player_id


def _check_awaited(entry: str) -> str:
    parts = entry.split(SEPARATOR)
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"awaiting entries are '<scope>#<player>' (e.g. 'turn:5#P1'), not {entry!r}")
    return entry


Awaited = Annotated[str, AfterValidator(_check_awaited)]


class Record(BaseModel):
    model_config = ConfigDict(frozen=True)


class GameRecord(Record):
    """A game's metadata: what the scheduler and the mail host need without loading its state.

    ``version`` counts commits (:meth:`Store.commit`); every version has its state kept.
    ``awaiting`` names the orders the game waits for, one ``awaited(scope, player)`` entry each.
    The game is due when ``deadline`` or ``round_deadline`` has passed, or as soon as every awaited
    order of one scope is in, if ``early`` (combat rounds, scopes "combat:...", always resolve as
    soon as both sides' orders are in). A new deadline is ``turn_hours`` after a player-turn
    (sequential mode) or game-turn (cycle mode) begins, a round deadline ``round_hours`` after a
    combat round opens.
    """

    game_id: Ident
    game: str = "warpwar"
    title: str
    status: Literal["open", "running", "paused", "over"]
    turn_mode: Literal["sequential", "cycle"] = "sequential"
    combat_mode: Literal["mail", "standing"] = "mail"
    version: int = 0
    turn: int = 0
    awaiting: tuple[Awaited, ...] = ()
    deadline: UtcDatetime | None = None
    round_deadline: UtcDatetime | None = None
    early: bool = True
    turn_hours: float = Field(24, gt=0)
    round_hours: float = Field(2, gt=0)
    failures: int = 0
    parked: str | None = None

    def awaited_scopes(self) -> dict[str, frozenset[str]]:
        """scope -> the players whose orders for it are awaited."""
        scopes: dict[str, set[str]] = {}
        for entry in self.awaiting:
            scope, player_id = split_awaited(entry)
            scopes.setdefault(scope, set()).add(player_id)
        return {scope: frozenset(players) for scope, players in sorted(scopes.items())}

    def schedulable(self) -> bool:
        """Whether the scheduler looks at this game at all."""
        return self.status == "running" and self.parked is None

    def next_deadline(self) -> datetime | None:
        deadlines = [d for d in (self.deadline, self.round_deadline) if d is not None]
        return min(deadlines) if deadlines else None

    @property
    def turn_period(self) -> timedelta:
        return timedelta(hours=self.turn_hours)

    @property
    def round_period(self) -> timedelta:
        return timedelta(hours=self.round_hours)

    def prompt(self, scope: str) -> bool:
        """Whether ``scope`` is processed as soon as its orders are in, before any deadline."""
        return self.early or scope.startswith("combat:")


class PlayerRecord(Record):
    """A player of a game: the registered ``address`` and the hash of the secret code."""

    game_id: Ident
    player_id: Ident
    name: str
    address: str
    code_hash: str
    robot: str | None = None
    timezone: str = "UTC"

    @field_validator("address")
    @classmethod
    def _lower_case(cls, address: str) -> str:
        return address.strip().lower()


class NewSubmission(Record):
    """Orders received for ``scope`` ("turn:5", "combat:5/P1:2223:2"), before the store numbers them."""

    game_id: Ident
    player_id: Ident
    scope: Ident
    received_at: UtcDatetime
    message_id: str
    body: str
    orders_json: str


class Submission(NewSubmission):
    """A stored submission: ``version`` 1 is the player's first for the scope, each later one + 1."""

    version: int


class KeptResults(Record):
    """The latest results mail sent to a player, kept for REPORT: the mail itself (raw MIME) is
    in the state bucket at ``object_key`` (the store sets it)."""

    game_id: Ident
    player_id: Ident
    version: int
    """The game's version whose results the mail gave."""
    at: UtcDatetime
    subject: str
    object_key: str = ""


class MailLogEntry(Record):
    """One mail in or out; ``key`` is the S3 key of the raw mail or the outbox id."""

    game_id: Ident | None
    at: UtcDatetime
    direction: Literal["in", "out", "rejected"]
    address: str
    subject: str
    reason: str = ""
    key: str = ""
