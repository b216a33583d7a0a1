"""Creating the table and buckets of a deployment from its description, with boto3: what the local
mode and the tests do where the CDK app deploys (the same :class:`Resources` feeds both)."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from functions.resources import Resources


def table_definition(resources: Resources) -> dict[str, Any]:
    """The ``create_table`` arguments of the single table: string keys, on-demand billing, every
    index projecting every attribute."""
    spec = resources.table_spec
    return {
        "TableName": resources.table,
        "KeySchema": [
            {"AttributeName": spec.partition_key, "KeyType": "HASH"},
            {"AttributeName": spec.sort_key, "KeyType": "RANGE"},
        ],
        "AttributeDefinitions": [
            {"AttributeName": name, "AttributeType": "S"} for name in spec.key_attributes()
        ],
        "BillingMode": "PAY_PER_REQUEST",
        "GlobalSecondaryIndexes": [
            {
                "IndexName": index.name,
                "KeySchema": [
                    {"AttributeName": index.partition_key, "KeyType": "HASH"},
                    {"AttributeName": index.sort_key, "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
            for index in spec.indexes
        ],
    }


def provision(resources: Resources, dynamodb: Any, s3: Any) -> None:
    """Create what is missing of the table (with its TTL) and the mail and state buckets; what
    exists is left as it is, so a restarted local host keeps its data."""
    _create_table(resources, dynamodb)
    for bucket in (resources.mail_bucket, resources.state_bucket):
        _create_bucket(bucket, resources.region, s3)


def _create_table(resources: Resources, dynamodb: Any) -> None:
    if resources.table not in _table_names(dynamodb):
        dynamodb.create_table(**table_definition(resources))
        dynamodb.get_waiter("table_exists").wait(TableName=resources.table)
    ttl = dynamodb.describe_time_to_live(TableName=resources.table)["TimeToLiveDescription"]
    if ttl.get("TimeToLiveStatus") not in ("ENABLED", "ENABLING"):
        dynamodb.update_time_to_live(
            TableName=resources.table,
            TimeToLiveSpecification={"Enabled": True, "AttributeName": resources.table_spec.ttl_attribute},
        )


def _table_names(dynamodb: Any) -> set[str]:
    names: set[str] = set()
    for page in dynamodb.get_paginator("list_tables").paginate():
        names.update(page["TableNames"])
    return names


def _create_bucket(bucket: str, region: str, s3: Any) -> None:
    location = {} if region == "us-east-1" else {"CreateBucketConfiguration": {"LocationConstraint": region}}
    try:
        s3.create_bucket(Bucket=bucket, **location)
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") != "BucketAlreadyOwnedByYou":
            raise
