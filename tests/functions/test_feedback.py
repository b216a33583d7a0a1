"""SES's bounces and complaints (functions/host/feedback.py, functions/handlers/feedback.py):
every record of the address is marked, each game's GM is told once, the same event twice
changes nothing more, and no mail of any kind goes to a bouncing address until the GM's console
lifts the mark."""

from __future__ import annotations

import email
import json
from datetime import UTC, datetime, timedelta
from email.policy import default
from types import SimpleNamespace
from typing import Any

import boto3
import pytest
from moto.core import DEFAULT_ACCOUNT_ID  # type: ignore[attr-defined, unused-ignore]
from moto.ses.models import ses_backends

from functions.console import mail as console_mail
from functions.console import players as console_players
from functions.host import feedback, turns
from functions.host.feedback import SesEvent, handle_feedback
from functions.mail.ses import SesMailer
from functions.store import GameRecord, PlayerRecord, Schedule, Store
from tests.functions.conftest import REGION
from tests.functions.test_inbound import (
    RED,
    LambdaContextStub,
    ListMailer,
    deliver,
    hosted,
    orders,
    raw_mail,
)
from tests.functions.test_turns import (  # noqa: F401 (quick_rendering: an autouse fixture)
    GAME,
    START,
    Recorder,
    new_game,
    quick_rendering,
)

BOUNCED_AT = datetime(2026, 11, 27, 9, 30, tzinfo=UTC)
NOW = BOUNCED_AT + timedelta(minutes=1)
ONE = "one@example.org"
GM = "gm@example.org"


def ses_event(
    kind: str = "Bounce", address: str = "One <ONE@example.org>", bounce_type: str = "Permanent"
) -> dict[str, Any]:
    """An event as SES publishes it to SNS (SES docs, "Examples of event data that Amazon SES
    publishes to Amazon SNS"), about a results mail of game g1."""
    mail = {
        "timestamp": "2026-11-27T09:29:02.012Z",
        "source": "warpmail@warpmail.test",
        "sourceArn": "arn:aws:ses:eu-west-1:123456789012:identity/warpmail.test",
        "sendingAccountId": "123456789012",
        "messageId": "0102019c-ses-id-000000",
        "destination": [address],
        "headersTruncated": False,
        "headers": [
            {"name": "From", "value": "WarpMail <warpmail@warpmail.test>"},
            {"name": "To", "value": address},
            {"name": "Subject", "value": "[WarpWar g1] Turn 5 results"},
            {"name": "X-WarpMail-Game", "value": "g1"},
        ],
        "commonHeaders": {"from": ["warpmail@warpmail.test"], "to": [address], "subject": "Turn 5"},
        "tags": {"ses:configuration-set": ["warpmail-test"], "ses:from-domain": ["warpmail.test"]},
    }
    if kind == "Bounce":
        detail = {
            "bounceType": bounce_type,
            "bounceSubType": "General",
            "bouncedRecipients": [
                {
                    "emailAddress": address,
                    "action": "failed",
                    "status": "5.1.1",
                    "diagnosticCode": "smtp; 550 5.1.1 user unknown",
                }
            ],
            "timestamp": "2026-11-27T09:30:00.000Z",
            "feedbackId": "0102019c-feedback-000000",
            "reportingMTA": "dsn; mta.example.org",
        }
        return {"eventType": "Bounce", "bounce": detail, "mail": mail}
    detail = {
        "complainedRecipients": [{"emailAddress": address}],
        "timestamp": "2026-11-27T09:30:00.000Z",
        "feedbackId": "0102019c-feedback-000001",
        "userAgent": "Mozilla/5.0",
        "complaintFeedbackType": "abuse",
        "arrivalDate": "2026-11-27T09:29:58.000Z",
    }
    return {"eventType": "Complaint", "complaint": detail, "mail": mail}


def sns(event: dict[str, Any] | str) -> dict[str, Any]:
    """SNS's event to a subscribed Lambda function: SES's event is the message, as JSON text."""
    message = event if isinstance(event, str) else json.dumps(event)
    topic = "arn:aws:sns:eu-west-1:123456789012:warpmail-test-ses-feedback"
    return {
        "Records": [
            {
                "EventSource": "aws:sns",
                "EventVersion": "1.0",
                "EventSubscriptionArn": f"{topic}:2bcfbf39",
                "Sns": {
                    "Type": "Notification",
                    "MessageId": "95df01b4-ee98-5cb9-9903-4c221d41eb5e",
                    "TopicArn": topic,
                    "Subject": None,
                    "Message": message,
                    "Timestamp": "2026-11-27T09:30:01.000Z",
                    "SignatureVersion": "1",
                    "Signature": "EXAMPLE",
                    "SigningCertUrl": "https://sns.eu-west-1.amazonaws.com/cert.pem",
                    "UnsubscribeUrl": "https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe",
                    "MessageAttributes": {},
                },
            }
        ]
    }


