"""Powertools idempotency records kept in the single table (partition "IDEMPOTENCY", the hashed
idempotency key as sort key, expiring through the table's TTL attribute)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

from functions.resources import PK, SK, TTL_ATTRIBUTE, Settings

IDEMPOTENCY_PARTITION = "IDEMPOTENCY"


def idempotency_layer(settings: Settings, dynamodb: Any = None) -> DynamoDBPersistenceLayer:
    """The persistence layer for ``@idempotent`` handlers (``dynamodb``: a boto3 client, or None)."""
    return DynamoDBPersistenceLayer(
        table_name=settings.table,
        key_attr=PK,
        sort_key_attr=SK,
        static_pk_value=IDEMPOTENCY_PARTITION,
        expiry_attr=TTL_ATTRIBUTE,
        boto3_client=dynamodb,
    )
