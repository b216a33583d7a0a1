"""What the store keeps, as pydantic records: the store's whole boundary.

Identifiers (game, player, scope) never contain ``#``, the separator of the table's keys. Times are
timezone-aware and kept in UTC.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import parseaddr
from typing import Annotated, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

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

from engine.games import DEFAULT_GAME

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
    # defer_build: a record's validator is built on its first use, not at import, and a function
    # builds only those it uses (an idle find_due run, every 5 minutes, validates none).
    model_config = ConfigDict(frozen=True, defer_build=True)


def known_zone(timezone: str) -> str:
    """``timezone`` if it is an IANA time zone name ("Europe/Berlin"), else ValueError."""
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"{timezone!r} is not an IANA time zone name (like Europe/Berlin or UTC)") from error
    return timezone


class Schedule(Record):
    """When a game's deadlines fall, and what happens around them (issue 6; docs/gm.md).

    A player-turn's (cycle mode: a game-turn's) deadline is the first ``deadline_time`` in
    ``timezone`` on one of the ``weekdays`` at least ``min_hours`` after the period opens; with
    no ``deadline_time`` it is ``GameRecord.turn_hours`` after it opens, moved on to an allowed
    weekday. Orders still missing at the deadline are waited for ``grace_hours`` more. Reminders
    go ``reminders`` hours before the deadline to the players whose orders are not in.
    """

    deadline_time: str | None = Field(None, pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    timezone: str = "UTC"
    weekdays: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)
    """ISO weekday numbers (Monday 1 ... Sunday 7) a deadline may fall on."""
    min_hours: float = Field(0, ge=0)
    grace_hours: float = Field(0, ge=0)
    reminders: tuple[float, ...] = (24.0, 2.0)
    missed_limit: int = Field(3, ge=1)
    """Missed turns in a row after which the GM is alerted (and ``missed_action`` taken)."""
    missed_action: Literal["alert", "standby", "robot"] = "alert"
    absence_days: int = Field(14, ge=0)
    """Longest absence a player may declare (0: none allowed)."""
    absence_count: int = Field(2, ge=0)
    """Absences a player may declare in one game."""
    absence_policy: Literal["wait", "play"] = "play"
    """While a player is absent the game waits (deadlines move past the absence) or plays on,
    the absent player's turns waived without counting as missed."""

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, timezone: str) -> str:
        return known_zone(timezone)

    @field_validator("weekdays")
    @classmethod
    def _iso_weekdays(cls, weekdays: tuple[int, ...]) -> tuple[int, ...]:
        if not weekdays or not all(1 <= day <= 7 for day in weekdays):
            raise ValueError(f"weekdays are ISO numbers, Monday 1 to Sunday 7, at least one: not {weekdays}")
        return tuple(sorted(set(weekdays)))

    @field_validator("reminders")
    @classmethod
    def _hours_before(cls, reminders: tuple[float, ...]) -> tuple[float, ...]:
        if not all(hours > 0 for hours in reminders):
            raise ValueError(f"reminders are hours before the deadline, each more than 0: not {reminders}")
        return tuple(sorted(set(reminders), reverse=True))


class GameSetup(Record):
    """How a game is made when it starts: the game's own options (JSON, checked by the game's
    host), the seed of its randomness, and the number of seats."""

    options_json: str = "{}"
    seed: int = 1
    seats: int = Field(2, ge=2, le=8)


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
    game: str = DEFAULT_GAME
    """The game played: its key in engine/games.py."""
    title: str
    status: Literal["setup", "open", "running", "paused", "over"]
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
    # Factories, not instances: an instance made here would build both validators at import.
    setup: GameSetup = Field(default_factory=GameSetup)
    schedule: Schedule = Field(default_factory=Schedule)
    gm_address: str = ""
    """Where the host alerts the GM (missed turns, a parked game); "" : the host's own sender."""
    committed_at: UtcDatetime | None = None
    """When this version was written (the ``now`` of the step, or of the GM's change)."""
    opened_at: UtcDatetime | None = None
    """When the current deadline period opened (its reminders are counted from there)."""
    reminded_at: UtcDatetime | None = None
    """Reminder times up to this one have been handled for the current deadline."""
    missed: dict[str, int] = {}
    """Player -> player-turns missed in a row (no orders by the deadline)."""
    bulletin: str = ""
    """The GM's bulletin, printed first in every player's next results, then cleared."""
    pause_reason: str = ""
    paused_at: UtcDatetime | None = None
    """When the game was paused (its deadlines move on by the paused time when it resumes)."""

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

    @property
    def on_round_clock(self) -> bool:
        """Whether the orders awaited are due by the round deadline, not the turn's: a step on the
        game's round clock (WarpWar's combat rounds, Lighter Than Air's combat orders; the game
        says so in ``Pending.clock``, and only such a step sets ``round_deadline``)."""
        return self.round_deadline is not None

    def prompt(self) -> bool:
        """Whether the awaited orders are played as soon as they are in, before any deadline: a
        round's always, a turn's when the game processes early."""
        return self.early or self.on_round_clock