def two_games(store: Store) -> None:
    """g1 (GM gm@example.org; P1 one@, P2 two@, both human) and g2, where one@ plays P3 and
    which has no GM address of its own."""
    new_game(store, robot_seat=False, gm_address=GM)
    other = GameRecord(game_id="g2", title="Other", status="open")
    three = PlayerRecord(game_id="g2", player_id="P3", name="One again", address=ONE, code_hash="x")
    store.create_game(other, [three], "")


def marks(store: Store) -> dict[str, str]:
    return {f"{p.game_id}/{p.player_id}": p.bouncing for g in ("g1", "g2") for p in store.players(g)}


def mark(store: Store, address: str, how: str = "bounce 2026-11-27", game_id: str = GAME) -> None:
    for player in store.players(game_id):
        if player.address == address:
            store.update_player(player.model_copy(update={"bouncing": how}))


def withheld_entries(store: Store, game_id: str = GAME) -> list[str]:
    return [e.reason for e in store.mail_log(game_id) if "is bouncing" in e.reason]


@pytest.fixture
def ses(store: Store) -> Any:
    """moto's SES, the host's domain verified (as in the SES sandbox)."""
    client = boto3.client("sesv2", region_name=REGION)
    client.create_email_identity(EmailIdentity=store.settings.mail_domain)
    return client


def ses_sent() -> list[Any]:
    return list(ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages)


# --- The handler, with SES's real notifications ---


