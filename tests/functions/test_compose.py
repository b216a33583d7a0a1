"""Composing outgoing mail (functions/mail/compose.py): MIME structure, addresses, threads."""

from __future__ import annotations

import base64
import email
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage, MIMEPart

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from functions.mail.compose import (
    RESERVED,
    Attachment,
    MailKind,
    OutgoingMail,
    compose,
    game_address,
    game_from_address,
    host_address,
    thread_root,
    valid_game_id,
)

DOMAIN = "warpmail.test"
SENDER = "warpmail@warpmail.test"
NOW = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
MAP = Attachment(filename="map.png", content_type="image/png", data=PNG, content_id="map")
SVG = Attachment(filename="map.svg", content_type="image/svg+xml", data=b"<svg xmlns='x'/>")
JSON = Attachment(filename="report.json", content_type="application/json", data=b'{"turn": 5}')
HTML = '<html><body><p>Turn 5</p><img src="cid:map" alt="map"></body></html>'


# --- Builders ---


def outgoing(**changes: object) -> OutgoingMail:
    fields: dict[str, object] = {
        "to": "zoe@example.org",
        "subject": "Turn 5 results",
        "text": "Turn 5\n",
        "game_id": "g1",
        "game_name": "WarpWar",
        "player_id": "Red",
        "kind": "results",
    }
    return OutgoingMail.model_validate(fields | changes)


def sent(mail: OutgoingMail) -> EmailMessage:
    """``mail`` composed, written as SES would send it and read back as a client would."""
    raw = compose(mail, SENDER, DOMAIN, now=NOW).as_bytes()
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def text_of(part: MIMEPart | None) -> str:
    """A text part's content with the CRLF line ends of the wire read as ``\\n``."""
    assert part is not None
    content = part.get_content()
    assert isinstance(content, str)
    return content.replace("\r\n", "\n")


def tree(part: EmailMessage, depth: int = 0) -> list[str]:
    """The MIME structure, one indented content type per part."""
    lines = ["  " * depth + part.get_content_type()]
    if part.is_multipart():
        for child in part.iter_parts():
            assert isinstance(child, EmailMessage)
            lines += tree(child, depth + 1)
    return lines


# --- Structure ---


def test_text_only_mail_is_one_text_part() -> None:
    message = sent(outgoing())

    assert tree(message) == ["text/plain"]
    assert text_of(message) == "Turn 5\n"


def test_text_and_html_are_alternatives() -> None:
    message = sent(outgoing(html="<p>Turn 5</p>"))

    assert tree(message) == ["multipart/alternative", "  text/plain", "  text/html"]


def test_inline_map_is_related_to_the_html_and_other_files_are_attachments() -> None:
    # Given a results mail with the map inline and the SVG and JSON attached
    mail = outgoing(html=HTML, attachments=(MAP, SVG, JSON))

    # When it is composed and read back
    message = sent(mail)

    # Then the structure is what every major client displays
    assert tree(message) == [
        "multipart/mixed",
        "  multipart/alternative",
        "    text/plain",
        "    multipart/related",
        "      text/html",
        "      image/png",
        "  image/svg+xml",
        "  application/json",
    ]
    related = message.get_body(preferencelist=("related",))
    assert related is not None and related.get_param("type") == "text/html"


def test_inline_image_is_found_by_its_content_id_with_its_bytes() -> None:
    message = sent(outgoing(html=HTML, attachments=(MAP,)))

    html = message.get_body(preferencelist=("html",))
    assert html is not None and 'src="cid:map"' in html.get_content()
    image = next(part for part in message.walk() if part.get_content_type() == "image/png")
    assert image["Content-ID"] == "<map>"
    assert image.get_content_disposition() == "inline"
    assert image.get_content() == PNG


def test_attachments_keep_their_names_and_bytes() -> None:
    message = sent(outgoing(html=HTML, attachments=(MAP, SVG, JSON)))

    attached = {part.get_filename(): part.get_content() for part in message.iter_attachments()}
    assert attached == {"map.svg": SVG.data, "report.json": JSON.data}


def test_inline_image_without_html_is_sent_as_an_attachment() -> None:
    message = sent(outgoing(attachments=(MAP,)))

    assert tree(message) == ["multipart/mixed", "  text/plain", "  image/png"]


def test_content_type_parameters_of_an_attachment_are_kept() -> None:
    invitation = Attachment(
        filename="turn.ics", content_type="text/calendar; method=PUBLISH", data=b"BEGIN:VCALENDAR\r\n"
    )

    message = sent(outgoing(attachments=(invitation,)))

    part = next(message.iter_attachments())
    assert part.get_content_type() == "text/calendar"
    assert part.get_param("method") == "PUBLISH"


# --- Headers ---


def test_from_is_the_sender_named_warpmail_and_reply_to_is_the_game() -> None:
    message = sent(outgoing())

    assert str(message["From"]) == "WarpMail <warpmail@warpmail.test>"
    assert message["Reply-To"].addresses[0].addr_spec == "g1@warpmail.test"
    assert message["Reply-To"].addresses[0].display_name == "WarpWar g1"


