"""State surviving a restart of the local host: moto's DynamoDB and S3 contents snapshotted to a
folder on stop and put back on start.

Several processes share one folder, one at a time (functions/local/host.py: ``warpmail local
serve`` and the GM console): each snapshot carries a fingerprint of its contents, so a process
holding a copy of the games can tell whether another has saved since (:func:`fingerprint`) and
:func:`reload` only then, and a save that changes nothing writes nothing.

Layout: ``dynamodb/<table>.json`` (every item, in DynamoDB's typed JSON, so nothing is lost in
conversion; binary values in base64) and ``s3/<bucket>/<key, percent-quoted>`` (one file per
object; flat, so keys ``a`` and ``a/b`` cannot collide) with ``s3/<bucket>.json`` listing each
key's content type. A snapshot is written to a temporary folder and swapped in, so a crash while
saving keeps the previous one.
"""

from __future__ import annotations

import base64
import hashlib
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
    fingerprint: str = ""
    """SHA-256 of the contents (every item, every object's key and ETag)."""


def save(folder: Path, dynamodb: Any, s3: Any) -> Snapshot:
    """Every table's items and every bucket's objects into ``folder`` (replacing what was there,
    unless it holds these very contents already: then no object is even read)."""
    tables = {
        table: [_binary_out(item) for item in _scan(dynamodb, table)] for table in _table_names(dynamodb)
    }
    listings = {
        bucket: _listing(s3, bucket) for bucket in sorted(b["Name"] for b in s3.list_buckets()["Buckets"])
    }
    snapshot = Snapshot(
        items={table: len(items) for table, items in tables.items()},
        objects={bucket: len(listing) for bucket, listing in listings.items()},
        fingerprint=_fingerprint(tables, listings),
    )
    if snapshot.fingerprint == fingerprint(folder):
        return snapshot
    staging = folder.with_name(folder.name + ".saving")
    shutil.rmtree(staging, ignore_errors=True)
    for table, items in tables.items():
        _write_json(staging / "dynamodb" / f"{table}.json", items)
    for bucket, listing in listings.items():
        _save_bucket(staging / "s3", s3, bucket, listing)
    _write_json(staging / "snapshot.json", snapshot.model_dump())
    previous = folder.with_name(folder.name + ".previous")
    shutil.rmtree(previous, ignore_errors=True)
    if folder.exists():
        folder.rename(previous)
    staging.rename(folder)
    shutil.rmtree(previous, ignore_errors=True)
    return snapshot


def fingerprint(folder: Path) -> str:
    """The fingerprint of the snapshot in ``folder`` ("" when there is none)."""
    try:
        saved = (folder / "snapshot.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    return Snapshot.model_validate_json(saved).fingerprint


def restore(folder: Path, dynamodb: Any, s3: Any) -> Snapshot:
    """Put a snapshot back into freshly provisioned tables and buckets (created if missing).

    Call it while the bucket notifications are off, or restored raw mail is processed again."""
    snapshot = Snapshot(fingerprint=fingerprint(folder))
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


def reload(folder: Path, dynamodb: Any, s3: Any) -> Snapshot:
    """Empty every table and bucket, then :func:`restore`: the snapshot replaces what is there
    (an item or object another process deleted is gone here too). The same caution applies."""
    for table in _table_names(dynamodb):
        keys = [
            name["AttributeName"] for name in dynamodb.describe_table(TableName=table)["Table"]["KeySchema"]
        ]
        items = _scan(dynamodb, table)
        for start in range(0, len(items), _BATCH):
            requests = [
                {"DeleteRequest": {"Key": {name: item[name] for name in keys}}}
                for item in items[start : start + _BATCH]
            ]
            _batch_write(dynamodb, table, requests)
    for bucket in (b["Name"] for b in s3.list_buckets()["Buckets"]):
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
            keys = [{"Key": entry["Key"]} for entry in page.get("Contents", [])]
            if keys:
                s3.delete_objects(Bucket=bucket, Delete={"Objects": keys, "Quiet": True})
    return restore(folder, dynamodb, s3)


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


def _listing(s3: Any, bucket: str) -> dict[str, str]:
    """Each object's key and ETag (S3's digest of its bytes)."""
    listing: dict[str, str] = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        listing |= {entry["Key"]: entry["ETag"] for entry in page.get("Contents", [])}
    return listing


def _fingerprint(tables: dict[str, list[dict[str, Any]]], listings: dict[str, dict[str, str]]) -> str:
    """Of every item and every object's key and ETag, whatever order a scan returns the items in
    (a restore may change it). An object's content type is left out: every writer here puts an
    object whole, its type with its bytes."""
    digest = hashlib.sha256()
    for table, items in tables.items():
        digest.update(
            json.dumps([table, sorted(json.dumps(item, sort_keys=True) for item in items)]).encode()
        )
    for bucket, listing in listings.items():
        digest.update(json.dumps([bucket, sorted(listing.items())]).encode())
    return digest.hexdigest()


def _save_bucket(root: Path, s3: Any, bucket: str, listing: dict[str, str]) -> None:
    folder = root / bucket
    folder.mkdir(parents=True, exist_ok=True)
    content_types: dict[str, str] = {}
    for key in listing:
        response = s3.get_object(Bucket=bucket, Key=key)
        (folder / quote(key, safe="")).write_bytes(response["Body"].read())
        content_types[key] = response.get("ContentType") or "binary/octet-stream"
    _write_json(root / f"{bucket}.json", content_types)


def _create_bucket(s3: Any, bucket: str) -> None:
    region = str(s3.meta.region_name)
    if region == "us-east-1":
        s3.create_bucket(Bucket=bucket)
    else:
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": region})


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
