"""Persistent game data: DynamoDB single table, S3 for large states (docs/architecture.md)."""

from functions.store.provision import provision, table_definition
from functions.store.records import (
    Absence,
    Claim,
    GameRecord,
    GameSetup,
    KeptResults,
    MailIdentity,
    MailLogEntry,
    NewSubmission,
    PendingJoin,
    PlayerRecord,
    Schedule,
    Submission,
    awaited,
    split_awaited,
)
from functions.store.store import INLINE_LIMIT, GameExistsError, GameNotFoundError, Store

__all__ = [
    "INLINE_LIMIT",
    "Absence",
    "Claim",
    "GameExistsError",
    "GameNotFoundError",
    "GameRecord",
    "GameSetup",
    "KeptResults",
    "MailIdentity",
    "MailLogEntry",
    "NewSubmission",
    "PendingJoin",
    "PlayerRecord",
    "Schedule",
    "Store",
    "Submission",
    "awaited",
    "provision",
    "split_awaited",
    "table_definition",
]
