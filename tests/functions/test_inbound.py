"""The inbound mail service (functions/host/inbound.py) and its handler: who may submit orders,
who gets an answer and where, what is stored, and that nothing is lost."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest

from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.mailgame import WarpWarMail
from engine.warpwar.orders import TurnOrders
from engine.warpwar.state import GameConfig, PlayerSpec, Scenario, Visibility
from functions.host import orders as order_mail
from functions.host.deadlines import deadline_text
from functions.host.inbound import receive
from functions.host.received import InboundOutcome
from functions.mail.body import read_message
from functions.mail.codes import hash_code
from functions.mail.outbox import OutboxMailer
from functions.resources import Settings
from functions.store import (
    Claim,
    GameRecord,
    KeptResults,
    MailIdentity,
    MailLogEntry,
    NewSubmission,
    PendingJoin,
    PlayerRecord,
    Store,
    Submission,
)
from tests.functions.conftest import Aws

NOW = datetime(2025, 3, 7, 12, 0, tzinfo=UTC)
DEADLINE = datetime(2025, 3, 8, 18, 0, tzinfo=UTC)
DOMAIN = "warpmail.test"
SETTINGS = Settings(
    table="t",
    mail_bucket="m",
    state_bucket="s",
    mail_domain=DOMAIN,
    sender=f"warpmail@{DOMAIN}",
    trust_intake=True,  # the mails here are as the local intake hands them: no SES verdicts
)
RED, BLUE = "red@example.org", "blue@example.net"
RED_CODE, BLUE_CODE = "K7QM-9XDA-2P", "ABCD-EFGH-JK"
GAME_ADDRESS = f"g1@{DOMAIN}"


# --- Builders ---


@dataclass
class FakeStore:
    """The store's methods the service uses, in memory."""

    games: dict[str, GameRecord] = field(default_factory=dict)
    states: dict[str, str] = field(default_factory=dict)
    all_players: list[PlayerRecord] = field(default_factory=list)
    subs: list[Submission] = field(default_factory=list)
    log: list[MailLogEntry] = field(default_factory=list)
    claims: dict[str, Claim] = field(default_factory=dict)
    seen: dict[str, MailIdentity] = field(default_factory=dict)
    results: dict[tuple[str, str], tuple[KeptResults, bytes]] = field(default_factory=dict)
    counted: dict[tuple[str, str, int], int] = field(default_factory=dict)
    pending: dict[str, PendingJoin] = field(default_factory=dict)

    def allow(self, kind: str, subject: str, window: timedelta, limit: int, now: datetime) -> bool:
        key = (kind, subject, int(now.timestamp() // window.total_seconds()))
        if self.counted.get(key, 0) >= limit:
            return False
        self.counted[key] = self.counted.get(key, 0) + 1
        return True

    def add_pending_join(self, token: str, pending: PendingJoin) -> None:
        self.pending[token.upper()] = pending

    def take_pending_join(self, token: str, address: str, now: datetime, by: str) -> PendingJoin | None:
        found = self.pending.get(token.upper())
        if found is None or found.address != address.lower() or found.expires_at <= now:
            return None
        if found.confirmed_by not in ("", by):
            return None
        taken = found.model_copy(update={"confirmed_by": by})
        self.pending[token.upper()] = taken
        return taken

    def claim(
        self, key: str, now: datetime, lease: timedelta, data: dict[str, str] | None = None
    ) -> Claim | None:
        held = self.claims.get(key)
        if held is None:
            self.claims[key] = Claim(
                key=key, state="in_progress", at=now, lease_until=now + lease, data=data or {}
            )
        elif held.state == "in_progress" and held.lease_until is not None and held.lease_until <= now:
            self.claims[key] = held.model_copy(
                update={"lease_until": now + lease, "attempt": held.attempt + 1}
            )
        else:
            return None
        return self.claims[key]

    def claimed(self, key: str) -> Claim | None:
        return self.claims.get(key)

    def complete(self, key: str) -> None:
        self.claims[key] = self.claims[key].model_copy(
            update={"state": "done", "lease_until": None, "data": {}}
        )

    def release(self, key: str) -> None:
        if key in self.claims and self.claims[key].state == "in_progress":
            del self.claims[key]

    def identify(self, identities: Sequence[str], owner: str, digest: str) -> MailIdentity | None:
        earlier = None
        for identity in identities:
            found = self.seen.setdefault(
                identity, MailIdentity(identity=identity, owner=owner, digest=digest)
            )
            if found.owner != owner and earlier is None:
                earlier = found
        return earlier

    def update_player(self, player: PlayerRecord) -> None:
        self.all_players = [player if p.player_id == player.player_id else p for p in self.all_players]

    def game(self, game_id: str) -> GameRecord | None:
        return self.games.get(game_id)

    def players(self, game_id: str) -> list[PlayerRecord]:
        return [p for p in self.all_players if p.game_id == game_id]

    def players_by_address(self, address: str) -> list[PlayerRecord]:
        return [p for p in self.all_players if p.address == address.lower()]

    def add_player(self, player: PlayerRecord) -> bool:
        if any(p.player_id == player.player_id for p in self.players(player.game_id)):
            return False
        self.all_players.append(player)
        return True

    def state(self, game_id: str, version: int | None = None) -> tuple[GameRecord, str]:
        return self.games[game_id], self.states[game_id]

    def add_submission(self, new: NewSubmission) -> Submission:
        for stored in self.subs:
            if (stored.game_id, stored.player_id, stored.scope, stored.message_id) == (
                new.game_id,
                new.player_id,
                new.scope,
                new.message_id,
            ):
                return stored
        version = 1 + sum(
            1
            for s in self.subs
            if (s.game_id, s.player_id, s.scope) == (new.game_id, new.player_id, new.scope)
        )
        stored = Submission(**new.model_dump(), version=version)
        self.subs.append(stored)
        return stored

    def latest_submissions(self, game_id: str, scope_prefix: str = "") -> dict[tuple[str, str], Submission]:
        return {
            (s.player_id, s.scope): s
            for s in self.subs
            if s.game_id == game_id and s.scope.startswith(scope_prefix)
        }

    def log_mail(self, entry: MailLogEntry, ttl_days: int = 400) -> None:
        self.log.append(entry)

    def latest_results(self, game_id: str, player_id: str) -> tuple[KeptResults, bytes] | None:
        return self.results.get((game_id, player_id))


@dataclass
class ListMailer:
    sent: list[EmailMessage] = field(default_factory=list)

    def send(self, message: EmailMessage) -> str:
        self.sent.append(message)
        return f"sent-{len(self.sent)}"


def game_state_json() -> str:
    players = (PlayerSpec(id="P1", name="Red"), PlayerSpec(id="P2", name="Blue"))
    config = GameConfig(
        game_id="g1", scenario=Scenario.BASIC, visibility=Visibility.OPEN, players=players, turn_limit=20
    )
    return WarpWar().new_game(Setup(config=config), 1).state.model_dump_json()


STATE_JSON = game_state_json()


def hosted(status: str = "running", codes: tuple[str, str] = (RED_CODE, BLUE_CODE)) -> FakeStore:
    """Game g1, turn 1, P1 Red (red@example.org) to move, P2 Blue."""
    store = FakeStore()
    store.games["g1"] = game_record(status)
    store.states["g1"] = STATE_JSON
    store.all_players = list(players(codes))
    return store


def game_record(status: str = "running") -> GameRecord:
    return GameRecord.model_validate(
        {"game_id": "g1", "title": "Test game", "status": status, "turn": 1, "deadline": DEADLINE,
         "awaiting": ("turn:1#P1",)}
    )  # fmt: skip


@functools.cache
def players(codes: tuple[str, str] = (RED_CODE, BLUE_CODE)) -> list[PlayerRecord]:
    """Hashed once: hashing a code is deliberately slow."""
    return _players(codes)


def _players(codes: tuple[str, str]) -> list[PlayerRecord]:
    red = PlayerRecord(game_id="g1", player_id="P1", name="Red", address=RED, code_hash=hash_code(codes[0]))
    blue = PlayerRecord(
        game_id="g1",
        player_id="P2",
        name="Blue",
        address=BLUE,
        code_hash=hash_code(codes[1]),
        timezone="Europe/Paris",
    )
    return [red, blue]


def first_order(player: str = "P1") -> str:
    """The first example order of the player's orders sheet, as a real order line (P2 has no BP
    before its first player-turn: its build is accepted with a warning)."""
    sheet = WarpWarMail().sheet(STATE_JSON, player)
    examples = [line[2:] for line in sheet.splitlines() if line.startswith(("# BUILD", "# MOVE"))]
    return examples[0] if examples else "BUILD WARPSHIP AT 2223 PD=2 B=1"


def orders(*lines: str, code: str | None = RED_CODE, player: str = "P1", header: str = "") -> str:
    code_line = f"CODE {code}\n" if code is not None else ""
    body = "\n".join(lines or (first_order(player),))
    return f"Hi,\n\nGAME g1\nPLAYER {player}\nTURN 1\n{code_line}{header}{body}\nEND\n"


def raw_mail(
    body: str, sender: str = RED, to: str = GAME_ADDRESS, subject: str = "Orders", **headers: str
) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="example.org")
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return bytes(message)


def deliver(store: Any, raw: bytes, mailer: Any = None, key: str | None = None) -> InboundOutcome:
    """``raw`` handled as SES stores it: under a key of its own (by default, from its bytes)."""
    key = key or f"inbound/{hashlib.sha256(raw).hexdigest()[:16]}"
    return receive(raw, key, NOW, store, mailer if mailer is not None else ListMailer(), SETTINGS)


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert isinstance(part, EmailMessage)
    return str(part.get_content())


DMARC_FAIL = "amazonses.com; spf=fail; dkim=none; dmarc=fail header.from=example.org"


# --- Orders accepted ---


def test_orders_from_the_registered_address_with_the_code_are_stored_and_acknowledged() -> None:
    store, mailer = hosted(), ListMailer()
    raw = raw_mail(orders())
    outcome = deliver(store, raw, mailer, key="inbound/1")
    assert outcome.status == "accepted"
    assert outcome.scopes == ("turn:1",)
    [sub] = store.subs
    assert (sub.game_id, sub.player_id, sub.scope, sub.version, sub.received_at) == (
        "g1",
        "P1",
        "turn:1",
        1,
        NOW,
    )
    assert sub.message_id == str(read_message(raw)["Message-ID"])
    assert len(TurnOrders.model_validate_json(sub.orders_json).orders) == 1
    [ack] = mailer.sent
    assert ack["To"] == RED
    assert ack["In-Reply-To"] == sub.message_id
    assert ack["Subject"] == "[WarpWar g1] Re: Orders"
    assert "The order is understood" in text_of(ack)
    assert "Deadline: Sat 8 Mar 2025, 18:00 UTC" in text_of(ack)
    [calendar] = [part for part in ack.iter_attachments() if part.get_content_type() == "text/calendar"]
    assert "DTSTART:20250308T180000Z" in calendar.get_content()
    assert [(e.direction, e.game_id) for e in store.log] == [("out", "g1"), ("in", "g1")]
    assert store.log[1].key == "inbound/1"


def test_an_order_block_without_orders_is_a_submission_of_nothing_to_order() -> None:
    # Given a mail with the header, the code and END, and not one order
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail(orders("")), mailer)
    # Then it is stored as the player's orders for the turn, and the acknowledgement says so
    assert (outcome.status, outcome.scopes) == ("accepted", ("turn:1",))
    [sub] = store.subs
    assert TurnOrders.model_validate_json(sub.orders_json).orders == ()
    assert "submitted as nothing to order for turn 1" in " ".join(text_of(mailer.sent[0]).split())


