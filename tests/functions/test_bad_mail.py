"""The bad mail corpus (tests/corpus/bad/, one README line per file): every kind of mail that
must not become orders gets its documented outcome (docs/architecture.md, "What happens to each
kind of mail"): an answer or none, and to whom; one mail-log entry with the reason; nothing
stored; the game's version unchanged; the raw mail still in the mail bucket.

Each mail is stored in the mail bucket (moto) as the SES receipt rule would store it and handed
to the inbound function's per-object handler (functions/handlers/inbound.py, which never
raises), with the real Store; mail sent is captured in a list.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.state import GameConfig, PlayerSpec, Scenario, Visibility
from functions.host import due, inbound, orders
from functions.mail.codes import hash_code
from functions.store import GameRecord, MailLogEntry, PlayerRecord, Store
from tests.functions.conftest import Aws

if TYPE_CHECKING:
    from types import ModuleType

BAD = Path(__file__).resolve().parent.parent / "corpus" / "bad"
NOW = datetime(2025, 3, 7, 12, 0, tzinfo=UTC)
RED, ZED = "red@example.org", "zed@example.com"
RED_CODE = "K7QM-9XDA-2P"


@dataclass
class ListMailer:
    sent: list[EmailMessage] = field(default_factory=list)

    def send(self, message: EmailMessage) -> str:
        self.sent.append(message)
        return f"<sent-{len(self.sent)}@warpmail.test>"


@dataclass(frozen=True)
class Expected:
    status: str
    reason: str
    reply_to: str | None
    """Who is answered; None: nobody."""
    logged_in: str | None
    """The game whose mail log has the entry; None: the log of mail naming no known game."""


NO_REPLY = None
EXPECTED: dict[str, Expected] = {
    "01_empty.eml": Expected("ignored", inbound.NO_SENDER, NO_REPLY, None),
    "02_binary_garbage.eml": Expected("ignored", inbound.NO_SENDER, NO_REPLY, None),
    "03_attachments_only.eml": Expected("rejected", orders.NO_CODE, RED, "g1"),
    "05_wrong_game.eml": Expected("rejected", "no game g9", RED, None),
    "06_wrong_player.eml": Expected("rejected", f"{ZED} is not a player of game g1", ZED, "g1"),
    "07_wrong_code.eml": Expected("rejected", orders.WRONG_CODE, RED, "g1"),
    "08_missing_code.eml": Expected("rejected", orders.NO_CODE, RED, "g1"),
    "09_spoofed_from_dmarc_fail.eml": Expected("rejected", "DMARC failed", RED, "g1"),
    "10_stranger_dmarc_fail.eml": Expected(
        "rejected", "ops@bank.example is not a player of game g1", NO_REPLY, "g1"
    ),
    "11_auto_reply.eml": Expected(
        "ignored", "automatic mail (auto-submitted: auto-replied): no reply", NO_REPLY, "g1"
    ),
    "12_bounce.eml": Expected(
        "ignored", "automatic mail (bounce: empty Return-Path): no reply", NO_REPLY, "g1"
    ),
    "13_own_address_loop.eml": Expected(
        "ignored", "automatic mail (loop: From is in our domain): no reply", NO_REPLY, "g1"
    ),
}


# --- The games ---


@functools.cache
def state_json(game_id: str) -> str:
    players = (PlayerSpec(id="P1", name="Red"), PlayerSpec(id="P2", name="Blue"))
    config = GameConfig(
        game_id=game_id, scenario=Scenario.BASIC, visibility=Visibility.OPEN, players=players, turn_limit=20
    )
    return WarpWar().new_game(Setup(config=config), 1).state.model_dump_json()


@functools.cache
def code_hash(code: str) -> str:
    """Hashed once: hashing a code is deliberately slow."""
    return hash_code(code)


def player(game_id: str, player_id: str, address: str, code: str) -> PlayerRecord:
    return PlayerRecord(
        game_id=game_id, player_id=player_id, name=player_id, address=address, code_hash=code_hash(code)
    )


def create(store: Store, game_id: str, players: list[PlayerRecord]) -> None:
    opened = GameRecord(game_id=game_id, title=f"Test game {game_id}", status="open")
    store.create_game(due.start(opened, state_json(game_id), NOW), players, state_json(game_id))


@dataclass
class Host:
    """Games g1 (P1 red@example.org, P2 blue@example.net) and g2 (P1 zed@example.com), running."""

    aws: Aws
    store: Store
    mailer: ListMailer
    handler: ModuleType
    """functions.handlers.inbound"""

    @property
    def bucket(self) -> str:
        return self.aws.resources.mail_bucket

    def deliver(self, raw: bytes, key: str) -> dict[str, Any]:
        self.aws.s3.put_object(Bucket=self.bucket, Key=key, Body=raw)
        return self.handle(key)

    def handle(self, key: str) -> dict[str, Any]:
        """The S3 event's work for one object (what ``handler`` does for each record)."""
        result: dict[str, Any] = self.handler.handle_object(self.bucket, key)
        return result

    def versions(self) -> dict[str, int]:
        return {game.game_id: game.version for game in self.store.games()}

    def stored(self) -> dict[str, Any]:
        return {game_id: self.store.latest_submissions(game_id) for game_id in ("g1", "g2")}

    def log(self) -> list[MailLogEntry]:
        return [*self.store.mail_log(None), *self.store.mail_log("g1"), *self.store.mail_log("g2")]


