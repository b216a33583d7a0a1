"""RFC 3834's ``Auto-Submitted`` on every kind of mail the host sends: "auto-replied" on what answers
a mail, "auto-generated" on what the host sends on its own (functions/mail/compose.py). The
results and combat mails of a turn are checked where the workflow sends them
(tests/functions/test_workflow_asl.py)."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

import pytest

from functions.host.missed import alert_mail
from functions.host.reminders import reminder_mail
from functions.host.seats import notice_mail
from functions.mail.compose import OutgoingMail, compose
from tests.functions.test_commands import with_seats
from tests.functions.test_inbound import (
    BLUE,
    DOMAIN,
    NOW,
    RED,
    RED_CODE,
    ListMailer,
    deliver,
    hosted,
    orders,
    raw_mail,
)

REPLIED = "auto-replied"
GENERATED = "auto-generated"


def answers(body: str, sender: str = RED, status: str = "running") -> tuple[str, list[EmailMessage]]:
    """The Message-ID of one mail to game g1, and what the host sends for it (seats for a third
    player when the game is open)."""
    mailer = ListMailer()
    store = with_seats(hosted(status), 3) if status == "open" else hosted(status)
    raw = raw_mail(body, sender=sender)
    deliver(store, raw, mailer)
    assert mailer.sent, "the host answered"
    return str(BytesParser(policy=policy.default).parsebytes(raw)["Message-ID"]), mailer.sent


@pytest.mark.parametrize(
    ("what", "body", "sender", "status"),
    [
        ("acknowledgement", orders(), RED, "running"),
        ("refusal: wrong code", orders(code="WRONGCODE1"), RED, "running"),
        ("refusal: not a player", orders(), "stranger@example.com", "running"),
        ("HELP", "HELP", "new@example.com", "running"),
        ("STATUS", "STATUS", RED, "running"),
        ("REPORT before any results: the orders sheet", "REPORT", RED, "running"),
        ("JOIN: the confirmation", "JOIN g1 Green Fleet", "green@example.com", "open"),
        ("CONFIRM of no JOIN: a refusal", "CONFIRM AAAA-BBBB", "green@example.com", "open"),
    ],
)
def test_what_answers_a_mail_is_auto_replied_in_its_thread(
    what: str, body: str, sender: str, status: str
) -> None:
    message_id, sent = answers(body, sender, status)
    for message in sent:
        assert (message["Auto-Submitted"], message["In-Reply-To"]) == (REPLIED, message_id), what


def test_a_relayed_message_is_auto_generated_and_its_confirmation_auto_replied() -> None:
    message_id, [relay, confirmation] = answers(f"MESSAGE Blue\nCODE {RED_CODE}\nShall we share Babylon?")
    assert (relay["To"], relay["Auto-Submitted"]) == (BLUE, GENERATED)
    assert relay["In-Reply-To"] != message_id, "threaded in the game, not to Red's mail: Blue never saw it"
    assert (confirmation["To"], confirmation["Auto-Submitted"]) == (RED, REPLIED)


def test_what_the_host_sends_on_its_own_is_auto_generated() -> None:
    store = hosted()
    game, [red, _] = store.games["g1"].model_copy(update={"missed": {"P1": 3}}), store.players("g1")
    on_its_own: list[OutgoingMail] = [
        reminder_mail(game, red, NOW),
        alert_mail(game, red, f"gm@{DOMAIN}", "The game waits.", NOW),
        notice_mail(game, red, "The game is paused", ["The GM paused the game."], from_gm=True),
    ]
    for mail in on_its_own:
        assert compose(mail, f"warpmail@{DOMAIN}", DOMAIN, NOW)["Auto-Submitted"] == GENERATED, mail.subject