def test_the_deadline_is_given_in_the_players_time_zone() -> None:
    store, mailer = hosted(), ListMailer()
    deliver(store, raw_mail(orders(code=BLUE_CODE, player="P2"), sender=BLUE), mailer)
    assert "Deadline: Sat 8 Mar 2025, 19:00 CET" in text_of(mailer.sent[0])


def test_a_later_mail_is_a_new_version_and_add_merges_with_the_latest() -> None:
    store = hosted()
    deliver(store, raw_mail(orders()))
    deliver(store, raw_mail(orders()))
    outcome = deliver(store, raw_mail(orders("BUILD WARPSHIP AT 0606 PD=2 B=1", header="ADD\n")))
    assert outcome.status == "accepted"
    assert [s.version for s in store.subs] == [1, 2, 3]
    assert len(TurnOrders.model_validate_json(store.subs[-1].orders_json).orders) == 2


def test_a_mail_marked_check_is_acknowledged_and_not_stored() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail(orders(header="CHECK\n")), mailer)
    assert outcome.status == "acknowledged"
    assert store.subs == []
    assert "Checked only (CHECK)" in text_of(mailer.sent[0])


def test_the_game_is_found_from_the_game_line_when_sent_to_another_address() -> None:
    store = hosted()
    assert deliver(store, raw_mail(orders(), to=f"host@{DOMAIN}")).status == "accepted"