class Absence(Record):
    """A player's declared absence (ABSENT by mail), from ``start`` to ``end``."""

    start: UtcDatetime
    end: UtcDatetime
    declared_at: UtcDatetime


class PlayerRecord(Record):
    """A player of a game: the registered ``address`` and the hash of the secret code."""

    game_id: Ident
    player_id: Ident
    name: str
    address: str
    code_hash: str
    robot: str | None = None
    timezone: str = "UTC"
    role: Literal["player", "standby", "removed"] = "player"
    """A ``player`` holds a seat; a ``standby`` waits to replace one; ``removed`` is kept for
    the record and may not send orders."""
    wait_scope: str = ""
    """The scope for which the player asked the game to wait for the deadline (WAIT): no early
    processing of it."""
    absences: tuple[Absence, ...] = ()
    joined_by: str = ""
    """The raw mail (its S3 key) whose JOIN made this player: a retried JOIN finds it."""
    bouncing: str = ""
    """Why mail to ``address`` is no longer sent: "" (it is sent), or SES's word on it and the
    day, "bounce 2026-11-27" (a permanent bounce) or "complaint 2026-11-27" (marked as spam)
    (functions/host/feedback.py). The GM's console clears it with the address."""

    @field_validator("address")
    @classmethod
    def _lower_case(cls, address: str) -> str:
        return address.strip().lower()


BOUNCING = "not sent: {address} is bouncing ({reason})"
"""The mail-log reason of a mail withheld from a bouncing address."""


def withheld(players: Iterable[PlayerRecord], address: str) -> str | None:
    """The mail-log reason for not mailing ``address``, or None to mail it: an address is
    bouncing when any player record with it (``players``: those by that address) is marked."""
    to = address.strip().lower()
    reason = next((p.bouncing for p in players if p.address == to and p.bouncing), "")
    return BOUNCING.format(address=to, reason=reason) if reason else None


class PendingJoin(Record):
    """A JOIN waiting for the mailbox's owner to confirm it (``CONFIRM <token>``): the seat is
    taken only then, so that nobody joins a game in someone else's name."""

    game_id: Ident
    address: str
    name: str
    asked_at: UtcDatetime
    expires_at: UtcDatetime
    confirmed_by: str = ""
    """The raw mail (its S3 key) whose CONFIRM took it: only that mail may take it again (a
    retried handling), no other."""

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
    discarded: bool = False
    """A marker, not orders: the player's earlier orders for the scope are set aside (a rollback
    undid their turn). They stay in the history, but nothing is applied for the scope until the
    player sends orders again (a later version)."""
    ready: bool = True
    """Whether the orders count as in, so that the game may play the scope early: False for
    orders kept from a mail with refused lines that the player has not confirmed (DONE). They
    are used at the deadline either way. Records from before the flag read as ready, as they
    were treated."""


class Submission(NewSubmission):
    """A stored submission: ``version`` 1 is the player's first for the scope, each later one + 1."""

    version: int


class Claim(Record):
    """A claim on one piece of work done once (``Store.claim``): an inbound mail's handling, one
    outgoing mail. ``in_progress`` until ``lease_until`` (the claimer's Lambda timeout and a
    margin): past it the claimer is taken to be dead (killed: timeout, out of memory) and the
    next attempt takes the claim over. ``at`` is when it was first claimed, kept on take-over:
    the work is done "at" that time whichever attempt finishes it, so a retry gives the same
    dates, ids and bytes. ``data`` is what the work must reuse if retried (JOIN's new code, in
    clear only while its welcome is in flight: ``complete`` removes it)."""

    key: str
    state: Literal["in_progress", "done"]
    at: UtcDatetime
    lease_until: UtcDatetime | None = None
    attempt: int = 1
    data: dict[str, str] = {}


class MailIdentity(Record):
    """One identity of an inbound mail (a Message-ID, or the domain and body hash of its DKIM
    signature), as first registered: by the raw mail at ``owner`` (its S3 key), whose content
    digest was ``digest``."""

    identity: str
    owner: str
    digest: str


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

    @classmethod
    def sent(
        cls, message: EmailMessage, game_id: str | None, at: datetime, reason: str, key: str
    ) -> MailLogEntry:
        """The entry of ``message``, sent: to the address in its ``To``, under its ``Subject``."""
        return cls(
            game_id=game_id,
            at=at,
            direction="out",
            address=parseaddr(str(message["To"]))[1],
            subject=str(message["Subject"]),
            reason=reason,
            key=key,
        )
