"""Inbound safety (functions/mail/safety.py): automatic mail gets no reply; a failed DMARC or
SES verdict is not trusted. The headers are as Gmail, Outlook, Yahoo and SES write them."""

from __future__ import annotations

import pytest

from functions.mail.body import read_message
from functions.mail.compose import OutgoingMail, compose
from functions.mail.safety import (
    AuthResult,
    dmarc_failed,
    is_automatic,
    parse_results,
    safety_failure,
    ses_verdicts_failed,
)

DOMAIN = "warpmail.test"

PLAYER = """\
Return-Path: <ana@example.org>
Received: from mail-wm1-f41.google.com (mail-wm1-f41.google.com [209.85.128.41])
 by inbound-smtp.eu-west-1.amazonaws.com with SMTP id abc for g1@warpmail.test;
 Tue, 04 Mar 2025 05:06:07 +0000 (UTC)
From: Ana <ana@example.org>
To: WarpWar g1 <g1@warpmail.test>
Subject: Re: [WarpWar g1] Turn 5 results
Message-ID: <CAB+x1@mail.gmail.com>
In-Reply-To: <thread.0123@warpmail.test>
References: <thread.0123@warpmail.test>
Date: Tue, 04 Mar 2025 05:06:00 +0000
"""

SES_PASS = """\
Received-SPF: pass (spf=pass) client-ip=209.85.128.41; envelope-from=ana@example.org;
 helo=mail-wm1-f41.google.com;
Authentication-Results: amazonses.com;
 spf=pass (spf=pass) smtp.mailfrom=ana@example.org;
 dkim=pass header.i=@example.org;
 dmarc=pass header.from=example.org;
X-SES-RECEIPT: AEFBQUFBQUFBQUFHNnh0
X-SES-Spam-Verdict: PASS
X-SES-Virus-Verdict: PASS
"""

SES_DMARC_FAIL = """\
Authentication-Results: amazonses.com;
 spf=fail (spf=fail) smtp.mailfrom=ana@example.org;
 dkim=none header.i=@example.org;
 dmarc=fail header.from=example.org;
X-SES-Spam-Verdict: PASS
X-SES-Virus-Verdict: PASS
"""

GMAIL_PASS = """\
Authentication-Results: mx.google.com;
       dkim=pass header.i=@example.org header.s=s1 header.b=AbCdEf12;
       spf=pass (google.com: domain of ana@example.org designates 209.85.220.41 as permitted sender)
 smtp.mailfrom=ana@example.org;
       dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.org
"""

GMAIL_FAIL = """\
Authentication-Results: mx.google.com;
       spf=softfail (google.com: domain of transitioning ana@example.org does not designate
 203.0.113.5 as permitted sender) smtp.mailfrom=ana@example.org;
       dmarc=fail (p=REJECT sp=REJECT dis=REJECT) header.from=example.org
"""

OUTLOOK_FAIL = """\
Authentication-Results: spf=fail (sender IP is 203.0.113.5)
 smtp.mailfrom=example.org; dkim=none (message not signed)
 header.d=none;dmarc=fail action=oreject header.from=example.org;compauth=fail
 reason=000
"""

OUTLOOK_PASS = """\
Authentication-Results: spf=pass (sender IP is 40.107.22.51)
 smtp.mailfrom=example.org; dkim=pass (signature was verified)
 header.d=example.org;dmarc=pass action=none header.from=example.org;compauth=pass
 reason=100
"""

YAHOO_FAIL = """\
Authentication-Results: atlas-production.v2.mail.yahoo.com;
 dkim=perm_fail header.i=@example.org header.s=default;
 spf=fail smtp.mailfrom=example.org;
 dmarc=fail(p=REJECT) header.from=example.org;
"""


def message(*headers: str, body: str = "move W3 to 1522\n") -> bytes:
    """A raw message: the given header blocks above the player's usual ones, then the body."""
    return ("".join(headers) + PLAYER + "\n" + body).encode("utf-8")


def automatic(*headers: str, domain: str | None = DOMAIN) -> str | None:
    return is_automatic(read_message(message(*headers)), domain)


# --- Automatic mail ---


def test_a_players_reply_is_not_automatic() -> None:
    assert automatic(SES_PASS) is None