def test_the_recipient_address_names_the_game_with_a_tag_and_in_any_case() -> None:
    store = hosted()
    assert deliver(store, raw_mail(orders(), to=f"Game <G1+orders@{DOMAIN.upper()}>")).status == "accepted"


def test_problems_reading_the_mail_reach_the_player_in_the_acknowledgement() -> None:
    store, mailer = hosted(), ListMailer()
    message = read_message(raw_mail(orders()))
    message.replace_header("Content-Type", 'text/plain; charset="x-unknown"')
    deliver(store, bytes(message), mailer)
    assert "which is unknown" in text_of(mailer.sent[0])


# --- Authentication ---


def test_a_wrong_code_is_answered_at_the_registered_address_and_nothing_stored() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail(orders(code="WRONG-CODE-00"), sender="Red <RED@Example.ORG>"), mailer)
    assert (outcome.status, outcome.reason) == ("rejected", order_mail.WRONG_CODE)
    assert store.subs == []
    [notice] = mailer.sent
    assert notice["To"] == RED
    assert "not accepted" in text_of(notice)
    assert store.log[-1].direction == "rejected"


def test_orders_without_a_code_are_refused() -> None:
    store = hosted()
    assert deliver(store, raw_mail(orders(code=None))).reason == order_mail.NO_CODE
    assert deliver(store, raw_mail(orders(code="________"))).reason == order_mail.NO_CODE
    assert store.subs == []


