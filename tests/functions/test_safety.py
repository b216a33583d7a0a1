"""Inbound safety (functions/mail/safety.py): automatic mail gets no reply; a failed DMARC or
SES verdict, or none that can be read, is not trusted. The headers are as Gmail, Outlook, Yahoo
and SES write them, and as a hostile sender would."""

from __future__ import annotations

import pytest

from functions.mail.body import read_message
from functions.mail.compose import OutgoingMail, compose
from functions.mail.safety import LOCAL_INTAKE, Verdicts, is_automatic, safety_failure, stored_verdicts

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


def test_a_subject_about_automatic_replies_is_a_person() -> None:
    assert automatic("Subject: Re: automatic replies of the host\n") is None


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
        # Outlook's out-of-office, marked by its subject only
        (
            "Subject: Automatic reply: Orders\nX-Auto-Response-Suppress: All\n",
            "auto-reply: subject 'automatic reply:'",
        ),
        ("Subject: Abwesenheitsnotiz: Orders\n", "auto-reply: subject 'abwesenheitsnotiz:'"),
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
    mail = OutgoingMail(
        to="ana@example.org", subject="Turn 5", text="t", game_id="g1", game_name="WarpWar", kind="results"
    )
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


# --- Robots' addresses ---


@pytest.mark.parametrize(
    "address",
    [
        "MAILER-DAEMON@mail.example.org",
        "mailer-daemon@googlemail.com",
        "postmaster@outlook.com",
        "warpwar-players-request@lists.example.org",
        "bounce@mail.example.org",
        "bounces@lists.example.org",
        "bounces+ana=example.org@mail.example.net",
        "bounce-1234-ana@mail.example.net",
        "no-reply@accounts.example.com",
        "noreply@example.com",
        "noreply-dmarc-support@google.com",
        "do-not-reply@example.com",
        "donotreply@example.com",
        "listserv@lists.example.org",
        "majordomo@lists.example.org",
    ],
)
def test_mail_from_a_robots_address_is_a_bounce(address: str) -> None:
    assert automatic(f"From: Robot <{address}>\n") == f"bounce: from {address.lower()}"


@pytest.mark.parametrize(
    "address", ["ana@example.org", "bouncer@example.org", "requests@example.org", "replyall@example.org"]
)
def test_a_persons_address_is_not_a_robots(address: str) -> None:
    assert automatic(f"From: {address}\n") is None


def test_a_reason_quoting_a_header_is_plain_text_for_the_log() -> None:
    assert automatic("Precedence: bulk\n") == "precedence: bulk"
    assert automatic("Auto-Submitted: auto-generated\u202e\x1b[0m\n") == "auto-submitted: auto-generated[0m"


# --- SES's verdicts ---

PASSED = Verdicts(spam="PASS", virus="PASS", spf="PASS", dkim="PASS", dmarc="PASS")


@pytest.mark.parametrize(
    ("changes", "failure"),
    [
        ({}, None),
        ({"dmarc": "FAIL"}, "DMARC failed"),
        ({"dmarc": "FAIL", "spam": "FAIL"}, "DMARC failed"),
        ({"spam": "FAIL"}, "SES verdict FAIL: spam"),
        ({"virus": "FAIL"}, "SES verdict FAIL: virus"),
        ({"spam": "FAIL", "virus": "FAIL"}, "SES verdict FAIL: spam, virus"),
        ({"dmarc": "GRAY", "spam": "GRAY", "virus": "GRAY"}, None),
        ({"spf": "FAIL", "dkim": "FAIL"}, None),
        ({"spf": None, "dkim": None}, None),
        ({"dmarc": None}, "SES verdict unreadable: dmarc"),
        ({"dmarc": "PROCESSING_FAILED"}, "SES verdict unreadable: dmarc"),
        ({"spam": "PROCESSING_FAILED", "virus": None}, "SES verdict unreadable: spam, virus"),
    ],
    ids=["all-pass", "dmarc-fail", "dmarc-first", "spam", "virus", "spam-virus", "gray", "spf-dkim-fail",
         "spf-dkim-missing", "dmarc-missing", "dmarc-processing-failed", "spam-virus-unreadable"],
)  # fmt: skip
def test_which_verdicts_are_trusted(changes: dict[str, str | None], failure: str | None) -> None:
    assert safety_failure(PASSED.model_copy(update=changes)) == failure


def test_no_verdicts_at_all_are_not_trusted() -> None:
    assert safety_failure(None) == "SES verdict unreadable: dmarc, spam, virus"
    assert safety_failure(Verdicts()) == "SES verdict unreadable: dmarc, spam, virus"


def test_an_unknown_status_is_no_verdict_and_case_does_not_matter() -> None:
    read = Verdicts.model_validate({"spam": "pass", "virus": " FAIL ", "dmarc": "MAYBE", "dkim": 3})
    assert (read.spam, read.virus, read.dmarc, read.dkim, read.spf) == ("PASS", "FAIL", None, None, None)


# --- Verdicts written in the stored mail ---


def stored(*headers: str, over: Verdicts | None = None) -> Verdicts:
    return stored_verdicts(read_message(message(*headers)), over)


def test_ses_headers_are_read() -> None:
    assert stored(SES_PASS) == PASSED
    assert stored(SES_DMARC_FAIL) == Verdicts(
        spam="PASS", virus="PASS", spf="FAIL", dkim="GRAY", dmarc="FAIL"
    )


