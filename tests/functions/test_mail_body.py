"""Reading a raw e-mail into the plain text its orders are parsed from (functions/mail/body.py)."""

from __future__ import annotations

import base64
import inspect
import quopri
import sys
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from functions.mail import limits
from functions.mail.body import (
    ATTACHMENT_READ,
    BROKEN_RAW,
    BROKEN_RECOVERED,
    NO_TEXT,
    NOT_AS_DECLARED,
    TEXT_CUT,
    TOO_COMPLEX,
    UNKNOWN_CHARSET,
    UNREADABLE,
    html_text,
    order_text,
    plain_header_text,
    read_message,
    sender,
    subject,
    unflow,
)

# --- Builders ---


def mail(body: bytes | str, *headers: str, eol: str = "\n") -> bytes:
    """A raw message: the given header lines, From/To/Subject unless given, a blank line, the body."""
    names = {header.split(":", 1)[0].lower() for header in headers}
    defaults = [
        f"{name}: {value}"
        for name, value in (
            ("From", "Ana <ana@example.org>"),
            ("To", "wm-7@warpmail.example"),
            ("Subject", "orders"),
        )
        if name.lower() not in names
    ]
    head = eol.join([*defaults, *headers]) + eol + eol
    data = body.encode("utf-8") if isinstance(body, str) else body
    return head.encode("utf-8") + data


def text_part(body: bytes | str, content_type: str = "text/plain; charset=utf-8", *extra: str) -> str:
    data = body if isinstance(body, str) else body.decode("ascii")
    return "\n".join([f"Content-Type: {content_type}", *extra, "", data])


def multipart(kind: str, *parts: str, boundary: str = "b0undary", declared: str | None = None) -> bytes:
    body = "".join(f"--{boundary}\n{part}\n" for part in parts) + f"--{boundary}--\n"
    return mail(
        body, "MIME-Version: 1.0", f'Content-Type: multipart/{kind}; boundary="{declared or boundary}"'
    )


ORDERS = "GAME wm-7\nPLAYER P1\nTURN 3\nMOVE W1 WARP Erech\nEND\n"


# --- Choosing the part ---


def test_plain_alternative_is_read_before_the_html_one() -> None:
    raw = multipart("alternative", text_part(ORDERS), text_part("<p>GAME other</p>", "text/html"))

    body = order_text(raw)

    assert (body.text, body.content_type, body.problems) == (ORDERS, "text/plain", ())


def test_empty_plain_alternative_falls_back_to_the_html_one() -> None:
    raw = multipart(
        "alternative", text_part(" \n\n"), text_part("<div>GAME wm-7</div><div>END</div>", "text/html")
    )

    body = order_text(raw)

    assert (body.text, body.content_type) == ("GAME wm-7\nEND\n", "text/html")


def test_html_alternative_is_read_when_preferred() -> None:
    raw = multipart("alternative", text_part(ORDERS), text_part("<p>GAME other</p>", "text/html"))

    assert order_text(raw, prefer=("html", "plain")).text == "GAME other\n"


def test_text_part_is_read_and_attachments_beside_it_are_not() -> None:
    raw = multipart(
        "mixed",
        text_part("GAME old\nEND\n", "text/plain", 'Content-Disposition: attachment; filename="old.txt"'),
        text_part(ORDERS),
        text_part("iVBORw0KGgo=", "image/png", "Content-Transfer-Encoding: base64"),
    )

    assert order_text(raw).text == ORDERS


def test_orders_attached_as_a_text_file_are_read_when_the_body_has_no_text() -> None:
    raw = multipart(
        "mixed",
        text_part("  \n"),
        text_part(ORDERS, "text/plain", 'Content-Disposition: attachment; filename="orders.txt"'),
    )

    body = order_text(raw)

    assert body.text == ORDERS
    assert body.problems == (ATTACHMENT_READ.format(name="orders.txt"),)


def test_mail_with_only_a_picture_has_no_text_and_says_so() -> None:
    raw = multipart("mixed", text_part("iVBORw0KGgo=", "image/png", "Content-Transfer-Encoding: base64"))

    assert order_text(raw).model_dump() == {"text": "", "content_type": "", "problems": (NO_TEXT,)}


