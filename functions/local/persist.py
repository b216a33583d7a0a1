"""State surviving a restart of the local host: moto's DynamoDB and S3 contents snapshotted to a
folder on stop and put back on start.

Layout: ``dynamodb/<table>.json`` (every item, in DynamoDB's typed JSON, so nothing is lost in
conversion; binary values in base64) and ``s3/<bucket>/<key, percent-quoted>`` (one file per
object; flat, so keys ``a`` and ``a/b`` cannot collide) with ``s3/<bucket>.json`` listing each
key's content type. A snapshot is written to a temporary folder and swapped in, so a crash while
saving keeps the previous one.
"""

from __future__ import annotations

import base64
import json
import logging
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel

log = logging.getLogger("warpmail.local")

_BATCH = 25


class Snapshot(BaseModel):
    """What a save wrote or a restore put back."""

    items: dict[str, int] = {}
    objects: dict[str, int] = {}


def save(folder: Path, dynamodb: Any, s3: Any) -> Snapshot:
    """Every table's items and every bucket's objects into ``folder`` (replacing what was there)."""
    staging = folder.with_name(folder.name + ".saving")
    shutil.rmtree(staging, ignore_errors=True)
    snapshot = Snapshot()
    for table in _table_names(dynamodb):
        items = _scan(dynamodb, table)
        _write_json(staging / "dynamodb" / f"{table}.json", [_binary_out(item) for item in items])
        snapshot.items[table] = len(items)
    for bucket in sorted(b["Name"] for b in s3.list_buckets()["Buckets"]):
        snapshot.objects[bucket] = _save_bucket(staging / "s3", s3, bucket)
    _write_json(staging / "snapshot.json", snapshot.model_dump())
    previous = folder.with_name(folder.name + ".previous")
    shutil.rmtree(previous, ignore_errors=True)
    if folder.exists():
        folder.rename(previous)
    staging.rename(folder)
    shutil.rmtree(previous, ignore_errors=True)
    return snapshot


def restore(folder: Path, dynamodb: Any, s3: Any) -> Snapshot:
    """Put a snapshot back into freshly provisioned tables and buckets (created if missing).

    Call it before the bucket notifications exist, or restored raw mail is processed again."""
    snapshot = Snapshot()
    if not (folder / "snapshot.json").exists():
        return snapshot
    existing = set(_table_names(dynamodb))
    for path in sorted((folder / "dynamodb").glob("*.json")):
        table = path.stem
        if table not in existing:
            log.warning("snapshot has items of table %s, which is not provisioned: skipped", table)
            continue
        items = [_binary_in(item) for item in json.loads(path.read_text(encoding="utf-8"))]
        for start in range(0, len(items), _BATCH):
            requests = [{"PutRequest": {"Item": item}} for item in items[start : start + _BATCH]]
            _batch_write(dynamodb, table, requests)
        snapshot.items[table] = len(items)
    buckets = {b["Name"] for b in s3.list_buckets()["Buckets"]}
    for manifest in sorted((folder / "s3").glob("*.json")):
        bucket = manifest.stem
        if bucket not in buckets:
            _create_bucket(s3, bucket)
        objects = json.loads(manifest.read_text(encoding="utf-8"))
        for key, content_type in objects.items():
            body = (folder / "s3" / bucket / quote(key, safe="")).read_bytes()
            s3.put_object(Bucket=bucket, Key=key, Body=body, ContentType=content_type)
        snapshot.objects[bucket] = len(objects)
    return snapshot


def _table_names(dynamodb: Any) -> list[str]:
    names: list[str] = []
    for page in dynamodb.get_paginator("list_tables").paginate():
        names += page["TableNames"]
    return sorted(names)


def _scan(dynamodb: Any, table: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for page in dynamodb.get_paginator("scan").paginate(TableName=table):
        items += page["Items"]
    return items


def _binary_out(item: dict[str, Any]) -> dict[str, Any]:
    """A typed item with its binary values (``B``, ``BS``) in base64, for JSON."""
    return {name: _typed(value, _to_text) for name, value in item.items()}


def _binary_in(item: dict[str, Any]) -> dict[str, Any]:
    return {name: _typed(value, base64.b64decode) for name, value in item.items()}


def _to_text(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _typed(value: dict[str, Any], convert: Callable[[Any], Any]) -> dict[str, Any]:
    [(kind, content)] = value.items()
    if kind == "B":
        return {kind: convert(content)}
    if kind == "BS":
        return {kind: [convert(member) for member in content]}
    if kind == "M":
        return {kind: {name: _typed(member, convert) for name, member in content.items()}}
    if kind == "L":
        return {kind: [_typed(member, convert) for member in content]}
    return value


def _batch_write(dynamodb: Any, table: str, requests: list[dict[str, Any]]) -> None:
    pending: dict[str, Any] = {table: requests}
    while pending:
        pending = dynamodb.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}


def _save_bucket(root: Path, s3: Any, bucket: str) -> int:
    folder = root / bucket
    folder.mkdir(parents=True, exist_ok=True)
    objects: dict[str, str] = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for entry in page.get("Contents", []):
            key = entry["Key"]
            response = s3.get_object(Bucket=bucket, Key=key)
            (folder / quote(key, safe="")).write_bytes(response["Body"].read())
            objects[key] = response.get("ContentType") or "binary/octet-stream"
    _write_json(root / f"{bucket}.json", objects)
    return len(objects)


def _create_bucket(s3: Any, bucket: str) -> None:
    region = str(s3.meta.region_name)
    if region == "us-east-1":
        s3.create_bucket(Bucket=bucket)
    else:
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": region})


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