def test_auto_submitted_no_is_a_person() -> None:
    assert automatic("Auto-Submitted: no\n") is None


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        # Gmail's and Apple's vacation responders (RFC 3834)
        ("Auto-Submitted: auto-replied\n", "auto-submitted: auto-replied"),
        ("Auto-Submitted: Auto-Replied (vacation)\n", "auto-submitted: auto-replied (vacation)"),
        ("Auto-Submitted: auto-replied; owner-email=ana@example.org\n", "auto-submitted: auto-replied"),
        # Exchange / Outlook out-of-office
        ("Auto-Submitted: auto-generated\nX-Auto-Response-Suppress: All\n", "auto-submitted: auto-generated"),
        ("X-Autoreply: yes\n", "auto-reply: X-Autoreply"),
        ("X-Autorespond: Out of office\n", "auto-reply: X-Autorespond"),
        ("Precedence: bulk\n", "precedence: bulk"),
        ("Precedence: Junk\n", "precedence: junk"),
        ("Precedence: list\n", "precedence: list"),
        ("X-Precedence: auto_reply\n", "precedence: auto_reply"),
        ("List-Id: Star Fleet players <players.lists.example.org>\n", "mailing list: List-Id"),
        ("List-Unsubscribe: <mailto:leave@lists.example.org>\n", "mailing list: List-Unsubscribe"),
    ],
)
def test_automatic_mail_is_recognised(headers: str, reason: str) -> None:
    assert automatic(headers) == reason


def test_precedence_first_class_is_a_person() -> None:
    assert automatic("Precedence: first-class\n") is None


def test_gmail_bounce_is_recognised() -> None:
    raw = b"""\
Return-Path: <>
From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>
To: g1@warpmail.test
Subject: Delivery Status Notification (Failure)
Auto-Submitted: auto-replied
Content-Type: multipart/report; boundary="b1"; report-type=delivery-status

--b1
Content-Type: text/plain

Address not found.
--b1--
"""
    assert is_automatic(read_message(raw)) == "bounce: empty Return-Path"


def test_outlook_non_delivery_report_is_recognised() -> None:
    raw = b"""\
From: postmaster@outlook.com
To: g1@warpmail.test
Subject: Undeliverable: [WarpWar g1] Turn 5 results
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="b2"

--b2
Content-Type: text/plain

Delivery has failed.
--b2--
"""
    assert is_automatic(read_message(raw)) == "bounce: from postmaster@outlook.com"


def test_a_read_receipt_is_a_report() -> None:
    receipt = 'Content-Type: multipart/report; report-type="disposition-notification"; boundary="b"\n'

    assert automatic(receipt) == "report: disposition-notification"


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ("X-WarpMail-Game: g1\n", "loop: our own mail came back (X-WarpMail-Game)"),
        ("X-WarpMail-Kind: results\n", "loop: our own mail came back (X-WarpMail-Kind)"),
        # 30 relays above the player's own one
        ("Received: from a by b;\n" * 30, "loop: 31 Received headers"),
    ],
    ids=["game-header", "kind-header", "received"],
)
def test_our_own_mail_coming_back_is_a_loop(headers: str, reason: str) -> None:
    assert automatic(headers, domain=None) == reason


def test_mail_we_composed_is_a_loop() -> None:
    mail = OutgoingMail(to="ana@example.org", subject="Turn 5", text="t", game_id="g1", kind="results")
    ours = compose(mail, "warpmail@warpmail.test", DOMAIN)

    assert is_automatic(read_message(ours.as_bytes())) == "loop: our own mail came back (X-WarpMail-Game)"


def test_mail_from_our_domain_or_with_our_message_id_is_a_loop() -> None:
    from_us = b"From: WarpMail <warpmail@WarpMail.test>\nTo: g1@warpmail.test\n\nx\n"
    our_id = b"From: ana@example.org\nMessage-ID: <ack.123@warpmail.test>\n\nx\n"

    assert is_automatic(read_message(from_us), DOMAIN) == "loop: From is in our domain"
    assert is_automatic(read_message(our_id), DOMAIN) == "loop: Message-ID is ours"
    assert is_automatic(read_message(our_id)) is None