def test_empty_input_has_no_text_and_says_so() -> None:
    assert order_text(b"").problems == (NO_TEXT,)


def test_a_parsed_message_is_read_as_its_bytes_would_be() -> None:
    raw = multipart("alternative", text_part(ORDERS), text_part("<p>x</p>", "text/html"))

    assert order_text(read_message(raw)) == order_text(raw)


# --- Transfer encodings, charsets, line endings ---


def test_base64_utf8_body_is_decoded() -> None:
    encoded = base64.encodebytes("PLAYER Zoë Ångström\n".encode()).decode()
    raw = mail(encoded, "Content-Type: text/plain; charset=UTF-8", "Content-Transfer-Encoding: base64")

    assert order_text(raw).text == "PLAYER Zoë Ångström\n"


def test_quoted_printable_soft_breaks_are_joined() -> None:
    raw = mail(
        "MOVE W1 0707 0708 0709 WARP Adab PICKUP S2 WARP Byblos DROP S2 WARP Adab =\nWARP Khafa=20\nEND\n",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
    )

    assert (
        order_text(raw).text
        == "MOVE W1 0707 0708 0709 WARP Adab PICKUP S2 WARP Byblos DROP S2 WARP Adab WARP Khafa \nEND\n"
    )


def test_windows_1252_labelled_iso_8859_1_keeps_its_smart_quotes_and_dashes() -> None:
    """Outlook labels Windows-1252 text iso-8859-1; browsers read the label as Windows-1252."""
    raw = mail(
        "# it\x92s \x93done\x94 \x97 W1\n".encode("latin-1"), "Content-Type: text/plain; charset=iso-8859-1"
    )

    assert order_text(raw).text == "# it\u2019s \u201cdone\u201d \u2014 W1\n"


def test_undeclared_8bit_text_is_read_as_utf8_when_it_is_valid_utf8() -> None:
    raw = mail("PLAYER Zoë\n".encode(), "Subject: x")

    assert order_text(raw).model_dump() == {
        "text": "PLAYER Zoë\n",
        "content_type": "text/plain",
        "problems": (),
    }


def test_undeclared_8bit_text_that_is_not_utf8_is_read_as_windows_1252() -> None:
    raw = mail("# Ur\u2019s fleet \u2013 out\n".encode("cp1252"))

    assert order_text(raw).text == "# Ur\u2019s fleet \u2013 out\n"


def test_us_ascii_label_on_8bit_text_is_overruled_by_what_the_bytes_are() -> None:
    raw = mail("caf\xe9\n".encode("cp1252"), "Content-Type: text/plain; charset=us-ascii")

    assert order_text(raw).text == "café\n"


def test_windows_1252_bytes_it_leaves_undefined_are_kept_as_their_code_points() -> None:
    raw = mail(b"a\x81b\x9dc\n", "Content-Type: text/plain; charset=windows-1252")

    assert order_text(raw).text == "a\x81b\x9dc\n"


def test_text_declared_utf8_that_is_not_is_read_as_windows_1252_with_a_warning() -> None:
    raw = mail(b"caf\xe9 \x96 W1\n", "Content-Type: text/plain; charset=utf-8")

    body = order_text(raw)

    assert body.text == "café \u2013 W1\n"
    assert body.problems == (NOT_AS_DECLARED.format(charset="utf-8", used="Windows-1252"),)


def test_unknown_charset_is_read_as_utf8_and_said() -> None:
    raw = mail("Zoë\n".encode(), "Content-Type: text/plain; charset=klingon")

    body = order_text(raw)

    assert body.text == "Zoë\n"
    assert body.problems == (UNKNOWN_CHARSET.format(charset="klingon", used="UTF-8"),)


def test_python_only_codec_names_are_not_charsets() -> None:
    raw = mail(b"GAME \\u0041\n", "Content-Type: text/plain; charset=unicode_escape")

    body = order_text(raw)

    assert body.text == "GAME \\u0041\n"
    assert body.problems == (UNKNOWN_CHARSET.format(charset="unicode_escape", used="UTF-8"),)


def test_other_declared_charsets_are_honoured() -> None:
    raw = mail("PLAYER Žofie\n".encode("iso-8859-2"), "Content-Type: text/plain; charset=iso-8859-2")

    assert order_text(raw).text == "PLAYER Žofie\n"


