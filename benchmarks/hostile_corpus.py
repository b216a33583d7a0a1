"""The hostile mail corpus (issue 13, "Figures"): >= 10,000 generated mails in named categories
through the real inbound path, against two running WarpWar games (a blind one and an open one).

    python -m benchmarks.hostile_corpus [--count N] [--seed S] [--quick]

Each mail is stored in the mail bucket (moto) as the SES receipt rule would store it, and handed
to the inbound Lambda's per-object handler, ``functions.handlers.inbound.handle_object``, with
the real Store (DynamoDB and S3 under moto) and the real SES mailer (moto's SES v2). Measured for
each mail, then per category:

- failures: the handler's outcome is "failed", or an exception escaped it;
- state changes: every successful write the handler made to the table, other than its mail-log
  entries and its seen-message records, and every write to S3. A mail that is not a valid order
  mail from the right player with the right code (``Mail.authorized`` False) must make none;
- replies: every mail sent, per recipient address: to an address that is no registered player's
  ("to unknown"), in answer to a mail that failed DMARC or an SES verdict ("after auth fail"),
  the most to one address in the category ("max/addr"), and any reply whose recipients or
  headers the inbound mail could inject ("injected");
- logged: whether a mail-log entry carries the raw mail's S3 key;
- the handler's time (p50, p95, max).

Generation is lazy and deterministic: each category is a generator function of (seed, count,
targets) that yields ``Mail`` records whose ``build`` makes the raw bytes when called (a 12 MB
mail exists only while it is handled). Variants take turns; each draws its sender ("player":
the registered address with the right code, "wrong-code", or "stranger": another address with
the stolen right code), its game and its sizes from a ``random.Random`` seeded with the
category, the index and the seed.
"""

from __future__ import annotations

import argparse
import base64
import math
import os
import quopri
import random
import statistics
import sys
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from functools import cache, partial
from typing import Any

from benchmarks.timing import machine, ms, table
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.mailgame import WarpWarMail
from engine.warpwar.state import GameConfig, PlayerSpec, Scenario, Visibility
from functions.host import due
from functions.mail.codes import hash_code
from functions.mail.ses import SesMailer, envelope_recipients
from functions.resources import PK, SK, Resources, resources
from functions.store import GameRecord, PlayerRecord, Store, provision
from functions.store.keys import LOG_SK_PREFIX

BOOKKEEPING = ("MSG#", "CLAIM#", "LIMIT#")
"""Items the handler writes about mail, not game state: identities seen, claims on work done once,
rate-limit counters (the mail-log entries are told apart by their sort key)."""

DEFAULT_COUNT = 10_000
QUICK_COUNT = 3
"""Mails per category in --quick mode (and in tests/functions/test_hostile_corpus.py)."""
EVIL = "evil.test"
DATE = "Fri, 07 Mar 2025 11:58:00 +0000"
BIG_RAW = 1024 * 1024
"""Raw mails above this are deleted from the (in-memory) bucket once checked intact."""

# --- The games attacked ---


@dataclass(frozen=True)
class Seat:
    """A registered player: the address and code an attacker wants to pass for."""

    game_id: str
    player_id: str
    name: str
    address: str
    code: str


@dataclass(frozen=True)
class Target:
    """One game, its address, its first player (whose turn it is) and an order that player may give."""

    game_id: str
    address: str
    player: Seat
    others: tuple[Seat, ...]
    order: str
    """One order line from the player's orders sheet (accepted in turn 1)."""


SEATS = (
    Seat("blind", "P1", "Red", "red@example.org", "K7QM-9XDA-2P"),
    Seat("blind", "P2", "Blue", "blue@example.net", "B3CD-EFGH-JK"),
    Seat("open", "P1", "Green", "green@example.com", "G4MN-PQRS-TU"),
    Seat("open", "P2", "White", "white@example.net", "W5VW-XYZ2-34"),
)
GAMES = {"blind": Visibility.BLIND, "open": Visibility.OPEN}


@cache
def state_json(game_id: str, visibility: Visibility) -> str:
    players = (PlayerSpec(id="P1", name="Red"), PlayerSpec(id="P2", name="Blue"))
    config = GameConfig(
        game_id=game_id, scenario=Scenario.BASIC, visibility=visibility, players=players, turn_limit=20
    )
    return WarpWar().new_game(Setup(config=config), 1).state.model_dump_json()


def targets(mail_domain: str) -> tuple[Target, ...]:
    """The games attacked: each game's first player is the one whose turn it is."""
    found = []
    for game_id, visibility in GAMES.items():
        state = state_json(game_id, visibility)
        seats = [seat for seat in SEATS if seat.game_id == game_id]
        sheet = WarpWarMail().sheet(state, "P1").splitlines()
        order = next(line[2:] for line in sheet if line.startswith("# BUILD"))
        found.append(Target(game_id, f"{game_id}@{mail_domain}", seats[0], tuple(seats[1:]), order))
    return tuple(found)


# --- Mails ---


@dataclass(frozen=True)
class Mail:
    """One generated mail and what it may do."""

    category: str
    variant: str
    index: int
    build: Callable[[], bytes]
    authorized: bool
    """A valid order mail from the right player with the right code: it may change state.
    Every other mail must not."""
    auth_failed: bool = False
    """It carries a failed DMARC result or an SES spam/virus FAIL: it must get no reply (issue 13)."""
    control: bool = False
    """Valid orders: the mail must be accepted and stored."""
    same_object_as: int | None = None
    """A duplicate S3 event: the object of this category's mail ``same_object_as`` handled again."""
    who: str = "player"
    """The sender drawn (``Draw.who``)."""
    follows: bool = False
    """It needs the mail before it handled by the same host (a replay)."""

    @property
    def name(self) -> str:
        """Unique in a corpus, and readable: ``forged From/1: two From, ours first (player)``."""
        return f"{self.category}/{self.index}: {self.variant} ({self.who})"


@dataclass(frozen=True)
class Draw:
    """What a variant builds one mail from: its seed, game and sender."""

    seed: str
    target: Target
    who: str
    """"player" (registered address, right code), "wrong-code", or "stranger" (right code)."""
    category: str
    index: int

    def rng(self) -> random.Random:
        return random.Random(self.seed)

    @property
    def sender(self) -> str:
        if self.who == "stranger":
            return f"mallory{self.index}@{EVIL}"
        return self.target.player.address

    @property
    def code(self) -> str:
        if self.who == "wrong-code":
            return "ZZZZ-ZZZZ-" + str(self.index % 100).zfill(2)
        return self.target.player.code

    @property
    def message_id(self) -> str:
        slug = "".join(c if c.isalnum() else "-" for c in self.category)
        return f"<{slug}.{self.index}.{zlib.crc32(self.seed.encode()):08x}@mail.example.net>"

    def orders(self, code: str | None = None, order: str | None = None, newline: str = "\r\n") -> str:
        lines = [
            "Hi,",
            "",
            f"GAME {self.target.game_id}",
            f"PLAYER {self.target.player.player_id}",
            "TURN 1",
            f"CODE {self.code if code is None else code}",
            self.target.order if order is None else order,
            "END",
            "",
            "Cheers",
        ]
        return newline.join(lines) + newline


WHO = ("player", "wrong-code", "stranger")


@dataclass(frozen=True)
class Variant:
    name: str
    make: Callable[[Draw], bytes]
    who: str | None = None
    """The sender, fixed; None: drawn from WHO."""
    authorized: bool | None = None
    """Forced; None: authorized when the sender is "player"."""
    auth_failed: bool = False
    control: bool = False


