"""WarpMail is never a weapon (issue 13, "Limits and amplification" and "Secrets"): the store's
rate-limit counters; every answer of the inbound path within its limit (refusals, strangers,
HELP, REPORT, MESSAGE, JOIN, all mail to one address); JOIN confirmed by the mailbox's owner;
names that cannot reach a header raw; outgoing mail cut to a size receivers take; secret codes
never stored nor logged."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from functions.host.commands.info import HELP_ANSWERS, REPORTS
from functions.host.commands.join import JOINS, MAX_GAMES, MAX_STANDBYS, _address_problem
from functions.host.commands.message import MESSAGES, RELAYS_RECEIVED
from functions.host.inbound import MAX_MAIL_BYTES, receive
from functions.host.names import NAME_RULE, name_problem
from functions.host.received import LOOP, OVERSIZE, REFUSALS, redact_codes
from functions.mail import compose as compose_module
from functions.mail.body import read_message
from functions.mail.compose import (
    CUT_FILES,
    MAX_OUTGOING_BYTES,
    Attachment,
    OutgoingMail,
    compose,
    fit,
    header_text,
)
from functions.store import GameRecord, KeptResults, PendingJoin, PlayerRecord, Store
from functions.store import keys as store_keys
from tests.functions.conftest import Aws
from tests.functions.test_commands import with_seats
from tests.functions.test_inbound import (
    BLUE,
    DMARC_FAIL,
    DOMAIN,
    NOW,
    RED,
    RED_CODE,
    SETTINGS,
    STATE_JSON,
    FakeStore,
    ListMailer,
    deliver,
    first_order,
    hosted,
    orders,
    players,
    raw_mail,
    text_of,
)

DAY = timedelta(days=1)
STRANGER = "eve@example.com"


def limited(store: FakeStore) -> list[str]:
    return [e.reason for e in store.log if "rate-limited" in e.reason]


def to(mailer: ListMailer, address: str) -> list[EmailMessage]:
    return [m for m in mailer.sent if m["To"] == address]


# --- The counters ---


def test_a_counter_allows_up_to_its_limit_per_window_and_expires_with_it(store: Store, aws: Aws) -> None:
    counted = [store.allow("help", RED, DAY, 3, NOW) for _ in range(5)]
    assert counted == [True, True, True, False, False]
    assert store.allow("help", BLUE, DAY, 3, NOW), "each subject has its own counter"
    assert store.allow("refusal", RED, DAY, 3, NOW), "and each kind"
    assert store.allow("help", RED, DAY, 3, NOW + DAY), "a new window starts at none"
    start = store_keys.window_start(NOW, DAY)
    item = aws.dynamodb.get_item(
        TableName=store.table,
        Key={"PK": {"S": store_keys.limit_pk("help", RED)}, "SK": {"S": store_keys.limit_sk(start)}},
    )["Item"]
    assert (item["count"]["N"], item["expires"]["N"]) == ("3", str(int((start + DAY).timestamp())))


def test_a_pending_join_is_kept_by_its_tokens_hash_and_confirmed_once_by_its_address(
    store: Store, aws: Aws
) -> None:
    pending = PendingJoin(
        game_id="g1", address="Ann@Example.org", name="Ann", asked_at=NOW, expires_at=NOW + DAY
    )
    store.add_pending_join("K7QM-9XDA", pending)
    table = json.dumps(aws.dynamodb.scan(TableName=store.table)["Items"])
    assert "K7QM-9XDA" not in table
    assert store.take_pending_join("K7QM-9XDA", "eve@example.org", NOW, "inbound/1") is None
    assert store.take_pending_join("K7QM-9XDA", "ann@example.org", NOW + DAY, "inbound/1") is None, "expired"
    taken = pending.model_copy(update={"confirmed_by": "inbound/1"})
    assert store.take_pending_join("k7qm-9xda", "ann@example.org", NOW, "inbound/1") == taken
    assert store.take_pending_join("K7QM-9XDA", "ann@example.org", NOW, "inbound/2") is None, "once only"
    assert store.take_pending_join("K7QM-9XDA", "ann@example.org", NOW, "inbound/1") == taken, "its retry"


# --- Refusals and strangers ---


def test_refusals_to_a_player_stop_at_the_limit_and_the_log_says_so() -> None:
    store, mailer = hosted(), ListMailer()
    for _ in range(REFUSALS.most + 2):
        assert deliver(store, raw_mail(orders(code="WRONG-CODE")), mailer).status == "rejected"
    assert len(to(mailer, RED)) == REFUSALS.most
    assert limited(store) == [f"no refusal mail to {RED}: at most 3 a day (rate-limited)"] * 2
    assert sum(e.reason == "wrong secret code" for e in store.log) == REFUSALS.most + 2


def test_mail_refused_for_its_size_is_answered_once_a_day() -> None:
    store, mailer = hosted(), ListMailer()
    padding = "x" * MAX_MAIL_BYTES
    outcomes = [deliver(store, raw_mail(orders() + padding), mailer) for _ in range(3)]
    assert [o.status for o in outcomes] == ["rejected"] * 3
    assert len(to(mailer, RED)) == OVERSIZE.most == 1
    assert limited(store) == [f"no oversize mail to {RED}: at most 1 a day (rate-limited)"] * 2


def test_a_stranger_gets_one_short_answer_a_day_that_echoes_nothing_they_wrote() -> None:
    store, mailer = hosted(), ListMailer()
    spam = "Cheap pills at example.biz"
    for _ in range(3):
        raw = raw_mail(f"{spam}\n" + orders(), sender=STRANGER, subject=spam)
        assert deliver(store, raw, mailer).status == "rejected"
    [answer] = mailer.sent
    assert answer["To"] == STRANGER
    assert "pills" not in str(answer["Subject"]) + text_of(answer)
    for game in ("g9", "buy-pills-at-example-biz"):
        fresh, unknown = hosted(), ListMailer()
        deliver(
            fresh, raw_mail(f"GAME {game}\nhi", sender=STRANGER, to=f"host@{DOMAIN}", subject=spam), unknown
        )
        [answer] = unknown.sent
        assert game not in text_of(answer) and "pills" not in str(answer["Subject"])


def test_a_player_still_reads_their_own_subject_in_answers() -> None:
    store, mailer = hosted(), ListMailer()
    deliver(store, raw_mail(orders(), subject="My turn 1"), mailer)
    assert "Re: My turn 1" in str(mailer.sent[0]["Subject"])


def test_a_stranger_failing_the_sender_checks_gets_nothing_whatever_they_send() -> None:
    store, mailer = hosted(), ListMailer()
    for body in ("HELP", "JOIN g1 Eve", "STATUS", orders(), "GAME g9\nhello"):
        deliver(store, raw_mail(body, sender=STRANGER, Authentication_Results=DMARC_FAIL), mailer)
    assert mailer.sent == []


# --- Commands ---


def test_help_is_answered_a_few_times_a_day_per_address() -> None:
    store, mailer = hosted(), ListMailer()
    outcomes = [
        deliver(store, raw_mail("HELP", sender=STRANGER), mailer) for _ in range(HELP_ANSWERS.most + 1)
    ]
    assert len(mailer.sent) == HELP_ANSWERS.most
    assert (outcomes[-1].status, outcomes[-1].reason) == ("ignored", "HELP: not answered (rate-limited)")


def test_report_is_sent_again_a_few_times_per_player_and_turn() -> None:
    store, mailer = hosted(), ListMailer()
    kept = KeptResults(game_id="g1", player_id="P1", version=3, at=NOW, subject="Turn 1")
    results = EmailMessage()
    results["Subject"] = "Turn 1"
    results.set_content("your results")
    store.results[("g1", "P1")] = (kept, bytes(results))
    for _ in range(REPORTS.most + 2):
        deliver(store, raw_mail("REPORT"), mailer)
    assert len(mailer.sent) == REPORTS.most
    store.games["g1"] = store.games["g1"].model_copy(update={"turn": 2})
    deliver(store, raw_mail("REPORT"), mailer)
    assert len(mailer.sent) == REPORTS.most + 1, "a new turn, a new count"


def test_messages_are_relayed_up_to_the_senders_and_the_recipients_daily_limits() -> None:
    store, mailer = hosted(), ListMailer()
    message = f"MESSAGE Blue\nCODE {RED_CODE}\nPeace?"
    outcomes = [deliver(store, raw_mail(message), mailer).status for _ in range(MESSAGES.most + 1)]
    assert outcomes == ["command"] * MESSAGES.most + ["rejected"]
    assert len(to(mailer, BLUE)) == MESSAGES.most
    assert "at most 10 messages relayed a day" in " ".join(text_of(to(mailer, RED)[-1]).split())
    # Blue has had 10; other senders together may bring 10 more, then no more.
    for _ in range(RELAYS_RECEIVED.most - MESSAGES.most + 1):
        store.counted = {k: v for k, v in store.counted.items() if k[0] != "message"}
        deliver(store, raw_mail(message), mailer)
    assert len(to(mailer, BLUE)) == RELAYS_RECEIVED.most
    assert "Not relayed to Blue" in " ".join(text_of(to(mailer, RED)[-1]).split())


def test_no_address_gets_more_than_the_daily_mails_of_the_inbound_path() -> None:
    store, mailer = hosted(), ListMailer()
    for _ in range(LOOP.most + 3):
        assert deliver(store, raw_mail(orders()), mailer).status == "accepted"
    assert len(mailer.sent) == LOOP.most
    assert limited(store)[-1] == f"no sent mail to {RED}: at most {LOOP.most} a day (rate-limited)"


# --- JOIN ---


@pytest.mark.parametrize(
    "address",
    [
        f"someone@{DOMAIN}",
        "x@mail.warpmail.test",
        "noreply@example.org",
        "mailer-daemon@example.org",
        "postmaster@example.org",
        "players-request@lists.example.org",
        "bounces+123@example.org",
        "owner-list@example.org",
    ],
)
def test_join_from_our_domain_a_robot_or_an_odd_address_is_refused(address: str) -> None:
    store, mailer = with_seats(hosted(status="open"), 3), ListMailer()
    outcome = deliver(store, raw_mail("JOIN g1 Robo", sender=address), mailer)
    assert outcome.status in ("rejected", "ignored")
    assert store.pending == {} and len(store.players("g1")) == 2


def test_a_confirmation_from_another_address_or_a_wrong_token_takes_no_seat() -> None:
    store, mailer = with_seats(hosted(status="open"), 3), ListMailer()
    deliver(store, raw_mail("JOIN g1 Green", sender="green@example.com"), mailer)
    token = str(mailer.sent[-1]["Subject"]).split("CONFIRM ")[1].split()[0]
    assert deliver(store, raw_mail(f"CONFIRM {token}", sender=STRANGER), mailer).status == "rejected"
    assert (
        deliver(store, raw_mail("CONFIRM AAAA-BBBB", sender="green@example.com"), mailer).status == "rejected"
    )
    assert len(store.players("g1")) == 2
    outcome = deliver(store, raw_mail(f"confirm {token.lower()}", sender="green@example.com"), mailer)
    assert (outcome.status, outcome.player_id) == ("command", "P3")


def test_join_answers_to_one_address_are_limited() -> None:
    store, mailer = with_seats(hosted(status="open"), 3), ListMailer()
    for name in ("A<b", "B@c", "Green", "Green2", "Green3"):
        deliver(store, raw_mail(f"JOIN g1 {name}", sender="green@example.com"), mailer)
    assert len(mailer.sent) == JOINS.most
    assert len(store.pending) == 1


def test_an_address_holds_places_in_a_few_games_and_a_game_takes_a_few_standbys() -> None:
    store, mailer = hosted(status="open"), ListMailer()
    busy = "busy@example.com"
    for n in range(MAX_GAMES):
        store.games[f"x{n}"] = GameRecord(game_id=f"x{n}", title="X", status="running")
        store.all_players.append(
            PlayerRecord(game_id=f"x{n}", player_id="P1", name="Busy", address=busy, code_hash="x")
        )
    deliver(store, raw_mail("JOIN g1 Busy", sender=busy), mailer)
    assert "plays in 5 games already" in " ".join(text_of(mailer.sent[-1]).split())
    for n in range(MAX_STANDBYS):
        store.all_players.append(
            PlayerRecord(
                game_id="g1",
                player_id=f"S{n + 1}",
                name=f"S{n}",
                address=f"s{n}@e.org",
                code_hash="x",
                role="standby",
            )
        )
    deliver(store, raw_mail("JOIN g1 Late", sender="late@example.com"), mailer)
    assert "standby places taken" in " ".join(text_of(mailer.sent[-1]).split())
    assert store.pending == {}


# --- Names ---


@pytest.mark.parametrize(
    "name",
    [
        "Eve\u202eevil",
        "Zero\u200bWidth",
        "Iso\u2066late",
        "bom\ufeff",
        "bell\x07",
        "c1\x85x",
        "=?utf-8?q?Eve?=",
        "Eve <eve@example.org>",
        'The "Boss"',
        "a@b",
        "x" * 41,
        "",
        "line\nbreak",
    ],
)
def test_names_that_could_break_a_header_or_a_page_are_refused(name: str) -> None:
    assert name_problem(name) == NAME_RULE


@pytest.mark.parametrize("name", ["Zoë & O'Brien", "محمد", "Ŝtar {{x}} %s", "🚀 Fleet", "李小龍"])
def test_names_of_any_script_and_punctuation_are_taken(name: str) -> None:
    assert name_problem(name) is None


def test_join_with_a_bad_name_is_refused_with_the_rule() -> None:
    store, mailer = with_seats(hosted(status="open"), 3), ListMailer()
    outcome = deliver(store, raw_mail("JOIN g1 =?utf-8?q?Eve?=", sender="green@example.com"), mailer)
    assert outcome.status == "rejected"
    assert "no control or invisible characters" in " ".join(text_of(mailer.sent[0]).split())


def test_a_name_with_an_encoded_word_cannot_inject_a_header() -> None:
    evil = "=?utf-8?q?Eve=0D=0ABcc:_victim@example.org?="
    mail = OutgoingMail(
        to=f"{evil} <blue@example.net>",
        subject=f"Message from {evil}",
        text="hi",
        kind="relay",
        game_id="g1",
        game_name="WarpWar",
    )
    raw = compose(mail, f"WarpMail <warpmail@{DOMAIN}>", DOMAIN, NOW).as_bytes()
    parsed = read_message(raw)
    assert parsed["Bcc"] is None and b"\r\nBcc:" not in raw
    assert "Message from = ?utf-8?q?Eve=0D=0ABcc:_victim@example.org?=" in str(parsed["Subject"])


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=1, max_size=60))
def test_any_text_in_a_subject_stays_one_header_and_reads_back_as_shown(text: str) -> None:
    mail = OutgoingMail(
        to="blue@example.net", subject=f"Message from {text}", text="hi", kind="relay", game_name=None
    )
    message = compose(mail, f"warpmail@{DOMAIN}", DOMAIN, NOW)
    parsed = read_message(message.as_bytes())
    # (A decoder drops the white space between two encoded-words: only that may differ.)
    assert str(parsed["Subject"]).split() == header_text(f"Message from {text}").split() or "".join(
        str(parsed["Subject"]).split()
    ) == "".join(header_text(f"Message from {text}").split())
    assert list(parsed.keys()) == list(message.keys())


def test_only_a_plain_address_outside_our_domain_may_join() -> None:
    for address in ("x@[127.0.0.1]", "x@localhost", 'we"ird@example.org', "a,b@example.org"):
        assert _address_problem(address, DOMAIN) is not None, address
    assert _address_problem("ann.o'neil+games@mail.example.co.uk", DOMAIN) is None


# --- Outgoing size ---


def test_a_huge_attachment_is_left_out_with_a_note() -> None:
    big = Attachment(filename="map.png", content_type="image/png", data=b"\x89PNG" * (3 * 1024 * 1024))
    mail = OutgoingMail(
        to=RED,
        subject="Turn 1",
        text="Your results",
        html="<html><body><p>Results</p></body></html>",
        attachments=(big,),
        kind="results",
        game_id="g1",
        game_name="WarpWar",
    )
    message = compose(mail, f"warpmail@{DOMAIN}", DOMAIN, NOW)
    assert len(message.as_bytes()) <= MAX_OUTGOING_BYTES
    assert list(message.iter_attachments()) == []
    note = CUT_FILES.format(limit=10)
    assert note in text_of(message)
    html = message.get_body(preferencelist=("html",))
    assert html is not None and note in str(html.get_content())


def test_a_huge_text_is_cut_with_a_line_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    limit = 1024 * 1024
    monkeypatch.setattr(compose_module, "MAX_OUTGOING_BYTES", limit)
    text = "MOVE W1\n" * 200_000
    mail = OutgoingMail(
        to=RED,
        subject="Orders",
        text=text,
        html=f"<p>{text}</p>",
        kind="ack",
        game_id="g1",
        game_name="WarpWar",
    )
    message = compose(mail, f"warpmail@{DOMAIN}", DOMAIN, NOW)
    assert limit * 0.6 < len(message.as_bytes()) <= limit
    assert message.get_content_type() == "text/plain", "the HTML cannot be cut: left out"
    shown = text_of(message).replace("\r\n", "\n")
    assert shown.startswith("MOVE W1\nMOVE W1\n")
    assert shown.endswith("\n\n[... the rest of this mail was cut: it was over 1 MB.]\n")


def test_any_text_is_cut_to_the_limit_whatever_its_encoding() -> None:
    limit = 200_000
    for text in ("é" * limit, "=" * limit, "\x00" * limit, "日本" * limit):
        mail = fit(OutgoingMail(to=RED, subject="s", text=text, kind="ack", game_name=None), limit=limit)
        assert len(compose(mail, f"warpmail@{DOMAIN}", DOMAIN, NOW).as_bytes()) <= limit
        assert mail.text.startswith(text[:1000])


def test_an_acknowledgement_of_a_huge_order_mail_is_sent_and_stays_small() -> None:
    store, mailer = hosted(), ListMailer()
    long = "MOVE " + "W1 " * 1000
    lines = [first_order()] + [f"{long} {n}" for n in range(300)]
    raw = raw_mail(orders(*lines))
    outcome = deliver(store, raw, mailer)
    assert outcome.status == "accepted"
    [ack] = mailer.sent
    shown = " ".join(text_of(ack).split())
    # W1 is the Warpship the mail's BUILD makes (orders for it are read), "W1" no star
    assert " [...] " in shown and 'W1 299": there is no star "W1" on your map' in shown
    assert len(ack.as_bytes()) < len(raw) / 2


# --- Secrets ---


def test_no_stored_item_and_no_log_line_holds_a_secret_code(
    store: Store, aws: Aws, caplog: pytest.LogCaptureFixture
) -> None:
    game = GameRecord.model_validate(
        {"game_id": "g1", "title": "T", "status": "running", "turn": 1, "awaiting": ("turn:1#P1",)}
    )
    store.create_game(game, players(), STATE_JSON)
    mailer = ListMailer()
    mails = [
        raw_mail(orders(header=f"CODE {RED_CODE}\n"), subject=f"CODE {RED_CODE}"),
        raw_mail(f"MESSAGE Blue\nCODE {RED_CODE}\nPeace?\nCODE {RED_CODE}\n"),
        raw_mail(f"MESSAGE Nobody CODE {RED_CODE}\nPeace?"),
        raw_mail("", subject=f"WAIT CODE {RED_CODE}"),
        raw_mail(orders(code="K7QM-9XDA-22")),
    ]
    with caplog.at_level(logging.DEBUG):
        for n, raw in enumerate(mails):
            logging.getLogger("inbound").info(
                "%s", receive(raw, f"inbound/{n}", NOW, store, mailer, SETTINGS)
            )
    table = json.dumps(aws.dynamodb.scan(TableName=store.table)["Items"])
    assert "CODE [removed]" in table
    for code in (RED_CODE, "K7QM-9XDA-22", "K7QM9XDA2P"):
        assert code not in table
        assert code not in caplog.text
    relayed = [m for m in mailer.sent if m["To"] == BLUE]
    assert relayed and all(RED_CODE not in text_of(m) for m in relayed)


def test_redacting_codes_keeps_every_line_and_catches_each_way_of_writing_one() -> None:
    wide = "\uff23\uff2f\uff24\uff25"  # CODE in full-width letters
    text = f"Hi\nCODE K7QM\n  code: abc\n> CODE quoted\nWAIT CODE x\n{wide} wide\nno decode here"
    redacted = redact_codes(text)
    assert redacted.count("\n") == text.count("\n")
    assert redacted.split("\n") == [
        "Hi",
        "CODE [removed]",
        "  CODE [removed]",
        "> CODE [removed]",
        "WAIT CODE [removed]",
        "CODE [removed]",
        "no decode here",
    ]