def test_the_code_is_forgiving_about_case_and_dashes() -> None:
    store = hosted()
    assert deliver(store, raw_mail(orders(code="k7qm 9xda 2p"))).status == "accepted"


def test_an_unknown_sender_gets_a_polite_reply_and_nothing_is_stored() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail(orders(), sender="eve@example.com"), mailer)
    assert outcome.status == "rejected"
    assert outcome.reason == order_mail.UNKNOWN_SENDER.format(address="eve@example.com", game_id="g1")
    [reply] = mailer.sent
    assert reply["To"] == "eve@example.com"
    assert "is not registered in game g1" in " ".join(text_of(reply).split())
    assert store.subs == []


def test_a_player_of_another_game_is_unknown_in_this_one() -> None:
    store = hosted()
    store.all_players.append(
        store.all_players[0].model_copy(update={"game_id": "g2", "address": "x@example.org"})
    )
    outcome = deliver(store, raw_mail(orders(), sender="x@example.org"))
    assert outcome.status == "rejected"


def test_failing_dmarc_submits_nothing_and_tells_the_registered_address() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail(orders(), Authentication_Results=DMARC_FAIL), mailer)
    assert (outcome.status, outcome.reason) == ("rejected", "DMARC failed")
    assert store.subs == []
    assert [m["To"] for m in mailer.sent] == [RED]