def b(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode("utf-8", "surrogateescape")


def raw(headers: Sequence[tuple[str | bytes, str | bytes]], body: str | bytes) -> bytes:
    """A mail as bytes, exactly as given (no folding, no encoding, no checks)."""
    return b"".join(b(name) + b": " + b(value) + b"\r\n" for name, value in headers) + b"\r\n" + b(body)


def ses_pass(d: Draw, sender: str | None = None) -> str:
    domain = (sender or d.sender).rpartition("@")[2]
    return (
        f"amazonses.com; spf=pass (spfCheck: domain of {domain} designates 192.0.2.1 as permitted "
        f"sender) smtp.mailfrom={sender or d.sender}; dkim=pass header.i=@{domain}; "
        f"dmarc=pass header.from={domain};"
    )


def head(
    d: Draw,
    *,
    sender: str | bytes | None = None,
    subject: str | bytes = "Orders",
    content_type: str | bytes = "text/plain; charset=utf-8",
    auth: str | bytes | None = None,
    extra: Sequence[tuple[str | bytes, str | bytes]] = (),
    message_id: str | None = None,
    drop: Sequence[str] = (),
) -> list[tuple[str | bytes, str | bytes]]:
    """The headers SES stores (its verdicts on top), then the sender's."""
    headers: list[tuple[str | bytes, str | bytes]] = [
        ("Return-Path", f"<{d.sender}>"),
        ("Authentication-Results", ses_pass(d) if auth is None else auth),
        ("X-SES-Spam-Verdict", "PASS"),
        ("X-SES-Virus-Verdict", "PASS"),
        ("From", f"Player <{d.sender}>" if sender is None else sender),
        ("To", f"Game <{d.target.address}>"),
        ("Subject", subject),
        ("Date", DATE),
        ("Message-ID", d.message_id if message_id is None else message_id),
        ("MIME-Version", "1.0"),
        ("Content-Type", content_type),
        *extra,
    ]
    return [(name, value) for name, value in headers if name not in drop]


def plain(d: Draw, **kwargs: Any) -> bytes:
    """A plain, valid order mail (the shape every variant departs from)."""
    return raw(head(d, **kwargs), d.orders())


def multipart(boundary: str, parts: Sequence[bytes], close: bool = True) -> bytes:
    body = b"".join(b"--" + b(boundary) + b"\r\n" + part + b"\r\n" for part in parts)
    return body + (b"--" + b(boundary) + b"--\r\n" if close else b"")


def text_part(text: str | bytes, content_type: str = "text/plain; charset=utf-8", cte: str = "") -> bytes:
    encoding = f"Content-Transfer-Encoding: {cte}\r\n" if cte else ""
    return b(f"Content-Type: {content_type}\r\n{encoding}\r\n") + b(text)


EXTREME_EVERY = 20
"""The largest size of a variant comes one round in this many: a 100,000-part mail takes the
handler some 20 s."""


def pick(d: Draw, sizes: Sequence[int]) -> int:
    """A size from ``sizes`` (smallest first, the extreme last): the others in turn, the extreme
    one round in ``EXTREME_EVERY`` (a round: seven mails of the category)."""
    rounds = d.index // 7
    if rounds % EXTREME_EVERY == EXTREME_EVERY - 1:
        return sizes[-1]
    return sizes[rounds % (len(sizes) - 1)]


# --- malformed MIME ---


def _wrong_boundary(d: Draw) -> bytes:
    body = multipart("USED", [text_part(d.orders()), text_part("<p>hi</p>", "text/html")])
    return raw(head(d, content_type='multipart/alternative; boundary="DECLARED"'), body)


def _missing_boundary(d: Draw) -> bytes:
    body = multipart("x" * d.rng().randint(1, 70), [text_part(d.orders())])
    return raw(head(d, content_type="multipart/mixed"), body)


def _no_boundary_at_all(d: Draw) -> bytes:
    return raw(head(d, content_type='multipart/mixed; boundary="nowhere"'), d.orders())


def _unclosed(d: Draw) -> bytes:
    body = multipart(
        "b1", [text_part(d.orders()), b"Content-Type: application/pdf\r\n\r\n%PDF-1."], close=False
    )
    return raw(head(d, content_type='multipart/mixed; boundary="b1"'), body)


def _hostile_boundary(d: Draw) -> bytes:
    boundary = d.rng().choice(['"', "a b", "--", "=?utf-8?q?x?=", "\\", "\x00", "é" * 80, "b" * 5000])
    body = multipart(boundary, [text_part(d.orders())])
    quoted = boundary.replace("\\", "\\\\").replace('"', '\\"')
    return raw(head(d, content_type=f'multipart/mixed; boundary="{quoted}"'), body)


def _bad_base64(d: Draw) -> bytes:
    encoded = base64.b64encode(d.orders().encode()).decode()
    rng = d.rng()
    cut = rng.randint(1, len(encoded) - 1)
    mangled = rng.choice(
        [encoded[:cut], encoded[:cut] + "!!**", encoded.replace("A", "\x00"), "====" + encoded, d.orders()]
    )
    return raw(head(d, extra=[("Content-Transfer-Encoding", "base64")]), mangled)


def _bad_quoted_printable(d: Draw) -> bytes:
    text = d.orders().replace("\r\n", "=0D=0A=\r\n")
    rng = d.rng()
    mangled = rng.choice(
        [text[: rng.randint(1, len(text))], text + "=", text.replace("=0D", "=ZZ"), "=" * 500]
    )
    return raw(head(d, extra=[("Content-Transfer-Encoding", "quoted-printable")]), mangled)


def _unknown_transfer_encoding(d: Draw) -> bytes:
    cte = d.rng().choice(["x-uuencode", "base65", "8bit; charset=utf-16", "", "binary\x00", "7bit 7bit"])
    return raw(head(d, extra=[("Content-Transfer-Encoding", cte)]), d.orders())


def _bad_content_type(d: Draw) -> bytes:
    content_type = d.rng().choice(
        [
            "multipart/",
            "/",
            "text",
            "text/plain; charset",
            ";;;;",
            "multipart/mixed; boundary=",
            "message/rfc822",
        ]
    )
    return raw(head(d, content_type=content_type), d.orders())


def _parts_without_headers(d: Draw) -> bytes:
    body = multipart("p", [d.orders().encode(), b"\r\n\r\n", b""])
    return raw(head(d, content_type='multipart/mixed; boundary="p"'), body)


def _binary_junk(d: Draw) -> bytes:
    rng = d.rng()
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4000)))
    return rng.choice([junk, plain(d)[: rng.randint(0, 400)] + junk, junk + plain(d)])


MALFORMED_MIME = (
    Variant("declared boundary unused", _wrong_boundary),
    Variant("multipart without boundary", _missing_boundary),
    Variant("boundary never used", _no_boundary_at_all),
    Variant("no closing boundary", _unclosed),
    Variant("hostile boundary", _hostile_boundary),
    Variant("truncated or broken base64", _bad_base64),
    Variant("broken quoted-printable", _bad_quoted_printable),
    Variant("unknown transfer encoding", _unknown_transfer_encoding),
    Variant("broken content type", _bad_content_type),
    Variant("parts without headers", _parts_without_headers),
    Variant("binary junk", _binary_junk, authorized=False),
)


# --- deep nesting ---

DEPTHS = (10, 100, 500, 1_000, 2_000, 10_000)


def _nested_multipart(d: Draw) -> bytes:
    depth = pick(d, DEPTHS)
    opening, closing = [], []
    for level in range(depth):
        opening.append(f'Content-Type: multipart/mixed; boundary="n{level}"\r\n\r\n--n{level}\r\n')
        closing.append(f"\r\n--n{level}--\r\n")
    body = "".join(opening[1:]) + "Content-Type: text/plain\r\n\r\n" + d.orders() + "".join(reversed(closing))
    return raw(head(d, content_type='multipart/mixed; boundary="n0"'), "--n0\r\n" + body)


def _nested_orders_first(d: Draw) -> bytes:
    depth = pick(d, DEPTHS)
    inner = "Content-Type: text/plain\r\n\r\nx"
    for level in reversed(range(1, depth)):
        inner = (
            f'Content-Type: multipart/mixed; boundary="m{level}"\r\n\r\n--m{level}\r\n{inner}\r\n--m{level}--'
        )
    body = multipart("m0", [text_part(d.orders()), b(inner)])
    return raw(head(d, content_type='multipart/mixed; boundary="m0"'), body)


def _nested_rfc822(d: Draw) -> bytes:
    depth = pick(d, DEPTHS)
    inner = f"From: {d.sender}\r\nSubject: Orders\r\nContent-Type: text/plain\r\n\r\n{d.orders()}"
    prefix = f"From: {d.sender}\r\nSubject: Fwd\r\nContent-Type: message/rfc822\r\n\r\n"
    body = prefix * (depth - 1) + inner
    return raw(head(d, content_type="message/rfc822"), body)


