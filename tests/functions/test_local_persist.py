"""Local mode's state survives a restart: the table's items and the buckets' objects are
snapshotted on stop and put back on start, without running the inbound function again for the
raw mail put back."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from functions.local import persist
from functions.local.host import LocalHost
from functions.resources import FunctionSpec, Resources, resources

HERE = "tests.functions.test_local_persist"
INVOCATIONS: list[dict[str, Any]] = []


def inbound(event: dict[str, Any], context: Any) -> None:
    INVOCATIONS.append(event)


def stub_resources() -> Resources:
    functions = (FunctionSpec(key="inbound", handler=f"{HERE}.inbound", memory_mb=128, timeout_s=30),)
    no_workflow = Path(__file__).parent / "no-such-state-machine.asl.json"
    return resources("local").model_copy(update={"functions": functions, "state_machine_file": no_workflow})


ITEM = {
    "PK": {"S": "GAME#alpha"},
    "SK": {"S": "META"},
    "turn": {"N": "3"},
    "awaiting": {"L": [{"S": "Red"}]},
    "blob": {"B": b"\x00\xff"},
}


def test_table_and_buckets_survive_a_restart(tmp_path: Path) -> None:
    INVOCATIONS.clear()
    host = LocalHost(tmp_path, stub_resources())
    host.start()
    key = host.deliver(b"Subject: orders\r\n\r\nW1 M 0101\r\n")
    host.client("dynamodb").put_item(TableName=host.resources.table, Item=ITEM)
    odd_key = "states/alpha/a b+c%2F..json"
    host.client("s3").put_object(
        Bucket=host.resources.state_bucket, Key=odd_key, Body=b"{}", ContentType="application/json"
    )
    host.stop()
    assert len(INVOCATIONS) == 1

    with LocalHost(tmp_path, stub_resources()) as restarted:
        assert restarted.restored.items == {restarted.resources.table: 1}
        assert restarted.restored.objects == {
            restarted.resources.mail_bucket: 1,
            restarted.resources.state_bucket: 1,
        }
        item = restarted.client("dynamodb").get_item(
            TableName=restarted.resources.table, Key={"PK": ITEM["PK"], "SK": ITEM["SK"]}
        )["Item"]
        assert item == ITEM
        s3 = restarted.client("s3")
        assert (
            s3.get_object(Bucket=restarted.resources.mail_bucket, Key=key)["Body"]
            .read()
            .endswith(b"W1 M 0101\r\n")
        )
        state = s3.get_object(Bucket=restarted.resources.state_bucket, Key=odd_key)
        assert (state["Body"].read(), state["ContentType"]) == (b"{}", "application/json")
        assert len(INVOCATIONS) == 1, "restored mail is not processed again"
        restarted.deliver(b"Subject: more\r\n\r\nx\r\n")
        assert len(INVOCATIONS) == 2, "mail arriving after the restart is"


def test_no_snapshot_restores_nothing(tmp_path: Path) -> None:
    assert persist.restore(tmp_path / "state", None, None) == persist.Snapshot()


def test_stop_without_saving_keeps_the_previous_snapshot(tmp_path: Path) -> None:
    with LocalHost(tmp_path, stub_resources()) as host:
        host.client("dynamodb").put_item(TableName=host.resources.table, Item=ITEM)
    host = LocalHost(tmp_path, stub_resources())
    host.start()
    host.client("dynamodb").delete_item(
        TableName=host.resources.table, Key={"PK": ITEM["PK"], "SK": ITEM["SK"]}
    )
    host.stop(save=False)
    with LocalHost(tmp_path, stub_resources()) as again:
        assert again.restored.items == {again.resources.table: 1}


def test_a_shared_host_catches_up_with_another_processs_save_and_saves_only_changes(tmp_path: Path) -> None:
    INVOCATIONS.clear()
    table_key = {"PK": ITEM["PK"], "SK": ITEM["SK"]}
    with LocalHost(tmp_path, stub_resources(), share=True) as host:
        dynamodb, s3 = host.client("dynamodb"), host.client("s3")
        # Given a mail and an item saved by one operation
        mail_key = host.deliver(b"Subject: orders\r\n\r\nW1 M 0101\r\n")
        with host.operation():
            dynamodb.put_item(TableName=host.resources.table, Item=ITEM)
        snapshot = tmp_path / "state" / "snapshot.json"
        saved = snapshot.read_bytes()
        # When an operation changes nothing, Then nothing is written
        modified = snapshot.stat().st_mtime_ns
        with host.operation():
            pass
        assert snapshot.stat().st_mtime_ns == modified
        # Given that snapshot kept as another process would have left it, and this one changing on
        other = tmp_path / "other"
        shutil.copytree(tmp_path / "state", other)
        with host.operation():
            dynamodb.delete_item(TableName=host.resources.table, Key=table_key)
            s3.put_object(Bucket=host.resources.state_bucket, Key="late", Body=b"x")
        assert snapshot.read_bytes() != saved
        # When the other process's save is the latest, Then the next operation works on it
        shutil.rmtree(tmp_path / "state")
        other.rename(tmp_path / "state")
        with host.operation():
            assert dynamodb.get_item(TableName=host.resources.table, Key=table_key)["Item"] == ITEM
            listed = s3.list_objects_v2(Bucket=host.resources.state_bucket).get("Contents", [])
            assert [entry["Key"] for entry in listed] == [], "what the other process never had is gone"
            assert s3.get_object(Bucket=host.resources.mail_bucket, Key=mail_key)["Body"].read()
        assert len(INVOCATIONS) == 1, "the mail put back is not handled again"
        host.deliver(b"Subject: more\r\n\r\nx\r\n")
        assert len(INVOCATIONS) == 2, "and mail arriving after the reload is"
