"""Who sent a mail (functions/mail/body.py ``sender``): the one address of the one From header,
read by the stdlib's strict parser; any From two readers could read two ways names nobody."""

from __future__ import annotations

import re
from email import policy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from functions.mail.body import read_message, sender


def mail(*from_values: str) -> bytes:
    head = "".join(f"From: {value}\n" for value in from_values)
    return f"{head}To: g1@warpmail.test\nSubject: orders\n\nGAME g1\n".encode("utf-8", "surrogateescape")


@pytest.mark.parametrize(
    ("value", "address"),
    [
        ("red@example.org", "red@example.org"),
        ("Red <Red@Example.ORG>", "red@example.org"),
        ('"Marsh, Rhea" <red@example.org>', "red@example.org"),
        ("red@example.org (Rhea Marsh)", "red@example.org"),
        ("=?UTF-8?B?Wm/DqyDDhW5nc3Ryw7Zt?= <zoe@icloud.example>", "zoe@icloud.example"),
        ("Zoë Ångström <zoe@icloud.example>", "zoe@icloud.example"),
        ("first.last+wm@mail.example.co.uk", "first.last+wm@mail.example.co.uk"),
        ("Red <red@xn--exmple-cua.example>", "red@xn--exmple-cua.example"),
        ('"red@example.org" <red@example.org>', "red@example.org"),
        ("Red\n <red@example.org>", "red@example.org"),
        ('"red"@example.org', "red@example.org"),
    ],
    ids=["bare", "named", "quoted-comma", "comment", "encoded-name", "utf8-name", "dots-plus", "idna-ascii",
         "name-is-the-address", "folded", "needlessly-quoted"],
)  # fmt: skip
def test_the_one_plain_address_of_from_is_the_sender(value: str, address: str) -> None:
    assert sender(mail(value)) == address


@pytest.mark.parametrize(
    "value",
    [
        '"red@example.org" <x@evil.test>',
        "red@example.org <x@evil.test>",
        "=?utf-8?q?red=40example.org?= <x@evil.test>",
        '"red@example.org"@evil.test',
        "a@b@c.example",
        "red@example.org.",
        "red@example..org",
        "rød@example.org",
        "red@exämple.org",
        "@example.org",
        "red@",
        "red@localhost",
        "red@[192.0.2.1]",
        "red@example.org, blue@example.net",
        "Players: red@example.org;",
        "Players: red@example.org, blue@example.net;",
        "Red <red@example.org",
        "Red <red@example.org> trailing",
        "red.@example.org",
        ".red@example.org",
        "Red\x07 <red@example.org>",
        "Red <red@example.org>\x00",
        "Red\u202e <red@example.org>",
        "Red\u2066 <red@example.org>",
        "Red\x85 <red@example.org>",
        "Ana Costa",
        "",
        "<>",
    ],
    ids=lambda value: repr(value)[:40],
)
def test_a_from_that_is_not_one_plain_address_names_nobody(value: str) -> None:
    assert sender(mail(value)) is None


def test_two_from_headers_name_nobody_even_when_they_agree() -> None:
    assert sender(mail("red@example.org", "red@example.org")) is None
    assert sender(mail("red@example.org", "x@evil.test")) is None


def test_no_from_header_names_nobody() -> None:
    assert sender(b"To: g1@warpmail.test\n\nx") is None


def test_undecodable_bytes_in_the_local_part_name_nobody() -> None:
    assert sender(b"From: r\xf8d@example.org\n\nx") is None
    assert sender(b"From: R\xf8d <red@example.org>\n\nx") == "red@example.org", "only the name is unreadable"


def test_a_parsed_message_is_read_as_its_bytes_would_be() -> None:
    raw = mail("Red <red@example.org>")
    assert sender(read_message(raw)) == sender(raw) == "red@example.org"


# --- Property: whatever sender() answers is the one plain mailbox of the one From ---

PLAIN = re.compile(
    r"[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+"
    r"[a-z0-9]([a-z0-9-]*[a-z0-9])?"
)
PIECES = st.sampled_from(
    ["red", "example", ".", "org", "@", "<", ">", '"', "\\", ",", ";", ":", "(", ")", " ", "\t", "\n ",
     "=?utf-8?q?", "?=", "=40", "x@evil.test", "red@example.org", "ø", "\u202e", "\x00", "\x85", "[", "]",
     "Red", "-", "+", "xn--", "\r", "\udcff"]
)  # fmt: skip
FROM_VALUES = st.one_of(
    st.lists(PIECES, max_size=12).map("".join),
    st.text(max_size=40),
)


@settings(max_examples=400, deadline=None)
@given(values=st.lists(FROM_VALUES, min_size=0, max_size=2))
def test_sender_never_raises_and_answers_only_the_one_plain_mailbox_of_the_one_from(
    values: list[str],
) -> None:
    raw = mail(*values)

    found = sender(raw)

    if found is None:
        return
    assert PLAIN.fullmatch(found), found
    message = read_message(raw)
    froms = [value for key, value in message.raw_items() if key.lower() == "from"]
    assert len(froms) == 1
    header = policy.default.header_factory("From", re.sub(r"\r?\n(?=[ \t])", "", str(froms[0])))
    assert not header.defects
    [mailbox] = header.addresses
    assert mailbox.addr_spec.lower() == found