def _nested_unclosed(d: Draw) -> bytes:
    depth = pick(d, DEPTHS)
    body = "".join(
        f'--u{n}\r\nContent-Type: multipart/mixed; boundary="u{n + 1}"\r\n\r\n' for n in range(depth)
    )
    return raw(head(d, content_type='multipart/mixed; boundary="u0"'), body + d.orders())


def _nested_same_boundary(d: Draw) -> bytes:
    depth = pick(d, DEPTHS)
    body = '--s\r\nContent-Type: multipart/mixed; boundary="s"\r\n\r\n' * depth
    return raw(head(d, content_type='multipart/mixed; boundary="s"'), body + d.orders() + "--s--\r\n" * depth)


DEEP_NESTING = (
    Variant("multipart nested, orders innermost", _nested_multipart),
    Variant("multipart nested, orders first", _nested_orders_first),
    Variant("message/rfc822 in message/rfc822", _nested_rfc822),
    Variant("nested, never closed", _nested_unclosed),
    Variant("nested, one boundary for all", _nested_same_boundary),
)


# --- giant headers and parts ---


def _many_headers(d: Draw) -> bytes:
    count = pick(d, (100, 1_000, 10_000, 50_000))
    extra = [(f"X-Junk-{n}", f"value {n}") for n in range(count)]
    return raw(head(d, extra=extra), d.orders())


def _long_header_line(d: Draw) -> bytes:
    size = pick(d, (10_000, 100_000, 1_000_000))
    where = d.rng().choice(["Subject", "X-Long", "From", "Message-ID", "Content-Type"])
    value = "A" * size
    if where == "From":
        return raw(head(d, sender=f'"{value}" <{d.sender}>'), d.orders())
    if where == "Message-ID":
        return raw(head(d, message_id=f"<{value}@mail.example.net>"), d.orders())
    if where == "Content-Type":
        return raw(head(d, content_type=f"text/plain; charset=utf-8; x={value}"), d.orders())
    if where == "Subject":
        return raw(head(d, subject=value), d.orders())
    return raw(head(d, extra=[("X-Long", value)]), d.orders())


def _many_parts(d: Draw) -> bytes:
    count = pick(d, (100, 1_000, 10_000, 100_000))
    parts = [text_part(d.orders())] + [b"Content-Type: text/plain\r\n\r\nx"] * (count - 1)
    return raw(head(d, content_type='multipart/mixed; boundary="t"'), multipart("t", parts))