def test_mail_for_no_game_replies_to_the_host_address() -> None:
    message = sent(outgoing(game_id=None, game_name=None, player_id=None, kind="notice"))

    assert message["Reply-To"].addresses[0].addr_spec == "host@warpmail.test"
    assert message["Subject"] == "Turn 5 results"
    assert "X-WarpMail-Game" not in message


def test_subject_gets_the_game_prefix_once() -> None:
    assert sent(outgoing())["Subject"] == "[WarpWar g1] Turn 5 results"
    assert sent(outgoing(subject="Re: [WarpWar g1] orders"))["Subject"] == "Re: [WarpWar g1] orders"


def test_a_mail_is_prefixed_with_its_own_games_name() -> None:
    message = sent(outgoing(game_name="Lighter Than Air Warfare"))

    assert message["Subject"] == "[Lighter Than Air Warfare g1] Turn 5 results"
    assert message["Reply-To"].addresses[0].display_name == "Lighter Than Air Warfare g1"
    assert message["Thread-Topic"] == "Lighter Than Air Warfare g1"


@pytest.mark.parametrize(
    "changes",
    [
        {"game_name": None},  # a game's mail with no name for it
        {"game_id": None},  # a name with no game
    ],
)
def test_a_games_mail_must_name_its_game_and_only_a_games(changes: dict[str, object]) -> None:
    with pytest.raises(ValidationError, match="names its game"):
        outgoing(**changes)


def test_the_games_name_has_no_default() -> None:
    fields = outgoing().model_dump(exclude={"game_name"})
    with pytest.raises(ValidationError, match="game_name"):
        OutgoingMail.model_validate(fields)


def test_subject_line_breaks_never_reach_the_header() -> None:
    message = sent(outgoing(subject="Re: orders\r\nBcc: everyone@example.org"))

    assert message["Subject"] == "[WarpWar g1] Re: orders Bcc: everyone@example.org"
    assert "Bcc" not in message


def test_non_ascii_names_and_subject_are_encoded_and_read_back() -> None:
    # Given a player named Zoë and a subject with accents and a dash
    mail = outgoing(to="Zoë Ångström <zoe@example.org>", subject="Tour 5 — résultats de Zoë")

    raw = compose(mail, SENDER, DOMAIN, now=NOW).as_bytes()
    message = sent(mail)

    # Then the raw message is 7-bit and clients decode the words
    raw.decode("ascii")
    assert message["To"].addresses[0].display_name == "Zoë Ångström"
    assert message["Subject"] == "[WarpWar g1] Tour 5 — résultats de Zoë"


def test_non_ascii_body_and_filename_round_trip() -> None:
    report = Attachment(filename="Zoë.json", content_type="application/json", data=b"{}")

    message = sent(outgoing(text="Zoë's fleet: 3 Warpships\n", attachments=(report,)))

    assert text_of(message.get_body(preferencelist=("plain",))) == "Zoë's fleet: 3 Warpships\n"
    assert next(message.iter_attachments()).get_filename() == "Zoë.json"


def test_message_id_is_in_our_domain_and_the_same_mail_composes_to_the_same_bytes() -> None:
    first, again, other = sent(outgoing()), sent(outgoing()), sent(outgoing(text="Turn 6\n"))

    assert first["Message-ID"].endswith("@warpmail.test>")
    assert first.as_bytes() == again.as_bytes()
    assert first["Message-ID"] != other["Message-ID"]
    later = compose(outgoing(), SENDER, DOMAIN, now=NOW + timedelta(minutes=1))
    assert later["Message-ID"] != first["Message-ID"]


def test_a_claim_key_makes_the_message_id_whatever_the_mail_says() -> None:
    keyed = [compose(outgoing(text=t), SENDER, DOMAIN, now=NOW, key="k/1") for t in ("a", "b")]
    other = compose(outgoing(), SENDER, DOMAIN, now=NOW, key="k/2")

    assert keyed[0]["Message-ID"] == keyed[1]["Message-ID"] != other["Message-ID"]


def test_date_is_the_time_given() -> None:
    assert sent(outgoing())["Date"].datetime == NOW


@pytest.mark.parametrize(
    ("kind", "in_reply_to", "auto_submitted"),
    [("ack", "<orders@example.org>", "auto-replied"), ("notice", "<help@example.org>", "auto-replied"),
     ("results", None, "auto-generated"), ("combat", None, "auto-generated"),
     ("notice", None, "auto-generated"), ("relay", None, "auto-generated")],
)  # fmt: skip
def test_every_mail_is_marked_automatic(kind: MailKind, in_reply_to: str | None, auto_submitted: str) -> None:
    message = sent(outgoing(kind=kind, in_reply_to=in_reply_to))

    assert message["Auto-Submitted"] == auto_submitted
    assert message["X-Auto-Response-Suppress"] == "All"
    assert message["X-WarpMail-Kind"] == kind
    assert message["X-WarpMail-Game"] == "g1"
    assert "Precedence" not in message


# --- Threads ---


