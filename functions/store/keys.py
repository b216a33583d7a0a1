"""The key design of the single table (docs/architecture.md has the table of access patterns).

Numbers in sort keys are zero-padded so that string order is numeric order; times are ISO 8601
UTC strings, whose string order is time order.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

GAMES = "GAMES"
DUE = "DUE"
META = "META"
NO_GAME = "NOGAME"
SEEN = "SEEN"
PENDING = "PENDING"
CLAIM = "CLAIM"
# The index sort key of a game whose awaited orders are all in: before every real time.
READY = "0000-00-00T00:00:00+00:00"
STATE_PREFIX = "states/"
RESULTS_PREFIX = "results/"
WORK_PREFIX = "work/"
"""The turn workflow's work lists (one JSON array of game ids per run), in the state bucket."""
# The turn workflow's leases: the run lease, one item for the whole workflow, and each game's
# processing lease, an item of its own beside META (whose every version write replaces it whole).
WORKFLOW = "WORKFLOW"
RUN_LEASE = "RUN"
GAME_LEASE = "PROCESSING"


def iso(moment: datetime) -> str:
    """The one way a time is written in the table: ISO 8601 in UTC, "+00:00"."""
    return moment.astimezone(UTC).isoformat()


def epoch_seconds(moment: datetime) -> int:
    """A TTL value: DynamoDB expects whole seconds since the epoch."""
    return int(moment.timestamp())


def game_pk(game_id: str) -> str:
    return f"GAME#{game_id}"


def player_sk(player_id: str) -> str:
    return f"PLAYER#{player_id}"


def address_pk(address: str) -> str:
    return f"ADDR#{address}"


def player_ref(game_id: str, player_id: str) -> str:
    return f"GAME#{game_id}#PLAYER#{player_id}"


def submission_prefix(scope_prefix: str = "", player_id: str | None = None) -> str:
    """The sort-key prefix of submissions whose scope starts with ``scope_prefix`` (of one player
    for a whole scope when ``player_id`` is given)."""
    if player_id is None:
        return f"SUB#{scope_prefix}"
    return f"SUB#{scope_prefix}#{player_id}#"


def submission_sk(scope: str, player_id: str, version: int) -> str:
    return f"{submission_prefix(scope, player_id)}{version:06d}"


def state_sk(version: int) -> str:
    return f"STATE#{version:08d}"


STATE_SK_PREFIX = "STATE#"
LOG_SK_PREFIX = "LOG#"


def log_pk(game_id: str | None) -> str:
    return NO_GAME if game_id is None else game_pk(game_id)


def log_sk(at: datetime, digest: str) -> str:
    return f"{LOG_SK_PREFIX}{iso(at)}#{digest[:16]}"


def _bounded(value: str) -> str:
    """Message-IDs and claim keys may be long; past 200 characters their hash stands for them."""
    if len(value) > 200:
        return "sha256:" + hashlib.sha256(value.encode()).hexdigest()
    return value


def seen_pk(identity: str) -> str:
    """The item of a mail identity (a Message-ID, or ``dkim:<domain>:<body hash>``)."""
    return f"MSG#{_bounded(identity)}"


def claim_pk(key: str) -> str:
    return f"CLAIM#{_bounded(key)}"


def results_sk(player_id: str) -> str:
    return f"RESULTS#{player_id}"


def results_object_key(game_id: str, player_id: str, version: int) -> str:
    """The S3 key of the results mail of ``version`` sent to a player (raw MIME)."""
    return f"{RESULTS_PREFIX}{game_id}/{player_id}/{version:08d}.eml"


def state_object_key(game_id: str, version: int, state_json: bytes) -> str:
    """The S3 key of an offloaded state. The content hash in the name means two writers of the same
    version never overwrite each other's object: the committed item points at its own."""
    digest = hashlib.sha256(state_json).hexdigest()[:16]
    return f"{STATE_PREFIX}{game_id}/{version:08d}-{digest}.json"


def _readable(value: str) -> str:
    """``value`` as a key part: itself, or its hash when it is long or holds the separator."""
    if len(value) > 200 or "#" in value:
        return "sha256:" + hashlib.sha256(value.encode()).hexdigest()
    return value


def limit_pk(kind: str, subject: str) -> str:
    """The rate-limit counters of ``kind`` (``refusal``, ``help``...) for ``subject`` (an
    address, a player)."""
    return f"LIMIT#{kind}#{_readable(subject)}"


def window_start(now: datetime, window: timedelta) -> datetime:
    """The start of the fixed window of length ``window`` (counted from the epoch) ``now`` is in."""
    seconds = int(window.total_seconds())
    return datetime.fromtimestamp(int(now.timestamp()) // seconds * seconds, UTC)


def limit_sk(start: datetime) -> str:
    return f"WINDOW#{iso(start)}"


def pending_join_pk(token: str) -> str:
    """A JOIN waiting for its confirmation, by the hash of its token (the token, which takes the
    seat, is never stored)."""
    return f"JOIN#{hashlib.sha256(token.strip().upper().encode()).hexdigest()}"


def work_list_key(run: str) -> str:
    """The S3 key of a workflow run's work list; ``run`` is its execution ARN (or name), whose
    last part, the execution's name, is unique per state machine."""
    return f"{WORK_PREFIX}{run.rsplit(':', 1)[-1]}.json"