def test_a_permanent_bounce_marks_every_record_of_the_address_and_tells_each_gm_once(
    store: Store, ses: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from functions.handlers import feedback as handler_module

    # Given one@example.org playing in two games
    two_games(store)
    monkeypatch.setattr(handler_module, "dependencies", lambda: (store.settings, store, SesMailer(ses)))

    # When SES reports that mail to it bounced for good, and SNS delivers the event twice
    first = handler_module.handler(sns(ses_event()), LambdaContextStub())
    again = handler_module.handler(sns(ses_event()), LambdaContextStub())

    # Then both of its records are marked, not the other player's
    assert marks(store) == {"g1/P1": "bounce 2026-11-27", "g1/P2": "", "g2/P3": "bounce 2026-11-27"}
    assert first["outcomes"][0]["marked"] == ["g1/P1", "g2/P3"]
    assert (first["outcomes"][0]["told"], again["outcomes"][0]["told"]) == (2, 0)
    assert again["outcomes"][0]["marked"] == []
    # and each game's GM (g2 has none: the host's sender) got one mail through SES, saying what to do
    sent = ses_sent()
    assert sorted(m.destinations[0] for m in sent) == sorted([GM, store.settings.sender])
    told = email.message_from_string(
        next(m for m in sent if m.destinations[0] == GM).raw_data, policy=default
    )
    assert told["Subject"] == "[WarpWar g1] Mail to One (P1) bounces"
    text = told.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "SES could not deliver mail to one@example.org" in " ".join(text.split())
    for command in (
        "player address g1 P1 <new-address>",
        "player replace g1 P1",
        f"player address g1 P1 {ONE}",
    ):
        assert f"warpmail {command}" in text
    # and each game's mail log says it, once
    [entry] = [e for e in store.mail_log(GAME) if e.direction == "rejected"]
    assert entry.address == ONE and entry.at == BOUNCED_AT
    assert entry.reason == (
        "permanent bounce (General): smtp; 550 5.1.1 user unknown: one@example.org marked bouncing "
        "(bounce 2026-11-27), no more mail to it"
    )
    assert entry.subject == "[WarpWar g1] Turn 5 results"
    assert [e.reason for e in store.mail_log("g2") if e.direction == "out"] == [
        "GM told: one@example.org is bouncing (" + next(m.id for m in sent if m.destinations[0] != GM) + ")"
    ]


def test_a_complaint_marks_the_address_and_the_gm_reads_it_was_reported_as_spam(
    store: Store, ses: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from functions.handlers import feedback as handler_module

    new_game(store, robot_seat=False, gm_address=GM)
    monkeypatch.setattr(handler_module, "dependencies", lambda: (store.settings, store, SesMailer(ses)))
    handler_module.handler(sns(ses_event("Complaint", "two@example.org")), LambdaContextStub())
    assert [p.bouncing for p in store.players(GAME)] == ["", "complaint 2026-11-27"]
    [told] = ses_sent()
    assert "Mail to Two (P2) was reported as spam" in " ".join(told.raw_data.split())


def test_a_transient_bounce_is_logged_and_changes_nothing(store: Store) -> None:
    new_game(store, robot_seat=False, gm_address=GM)
    mailer = Recorder()
    event = SesEvent.model_validate(ses_event(bounce_type="Transient"))
    outcome = handle_feedback(event, store, mailer, store.settings, NOW)
    assert outcome.status == "ignored"
    assert outcome.reason == "transient bounce (General): the mail may yet arrive"
    assert [p.bouncing for p in store.players(GAME)] == ["", ""]
    assert mailer.sent == []


def test_an_unreadable_notification_is_counted_and_not_raised(store: Store) -> None:
    from functions.handlers import feedback as handler_module

    result = handler_module.handler(sns("not json {"), LambdaContextStub())
    assert result["outcomes"] == [] and "Invalid JSON" in result["unreadable"]


def test_a_bounce_of_no_players_address_is_logged_without_a_game(store: Store) -> None:
    new_game(store, robot_seat=False, gm_address=GM)
    mailer = Recorder()
    event = SesEvent.model_validate(ses_event(address="stranger@example.net"))
    outcome = handle_feedback(event, store, mailer, store.settings, NOW)
    assert (outcome.status, outcome.marked, mailer.sent) == ("marked", (), [])
    [entry] = store.mail_log(None)
    assert entry.reason.endswith("stranger@example.net is no player's address")


def test_a_failure_is_raised_for_lambda_to_retry_and_the_retry_tells_the_gm_once(store: Store) -> None:
    new_game(store, robot_seat=False, gm_address=GM)
    event = SesEvent.model_validate(ses_event())

    class Down:
        def send(self, message: object) -> str:
            raise ConnectionError("SES unreachable")

    # When telling the GM fails after the mark was made
    with pytest.raises(ConnectionError):
        handle_feedback(event, store, Down(), store.settings, NOW)
    assert marks(store)["g1/P1"] == "bounce 2026-11-27"
    # Then the retry finds the mark and still tells the GM, once
    mailer = Recorder()
    handle_feedback(event, store, mailer, store.settings, NOW + timedelta(seconds=5))
    handle_feedback(event, store, mailer, store.settings, NOW + timedelta(seconds=9))
    assert [m["To"] for m in mailer.sent] == [GM]


def test_the_gm_is_told_again_when_the_address_bounces_again_after_the_mark_was_lifted(store: Store) -> None:
    new_game(store, robot_seat=False, gm_address=GM)
    mailer = Recorder()
    handle_feedback(SesEvent.model_validate(ses_event()), store, mailer, store.settings, NOW)
    backend = SimpleNamespace(store=store, mailer=mailer, settings=store.settings)
    console_players.change_address(backend, GAME, "P1", ONE, NOW)
    later = ses_event()
    later["bounce"]["timestamp"] = "2026-12-03T10:00:00.000Z"
    handle_feedback(SesEvent.model_validate(later), store, mailer, store.settings, NOW + timedelta(days=6))
    assert [p.bouncing for p in store.players(GAME)] == ["bounce 2026-12-03", ""]
    assert [m["To"] for m in mailer.sent] == [GM, GM]


def test_the_event_parser_reads_an_address_with_a_display_name_in_lower_case() -> None:
    found = feedback.feedback_of(SesEvent.model_validate(ses_event()))
    assert not isinstance(found, str)
    assert found.addresses == (ONE,)
    assert found.mark == "bounce 2026-11-27"


# --- No mail to a bouncing address, on every path ---


def test_results_and_reminders_are_kept_but_not_mailed_to_a_bouncing_player(store: Store) -> None:
    # Given a game of two human players, P2's address bouncing
    new_game(store, robot_seat=False, turn_mode="cycle", turn_hours=48, schedule=Schedule(reminders=(24,)))
    mark(store, "two@example.org")
    mailer = Recorder()
    # When the game opens (results to both) and the reminder time comes
    turns.process_game(GAME, START, store, mailer, store.settings)
    turns.process_game(GAME, START + timedelta(hours=24), store, mailer, store.settings)
    # Then P1 got their mails, P2 none: the log says why, and P2's results are kept for REPORT
    assert [m["To"] for m in mailer.sent] == [ONE, ONE], "P1's results and reminder"
    withheld = [(e.address, e.subject, e.reason) for e in store.mail_log(GAME) if "is bouncing" in e.reason]
    reason = "not sent: two@example.org is bouncing (bounce 2026-11-27)"
    assert [(address, why) for address, _, why in withheld] == [("two@example.org", reason)] * 2
    assert "player-turn" in withheld[0][1] and "Reminder" in withheld[1][1]
    assert store.latest_results(GAME, "P2") is not None
    # and a retry sends nothing more and logs nothing more
    turns.process_game(GAME, START + timedelta(hours=24), store, mailer, store.settings)
    assert len(withheld_entries(store)) == 2


def test_an_inbound_answer_is_not_sent_to_a_bouncing_sender_but_the_orders_are_read() -> None:
    store, mailer = hosted(), ListMailer()
    store.all_players = [
        p.model_copy(update={"bouncing": "complaint 2026-11-27"}) if p.address == RED else p
        for p in store.all_players
    ]
    outcome = deliver(store, raw_mail(orders()), mailer, key="inbound/1")
    assert outcome.status == "accepted" and len(store.subs) == 1
    assert mailer.sent == []
    assert [e.reason for e in store.log if e.direction == "out"] == [
        f"not sent: {RED} is bouncing (complaint 2026-11-27)"
    ]


def test_the_gms_notices_and_direct_mail_are_not_sent_to_a_bouncing_player(store: Store) -> None:
    new_game(store, robot_seat=False, gm_address=GM)
    mark(store, ONE)
    mailer = Recorder()
    backend = SimpleNamespace(store=store, mailer=mailer, settings=store.settings)
    sent = console_mail.send_direct(backend, GAME, "P1", "Are you there?", NOW)
    assert sent.error == "one@example.org is bouncing (bounce 2026-11-27)"
    assert mailer.sent == []
    assert withheld_entries(store) == ["not sent: one@example.org is bouncing (bounce 2026-11-27)"]


# --- The GM's console lifts the mark ---


def test_a_new_address_lifts_the_mark_and_the_bouncing_one_is_not_told(store: Store) -> None:
    new_game(store, robot_seat=False, gm_address=GM)
    mark(store, ONE)
    mailer = Recorder()
    backend = SimpleNamespace(store=store, mailer=mailer, settings=store.settings)
    change = console_players.change_address(backend, GAME, "P1", "new@example.org", NOW)
    assert (change.player.address, change.player.bouncing) == ("new@example.org", "")
    assert [m["To"] for m in mailer.sent] == ["new@example.org"]
    assert withheld_entries(store) == ["not sent: one@example.org is bouncing (bounce 2026-11-27)"]


def test_the_same_address_given_again_lifts_its_mark_in_every_game(store: Store) -> None:
    two_games(store)
    mark(store, ONE)
    mark(store, ONE, game_id="g2")
    mailer = Recorder()
    backend = SimpleNamespace(store=store, mailer=mailer, settings=store.settings)
    change = console_players.change_address(backend, GAME, "P1", ONE.upper(), NOW)
    assert change.player.bouncing == "" and change.mails == []
    assert set(marks(store).values()) == {""}
    # and mail to it goes again
    console_mail.send_direct(backend, GAME, "P1", "Welcome back", NOW)
    assert [m["To"] for m in mailer.sent] == [ONE]


def test_a_seat_given_away_loses_the_mark_and_the_bouncing_player_gets_no_goodbye(store: Store) -> None:
    new_game(store, robot_seat=False, gm_address=GM)
    turns.process_game(GAME, START, store, Recorder(), store.settings)  # the game running
    mark(store, ONE)
    mailer = Recorder()
    backend = SimpleNamespace(store=store, mailer=mailer, settings=store.settings)
    change = console_players.replace(backend, GAME, "P1", "ann@example.net", NOW, name="Ann")
    assert (change.player.address, change.player.bouncing) == ("ann@example.net", "")
    assert [m["To"] for m in mailer.sent] == ["ann@example.net"], "the welcome only"
    assert withheld_entries(store) == ["not sent: one@example.org is bouncing (bounce 2026-11-27)"]


def test_a_bouncing_standby_taking_a_seat_is_not_welcomed(store: Store) -> None:
    new_game(store, robot_seat=False, gm_address=GM)
    turns.process_game(GAME, START, store, Recorder(), store.settings)
    standby = PlayerRecord(
        game_id=GAME, player_id="S1", name="Sam", address="sam@example.net", code_hash="x", role="standby",
        bouncing="bounce 2026-11-20",
    )  # fmt: skip
    store.add_player(standby)
    mailer = Recorder()
    backend = SimpleNamespace(store=store, mailer=mailer, settings=store.settings)
    console_players.replace(backend, GAME, "P1", "sam@example.net", NOW)
    assert [m["To"] for m in mailer.sent] == [ONE], "the goodbye only"
    assert withheld_entries(store) == ["not sent: sam@example.net is bouncing (bounce 2026-11-20)"]