def _big_part(d: Draw) -> bytes:
    size = pick(d, (100_000, 1_000_000, 5_000_000, 9_900_000))
    line = b"A" * 998 + b"\r\n"
    blob = (line * (size // len(line) + 1))[:size]
    attachment = (
        b"Content-Type: text/plain\r\nContent-Disposition: attachment; filename=big.txt\r\n\r\n" + blob
    )
    body = multipart("g", [text_part(d.orders()), attachment])
    return raw(head(d, content_type='multipart/mixed; boundary="g"'), body)


def _one_long_body_line(d: Draw) -> bytes:
    size = pick(d, (100_000, 1_000_000, 9_000_000))
    return raw(head(d), d.orders() + "B" * size + "\r\n")


def _over_the_limit(d: Draw) -> bytes:
    size = pick(d, (10_500_000, 12_000_000))
    return raw(head(d), d.orders() + ("C" * 998 + "\r\n") * (size // 1000))


GIANT = (
    Variant("many headers (up to 50,000)", _many_headers),
    Variant("long header line (up to 1 MB)", _long_header_line),
    Variant("many tiny parts (up to 100,000)", _many_parts),
    Variant("big part (up to 9.9 MB)", _big_part),
    Variant("one long body line (up to 9 MB)", _one_long_body_line),
    Variant("mail over 10 MB (up to 12 MB)", _over_the_limit),
)


# --- charsets ---


def _encoded_as(d: Draw, codec: str, label: str) -> bytes:
    return raw(head(d, content_type=f"text/plain; charset={label}"), d.orders().encode(codec))


def _utf7(d: Draw) -> bytes:
    return raw(
        head(d, content_type="text/plain; charset=utf-7"),
        d.orders(order=d.target.order + " # \u00e9\u2013\u20ac").encode("utf-7"),
    )


def _utf16_without_bom(d: Draw) -> bytes:
    codec = d.rng().choice(["utf-16-le", "utf-16-be"])
    return _encoded_as(d, codec, d.rng().choice(["utf-16", "UTF-16", "unicode"]))


def _unknown_label(d: Draw) -> bytes:
    label = d.rng().choice(["x-klingon", '"utf-8 "', "utf-8\x00", "", "''", "utf-9", "x-user-defined", "√"])
    return raw(head(d, content_type=f"text/plain; charset={label}"), d.orders())


def _python_only_codec(d: Draw) -> bytes:
    label = d.rng().choice(
        ["rot13", "hex", "base64", "zlib", "bz2", "uu", "quopri", "unicode_escape", "mbcs", "idna",
         "punycode", "utf-32", "utf-8-sig", "undefined", "raw_unicode_escape", "oem", "palmos"]
    )  # fmt: skip
    return raw(head(d, content_type=f"text/plain; charset={label}"), d.orders())


def _invalid_bytes(d: Draw) -> bytes:
    label, junk = d.rng().choice(
        [("utf-8", b"\xff\xfe\xc3"), ("shift_jis", b"\x81\x00\xff"), ("iso-2022-jp", b"\x1b$B\xff\xfe"),
         ("us-ascii", b"\x80\x9f"), ("euc-kr", b"\xc9\xff"), ("gb18030", b"\x81\x30\xff"),
         ("utf-16", b"\xd8\x00")]
    )  # fmt: skip
    body = d.orders().encode() + junk + b"\r\n"
    return raw(head(d, content_type=f"text/plain; charset={label}"), body)


def _charset_injection(d: Draw) -> bytes:
    content_type = d.rng().choice(
        [
            'text/plain; charset="utf-8\\"; boundary=x"',
            "text/plain; charset=utf-8; charset=utf-16",
            "text/plain; charset*=utf-8''%0d%0aBcc%3a%20victim%40evil.test",
            "text/plain; charset*0=ut; charset*1=f-8; charset*2=%00",
            "text/plain; charset=\r\n\tBcc: victim@evil.test",
            "text/plain; charset=utf-8\r\nBcc: victim@evil.test",
            "text/plain; charset*=rot13''hgs-8",
            'text/html; charset=utf-8"><script>x</script>',
        ]
    )
    return raw(head(d, content_type=content_type), d.orders())


def _encoded_word_charsets(d: Draw) -> bytes:
    subject = d.rng().choice(
        ["=?rot13?q?Beqref?=", "=?hex?q?4f72?=", "=?utf-7?q?+AE8-rders?=", "=?x-unknown?b?T3JkZXJz?=",
         "=?utf-16?b?AE8AcgBk?=", "=?utf-8?b?////?=", "=?utf-8?q?=FF=FE?=", "=?zlib?b?eJzLL0pNAQ==?="]
    )  # fmt: skip
    return raw(head(d, subject=subject, sender=f"{subject} <{d.sender}>"), d.orders())


def _html_meta_charset(d: Draw) -> bytes:
    label = d.rng().choice(["hex", "utf-7", "rot13", "x-bogus", "utf-16"])
    html = f'<html><head><meta charset="{label}"></head><body><pre>{d.orders()}</pre></body></html>'
    return raw(head(d, content_type="text/html"), html)


CHARSETS = (
    Variant("utf-7", _utf7),
    Variant("utf-16 without BOM", _utf16_without_bom),
    Variant("unknown charset label", _unknown_label),
    Variant("non-text Python codec as charset", _python_only_codec),
    Variant("bytes invalid for the declared charset", _invalid_bytes),
    Variant("charset parameter injection", _charset_injection),
    Variant("encoded words in odd charsets", _encoded_word_charsets),
    Variant("HTML meta charset", _html_meta_charset),
)


# --- NUL and control characters ---

PRINTED_CONTROLS = ("\x00", "\x01", "\x07", "\x08", "\x1b[2J", "\x7f", "\u202e", "\ufeff")
"""Control and format characters that ``str.split`` keeps inside a word."""
CONTROLS = (*PRINTED_CONTROLS, "\x0b", "\x0c", "\x85", "\u2028", "\u2029")


def _control(d: Draw) -> str:
    return d.rng().choice(CONTROLS)


def _control_in_subject(d: Draw) -> bytes:
    return plain(d, subject=f"Orders{_control(d)}turn 1")


def _control_in_display_name(d: Draw) -> bytes:
    return plain(d, sender=f'"Re{_control(d)}d" <{d.sender}>')


def _control_in_order_line(d: Draw) -> bytes:
    order = d.target.order
    at = d.rng().randint(0, len(order))
    return raw(head(d), d.orders(order=order[:at] + _control(d) + order[at:]))


def _control_in_header_lines(d: Draw) -> bytes:
    text = d.orders().replace("PLAYER", f"PLAYER{_control(d)}", 1).replace("GAME ", f"GAME {_control(d)}", 1)
    return raw(head(d), text)


def _control_in_code(d: Draw) -> bytes:
    """A control character inside the code: a wrong code. (Not one that is white space, which the
    order language reads as a space, as it reads any; a code is read without its spaces.)"""
    code = d.code
    control = d.rng().choice([c for c in CONTROLS if not c.isspace()])
    return raw(head(d), d.orders(code=code[:4] + control + code[4:]))


def _nul_everywhere(d: Draw) -> bytes:
    return plain(d).replace(b"\r\n", b"\x00\r\n")


def _control_in_header_name(d: Draw) -> bytes:
    return raw(head(d, extra=[(f"X-{_control(d)}", "y"), ("\x00", "z"), ("Subject\x00", "Bcc")]), d.orders())


CONTROL_CHARACTERS = (
    Variant("in Subject", _control_in_subject),
    Variant("in the From display name", _control_in_display_name),
    Variant("in an order line", _control_in_order_line),
    Variant("in GAME and PLAYER lines", _control_in_header_lines),
    Variant("in the CODE", _control_in_code, authorized=False),
    Variant("NUL before every line end", _nul_everywhere),
    Variant("in header names", _control_in_header_name),
)


# --- header injection ---

VICTIM = f"victim@{EVIL}"


def b64_word(text: str) -> str:
    return f"=?utf-8?b?{base64.b64encode(text.encode()).decode()}?="


def _crlf_subject(d: Draw) -> bytes:
    subject = d.rng().choice(
        [
            f"=?utf-8?q?Orders=0D=0ABcc:_{VICTIM}?=",
            b64_word(f"Orders\r\nBcc: {VICTIM}"),
            f"=?utf-8?q?Orders%0d%0aBcc:{VICTIM}?=",
            f"=?utf-8?q?Orders=0ABcc:_{VICTIM}=0A=0A<html>?=",
            f"=?utf-8?q?Orders=0DTo:_{VICTIM}?=",
            f"Orders\rBcc: {VICTIM}",
            f"=?utf-8?q?Orders=E2=80=A8Bcc:_{VICTIM}?=",
            f"=?utf-8?q?Orders=C2=85Bcc:_{VICTIM}?=",
        ]
    )
    return plain(d, subject=subject)


def _crlf_display_name(d: Draw) -> bytes:
    name = d.rng().choice(
        [f"=?utf-8?q?Red=0D=0ABcc:_{VICTIM}?=", f'"Red\r\n Bcc: {VICTIM}"', b64_word(f"Red\nCc: {VICTIM}")]
    )
    return plain(d, sender=f"{name} <{d.sender}>")


def _crlf_message_id(d: Draw) -> bytes:
    message_id = d.rng().choice(
        [
            f"<a{d.index}@x>\r\n Bcc: {VICTIM}",
            f"<a{d.index}%0d%0aBcc:{VICTIM}@x>",
            f"=?utf-8?q?<a{d.index}=0D=0ABcc:_v@x>?=",
        ]
    )
    return plain(d, message_id=message_id)


def _subject_command_injection(d: Draw) -> bytes:
    subject = f"=?utf-8?q?HELP=0D=0A=0D=0AMESSAGE_ALL=0D=0ACODE_{d.code}?="
    return raw(head(d, subject=subject), "")


def _reply_to_and_cc(d: Draw) -> bytes:
    extra = [("Reply-To", VICTIM), ("Cc", VICTIM), ("Bcc", VICTIM), ("Sender", VICTIM)]
    return plain(d, extra=extra)


HEADER_INJECTION = (
    Variant("CR/LF in Subject (encoded words)", _crlf_subject),
    Variant("CR/LF in the From display name", _crlf_display_name),
    Variant("CR/LF in Message-ID", _crlf_message_id),
    Variant("commands hidden in an encoded Subject", _subject_command_injection),
    Variant("Reply-To, Cc, Bcc, Sender to a victim", _reply_to_and_cc),
)


# --- look-alike addresses ---


def _lookalike(address: str, how: str) -> str:
    local, _, domain = address.partition("@")
    match how:
        case "cyrillic e":
            return address.replace("e", "\u0435", 1)
        case "idn homograph":
            return local + "@" + domain.replace("a", "\u0430", 1).replace("e", "\u0435", 1)
        case "punycode homograph":
            return (
                local
                + "@"
                + domain.replace("a", "\u0430", 1).replace("e", "\u0435", 1).encode("idna").decode()
            )
        case "fullwidth":
            return "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in local) + "@" + domain
        case "dot":
            return f"{local[:1]}.{local[1:]}@{domain}"
        case "plus tag":
            return f"{local}+orders@{domain}"
        case "zero width":
            return f"{local[:1]}\u200b{local[1:]}@{domain}"
        case "combining":
            return f"{local[:1]}\u0301{local[1:]}@{domain}"
        case "trailing dot":
            return f"{address}."
        case "subdomain":
            return f"{local}@mail.{domain}"
    return address.upper() if how == "upper case" else f"{local}@{domain.upper()}"


LOOKALIKES = (
    "cyrillic e", "idn homograph", "punycode homograph", "fullwidth", "dot", "plus tag", "zero width",
    "combining", "trailing dot", "subdomain",
)  # fmt: skip


def _lookalike_variant(how: str) -> Callable[[Draw], bytes]:
    def make(d: Draw) -> bytes:
        address = _lookalike(d.target.player.address, how)
        return raw(head(d, sender=f"Red <{address}>", auth=ses_pass(d, address)), d.orders())

    return make


LOOKALIKE_ADDRESSES = tuple(
    Variant(how, _lookalike_variant(how), who="player", authorized=False) for how in LOOKALIKES
) + tuple(
    # The same mailbox written in other case: the host compares addresses case-insensitively.
    Variant(how, _lookalike_variant(how), who="player", authorized=True)
    for how in ("upper case", "upper-case domain")
)


# --- forged From ---


def _forged_from(form: str) -> Callable[[Draw], bytes]:
    def make(d: Draw) -> bytes:
        red, evil = d.target.player.address, f"x{d.index}@{EVIL}"
        extra: list[tuple[str | bytes, str | bytes]] = []
        drop: tuple[str, ...] = ()
        match form:
            case "two From, ours second":
                sender, extra = f"<{evil}>", [("From", red)]
            case "two From, ours first":
                sender, extra = red, [("From", f"<{evil}>")]
            case "several addresses":
                sender = f"{evil}, {red}"
            case "several addresses, ours first":
                sender = f"{red}, {evil}"
            case "address in quoted display name":
                sender = f'"{red}" <{evil}>'
            case "address as display name":
                sender = f"{red} <{evil}>"
            case "quoted local part":
                sender = f'"{red}"@{EVIL}'
            case "a@b@c":
                sender = f"{red}@{EVIL}"
            case "comment":
                sender = f"{evil} ({red})"
            case "group":
                sender = f"Players: {red}, {evil};"
            case "angle then text":
                sender = f"<{red}> {evil}"
            case "non-ASCII local part":
                sender = f"r\u00ebd{d.index}@{red.partition('@')[2]}"
            case "control characters":
                sender = f"{red}\x00<{evil}>"
            case "encoded word address":
                sender = f"=?utf-8?q?{red.replace('@', '=40')}?= <{evil}>"
            case "Sender and Reply-To ours":
                sender, extra = evil, [("Sender", red), ("Reply-To", red)]
            case "no From, Sender ours":
                sender, extra, drop = evil, [("Sender", red)], ("From",)
            case _:
                raise ValueError(form)
        return raw(head(d, sender=sender, extra=extra, drop=drop, auth=ses_pass(d, evil)), d.orders())

    return make


FORGED_FORMS = (
    "two From, ours second", "two From, ours first", "several addresses", "several addresses, ours first",
    "address in quoted display name", "address as display name", "quoted local part", "a@b@c", "comment",
    "group", "angle then text", "non-ASCII local part", "control characters", "encoded word address",
    "Sender and Reply-To ours", "no From, Sender ours",
)  # fmt: skip
FORGED_FROM = tuple(
    Variant(form, _forged_from(form), who="player", authorized=False) for form in FORGED_FORMS
)


# --- verdict failures ---


def _verdict(auth: str | None = None, extra: Sequence[tuple[str, str]] = ()) -> Callable[[Draw], bytes]:
    def make(d: Draw) -> bytes:
        domain = d.sender.partition("@")[2]
        text = None if auth is None else auth.format(domain=domain, sender=d.sender)
        headers = head(d, auth=text)
        if extra:
            at = next(i for i, (key, _) in enumerate(headers) if key == "X-SES-Spam-Verdict")
            headers = [h for h in headers if h[0] not in {k for k, _ in extra}]
            headers[at:at] = list(extra)
        return raw(headers, d.orders())

    return make


DMARC_FAILS = {
    "dmarc=fail": (
        "amazonses.com; spf=pass smtp.mailfrom={sender}; dkim=none; dmarc=fail header.from={domain};"
    ),
    "behind an unbalanced parenthesis": (
        "amazonses.com; spf=fail (spfCheck: domain of x(y.test does not designate) "
        "smtp.mailfrom=x(y@evil.test; "
        "dmarc=fail header.from={domain};"
    ),
    "behind an unbalanced quote": (
        'amazonses.com; spf=pass smtp.mailfrom="x@evil.test; dkim=none; dmarc=fail header.from={domain};'
    ),
    "behind a backslash": (
        "amazonses.com; spf=pass smtp.mailfrom=x\\(@evil.test; dmarc=fail header.from={domain};"
    ),
    "after a quoted dmarc=pass": (
        'amazonses.com; spf=pass smtp.mailfrom="dmarc=pass;"@evil.test; dmarc=fail header.from={domain};'
    ),
    "after an escaped quote": (
        'amazonses.com; spf=pass smtp.mailfrom="x\\"@evil.test; dmarc=fail header.from={domain};'
    ),
    "spaced and upper case": "amazonses.com; spf=pass; DMARC = FAIL header.from={domain};",
    "folded": "amazonses.com; spf=pass;\r\n dmarc=\r\n fail header.from={domain};",
    "with a version": "amazonses.com; dmarc/1=fail header.from={domain};",
    "with a reason comment": "amazonses.com; dmarc=fail (p=REJECT sp=REJECT pct=100) header.from={domain};",
    "no authserv-id": "dmarc=fail header.from={domain}",
    "after a nested comment": "amazonses.com (a (b) c; dmarc=pass); dmarc=fail header.from={domain};",
    "after a forged pass header": None,
}


def _forged_pass_on_top(d: Draw) -> bytes:
    fail = f"amazonses.com; dmarc=fail header.from={d.sender.partition('@')[2]};"
    headers = head(d, auth=fail, extra=[("Authentication-Results", "amazonses.com; dmarc=pass")])
    return raw(headers, d.orders())


SES_FAILS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("SES spam FAIL", (("X-SES-Spam-Verdict", "FAIL"),)),
    ("SES virus FAIL", (("X-SES-Virus-Verdict", "FAIL"),)),
    (
        "SES spam FAIL, lower case, PASS added below",
        (("X-SES-Spam-Verdict", " fail "), ("X-SES-Spam-Verdict", "PASS")),
    ),
)
VERDICTS = (
    *(
        Variant(f"DMARC fail {name}", _verdict(text) if text else _forged_pass_on_top, "player", False, True)
        for name, text in DMARC_FAILS.items()
    ),
    *(Variant(name, _verdict(extra=extra), "player", False, True) for name, extra in SES_FAILS),
)
"""From the registered address, with the right code: only the verdict stops them."""


# --- auto-replies and bounces ---


def _automatic(kind: str) -> Callable[[Draw], bytes]:
    def make(d: Draw) -> bytes:
        red, domain = d.target.player.address, d.target.player.address.partition("@")[2]
        match kind:
            case "Auto-Submitted: auto-replied":
                return plain(d, extra=[("Auto-Submitted", "auto-replied")])
            case "Auto-Submitted with a comment, odd case":
                return plain(d, extra=[("Auto-Submitted", "Auto-Generated (vacation)")])
            case "X-Autoreply":
                return plain(d, extra=[("X-Autoreply", "yes")])
            case "Precedence: bulk":
                return plain(
                    d, extra=[("Precedence", d.rng().choice(["bulk", "junk", "list", "auto_reply"]))]
                )
            case "out-of-office quoting the orders":
                body = "I am away until Monday.\r\n\r\n> " + d.orders().replace("\r\n", "\r\n> ")
                return raw(
                    head(d, subject="Automatic reply: Orders", extra=[("X-Auto-Response-Suppress", "All")]),
                    body,
                )
            case "mailer-daemon":
                return plain(d, sender=f"Mail Delivery System <MAILER-DAEMON@{domain}>")
            case "postmaster":
                return plain(d, sender=f"postmaster@{domain}")
            case "-request":
                return plain(d, sender=f"warpwar-request@lists.{domain}")
            case "bounces+":
                return plain(d, sender=f"bounces+{d.index}-red=example.org@em.{domain}")
            case "owner-":
                return plain(d, sender=f"owner-warpwar@lists.{domain}")
            case "noreply":
                return plain(
                    d,
                    sender=d.rng().choice(
                        [
                            f"noreply@{domain}",
                            f"no-reply@{domain}",
                            f"NoReply@{domain}",
                            f"do_not_reply@{domain}",
                        ]
                    ),
                )
            case "empty Return-Path":
                headers = [(k, "<>" if k == "Return-Path" else v) for k, v in head(d)]
                return raw(headers, d.orders())
            case "List-Id":
                return plain(d, extra=[("List-Id", "<warpwar.lists.example.org>")])
            case "DSN with the orders returned":
                report = (
                    "Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n"
                    f"Final-Recipient: rfc822; {red}\r\nAction: failed\r\nStatus: 5.1.1\r\n"
                )
                original = f"Content-Type: message/rfc822\r\n\r\n{plain(d).decode('utf-8', 'replace')}"
                parts = multipart("r", [text_part(d.orders()), b(report), b(original)])
                return raw(
                    head(d, content_type='multipart/report; report-type=delivery-status; boundary="r"'), parts
                )
            case "DSN without report-type":
                parts = multipart("r", [text_part(d.orders())])
                return raw(head(d, content_type='multipart/report; boundary="r"'), parts)
        raise ValueError(kind)

    return make


AUTOMATIC_KINDS = (
    "Auto-Submitted: auto-replied", "Auto-Submitted with a comment, odd case", "X-Autoreply",
    "Precedence: bulk",
    "out-of-office quoting the orders", "mailer-daemon", "postmaster", "-request", "bounces+", "owner-",
    "noreply", "empty Return-Path", "List-Id", "DSN with the orders returned", "DSN without report-type",
)  # fmt: skip
AUTO_REPLIES = tuple(
    Variant(kind, _automatic(kind), who="player", authorized=False) for kind in AUTOMATIC_KINDS
)


# --- commands with hostile arguments ---

LONG_NAME = 10_000


def _command(text: str, subject: str = "Command") -> Callable[[Draw], bytes]:
    def make(d: Draw) -> bytes:
        rng = d.rng()
        body = text.format(
            game=d.target.game_id,
            code=d.code,
            control=rng.choice(PRINTED_CONTROLS),
            long="N" * LONG_NAME,
            flood="All hail the fleet. " * rng.choice([10, 200, 5_000]),
            index=d.index,
        )
        return raw(head(d, subject=subject), body)

    return make


COMMAND_TEXTS = (
    ("JOIN, control characters in the name", "JOIN {game} Ad{control}min{index}\r\n", "stranger"),
    ("JOIN, 10,000-character name", "JOIN {game} {long}\r\n", "stranger"),
    ("JOIN, terminal escapes", "JOIN {game} \x1b[2J\x1b[31mGM{index}\r\n", "stranger"),
    ("JOIN, hostile game id", "JOIN ../{game}\x00 Bob{index}\r\n", "stranger"),
    ("MESSAGE ALL flood", "MESSAGE ALL\r\nCODE {code}\r\n{flood}\r\n", "player"),
    ("MESSAGE with control characters", "MESSAGE P2\r\nCODE {code}\r\nHi{control}there\r\n", "player"),
    ("MESSAGE to a 10,000-character name", "MESSAGE {long}\r\nCODE {code}\r\nhi\r\n", "player"),
    ("MESSAGE with a stolen code", "MESSAGE ALL\r\nCODE {code}\r\n{flood}\r\n", "stranger"),
    ("REPORT flood", "REPORT\r\n", "player"),
    ("REPORT of another game", "REPORT blind open ../x\r\n", "player"),
    ("STATUS with junk", "STATUS {long}\r\n", "player"),
    ("HELP from anyone", "HELP\r\n", "stranger"),
    ("TIMEZONE with control characters", "TIMEZONE Europe/Paris{control}\r\nCODE {code}\r\n", "player"),
    ("ABSENT with a 10,000-character date", "ABSENT {long} CODE {code}\r\n", "player"),
    ("WAIT with junk", "WAIT {control}{long}\r\nCODE {code}\r\n", "player"),
)
"""(variant, the mail's text, the sender). None may change state: the players' commands that
do (WAIT, ABSENT, TIMEZONE) get arguments that must be refused."""
COMMANDS = tuple(
    Variant(name, _command(text), who=who, authorized=False) for name, text, who in COMMAND_TEXTS
)


# --- valid orders (the control group) ---


def _valid(shape: str) -> Callable[[Draw], bytes]:
    def make(d: Draw) -> bytes:
        text = d.orders()
        match shape:
            case "plain":
                return raw(head(d), text)
            case "quoted-printable":
                encoded = quopri.encodestring(text.encode()).decode()
                return raw(head(d, extra=[("Content-Transfer-Encoding", "quoted-printable")]), encoded)
            case "base64":
                encoded = base64.encodebytes(text.encode()).decode().replace("\n", "\r\n")
                return raw(head(d, extra=[("Content-Transfer-Encoding", "base64")]), encoded)
            case "HTML only":
                html = (
                    "<html><body>"
                    + "".join(f"<div>{line}</div>" for line in text.split("\r\n"))
                    + "</body></html>"
                )
                return raw(head(d, content_type="text/html; charset=utf-8"), html)
            case "multipart/alternative":
                body = multipart("alt", [text_part(text), text_part("<p>see text</p>", "text/html")])
                return raw(head(d, content_type='multipart/alternative; boundary="alt"'), body)
            case "attached orders.txt":
                attachment = (
                    b"Content-Type: text/plain\r\n"
                    b"Content-Disposition: attachment; filename=orders.txt\r\n\r\n"
                )
                body = multipart("att", [attachment + text.encode()])
                return raw(head(d, content_type='multipart/mixed; boundary="att"'), body)
            case "windows-1252":
                return raw(
                    head(d, content_type="text/plain; charset=windows-1252"),
                    text.replace("Cheers", "\u2013 Cheers").encode("cp1252"),
                )
        raise ValueError(shape)

    return make


VALID_SHAPES = (
    "plain",
    "quoted-printable",
    "base64",
    "HTML only",
    "multipart/alternative",
    "attached orders.txt",
    "windows-1252",
)
VALID_ORDERS = tuple(
    Variant(shape, _valid(shape), who="player", authorized=True, control=True) for shape in VALID_SHAPES
)


# --- Generators ---


def _generated(
    category: str, variants: Sequence[Variant], seed: int, count: int, targets: Sequence[Target]
) -> Iterator[Mail]:
    for index in range(count):
        variant = variants[index % len(variants)]
        draw_seed = f"{seed}/{category}/{index}"
        rng = random.Random(draw_seed)
        who = variant.who or rng.choice(WHO)
        draw = Draw(draw_seed, rng.choice(targets), who, category, index)
        authorized = variant.authorized if variant.authorized is not None else who == "player"
        yield Mail(
            category,
            variant.name,
            index,
            partial(variant.make, draw),
            authorized,
            variant.auth_failed,
            variant.control,
            who=who,
        )


def malformed_mime(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("malformed MIME", MALFORMED_MIME, seed, count, targets)


def deep_nesting(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("deep nesting", DEEP_NESTING, seed, count, targets)


def giant(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("giant headers and parts", GIANT, seed, count, targets)


def charsets(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("charsets", CHARSETS, seed, count, targets)


def control_characters(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("NUL and control characters", CONTROL_CHARACTERS, seed, count, targets)


def header_injection(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("header injection", HEADER_INJECTION, seed, count, targets)


def lookalike_addresses(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("look-alike addresses", LOOKALIKE_ADDRESSES, seed, count, targets)


def forged_from(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("forged From", FORGED_FROM, seed, count, targets)


def verdict_failures(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("verdict failures", VERDICTS, seed, count, targets)


def auto_replies(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("auto-replies and bounces", AUTO_REPLIES, seed, count, targets)


def hostile_commands(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("commands with hostile arguments", COMMANDS, seed, count, targets)


def valid_orders(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    return _generated("valid orders", VALID_ORDERS, seed, count, targets)


REPLAYS = (
    "same object again (duplicate S3 event)",
    "same raw mail, another key",
    "same Message-ID, other sender and body",
    "same body, new Message-ID",
    "several Message-IDs, a seen one second",
    "no Message-ID, delivered twice",
)


def replays(seed: int, count: int, targets: Sequence[Target]) -> Iterator[Mail]:
    """Pairs: an authorized original, then its replay (``count`` mails in all, rounded up to pairs)."""
    category = "replays"
    for pair in range(math.ceil(count / 2)):
        kind = REPLAYS[pair % len(REPLAYS)]
        index = 2 * pair
        draw_seed = f"{seed}/{category}/{index}"
        target = random.Random(draw_seed).choice(targets)
        original = Draw(draw_seed, target, "player", category, index)
        drop = ("Message-ID",) if kind == "no Message-ID, delivered twice" else ()
        first = partial(plain, original, drop=drop)
        yield Mail(category, kind + " (original)", index, first, authorized=True)
        # The replays: the same mail or Message-ID again, from the player or a stranger.
        again = Draw(f"{draw_seed}/again", target, "stranger", category, index + 1)
        match kind:
            case "same object again (duplicate S3 event)":
                yield Mail(category, kind, index + 1, first, False, same_object_as=index, follows=True)
            case "same raw mail, another key" | "no Message-ID, delivered twice":
                yield Mail(category, kind, index + 1, first, authorized=False, follows=True)
            case "same Message-ID, other sender and body":
                build = partial(plain, again, message_id=original.message_id)
                yield Mail(category, kind, index + 1, build, False, who="stranger", follows=True)
            case "same body, new Message-ID":
                resent = Draw(f"{draw_seed}/again", target, "player", category, index + 1)
                yield Mail(category, kind, index + 1, partial(plain, resent), authorized=True, follows=True)
            case "several Message-IDs, a seen one second":
                build = partial(plain, again, extra=[("Message-ID", original.message_id)])
                yield Mail(category, kind, index + 1, build, False, who="stranger", follows=True)


Generator = Callable[[int, int, Sequence[Target]], Iterator[Mail]]
CATEGORIES: tuple[Generator, ...] = (
    malformed_mime,
    deep_nesting,
    giant,
    charsets,
    control_characters,
    header_injection,
    lookalike_addresses,
    forged_from,
    verdict_failures,
    auto_replies,
    replays,
    hostile_commands,
    valid_orders,
)


def corpus(seed: int, per_category: int, targets: Sequence[Target]) -> Iterator[Mail]:
    for generator in CATEGORIES:
        yield from generator(seed, per_category, targets)


# --- The host under attack ---

DYNAMODB_WRITES = frozenset(
    {"put_item", "update_item", "delete_item", "transact_write_items", "batch_write_item"}
)
S3_WRITES = frozenset(
    {"put_object", "delete_object", "delete_objects", "copy_object", "upload_fileobj", "upload_file"}
)


class Recording:
    """A boto3 client whose successful write calls are recorded (reads pass straight through)."""

    def __init__(self, client: Any, writes: frozenset[str]) -> None:
        self._client = client
        self._writes = writes
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if name not in self._writes:
            return attribute

        def recorded(*args: Any, **kwargs: Any) -> Any:
            result = attribute(*args, **kwargs)
            self.calls.append((name, kwargs))
            return result

        return recorded


class RecordingMailer(SesMailer):
    """The real SES mailer (moto's SES v2); each mail sent is kept, as the bytes SES was given."""

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        self.sent: list[tuple[tuple[str, ...], bytes]] = []

    def send(self, message: EmailMessage) -> str:
        sent_id = super().send(message)
        self.sent.append((tuple(envelope_recipients(message)), message.as_bytes()))
        return sent_id


def _written_items(name: str, call: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The items (or keys) one DynamoDB write call touched, as low-level attribute maps."""
    if name == "put_item":
        yield call["Item"]
    elif name in ("update_item", "delete_item"):
        yield call["Key"]
    elif name == "transact_write_items":
        for entry in call["TransactItems"]:
            for kind in ("Put", "Update", "Delete"):
                if kind in entry:
                    yield entry[kind].get("Item") or entry[kind]["Key"]
    elif name == "batch_write_item":
        for requests in call["RequestItems"].values():
            for request in requests:
                yield request.get("PutRequest", {}).get("Item") or request["DeleteRequest"]["Key"]


@dataclass
class Result:
    """What one mail did."""

    mail: Mail
    key: str
    status: str
    reason: str
    seconds: float
    failed: bool
    state_writes: list[str]
    logged: bool
    replies: list[tuple[str, ...]]
    injected: list[str]
    """Replies whose headers or recipients the inbound mail put there."""


@dataclass
class Host:
    """Two running WarpWar games under moto, and the recording clients the handler is given."""

    described: Resources
    store: Store
    s3: Any
    """The receipt rule's client (not recorded)."""
    dynamodb: Recording
    handler_s3: Recording
    mailer: RecordingMailer
    targets: tuple[Target, ...]
    registered: frozenset[str]
    logged_keys: set[str] = field(default_factory=set)

    @classmethod
    def start(cls, described: Resources, dynamodb: Any, s3: Any, sesv2: Any) -> Host:
        """The games and players, on an empty provisioned deployment (moto's mock active)."""
        settings = described.settings()
        sesv2.create_email_identity(EmailIdentity=settings.mail_domain)
        store = Store(settings, dynamodb, s3)
        now = datetime.now(UTC)
        for game_id, visibility in GAMES.items():
            state = state_json(game_id, visibility)
            players = [
                PlayerRecord(
                    game_id=game_id,
                    player_id=s.player_id,
                    name=s.name,
                    address=s.address,
                    code_hash=hash_code(s.code),
                )
                for s in SEATS
                if s.game_id == game_id
            ]
            opened = GameRecord(game_id=game_id, title=f"Hostile corpus, {visibility} game", status="open")
            store.create_game(due.start(opened, state, now), players, state)
        recorded_dynamodb = Recording(dynamodb, DYNAMODB_WRITES)
        recorded_s3 = Recording(s3, S3_WRITES)
        return cls(
            described=described,
            store=Store(settings, recorded_dynamodb, recorded_s3),
            s3=s3,
            dynamodb=recorded_dynamodb,
            handler_s3=recorded_s3,
            mailer=RecordingMailer(sesv2),
            targets=targets(settings.mail_domain),
            registered=frozenset(seat.address for seat in SEATS),
        )

    @property
    def bucket(self) -> str:
        return self.described.mail_bucket

    @contextmanager
    def installed(self) -> Iterator[Any]:
        """The inbound handler module, its dependencies replaced by this host's recording ones."""
        from functions.handlers import inbound

        settings = self.described.settings()
        original = inbound.dependencies
        inbound.dependencies = lambda: (settings, self.store, self.mailer, self.handler_s3)
        try:
            yield inbound
        finally:
            inbound.dependencies = original
            inbound.metrics.clear_metrics()

    def versions(self) -> dict[str, int]:
        return {game.game_id: game.version for game in self.store.games()}

    def drift(self) -> list[str]:
        """The games whose version is no longer the one they started at."""
        return [f"{game}: version {version}" for game, version in self.versions().items() if version != 0]

    def deliver(self, handler: Any, mail: Mail, keys: dict[int, str]) -> Result:
        """Store ``mail`` as the receipt rule would, run the handler on it, and see what it did."""
        if mail.same_object_as is not None:
            key = keys[mail.same_object_as]
            data = None
        else:
            key = f"inbound/{mail.category.replace(' ', '-')}/{mail.index:05d}"
            data = mail.build()
            self.s3.put_object(Bucket=self.bucket, Key=key, Body=data)
        keys[mail.index] = key
        dynamodb_calls, s3_calls, sent = (
            len(self.dynamodb.calls),
            len(self.handler_s3.calls),
            len(self.mailer.sent),
        )
        start = time.perf_counter()
        try:
            outcome = handler.handle_object(self.bucket, key)
        except Exception as error:  # the handler must never raise: counted as a failure
            outcome = {"status": "failed", "reason": f"escaped: {type(error).__name__}: {error}"}
        seconds = time.perf_counter() - start
        handler.metrics.clear_metrics()  # else Powertools prints them every 100 mails
        state_writes = []
        for name, call in self.dynamodb.calls[dynamodb_calls:]:
            for item in _written_items(name, call):
                pk, sk = item[PK]["S"], item[SK]["S"]
                if sk.startswith(LOG_SK_PREFIX):
                    if "key" in item:
                        self.logged_keys.add(item["key"]["S"])
                elif not pk.startswith(BOOKKEEPING):
                    state_writes.append(f"{name} {pk} {sk}")
        state_writes += [
            f"s3 {name} {call.get('Bucket')} {call.get('Key')}"
            for name, call in self.handler_s3.calls[s3_calls:]
        ]
        if data is not None and len(data) > BIG_RAW:
            # The invariant (the raw mail stays) is checked, then the bucket's memory given back.
            kept = self.s3.head_object(Bucket=self.bucket, Key=key)["ContentLength"]
            if kept != len(data):
                state_writes.append(f"raw mail changed: {kept} bytes of {len(data)}")
            self.s3.delete_object(Bucket=self.bucket, Key=key)
        replies = [recipients for recipients, _ in self.mailer.sent[sent:]]
        injected = [problem for _, data_sent in self.mailer.sent[sent:] for problem in _injected(data_sent)]
        return Result(
            mail=mail,
            key=key,
            status=str(outcome.get("status")),
            reason=str(outcome.get("reason", "")),
            seconds=seconds,
            failed=outcome.get("status") == "failed",
            state_writes=state_writes,
            logged=key in self.logged_keys,
            replies=replies,
            injected=injected,
        )


def _injected(data: bytes) -> list[str]:
    """What in a sent mail came from the inbound mail's header injection: a Bcc or Cc, more than
    one recipient, or the victim's address in a header other than the subject's text."""
    message = BytesParser(policy=policy.compat32).parsebytes(data, headersonly=True)
    problems = [f"{name} header" for name in ("Bcc", "Cc") if message.get_all(name)]
    recipients = message.get_all("To", [])
    if len(recipients) != 1 or "," in recipients[0]:
        problems.append(f"To: {recipients!r}")
    problems += [
        f"{VICTIM} in {name}" for name, value in message.items()
        if VICTIM in str(value) and name not in ("Subject", "Thread-Topic")
    ]  # fmt: skip
    return problems


# --- Figures ---


@dataclass
class Figures:
    """One category's figures."""

    category: str
    results: list[Result] = field(default_factory=list)

    @property
    def failures(self) -> list[Result]:
        return [r for r in self.results if r.failed]

    @property
    def state_changes(self) -> list[Result]:
        """Unauthorized mails that changed state."""
        return [r for r in self.results if r.state_writes and not r.mail.authorized]

    @property
    def to_unknown(self) -> int:
        return sum(1 for r in self.results for recipients in r.replies if not set(recipients) <= REGISTERED)

    @property
    def after_auth_fail(self) -> int:
        return sum(len(r.replies) for r in self.results if r.mail.auth_failed)

    @property
    def max_per_address(self) -> int:
        counts = Counter(address for r in self.results for recipients in r.replies for address in recipients)
        return max(counts.values(), default=0)

    @property
    def unlogged(self) -> list[Result]:
        return [r for r in self.results if not r.logged]

    @property
    def injected(self) -> list[Result]:
        return [r for r in self.results if r.injected]

    @property
    def refused_controls(self) -> list[Result]:
        """Valid orders that were not accepted and stored."""
        return [
            r for r in self.results
            if r.mail.control and (r.status != "accepted" or not any("SUB#" in w for w in r.state_writes))
        ]  # fmt: skip

    def row(self) -> list[object]:
        times = sorted(r.seconds for r in self.results)
        p95 = times[max(0, math.ceil(len(times) * 0.95) - 1)]
        logged = 100.0 * (len(self.results) - len(self.unlogged)) / len(self.results)
        return [
            self.category,
            len(self.results),
            len(self.failures),
            len(self.state_changes),
            self.to_unknown,
            self.after_auth_fail,
            self.max_per_address,
            len(self.injected),
            f"{logged:.1f}",
            f"{ms(statistics.median(times)):.1f}",
            f"{ms(p95):.1f}",
            f"{ms(times[-1]):.1f}",
        ]


REGISTERED = frozenset(seat.address for seat in SEATS)
HEADERS = (
    "category", "mails", "failed", "state changes", "to unknown", "after auth fail", "max/addr", "injected",
    "logged %", "p50 ms", "p95 ms", "max ms",
)  # fmt: skip


HOST_MAILS = 250
"""Mails handled by one host before the next mail gets a fresh one: moto answers a query of an
index by reading every item of the table, so a host that had kept every mail's seen record and
mail-log entries would make the later mails' times grow with the corpus, not with the mail."""


def run(
    hosts: Callable[[], AbstractContextManager[Host]],
    mails: Iterator[Mail],
    progress: Callable[[Result], None] | None = None,
) -> tuple[dict[str, Figures], list[str]]:
    """Deliver every mail in order, on a fresh host (``hosts()``) for each category and every
    ``HOST_MAILS`` mails (a replay stays with its original); the figures per category, and
    every change of a game's version (only the turn workflow may commit)."""
    figures: dict[str, Figures] = {}
    drift: list[str] = []
    with ExitStack() as stack:
        host: Host | None = None
        handled = 0
        for mail in mails:
            if host is None or (not mail.follows and (handled >= HOST_MAILS or mail.category not in figures)):
                if host is not None:
                    drift += host.drift()
                stack.close()
                host = stack.enter_context(hosts())
                handler = stack.enter_context(host.installed())
                keys: dict[int, str] = {}
                handled = 0
            result = host.deliver(handler, mail, keys)
            handled += 1
            figures.setdefault(mail.category, Figures(mail.category)).results.append(result)
            if progress is not None:
                progress(result)
        if host is not None:
            drift += host.drift()
    return figures, drift


def findings(figures: dict[str, Figures], examples: int = 2) -> list[str]:
    """Each broken invariant, per category and variant, with a few examples."""
    lines = []
    for category, found in figures.items():
        kinds: dict[tuple[str, str], list[str]] = defaultdict(list)
        for r in found.failures:
            kinds[("failed", r.mail.variant)].append(f"{r.key}: {r.reason}")
        for r in found.state_changes:
            kinds[("state change", r.mail.variant)].append(
                f"{r.key}: {r.status} {r.reason!r}: {r.state_writes[:2]}"
            )
        for r in found.unlogged:
            kinds[("not logged", r.mail.variant)].append(f"{r.key}: {r.status} {r.reason!r}")
        for r in found.injected:
            kinds[("injected", r.mail.variant)].append(f"{r.key}: {r.injected}")
        for r in found.refused_controls:
            kinds[("valid orders refused", r.mail.variant)].append(f"{r.key}: {r.status} {r.reason!r}")
        for r in found.results:
            unknown = [a for recipients in r.replies for a in recipients if a not in REGISTERED]
            if unknown:
                kinds[("reply to unknown", r.mail.variant)].append(
                    f"{r.key}: {r.status} {r.reason!r} -> {unknown}"
                )
            if r.mail.auth_failed and r.replies:
                kinds[("reply after auth fail", r.mail.variant)].append(
                    f"{r.key}: {r.reason!r} -> {r.replies}"
                )
        for (kind, variant), cases in kinds.items():
            lines.append(f"[{category}] {kind}: {variant} ({len(cases)} mails)")
            lines += [f"    {case[:300]}" for case in cases[:examples]]
    return lines


def _progress(started: float) -> Callable[[Result], None]:
    """On stderr: when each category is done, and a line every 500 mails (a full run takes a
    while on a shared machine)."""
    done = [0]
    last: list[tuple[str, float]] = []

    def progress(result: Result) -> None:
        done[0] += 1
        elapsed = time.perf_counter() - started
        if last and last[0][0] != result.mail.category:
            print(f"  {last[0][0]} done at {last[0][1]:.0f} s", file=sys.stderr, flush=True)
        last[:] = [(result.mail.category, elapsed)]
        if done[0] % 500 == 0:
            print(
                f"  {done[0]:,} mails, {elapsed:.0f} s ({result.mail.category})", file=sys.stderr, flush=True
            )

    return progress


@contextmanager
def _environment(described: Resources) -> Iterator[None]:
    """The handler's environment and fake credentials, as a Lambda has them; restored after."""
    values = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": described.region,
        "AWS_ACCOUNT_ID_ENDPOINT_MODE": "disabled",
        "POWERTOOLS_TRACE_DISABLED": "1",
        "POWERTOOLS_LOG_LEVEL": "CRITICAL",
        **described.handler_environment(),
    }
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The hostile mail corpus through the inbound handler.")
    parser.add_argument(
        "--count", type=int, default=DEFAULT_COUNT, help=f"mails in all (default {DEFAULT_COUNT:,})"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_COUNT} mails per category (smoke test)")
    parser.add_argument("--findings", type=int, default=2, help="examples printed per finding")
    parser.add_argument(
        "--category", action="append", default=[], help="only this category (again for more), e.g. 'replays'"
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    per_category = QUICK_COUNT if args.quick else math.ceil(args.count / len(CATEGORIES))
    described = resources("bench")
    import boto3
    from moto import mock_aws

    started = time.perf_counter()

    @contextmanager
    def fresh_host() -> Iterator[Host]:
        with mock_aws():
            dynamodb, s3 = (boto3.client(name, region_name=described.region) for name in ("dynamodb", "s3"))
            provision(described, dynamodb, s3)
            yield Host.start(described, dynamodb, s3, boto3.client("sesv2", region_name=described.region))

    with _environment(described):
        every = corpus(args.seed, per_category, targets(described.settings().mail_domain))
        mails = (mail for mail in every if not args.category or mail.category in args.category)
        figures, drift = run(fresh_host, mails, _progress(started))
    elapsed = time.perf_counter() - started
    total = sum(len(f.results) for f in figures.values())
    print(f"hostile mail corpus: {total:,} mails, seed {args.seed}, {elapsed:.0f} s in all ({machine()})")
    print(table(HEADERS, [f.row() for f in figures.values()]))
    print(f"game versions changed: {', '.join(drift) or 'none'}")
    found = findings(figures, args.findings)
    print(f"\nfound ({len(found)} lines):" if found else "\nfound: nothing")
    print("\n".join(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