def test_crlf_and_lone_cr_line_endings_become_newlines() -> None:
    raw = mail(b"GAME wm-7\r\nTURN 3\rEND\r\n", "Content-Type: text/plain", eol="\r\n")

    assert order_text(raw).text == "GAME wm-7\nTURN 3\nEND\n"


def test_tabs_and_nbsp_in_plain_text_are_left_for_the_order_language() -> None:
    raw = mail("MOVE\tW1\u00a00707\n", "Content-Type: text/plain; charset=utf-8")

    assert order_text(raw).text == "MOVE\tW1\u00a00707\n"


# --- format=flowed (RFC 3676) ---


def test_flowed_lines_ending_in_a_space_join_the_next_line() -> None:
    flowed = "MOVE W3 0707 0708 0709 WARP Adab \nPICKUP S2\nEND\n"
    raw = mail(flowed, "Content-Type: text/plain; charset=utf-8; format=flowed")

    assert order_text(raw).text == "MOVE W3 0707 0708 0709 WARP Adab PICKUP S2\nEND\n"


def test_flowed_delsp_removes_the_space_the_sender_added() -> None:
    assert unflow("MOVE W3 07 \n07 0708\n", delsp=True) == "MOVE W3 0707 0708\n"


def test_flowed_signature_separator_is_never_joined() -> None:
    assert unflow("END\n-- \nAna\n") == "END\n-- \nAna\n"


def test_flowed_space_stuffing_is_removed_and_quote_depth_kept() -> None:
    assert unflow(">> GAME wm-7\n> quoted \n> more\n From me\n") == ">> GAME wm-7\n> quoted more\nFrom me\n"


def test_flowed_line_before_a_change_of_quote_depth_ends_there() -> None:
    assert unflow("> quoted \nmine\n") == "> quoted \nmine\n"


def test_text_not_marked_flowed_keeps_its_trailing_spaces() -> None:
    raw = mail("MOVE W1 \n0707\n", "Content-Type: text/plain; charset=utf-8")

    assert order_text(raw).text == "MOVE W1 \n0707\n"


# --- HTML ---


def test_html_block_elements_and_br_break_lines() -> None:
    html = "<div>GAME wm-7</div><div>PLAYER P1<br>TURN 3</div><p>MOVE W1</p><ul><li>END</li></ul>"

    assert html_text(html) == "GAME wm-7\nPLAYER P1\nTURN 3\nMOVE W1\nEND\n"


def test_html_empty_div_with_br_is_a_blank_line() -> None:
    assert html_text("<div>a</div><div><br></div><div>b</div>") == "a\n\nb\n"


def test_html_whitespace_collapses_and_nbsp_becomes_a_space() -> None:
    html = "<div>\n  MOVE&nbsp;W2&nbsp;&nbsp;2122\n   2022\t</div>"

    assert html_text(html) == "MOVE W2 2122 2022\n"


def test_html_inline_elements_do_not_break_lines() -> None:
    assert (
        html_text("<div><span>STANDING W1 </span><b>DODGE</b>: <i>D=3</i></div>")
        == "STANDING W1 DODGE: D=3\n"
    )


def test_html_entities_are_unescaped() -> None:
    assert (
        html_text("<p>&lt;orders&gt; &amp; Zo&euml; &#8212; &#x2019;</p>") == "<orders> & Zoë \u2014 \u2019\n"
    )


def test_html_blockquote_lines_get_one_quote_marker_per_depth() -> None:
    html = (
        "<div>mine</div><blockquote type='cite'>On Monday WarpMail wrote:<br>"
        "<blockquote type='cite'>GAME wm-7<br><br>END</blockquote>after</blockquote><div>me again</div>"
    )

    assert (
        html_text(html)
        == "mine\n> On Monday WarpMail wrote:\n> > GAME wm-7\n> >\n> > END\n> after\nme again\n"
    )


def test_html_head_style_and_script_are_dropped() -> None:
    html = (
        "<html><head><title>Turn 3</title><style>p {color: red}</style></head>"
        "<body><script>var a = '<p>GAME x</p>';</script><p>GAME wm-7</p></body></html>"
    )

    assert html_text(html) == "GAME wm-7\n"


