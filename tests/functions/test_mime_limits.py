"""Bounded work on hostile MIME (functions/mail/limits.py): each cap refuses a mail before the
stdlib parses it, with a reason naming the cap, and never a RecursionError; real mail is far
under every cap; the inbound service answers a refused mail like a too big one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks import hostile_mime
from functions.mail import limits
from functions.mail.body import BROKEN_RAW, order_text, read_message
from tests.functions.test_inbound import (
    DMARC_FAIL,
    RED,
    ListMailer,
    deliver,
    hosted,
    orders,
    raw_mail,
    text_of,
)

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
FROM = b"From: Red <red@example.org>\nTo: g1@warpmail.test\nMessage-ID: <hostile@example.org>\n"


def nested(depth: int, kind: bytes = b"multipart/mixed") -> bytes:
    levels = b"".join(
        b'Content-Type: %s; boundary="b%d"\n\n--b%d\n' % (kind, level, level) for level in range(depth)
    )
    return FROM + levels + b"Content-Type: text/plain\n\nGAME g1\n"


def parts(count: int) -> bytes:
    part = b"--b\nContent-Type: text/plain\n\nx\n"
    return FROM + b'Content-Type: multipart/mixed; boundary="b"\n\n' + part * count + b"--b--\n"


def headers(count: int) -> bytes:
    return FROM + b"X-Filler: y\n" * count + b"\nGAME g1\n"


def refused_for(raw: bytes) -> str | None:
    refusal = limits.check(raw)
    return refusal.cap if refusal is not None else None


# --- Each cap ---


def test_real_mail_is_far_under_every_cap() -> None:
    for path in sorted(CORPUS.glob("*.eml")) + sorted((CORPUS / "bad").glob("*.eml")):
        assert limits.check(path.read_bytes()) is None, path.name


def test_parts_up_to_the_cap_are_read_and_one_more_is_refused() -> None:
    container = 1
    assert refused_for(parts(limits.MAX_PARTS - container)) is None
    assert refused_for(parts(limits.MAX_PARTS - container + 1)) == "MAX_PARTS"


def test_100000_parts_are_refused() -> None:
    refusal = limits.check(parts(100_000))
    assert refusal is not None
    assert (
        refusal.reason == f"mail too complex: more than {limits.MAX_PARTS} MIME parts (MAX_PARTS): not read"
    )


def test_nesting_up_to_the_cap_is_read_and_deeper_is_refused() -> None:
    assert depth_of(read_message(nested(limits.MAX_DEPTH))) == limits.MAX_DEPTH, "counted as the parser nests"
    assert refused_for(nested(limits.MAX_DEPTH)) is None
    assert refused_for(nested(limits.MAX_DEPTH + 1)) == "MAX_DEPTH"


def test_10000_nested_multiparts_are_refused_without_recursion() -> None:
    refusal = limits.check(nested(10_000))
    assert refusal is not None and refusal.cap == "MAX_DEPTH"
    assert order_text(nested(10_000)).text == ""


@pytest.mark.parametrize("newline", [b"\r\n", b"\r"], ids=["crlf", "lone-cr"])
def test_line_endings_do_not_hide_the_structure(newline: bytes) -> None:
    """The parser ends lines at CRLF and at a lone CR too: 700 levels so would overflow its stack."""
    raw = nested(700).replace(b"\n", newline)
    assert refused_for(raw) == "MAX_DEPTH"
    assert refused_for(nested(limits.MAX_DEPTH).replace(b"\n", newline)) is None
    assert order_text(raw).text == ""
    outcome = deliver(hosted(), raw, ListMailer())
    assert outcome.status == "rejected" and "(MAX_DEPTH)" in outcome.reason


def test_attached_messages_count_in_the_depth() -> None:
    message = b"--m\nContent-Type: message/rfc822\n\n"
    levels = b"".join(
        b'Content-Type: multipart/mixed; boundary="m"\n\n' + message for _ in range(limits.MAX_DEPTH)
    )
    assert refused_for(FROM + levels + b"Content-Type: text/plain\n\nx\n") == "MAX_DEPTH"


def test_a_digests_parts_are_messages_by_default() -> None:
    """A digest's part without a Content-Type is a message (2 levels a digest in it)."""

    def digests(count: int) -> bytes:
        levels = b"".join(
            b"--d%d\n\nContent-Type: multipart/digest; boundary=d%d\n\n" % (n, n + 1) for n in range(count)
        )
        raw = FROM + b"Content-Type: multipart/digest; boundary=d0\n\n" + levels
        assert read_message(raw).get_content_type() == "multipart/digest"
        return raw

    assert depth_of(read_message(digests(3))) == 6, "the parser's own nesting"
    assert refused_for(digests(limits.MAX_DEPTH // 2)) is None
    assert refused_for(digests(limits.MAX_DEPTH // 2 + 1)) == "MAX_DEPTH"


def depth_of(part: Any) -> int:
    payload = part.get_payload()
    children = payload if isinstance(payload, list) else []
    return 1 + max((depth_of(child) for child in children), default=-1)


def test_an_inner_multipart_ends_at_its_parents_boundary_as_the_parser_ends_it() -> None:
    inner = b'--o\nContent-Type: multipart/alternative; boundary="i"\n\n--i\nContent-Type: text/plain\n\nx\n'
    raw = FROM + b'Content-Type: multipart/mixed; boundary="o"\n\n' + inner * 60 + b"--o--\n"
    assert refused_for(raw) is None, "each inner multipart closed by the next --o: depth stays 2"


def test_header_fields_up_to_the_cap_are_read_and_more_are_refused() -> None:
    top = FROM.count(b"\n")
    assert refused_for(headers(limits.MAX_HEADERS - top)) is None
    assert refused_for(headers(limits.MAX_HEADERS - top + 1)) == "MAX_HEADERS"
    assert refused_for(headers(50_000)) == "MAX_HEADERS"


def test_headers_of_parts_count_too() -> None:
    part = b"--b\n" + b"X-Part: y\n" * 10 + b"\nx\n"
    raw = FROM + b'Content-Type: multipart/mixed; boundary="b"\n\n' + part * (limits.MAX_HEADERS // 10)
    assert refused_for(raw) == "MAX_HEADERS"


def test_a_header_block_over_the_cap_is_refused() -> None:
    assert refused_for(FROM + b"Subject: " + b"a" * (1024 * 1024) + b"\n\nx\n") == "MAX_HEADER_BYTES"
    folded = b"References:" + b" <a@b>\n" * (limits.MAX_HEADER_BYTES // 7)
    assert refused_for(FROM + folded + b"\nx\n") == "MAX_HEADER_BYTES"


def test_a_header_field_over_the_cap_is_refused() -> None:
    assert (
        refused_for(FROM + b"Subject: " + b"a" * (limits.MAX_FIELD_BYTES + 1) + b"\n\nx\n")
        == "MAX_FIELD_BYTES"
    )
    assert refused_for(FROM + b"Subject: " + b"a" * (limits.MAX_FIELD_BYTES - 10) + b"\n\nx\n") is None


def test_mime_parameters_over_the_cap_are_refused() -> None:
    def with_params(count: int) -> bytes:
        return FROM + b"Content-Type: text/plain" + b"; p=v" * count + b"\n\nx\n"

    assert refused_for(with_params(limits.MAX_PARAMS)) is None
    assert refused_for(with_params(limits.MAX_PARAMS + 1)) == "MAX_PARAMS"
    disposition = b"--b\nContent-Disposition: attachment" + b"; p=v" * 100 + b"\n\nx\n"
    assert refused_for(FROM + b"Content-Type: multipart/mixed; boundary=b\n\n" + disposition) == "MAX_PARAMS"


def test_a_body_without_a_blank_line_is_not_a_header_block() -> None:
    """As the parser: the first line that is not a header ends the headers."""
    assert refused_for(b"From: a@b.org\nGAME g1\n" + b"X-Filler: y\n" * (limits.MAX_HEADERS + 1)) is None


def test_head_keeps_the_top_headers_up_to_the_caps() -> None:
    assert limits.head(headers(3)) == FROM + b"X-Filler: y\n" * 3 + b"\n"
    cut = limits.head(headers(50_000))
    assert cut.startswith(FROM) and cut.count(b"\n") == limits.MAX_HEADERS + 1
    huge = FROM + b"Subject: " + b"a" * (1024 * 1024) + b"\n\nx\n"
    assert limits.head(huge) == FROM + b"\n", "the field cut at the cap is over it: dropped"
    params = b"Content-Type: text/plain" + b"; p=v" * (limits.MAX_PARAMS + 1) + b"\n"
    assert limits.head(FROM + params + b"Subject: x\n\nbody\n") == FROM + b"Subject: x\n\n"


def test_the_benchmark_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert hostile_mime.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "receive median ms" in out and "target: a hostile mail refused < 50 ms" in out


def test_a_broken_multipart_is_not_resplit_beyond_the_caps() -> None:
    """A multipart whose declared boundary is unused is split by the one used (body.py): that
    structure is checked too, and read as text when over the caps."""
    body = b"".join(
        b'--x\nContent-Type: multipart/mixed; boundary="x"\n\n' for _ in range(limits.MAX_DEPTH + 5)
    )
    raw = FROM + b'Content-Type: multipart/mixed; boundary="declared"\n\n' + body + b"--x\n\nGAME g1\n"
    assert limits.check(raw) is None, "nothing the parser will split"
    body_read = order_text(raw)
    assert body_read.problems == (BROKEN_RAW,)
    assert "GAME g1" in body_read.text


# --- The inbound service ---


@pytest.mark.parametrize(
    ("raw", "cap"),
    [(nested(10_000), "MAX_DEPTH"), (parts(100_000), "MAX_PARTS"), (headers(50_000), "MAX_HEADERS")],
    ids=["nested", "parts", "headers"],
)
def test_a_mail_over_a_cap_is_refused_with_a_notice_naming_it(raw: bytes, cap: str) -> None:
    store, mailer = hosted(), ListMailer()

    outcome = deliver(store, raw, mailer, "inbound/hostile")

    assert outcome.status == "rejected" and outcome.reason.startswith("mail too complex: ")
    assert f"({cap}): not read" in outcome.reason
    [entry] = [entry for entry in store.log if entry.direction == "rejected"]
    assert (entry.reason, entry.game_id, entry.key) == (outcome.reason, "g1", "inbound/hostile")
    [notice] = mailer.sent
    assert notice["To"] == RED and notice["In-Reply-To"] == "<hostile@example.org>"
    assert "structure is too complex" in " ".join(text_of(notice).split())
    assert store.subs == []


def test_an_untrusted_mail_over_a_cap_gets_no_notice() -> None:
    store, mailer = hosted(), ListMailer()
    raw = FROM + b"Authentication-Results: " + DMARC_FAIL.encode() + b"\n" + parts(1_000)[len(FROM) :]

    outcome = deliver(store, raw, mailer, "inbound/hostile")

    assert outcome.status == "rejected" and "(MAX_PARTS)" in outcome.reason
    assert mailer.sent == []


def test_an_automatic_mail_over_a_cap_is_ignored() -> None:
    store, mailer = hosted(), ListMailer()
    raw = FROM + b"Auto-Submitted: auto-replied\n" + parts(1_000)[len(FROM) :]

    outcome = deliver(store, raw, mailer, "inbound/hostile")

    assert outcome.status == "ignored" and mailer.sent == []


def test_a_mail_under_the_caps_is_read_as_before() -> None:
    assert deliver(hosted(), raw_mail(orders())).status == "accepted"