def test_all_mail_of_a_game_to_a_player_refers_to_one_root() -> None:
    # Given an acknowledgement, a results mail and a combat mail for Red in game g1
    kinds: tuple[MailKind, ...] = ("ack", "results", "combat")
    messages = [sent(outgoing(kind=kind)) for kind in kinds]

    # Then each refers to the same root, and Outlook sees one conversation
    root = thread_root(outgoing(), DOMAIN)
    assert {message["References"] for message in messages} == {root}
    assert {message["In-Reply-To"] for message in messages} == {root}
    assert {message["Thread-Topic"] for message in messages} == {"WarpWar g1"}
    assert len({_thread_guid(message) for message in messages}) == 1


def test_other_players_and_games_have_other_threads() -> None:
    red = sent(outgoing())
    blue = sent(outgoing(player_id="Blue"))
    other_game = sent(outgoing(game_id="g2"))

    assert len({red["References"], blue["References"], other_game["References"]}) == 3
    assert len({_thread_guid(red), _thread_guid(blue), _thread_guid(other_game)}) == 3


def test_an_acknowledgement_answers_the_players_mail_within_the_thread() -> None:
    message = sent(outgoing(kind="ack", in_reply_to="<CAB+x1@mail.gmail.com>"))

    assert message["In-Reply-To"] == "<CAB+x1@mail.gmail.com>"
    assert message["References"].split() == [thread_root(outgoing(), DOMAIN), "<CAB+x1@mail.gmail.com>"]


def test_a_message_id_without_brackets_is_bracketed() -> None:
    assert sent(outgoing(in_reply_to="abc@example.org"))["In-Reply-To"] == "<abc@example.org>"


@pytest.mark.parametrize("hostile", ["<a@b>\r\nBcc: x@example.org", "not an id", "<a@b> <c@d>", ""])
def test_a_player_message_id_that_is_not_one_is_ignored(hostile: str) -> None:
    message = sent(outgoing(kind="ack", in_reply_to=hostile))

    assert message["In-Reply-To"] == thread_root(outgoing(), DOMAIN)
    assert "Bcc" not in message


def test_thread_index_is_an_outlook_header_block() -> None:
    index = base64.b64decode(str(sent(outgoing())["Thread-Index"]))

    assert len(index) == 22
    assert index[0] == 1


def _thread_guid(message: EmailMessage) -> bytes:
    return base64.b64decode(str(message["Thread-Index"]))[6:]


# --- Lines ---


def test_long_lines_are_wrapped_by_quoted_printable() -> None:
    mail = outgoing(text="x" * 5000 + "\n" + "é" * 3000 + "\n", html="<p>" + "y" * 5000 + "</p>")

    raw = compose(mail, SENDER, DOMAIN, now=NOW).as_bytes()

    assert max(len(line) for line in raw.split(b"\r\n")) <= 78
    assert text_of(sent(mail).get_body(preferencelist=("plain",))) == mail.text


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(exclude_categories=["Cs"]), max_size=3000))
def test_any_text_round_trips_with_no_line_over_998_octets(text: str) -> None:
    mail = outgoing(text=text)

    raw = compose(mail, SENDER, DOMAIN, now=NOW).as_bytes()

    assert max(len(line) for line in raw.split(b"\r\n")) <= 998
    expected = text.replace("\r\n", "\n").replace("\r", "\n")
    assert text_of(sent(mail).get_body(preferencelist=("plain",))) == (
        expected if expected.endswith("\n") else expected + "\n"
    )


# --- Addresses ---


def test_game_address_is_the_game_id_at_the_domain() -> None:
    assert game_address("g1", DOMAIN) == "g1@warpmail.test"
    assert host_address(DOMAIN) == "host@warpmail.test"


@pytest.mark.parametrize(
    ("address", "game"),
    [
        ("g1@warpmail.test", "g1"),
        ("G1@WarpMail.Test", "g1"),
        ("WarpWar g1 <g1@warpmail.test>", "g1"),
        ("g1+orders@warpmail.test", "g1"),
        ("host@warpmail.test", None),
        ("postmaster@warpmail.test", None),
        ("g1@elsewhere.example", None),
        ("g1@sub.warpmail.test", None),
        ("not an address", None),
        ("", None),
        ("g.1@warpmail.test", None),
    ],
)
def test_game_from_address(address: str, game: str | None) -> None:
    assert game_from_address(address, DOMAIN) == game


@pytest.mark.parametrize("game_id", ["host", "postmaster", "G1", "g 1", "", "-g1", "g" * 65, "zoë"])
def test_a_game_id_that_cannot_be_an_address_is_refused(game_id: str) -> None:
    assert not valid_game_id(game_id)
    with pytest.raises(ValueError, match="cannot be a mail address"):
        game_address(game_id, DOMAIN)


@given(st.from_regex(r"[a-z0-9][a-z0-9_-]{0,63}", fullmatch=True).filter(lambda id: id not in RESERVED))
def test_game_address_and_game_from_address_are_inverse(game_id: str) -> None:
    assert game_from_address(game_address(game_id, DOMAIN), DOMAIN) == game_id


def test_a_recipient_that_is_no_address_is_refused() -> None:
    with pytest.raises(ValueError, match="not a mail address"):
        compose(outgoing(to="Zoë"), SENDER, DOMAIN)