def test_html_comments_and_outlook_conditionals_are_dropped() -> None:
    html = "<!--[if gte mso 9]><xml><o:shapedefaults/></xml><![endif]--><p class=MsoNormal>END<o:p></o:p></p>"

    assert html_text(html) == "END\n"


def test_html_head_left_open_does_not_swallow_the_body() -> None:
    assert html_text("<html><head><meta charset=utf-8><body><div>GAME wm-7</div>") == "GAME wm-7\n"


def test_html_pre_keeps_its_lines_and_spacing() -> None:
    assert html_text("<pre>MOVE  W1\n\tW2\n</pre><p>x</p>") == "MOVE  W1\n\tW2\nx\n"


def test_html_table_cells_are_separated_and_rows_are_lines() -> None:
    assert html_text("<table><tr><td>LOAD</td><td>W1</td><td>4</td></tr><tr><td>END</td></tr></table>") == (
        "LOAD W1 4\nEND\n"
    )


def test_html_self_closing_br_breaks_a_line() -> None:
    assert html_text("GAME wm-7<br/>END<br />") == "GAME wm-7\nEND\n"


def test_html_part_charset_is_taken_from_its_meta_tag_when_mime_gives_none() -> None:
    html = '<html><head><meta charset="windows-1252"></head><body>it\x92s</body></html>'.encode("latin-1")
    raw = mail(html, "Content-Type: text/html")

    assert order_text(raw).text == "it\u2019s\n"


def test_html_in_quoted_printable_windows_1252_is_decoded_then_converted() -> None:
    html = "<p class=MsoNormal>MOVE W1 \u2014 go<o:p></o:p></p>".encode("cp1252")
    raw = mail(
        quopri.encodestring(html),
        'Content-Type: text/html; charset="windows-1252"',
        "Content-Transfer-Encoding: quoted-printable",
    )

    assert order_text(raw).text == "MOVE W1 \u2014 go\n"


# --- Malformed MIME ---


def test_multipart_whose_declared_boundary_is_not_used_is_split_by_the_one_used() -> None:
    raw = multipart("alternative", text_part(ORDERS), boundary="abc.123", declared="abc")

    body = order_text(raw)

    assert body.text == ORDERS
    assert body.problems == (BROKEN_RECOVERED,)


def test_multipart_without_any_boundary_is_read_whole_as_text() -> None:
    raw = mail(ORDERS, "MIME-Version: 1.0", "Content-Type: multipart/mixed")

    body = order_text(raw)

    assert body.text == ORDERS
    assert body.problems == (BROKEN_RAW,)


def test_broken_multipart_nested_inside_another_is_mended_too() -> None:
    inner = f'Content-Type: multipart/alternative; boundary="in"\n\n--inner\n{text_part(ORDERS)}\n--inner--\n'
    raw = multipart("mixed", inner)

    body = order_text(raw)

    assert body.text == ORDERS
    assert body.problems == (BROKEN_RECOVERED,)


def test_mending_a_broken_message_leaves_the_callers_message_unchanged() -> None:
    message = read_message(multipart("alternative", text_part(ORDERS), boundary="abc.123", declared="abc"))
    before = message.as_bytes()

    order_text(message)

    assert message.as_bytes() == before
    assert not message.is_multipart()


def test_multipart_without_closing_boundary_is_read() -> None:
    raw = multipart("alternative", text_part(ORDERS)).removesuffix(b"--b0undary--\n")

    assert order_text(raw).text == ORDERS


def test_truncated_base64_never_raises() -> None:
    raw = mail("R0FNRSB3bS03CkVORAo", "Content-Type: text/plain", "Content-Transfer-Encoding: base64")

    assert order_text(raw).text.startswith("GAME wm-7")


def test_header_lines_without_a_blank_line_are_read_as_the_body() -> None:
    assert "GAME wm-7" in order_text(b"From: a@b.c\nGAME wm-7\nEND\n").text


def test_multiparts_nested_beyond_the_cap_are_refused_before_parsing() -> None:
    """10,000 levels: the stdlib would overflow its stack at about 700."""
    nested = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (depth, depth)
        for depth in range(10_000)
    )
    body = order_text(nested + b"Content-Type: text/plain\n\nGAME wm-7\n")

    why = f"MIME parts nested more than {limits.MAX_DEPTH} deep"
    assert (body.text, body.problems) == ("", (TOO_COMPLEX.format(why=why),))