def test_an_unknown_sender_failing_dmarc_gets_no_reply() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(
        store, raw_mail(orders(), sender="eve@example.com", Authentication_Results=DMARC_FAIL), mailer
    )
    assert outcome.status == "rejected"
    assert mailer.sent == []
    assert store.log[-1].direction == "rejected"


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto_Submitted": "auto-replied"},
        {"X_Autoreply": "yes"},
        {"Precedence": "bulk"},
        {"List_Id": "<list.example.org>"},
    ],
)
def test_automatic_mail_gets_no_reply_only_a_log_entry(headers: dict[str, str]) -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail(orders(), **headers), mailer)
    assert outcome.status == "ignored"
    assert mailer.sent == []
    assert store.subs == []
    assert [e.direction for e in store.log] == ["rejected"]


def test_a_bounce_gets_no_reply() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("Delivery failed", sender="MAILER-DAEMON@example.org"), mailer)
    assert outcome.status == "ignored"
    assert mailer.sent == []


def test_a_duplicate_delivery_is_a_no_op() -> None:
    store, mailer = hosted(), ListMailer()
    raw = raw_mail(orders())
    deliver(store, raw, mailer, key="inbound/1")
    logged = len(store.log)
    again = deliver(store, raw, mailer, key="inbound/1")
    assert (again.status, len(store.log)) == ("duplicate", logged)
    outcome = deliver(store, raw, mailer, key="inbound/2")
    assert outcome.status == "duplicate"
    assert len(store.subs) == 1
    assert len(mailer.sent) == 1
    [entry] = store.log[logged:]
    assert (entry.direction, entry.key) == ("rejected", "inbound/2"), "the second raw mail logged once"
    assert entry.reason.startswith("duplicate of the mail <")


def test_mail_without_orders_or_game_gets_a_reply_saying_which_game() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("Hello there", to=f"host@{DOMAIN}"), mailer)
    assert (outcome.status, outcome.reason) == ("rejected", order_mail.NO_GAME)
    assert "does not say which game" in " ".join(text_of(mailer.sent[0]).split())


def test_an_unknown_game_is_named_in_the_reply() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail(orders(), to=f"g9@{DOMAIN}"), mailer)
    assert outcome.reason == order_mail.UNKNOWN_GAME.format(game_id="g9")
    assert "There is no game g9 here" in text_of(mailer.sent[0])


def test_orders_for_a_game_open_for_sign_up_are_refused() -> None:
    store = hosted(status="open")
    assert deliver(store, raw_mail(orders())).reason == order_mail.NOT_STARTED.format(game_id="g1")


def test_an_address_playing_two_sides_says_which_with_player() -> None:
    store = hosted()
    store.all_players[1] = store.all_players[1].model_copy(update={"address": RED})
    assert deliver(store, raw_mail(orders(code=BLUE_CODE, player="P2"))).player_id == "P2"
    outcome = deliver(store, raw_mail(orders().replace("PLAYER P1\n", "")))
    assert outcome.reason == order_mail.WHICH_PLAYER.format(address=RED, game_id="g1")


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\xff" * 100,
        b"From: red@example.org\r\n\r\n" + bytes(range(256)) * 50,
        b"Subject: x\n\nno from",
    ],
)
def test_bad_mail_gets_an_outcome_and_a_log_entry(raw: bytes) -> None:
    store = hosted()
    outcome = deliver(store, raw)
    assert outcome.status in {"rejected", "ignored"}
    assert store.subs == []
    assert len([e for e in store.log if e.direction != "out"]) == 1