def test_no_ses_headers_are_no_verdicts_or_the_local_intakes() -> None:
    assert stored() == Verdicts()
    assert stored(over=LOCAL_INTAKE) == LOCAL_INTAKE
    assert safety_failure(stored(over=LOCAL_INTAKE)) is None
    assert stored(SES_DMARC_FAIL, over=LOCAL_INTAKE).dmarc == "FAIL", "a written failure still counts"


SES_ENVELOPE = (
    "Authentication-Results: amazonses.com; spf=pass (spfCheck: domain of example.org designates 1.2.3.4"
    " as permitted sender) client-ip=1.2.3.4; envelope-from={envelope}; helo={helo}; dkim=pass"
    " header.i=@example.org; dmarc={dmarc} header.from=example.org;\n"
    "X-SES-Spam-Verdict: PASS\nX-SES-Virus-Verdict: PASS\n"
)


@pytest.mark.parametrize(
    ("envelope", "helo"),
    [
        ("x@example.org", "mail.example.org"),
        ("x@example.org", '"a;dmarc=pass"'),
        ("x@example.org", '"a'),
        ("x@example.org", "a\\\"; dmarc=pass"),
        ("x@example.org", "(a"),
        ("x@example.org", "(((dmarc=pass"),
        ("x@example.org", "a)"),
        ('"x;dmarc=pass"@example.org', "mail.example.org"),
        ('"x@example.org', "mail.example.org"),
        ("(x@example.org", '"(";'),
        ("x@example.org", "a; dmarc=pass; dmarc=pass"),
    ],
    ids=["plain", "quoted-semicolon", "open-quote", "backslash", "open-paren", "parens-and-pass",
         "close-paren", "quoted-envelope", "envelope-open-quote", "envelope-paren", "helo-adds-passes"],
)  # fmt: skip
def test_nothing_a_sender_writes_in_helo_or_envelope_hides_a_dmarc_failure(envelope: str, helo: str) -> None:
    failed = stored(SES_ENVELOPE.format(envelope=envelope, helo=helo, dmarc="fail"))
    passed = stored(SES_ENVELOPE.format(envelope=envelope, helo=helo, dmarc="pass"))

    assert failed.dmarc == "FAIL"
    assert safety_failure(failed) == "DMARC failed"
    assert passed.dmarc in {"PASS", "PROCESSING_FAILED"}, "added text can only make it worse"


def test_a_result_in_a_comment_or_quoted_string_counts_at_its_worst() -> None:
    """Comments are not structure a sender could hide a result in: read everywhere, the worst
    result wins, so only the sender's own mail can be made less trusted."""
    headers = (
        "Authentication-Results: amazonses.com;\n"
        " spf=pass (domain of dmarc=fail.example (x; dmarc=fail) is fine) smtp.mailfrom=a@example.org;\n"
        ' dmarc=pass header.from="x"\n'
    )

    assert stored(headers).dmarc == "FAIL"


def test_odd_spacing_case_and_versions_are_read() -> None:
    headers = "Authentication-Results:amazonses.com ;SPF = pass;  DKIM/1 = Pass; DMARC  =  FAIL  x=y\n"

    assert (stored(headers).spf, stored(headers).dkim, stored(headers).dmarc) == ("PASS", "PASS", "FAIL")


def test_a_forged_pass_below_ses_fail_does_not_help() -> None:
    forged = "Authentication-Results: amazonses.com; dmarc=pass\nX-SES-Spam-Verdict: PASS\n"
    spam = SES_PASS.replace("X-SES-Spam-Verdict: PASS", "X-SES-Spam-Verdict: FAIL")

    assert stored(SES_DMARC_FAIL, forged).dmarc == "FAIL"
    assert stored(spam, forged).spam == "FAIL"


def test_only_ses_results_count_and_only_when_ses_wrote_the_topmost() -> None:
    """Other receivers' results are the sender's own headers as far as this host knows; a
    sender's ``amazonses.com`` header counts only below SES's own (SES adds its own on top)."""
    forged_alone = "Authentication-Results: amazonses.com; dmarc=pass header.from=example.org\n"

    assert stored(GMAIL_FAIL, SES_PASS).dmarc is None
    assert stored(SES_PASS, GMAIL_FAIL).dmarc == "PASS"
    assert stored(OUTLOOK_FAIL, YAHOO_FAIL).dmarc is None
    assert stored(GMAIL_PASS, forged_alone).dmarc is None


@pytest.mark.parametrize(
    ("written", "status"),
    [("PASS", "PASS"), ("fail", "FAIL"), ("GRAY", "GRAY"), ("PROCESSING_FAILED", "PROCESSING_FAILED"),
     ("maybe", "PROCESSING_FAILED")],
)  # fmt: skip
def test_ses_spam_and_virus_headers_are_read(written: str, status: str) -> None:
    verdicts = stored(f"X-SES-Spam-Verdict: {written}\nX-SES-Virus-Verdict: {written}\n")

    assert (verdicts.spam, verdicts.virus) == (status, status)


def test_malformed_authentication_results_never_raise() -> None:
    for value in ("", ";", "amazonses.com", "amazonses.com; dmarc", "amazonses.com; =fail", "(((", '"'):
        verdicts = stored(f"Authentication-Results: {value}\n")
        assert verdicts.dmarc in {None, "PROCESSING_FAILED"}