def test_a_parsed_message_nested_beyond_what_the_reader_can_follow_is_answered_not_raised() -> None:
    """A parsed message is not checked again: a RecursionError reading it is still an answer
    (the recursion limit is lowered to keep this fast)."""
    nested = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (depth, depth) for depth in range(200)
    )
    parsed = read_message(nested + b"Content-Type: text/plain\n\nGAME wm-7\n")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 150)
    try:
        body = order_text(parsed)
    finally:
        sys.setrecursionlimit(limit)

    assert (body.text, body.problems) == ("", (UNREADABLE.format(error="RecursionError"),))


# --- Sender and subject ---


def test_sender_is_the_bare_address_lower_cased() -> None:
    assert sender(mail("x", "From: =?UTF-8?B?Wm/DqyDDhW5nc3Ryw7Zt?= <Zoe.Angstrom@iCloud.COM>")) == (
        "zoe.angstrom@icloud.com"
    )


def test_sender_in_the_old_comment_form_is_read() -> None:
    assert sender(mail("x", "From: bill@contoso.example (Bill Harper)")) == "bill@contoso.example"


def test_sender_is_none_without_a_from_address() -> None:
    assert sender(b"To: a@b.c\n\nx") is None
    assert sender(mail("x", "From: Ana Costa")) is None


def test_a_from_header_the_parser_finds_defects_in_names_nobody() -> None:
    """No regex over the raw header reads an address the parser would not (see also
    tests/functions/test_sender_identity.py)."""
    assert sender(b'From: <<>>@@ ,,, "Ana" <ana@example.org\nSubject: x\n\nbody') is None


def test_subject_encoded_words_are_decoded_and_folding_undone() -> None:
    raw = mail("x", "Subject: Re: =?windows-1252?Q?Orders_=96?=\n turn 6", "From: a@b.c")

    assert subject(raw) == "Re: Orders \u2013 turn 6"


def test_subject_is_empty_when_missing() -> None:
    assert subject(b"From: a@b.c\n\nx") == ""


def test_raw_8bit_subject_is_read_as_utf8() -> None:
    assert subject("Subject: Zoë's turn\n\nx".encode()) == "Zoë's turn"


def test_subject_loses_control_characters_bidi_overrides_and_undecoded_words() -> None:
    raw = "Subject: Orders\x1b[2J \u202egnp.exe\u202c =?utf-8?x?broken?= turn\x85 6\n\nx".encode()

    assert subject(raw) == "Orders[2J gnp.exe turn 6"


@pytest.mark.parametrize(
    ("value", "plain"),
    [
        ("a\tb\r\nc", "a b c"),
        ("\x00\x07\x7f\x9fx", "x"),
        ("left\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u202e\u200e\u200f\u061cright", "leftright"),
        ("line\u2028next\u2029end", "linenextend"),
        ("Re: =?utf-8?q?half", "Re:"),
        ("Zoë — déjà", "Zoë — déjà"),
        ("bad \udcff byte", "bad \ufffd byte"),
    ],
)
def test_plain_header_text_keeps_only_printable_text_on_one_line(value: str, plain: str) -> None:
    assert plain_header_text(value) == plain


# --- The text read is bounded ---