@pytest.fixture
def host(aws: Aws, monkeypatch: pytest.MonkeyPatch) -> Iterator[Host]:
    # Imported once the handler's environment is set: Powertools reads it when the module loads.
    from functions.handlers import inbound as handler

    store = Store(aws.resources.settings(), aws.dynamodb, aws.s3)
    create(store, "g1", [player("g1", "P1", RED, RED_CODE), player("g1", "P2", "blue@example.net", "B-CODE")])
    create(store, "g2", [player("g2", "P1", ZED, "ZZZZ-ZZZZ-ZZ")])
    mailer = ListMailer()
    settings = aws.resources.settings().model_copy(update={"trust_intake": True})  # as the local intake
    monkeypatch.setattr(handler, "dependencies", lambda: (settings, store, mailer, aws.s3))
    yield Host(aws, store, mailer, handler)
    # Counted outside the handler, which would have published them: none may reach another test.
    handler.metrics.clear_metrics()


def corpus(name: str) -> bytes:
    return (BAD / name).read_bytes()


def huge_mail() -> bytes:
    """Valid orders from the registered address, with 11 MB of attachment (kept out of git)."""
    raw = corpus("14_valid_orders.eml").replace(b"14_valid_orders", b"15_huge")
    return raw + b"\n" + b"A" * (inbound.MAX_MAIL_BYTES + 1024 * 1024)


# --- Bad mail ---


def assert_nothing_lost_nothing_stored(host: Host, raw: bytes, key: str, versions: dict[str, int]) -> None:
    assert host.aws.s3.get_object(Bucket=host.bucket, Key=key)["Body"].read() == raw
    assert host.stored() == {"g1": {}, "g2": {}}
    assert host.versions() == versions


def assert_answered(host: Host, expected: Expected, raw_id: str) -> None:
    if expected.reply_to is None:
        assert host.mailer.sent == []
        return
    [reply] = host.mailer.sent
    assert reply["To"] == expected.reply_to
    assert str(reply["In-Reply-To"]).strip() == raw_id
    assert reply["Auto-Submitted"] in {"auto-generated", "auto-replied"}, "no autoresponder answers it"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_mail_gets_its_documented_outcome_and_nothing_is_lost(host: Host, name: str) -> None:
    expected = EXPECTED[name]
    raw, key = corpus(name), f"inbound/{name}"
    versions = host.versions()
    result = host.deliver(raw, key)
    assert (result["status"], result["reason"]) == (expected.status, expected.reason)
    rejected = [entry for entry in host.log() if entry.direction == "rejected"]
    assert [(e.game_id, e.reason, e.key) for e in rejected] == [(expected.logged_in, expected.reason, key)]
    assert_answered(host, expected, f"<{name.removesuffix('.eml')}.bad@mail.example.org>")
    assert_nothing_lost_nothing_stored(host, raw, key, versions)