def test_a_failure_midway_releases_the_mail_so_that_it_can_be_delivered_again() -> None:
    store = hosted()

    def broken(new: NewSubmission) -> Submission:
        raise RuntimeError("store down")

    store.add_submission = broken  # type: ignore[method-assign]
    raw = raw_mail(orders())
    with pytest.raises(RuntimeError):
        deliver(store, raw)
    assert store.claims == {}
    del store.add_submission
    assert deliver(store, raw).status == "accepted"


# --- Deadline text ---


def test_deadline_text_falls_back_to_utc_for_an_unknown_zone() -> None:
    assert deadline_text(DEADLINE, "Mars/Olympus") == "Sat 8 Mar 2025, 18:00 UTC"
    assert deadline_text(None) is None


# --- With the real store (moto) and the outbox ---


def real_store(aws: Aws) -> Store:
    store = Store(aws.resources.settings(), aws.dynamodb, aws.s3)
    store.create_game(game_record(), players(), STATE_JSON)
    return store


def test_orders_through_the_real_store_and_the_outbox(aws: Aws, tmp_path: Path) -> None:
    store, outbox = real_store(aws), OutboxMailer(tmp_path)
    settings = aws.resources.settings().model_copy(update={"trust_intake": True})
    raw = raw_mail(orders(), to=f"g1@{settings.mail_domain}")
    outcome = receive(raw, "inbound/a", NOW, store, outbox, settings)
    assert outcome.status == "accepted"
    assert receive(raw, "inbound/b", NOW, store, outbox, settings).status == "duplicate"
    [sub] = store.submissions("g1", "turn:1", "P1")
    assert sub.version == 1
    assert sorted(e.direction for e in store.mail_log("g1")) == ["in", "out", "rejected"]
    [duplicate] = [e for e in store.mail_log("g1") if e.key == "inbound/b"]
    assert duplicate.direction == "rejected", "the second raw mail's one entry: a duplicate"
    [eml] = tmp_path.glob("*.eml")
    assert RED in eml.name
    assert "The order is understood" in next(tmp_path.glob("*.txt")).read_text()


def test_the_handler_reads_the_raw_mail_from_s3_and_never_raises(
    aws: Aws, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from functions.handlers import inbound as handler_module

    store = real_store(aws)
    settings = aws.resources.settings().model_copy(update={"trust_intake": True})
    outbox = OutboxMailer(tmp_path)
    monkeypatch.setattr(handler_module, "dependencies", lambda: (settings, store, outbox, aws.s3))
    key = "inbound/a b+c"
    aws.s3.put_object(Bucket=settings.mail_bucket, Key=key, Body=raw_mail(orders()))
    result = handler_module.handler(s3_event(settings.mail_bucket, "inbound/a+b%2Bc"), LambdaContextStub())
    assert result["outcomes"][0]["status"] == "accepted"
    assert aws.s3.get_object(Bucket=settings.mail_bucket, Key=key)["Body"].read()
    missing = handler_module.handler(s3_event(settings.mail_bucket, "inbound/missing"), LambdaContextStub())
    assert missing["outcomes"][0]["status"] == "failed"
    assert store.mail_log(None)[-1].reason.startswith("error: NoSuchKey")


def s3_event(bucket: str, key: str) -> dict[str, Any]:
    """An S3 event as moto sends it (no userIdentity, requestParameters, responseElements)."""
    return {
        "Records": [
            {
                "eventVersion": "2.1",
                "eventSource": "aws:s3",
                "awsRegion": "eu-west-1",
                "eventTime": NOW.isoformat(),
                "eventName": "ObjectCreated:Put",
                "s3": {
                    "s3SchemaVersion": "1.0",
                    "configurationId": "inbound",
                    "bucket": {"name": bucket, "arn": f"arn:aws:s3:::{bucket}"},
                    "object": {"key": key, "size": 1, "eTag": "x"},
                },
            }
        ]
    }


class LambdaContextStub:
    function_name = "inbound"
    memory_limit_in_mb = 256
    invoked_function_arn = "arn:aws:lambda:eu-west-1:123456789012:function:inbound"
    aws_request_id = "req-1"