def test_malformed_headers_never_raise() -> None:
    raw = b'From: "unterminated <a@\nAuto-Submitted:\nReturn-Path: <<<\nContent-Type: multipart/\n\nx\n'

    assert is_automatic(read_message(raw), DOMAIN) is None


# --- DMARC ---


@pytest.mark.parametrize(
    ("headers", "failed"),
    [
        (SES_PASS, False),
        (SES_DMARC_FAIL, True),
        (GMAIL_PASS, False),
        (GMAIL_FAIL, True),
        (OUTLOOK_PASS, False),
        (OUTLOOK_FAIL, True),
        (YAHOO_FAIL, True),
        ("", False),
    ],
    ids=[
        "ses-pass",
        "ses-fail",
        "gmail-pass",
        "gmail-fail",
        "outlook-pass",
        "outlook-fail",
        "yahoo-fail",
        "none",
    ],
)
def test_dmarc_verdicts_of_each_receiver(headers: str, failed: bool) -> None:
    assert dmarc_failed(read_message(message(headers))) is failed


def test_dmarc_none_is_not_a_failure() -> None:
    headers = (
        "Authentication-Results: amazonses.com; spf=pass; dkim=none; dmarc=none header.from=example.org\n"
    )

    assert not dmarc_failed(read_message(message(headers)))


def test_a_failure_in_a_comment_is_not_a_result() -> None:
    headers = (
        "Authentication-Results: amazonses.com;\n"
        " spf=pass (domain of dmarc=fail.example (x; dmarc=fail) is fine) smtp.mailfrom=a@example.org;\n"
        ' dmarc=pass header.from="dmarc=fail;x"\n'
    )

    assert not dmarc_failed(read_message(message(headers)))


def test_odd_spacing_and_case_are_read() -> None:
    headers = (
        "Authentication-Results:mx.example.net 1 ;SPF = pass;  DMARC  =  FAIL  header.from=example.org\n"
    )

    assert dmarc_failed(read_message(message(headers)))


def test_a_forged_pass_below_the_receivers_fail_does_not_help() -> None:
    forged = "Authentication-Results: amazonses.com; dmarc=pass header.from=example.org\n"

    assert dmarc_failed(read_message(message(SES_DMARC_FAIL, forged)), {"amazonses.com"})


def test_only_trusted_receivers_count_when_named() -> None:
    elsewhere = read_message(message(GMAIL_FAIL, SES_PASS))

    assert dmarc_failed(elsewhere)
    assert not dmarc_failed(elsewhere, {"amazonses.com"})
    assert dmarc_failed(elsewhere, {"mx.google.com"})


def test_parse_results_reads_authserv_id_methods_and_results() -> None:
    assert parse_results("mx.example.net; spf=pass smtp.mailfrom=a@b; dkim/1=perm_fail; dmarc=fail") == [
        AuthResult(authserv_id="mx.example.net", method="spf", result="pass"),
        AuthResult(authserv_id="mx.example.net", method="dkim", result="perm_fail"),
        AuthResult(authserv_id="mx.example.net", method="dmarc", result="fail"),
    ]
    assert parse_results("mx.example.net; none") == []
    assert parse_results("") == []
    assert parse_results("((((unbalanced; dmarc=fail") == []


# --- SES verdicts ---


@pytest.mark.parametrize(
    ("spam", "virus", "failed"),
    [
        ("PASS", "PASS", None),
        ("FAIL", "PASS", "spam"),
        ("PASS", "FAIL", "virus"),
        ("fail", "FAIL", "spam, virus"),
        ("GRAY", "PROCESSING_FAILED", None),
    ],
)
def test_ses_spam_and_virus_verdicts(spam: str, virus: str, failed: str | None) -> None:
    headers = f"X-SES-Spam-Verdict: {spam}\nX-SES-Virus-Verdict: {virus}\n"

    assert ses_verdicts_failed(read_message(message(headers))) == failed


def test_safety_failure_names_what_failed() -> None:
    assert safety_failure(read_message(message(SES_PASS))) is None
    assert safety_failure(read_message(message(SES_DMARC_FAIL))) == "DMARC failed"
    virus = "X-SES-Spam-Verdict: PASS\nX-SES-Virus-Verdict: FAIL\n"
    assert safety_failure(read_message(message(virus))) == "SES verdict FAIL: virus"
