"""Persistent game data: DynamoDB single table, S3 for large states (docs/architecture.md)."""

from functions.store.provision import provision, table_definition
from functions.store.records import (
    Absence,
    GameRecord,
    GameSetup,
    KeptResults,
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
    "GameExistsError",
    "GameNotFoundError",
    "GameRecord",
    "GameSetup",
    "KeptResults",
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