def test_text_beyond_the_cap_is_not_read_and_the_player_is_told() -> None:
    text = "GAME wm-7\n" + "é" * limits.MAX_TEXT_BYTES
    raw = mail(base64.encodebytes(text.encode()), "Content-Type: text/plain; charset=utf-8",
               "Content-Transfer-Encoding: base64")  # fmt: skip

    body = order_text(raw)

    assert body.text.startswith("GAME wm-7\né") and body.text.endswith("é")
    assert len(body.text.encode()) <= limits.MAX_TEXT_BYTES
    assert body.problems == (TEXT_CUT.format(limit=limits.MAX_TEXT_BYTES // 1024),), "UTF-8 kept whole"


def test_the_text_cap_counts_every_part_read() -> None:
    """A blank plain part read first leaves less of the cap for the HTML read after it."""
    html = text_part("<p>GAME wm-7</p>" + "x" * (limits.MAX_TEXT_BYTES // 2), "text/html")
    blank = text_part(" \n" * (limits.MAX_TEXT_BYTES // 4))
    cut = TEXT_CUT.format(limit=limits.MAX_TEXT_BYTES // 1024)

    alone = order_text(multipart("alternative", text_part(""), html))
    after_blank = order_text(multipart("alternative", blank, html))

    assert alone.text.startswith("GAME wm-7") and cut not in alone.problems
    assert after_blank.text.startswith("GAME wm-7") and cut in after_blank.problems
    assert len(after_blank.text) < len(alone.text)


# --- Fuzzing ---

CHARSETS = ("utf-8", "windows-1252", "iso-8859-1", "us-ascii", "iso-8859-15", "koi8-r")
ENCODINGS = ("7bit", "8bit", "quoted-printable", "base64")


def normalised(text: str) -> str:
    """What a text becomes through MIME: newlines as \\n, ending in a newline."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def repertoire(charset: str, encoding: str) -> st.SearchStrategy[str]:
    """The characters a text in ``charset`` can hold (C1 controls excepted in Latin-1, which is
    read as Windows-1252: see the module doc; a leading BOM is a charset mark, not text)."""
    if encoding == "7bit" or charset == "us-ascii":
        return st.characters(max_codepoint=127)
    if charset == "utf-8":
        return st.characters(exclude_categories=["Cs"], exclude_characters="\ufeff")
    chars = bytes(range(256)).decode(charset, errors="ignore")
    if charset == "iso-8859-1":
        chars = "".join(char for char in chars if not "\x80" <= char <= "\x9f")
    return st.sampled_from(sorted(set(chars)))


@st.composite
def mime_texts(draw: st.DrawFn) -> tuple[str, str, str]:
    charset = draw(st.sampled_from(CHARSETS))
    encoding = draw(st.sampled_from(ENCODINGS))
    return draw(st.text(repertoire(charset, encoding), max_size=300)), charset, encoding


@settings(max_examples=200, deadline=None)
@given(sent=mime_texts())
def test_any_text_sent_in_any_charset_and_transfer_encoding_reads_back_the_same(
    sent: tuple[str, str, str],
) -> None:
    text, charset, encoding = sent
    message = EmailMessage()
    message["From"] = "ana@example.org"
    message.set_content(text, charset=charset, cte=encoding)

    body = order_text(message.as_bytes())

    if normalised(text).strip():
        assert (body.text, body.problems) == (normalised(text), ())
    else:
        assert (body.text, body.problems) == ("", (NO_TEXT,))


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=3000))
def test_arbitrary_bytes_never_make_the_reader_raise(raw: bytes) -> None:
    body = order_text(raw)

    assert body.text or body.problems
    assert isinstance(sender(raw), str | None)
    assert isinstance(subject(raw), str)


MIME_BITS = st.sampled_from(
    [
        b"Content-Type: multipart/mixed; boundary=x\n",
        b'Content-Type: multipart/alternative; boundary="y"\n',
        b"Content-Type: text/html; charset=klingon\n",
        b"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n",
        b"Content-Transfer-Encoding: base64\n",
        b"Content-Transfer-Encoding: quoted-printable\n",
        b"Content-Disposition: attachment; filename=o.txt\n",
        b"\n",
        b"--x\n",
        b"--y--\n",
        b"--x--\n",
        b"<blockquote><div>GAME wm-7<br>",
        b"</blockquote></pre><pre><head><style>",
        b"> > GAME wm-7\n",
        b"=C3=\n",
        b"\xe9\x92\xff\n",
        b"R0FNRSB3bS03",
        b"From: =?utf-8?q?broken <\n",
        b"Subject: =?klingon?B?###?=\n",
    ]
)


@settings(max_examples=200, deadline=None)
@given(pieces=st.lists(MIME_BITS, max_size=30))
def test_mime_shaped_garbage_never_makes_the_reader_raise(pieces: list[bytes]) -> None:
    raw = b"".join(pieces)

    body = order_text(raw)

    assert body.text or body.problems
    assert isinstance(sender(raw), str | None)
    assert isinstance(subject(raw), str)