def test_a_mail_over_the_size_limit_is_not_read_and_its_sender_is_told(host: Host) -> None:
    raw, key = huge_mail(), "inbound/huge"
    versions = host.versions()
    result = host.deliver(raw, key)
    reason = inbound.TOO_BIG.format(size=len(raw), limit=inbound.MAX_MAIL_BYTES)
    assert (result["status"], result["reason"]) == ("rejected", reason)
    [entry] = [entry for entry in host.log() if entry.direction == "rejected"]
    assert (entry.game_id, entry.key) == ("g1", key)
    [reply] = host.mailer.sent
    assert reply["To"] == RED
    body = reply.get_body(("plain",))
    assert isinstance(body, EmailMessage)
    assert "11.0 MB" in body.get_content() and "10 MB" in body.get_content()
    assert_nothing_lost_nothing_stored(host, raw, key, versions)


def test_a_mail_just_under_the_size_limit_is_read_and_its_text_kept_cut_to_fit_the_table(host: Host) -> None:
    raw = corpus("14_valid_orders.eml")
    padded = raw + b"\n" + b"A" * (inbound.MAX_MAIL_BYTES - len(raw) - 1)
    assert host.deliver(padded, "inbound/big")["status"] == "accepted"
    [submission] = host.store.submissions("g1", "turn:1", "P1")
    assert len(submission.body) == orders.MAX_STORED_BODY


# --- Good mail in bad shapes, and duplicates ---


def test_html_only_orders_are_read_and_stored(host: Host) -> None:
    result = host.deliver(corpus("04_html_only.eml"), "inbound/html")
    assert result["status"] == "accepted", result
    [reply] = host.mailer.sent
    assert reply["To"] == RED
    assert list(host.store.latest_submissions("g1")) == [("P1", "turn:1")]
    assert [e.direction for e in host.store.mail_log("g1") if e.direction != "out"] == ["in"]


def test_orders_in_a_text_attachment_are_read_and_the_ack_says_so(host: Host) -> None:
    result = host.deliver(corpus("15_orders_attached.eml"), "inbound/attached")
    assert result["status"] == "accepted", result
    [ack] = host.mailer.sent
    body = ack.get_body(("plain",))
    assert isinstance(body, EmailMessage)
    assert "read from the attached file 'orders.txt'" in " ".join(body.get_content().split())
    assert list(host.store.latest_submissions("g1")) == [("P1", "turn:1")]


def test_a_duplicate_delivery_of_the_same_object_is_a_no_op(host: Host) -> None:
    raw, key = corpus("14_valid_orders.eml"), "inbound/valid"
    first = host.deliver(raw, key)
    log = host.log()
    versions = host.versions()
    again = host.handle(key)
    assert (first["status"], again["status"]) == ("accepted", "duplicate")
    assert again["reason"] == "duplicate delivery of <14_valid_orders.bad@mail.example.org>"
    assert len(host.mailer.sent) == 1, "one acknowledgement"
    [submission] = host.store.submissions("g1", "turn:1", "P1")
    assert submission.version == 1
    assert sorted(host.log(), key=repr) == sorted(log, key=repr), "nothing more logged"
    assert host.versions() == versions
    assert host.aws.s3.get_object(Bucket=host.bucket, Key=key)["Body"].read() == raw


def test_the_same_mail_delivered_again_under_another_key_is_a_duplicate_too(host: Host) -> None:
    raw = corpus("14_valid_orders.eml")
    assert host.deliver(raw, "inbound/first")["status"] == "accepted"
    assert host.deliver(raw, "inbound/second")["status"] == "duplicate"
    assert len(host.store.submissions("g1", "turn:1", "P1")) == 1


def test_every_corpus_file_is_listed_in_the_readme_and_tested() -> None:
    files = sorted(path.name for path in BAD.glob("*.eml"))
    readme = (BAD / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in files)
    tested_elsewhere = {"04_html_only.eml", "14_valid_orders.eml", "15_orders_attached.eml"}
    assert set(files) == set(EXPECTED) | tested_elsewhere
