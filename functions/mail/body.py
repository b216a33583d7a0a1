"""From a raw e-mail as received to the plain text an order parser reads.

Players write from Gmail, Outlook, Apple Mail, Thunderbird and phones: quoted replies,
HTML-only mail, base64 and quoted-printable, UTF-8 and Windows-1252, ``format=flowed``,
attachments, and now and then a message whose MIME structure is broken. ``order_text`` turns
any of them into one plain-text body, and never raises: what it could not read is said in
``BodyText.problems`` (so the acknowledgement can tell the player), and the text is as much as
could be recovered, or empty.

Why ``order_text`` answers a ``BodyText`` rather than a bare string: an empty body is not an
answer by itself ("you sent no text" and "we could not read your mail" need different replies),
and a body read with a guessed charset or from a broken multipart deserves a warning even when
the orders in it parse.

Choices, each for a reason met in real mail:

* The text/plain alternative is read when it holds any text; an empty one (some clients send
  an empty plain part beside the real HTML) falls back to the HTML alternative; a body with
  no text at all falls back to a text/plain attachment (a player who attaches ``orders.txt``).
* HTML becomes text the way a reader sees it: block elements and ``<br>`` break lines,
  ``<blockquote>`` lines get one ``> `` per nesting depth (a reply typed into the quoted orders
  sheet keeps its quote markers, which the order language understands), entities are
  unescaped, ``<head>``, ``<style>`` and ``<script>`` are dropped.
* Charsets: the declared one is used. The labels us-ascii, iso-8859-1 and windows-1252 are
  read as Windows-1252 (as browsers do, WHATWG Encoding: Outlook labels Windows-1252 text with
  smart quotes and dashes ``iso-8859-1``). Undeclared or us-ascii text with 8-bit bytes is read
  as UTF-8 when it is valid UTF-8, else as Windows-1252. Declared UTF-8 that is not valid UTF-8
  is read as Windows-1252.
* ``format=flowed`` (RFC 3676; Apple Mail, Thunderbird) is unwrapped, so an order line the
  client wrapped is one line again.
* Line endings become ``\\n``; nothing else is changed in plain text (tabs, NBSP and smart
  dashes are the order language's to normalise, and its line numbers count these lines).
"""

from __future__ import annotations

import codecs
import copy
import email
import re
from collections import Counter
from collections.abc import Sequence
from email import policy
from email.header import decode_header, make_header
from email.message import EmailMessage, MIMEPart
from html.parser import HTMLParser
from typing import Literal

from pydantic import BaseModel, ConfigDict

from functions.mail import limits

NO_TEXT = "The mail has no text: write your orders as plain text in the body of the mail."
UNREADABLE = "The mail could not be read as an e-mail message ({error})."
BROKEN_RECOVERED = (
    "The mail's MIME structure is broken (its parts' boundary does not match the one declared); "
    "its parts were found by the boundary actually used."
)
BROKEN_RAW = (
    "The mail's MIME structure is broken (no part boundary found); its whole body was read as plain text."
)
ATTACHMENT_READ = "The mail body holds no text; the orders were read from the attached file {name!r}."
UNKNOWN_CHARSET = "The text is declared as charset {charset!r}, which is unknown; it was read as {used}."
NOT_AS_DECLARED = "The text is not valid {charset} as declared; it was read as {used}."
TOO_COMPLEX = "The mail's structure is too complex to read: {why}."
TEXT_CUT = "The mail's text is longer than {limit} KB: only its first {limit} KB were read."

TextKind = Literal["plain", "html"]
WINDOWS_1252 = "Windows-1252"
LATIN_LABELS = frozenset({"iso8859-1", "cp1252"})
"""Labels read as Windows-1252 (codec names after ``codecs.lookup``)."""
NOT_CHARSETS = frozenset({"unicode-escape", "raw-unicode-escape", "idna", "punycode", "undefined", "charmap"})
"""Python codecs that no mail client means by a charset label."""


class BodyText(BaseModel):
    """The plain text of a mail's body, and what went wrong reading it."""

    model_config = ConfigDict(frozen=True)

    text: str
    content_type: str = ""
    """The part read: "text/plain", "text/html"; "" when there was none."""
    problems: tuple[str, ...] = ()
    """Each thing that stopped the mail being read exactly as sent, in words for the player."""


def read_message(raw: bytes) -> EmailMessage:
    """Parse a raw message (RFC 5322 bytes) with the stdlib's modern policy."""
    message = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)  # policy.default's message factory
    return message


def order_text(message: bytes | EmailMessage, prefer: Sequence[TextKind] = ("plain", "html")) -> BodyText:
    """The plain text of ``message``'s body, for the order parser; never raises.

    ``prefer``: the alternatives to read, best first (the first with any text is read). Raw
    bytes are checked against the caps of functions/mail/limits.py before they are parsed (a
    parsed message was checked by whoever parsed it); the text read is at most
    ``limits.MAX_TEXT_BYTES`` in all.
    """
    try:
        if not isinstance(message, EmailMessage):
            refusal = limits.check(message)
            if refusal is not None:
                return BodyText(text="", problems=(TOO_COMPLEX.format(why=refusal.why),))
        parsed = message if isinstance(message, EmailMessage) else read_message(message)
        return _body_text(parsed, prefer, _TextBudget())
    except Exception as error:
        # The stdlib's MIME and header parsers are lenient but not total (deep nesting, some
        # malformed headers raise): a player's mail must get an answer, never a crash.
        return BodyText(text="", problems=(UNREADABLE.format(error=type(error).__name__),))


def sender(message: bytes | EmailMessage) -> str | None:
    """The address of the one mailbox in the one ``From`` header, lower-cased; None when the
    header does not name exactly one plain address (the service answers such mail nothing).

    Read with the stdlib's RFC 5322 parser, and refused on any defect it finds, never guessed
    from the raw text nor taken from a display name: the sender is who a player is, and a From
    that two readers could read two ways (two From headers, a group, an address in the display
    name, a quoted local part holding another address, control characters) is from nobody. The
    address must be a plain addr-spec (:data:`PLAIN_ADDRESS`): an ASCII dot-atom local part and a
    host name with at least one dot, no trailing dot. Internationalised domains are accepted in
    their ASCII (``xn--``) form only: a registered address is compared as written, and the same
    domain in two spellings would be two players.
    """
    try:
        parsed = message if isinstance(message, EmailMessage) else read_message(message)
        values = [value for key, value in parsed.raw_items() if key.lower() == "from"]
        if len(values) != 1:
            return None
        value = _unfolded(values[0])
        if CONTROL.search(value):
            return None
        header = policy.default.header_factory("From", value)
        if header.defects or len(header.groups) != 1:
            return None
        [group] = header.groups
        if group.display_name is not None or len(group.addresses) != 1:
            return None
        [address] = group.addresses
        addr_spec = f"{address.username}@{address.domain}"
        if not PLAIN_ADDRESS.fullmatch(addr_spec) or address.addr_spec != addr_spec:
            return None
        name = address.display_name.strip()
        if "@" in name and name.strip("<>\"' ").lower() != addr_spec.lower():
            # A display name that is another address is how a spoofer shows one address and
            # sends from another; a name that is the address itself is what some clients write.
            return None
        return addr_spec.lower()
    except Exception:
        # The header parser is not total on hostile input: such a From names nobody.
        return None


def subject(message: bytes | EmailMessage) -> str:
    """The decoded Subject as plain text (:func:`plain_header_text`); "" when there is none."""
    try:
        parsed = message if isinstance(message, EmailMessage) else read_message(message)
        value = _raw_header(parsed, "Subject")
        if value is None:
            return ""
        try:
            decoded = str(make_header(decode_header(value)))
        except Exception:
            # Broken encoded words: the header as written is the best there is.
            decoded = value
        return plain_header_text(decoded)
    except Exception:
        return ""


def plain_header_text(value: str) -> str:
    """``value`` fit to copy into an outgoing header or the mail log: one line of text.

    Removed: C0 controls (a tab or line break becomes a space) and DEL, C1 controls, the bidirectional
    overrides, embeddings, isolates and marks (a name or subject that reverses the text around
    it, e.g. to show ``cod.exe`` as ``exe.doc``), line and paragraph separators, and encoded
    words left undecoded (``=?utf-8?q?...?=``, which a reader would take for garbage or, worse,
    a mail client would decode in our reply). Unpaired surrogates (undecodable bytes) become
    U+FFFD. Whitespace is collapsed.
    """
    text = SURROGATE.sub("\ufffd", value)
    text = ENCODED_WORD.sub(" ", text.translate(WHITESPACE_CONTROLS))
    return " ".join(CONTROL.sub("", text).split())


PLAIN_ADDRESS = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?",
    re.ASCII,
)
"""A plain addr-spec (RFC 5322 dot-atom local part, RFC 1035 host name with a dot), ASCII only.
Checked on the parser's result, never searched for in raw text."""
WHITESPACE_CONTROLS = {ord("\t"): " ", ord("\r"): " ", ord("\n"): " "}
BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
CONTROL = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{BIDI}\u2028\u2029]")
"""What :func:`plain_header_text` removes, and what makes a From header unreadable: every
control character but the tab (folding whitespace), the bidi controls, line separators."""
SURROGATE = re.compile("[\ud800-\udfff]")
ENCODED_WORD = re.compile(r"=\?[^?\s]*\?[A-Za-z]?\?[^?\s]*(?:\?=|$)")


def _unfolded(value: str) -> str:
    """A raw header value unfolded, its undecodable bytes read as UTF-8 (RFC 6532) or U+FFFD."""
    unfolded = re.sub(r"\r?\n(?=[ \t])", "", str(value))
    return unfolded.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _raw_header(message: EmailMessage, name: str) -> str | None:
    """The first ``name`` header as written (unfolded), without the header parser's model."""
    for key, value in message.raw_items():
        if key.lower() == name.lower():
            return _unfolded(value)
    return None


# --- Choosing the part ---


class _TextBudget:
    """What is left of ``limits.MAX_TEXT_BYTES`` for the parts still to read: decoding is C
    speed, but HTML and ``format=flowed`` are read in Python, so their input is bounded."""

    def __init__(self) -> None:
        self.left = limits.MAX_TEXT_BYTES
        self.cut = False

    def take(self, payload: bytes) -> bytes:
        if len(payload) <= self.left:
            self.left -= len(payload)
            return payload
        kept = _whole_utf8(payload[: self.left])
        self.left, self.cut = 0, True
        return kept

    def problems(self) -> tuple[str, ...]:
        return (TEXT_CUT.format(limit=limits.MAX_TEXT_BYTES // 1024),) if self.cut else ()


def _whole_utf8(cut: bytes) -> bytes:
    """``cut`` without a UTF-8 sequence its end splits (else the whole text would be invalid
    UTF-8, and read as Windows-1252); in a single-byte charset this drops at most 3 characters."""
    for back in range(1, min(4, len(cut)) + 1):
        byte = cut[-back]
        if byte < 0x80:
            return cut
        if byte >= 0xC0:
            length = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return cut if back >= length else cut[:-back]
    return cut


def _body_text(message: MIMEPart, prefer: Sequence[TextKind], budget: _TextBudget) -> BodyText:
    mended, problems = _mend(message)
    for preference in prefer:
        part = mended.get_body(preferencelist=(preference,))
        if part is not None:
            text, read_problems = _part_text(part, budget)
            if text.strip():
                content_type = part.get_content_type()
                return BodyText(
                    text=text,
                    content_type=content_type,
                    problems=problems + read_problems + budget.problems(),
                )
    attached = _text_attachment(mended, budget)
    if attached is not None:
        name, text, read_problems = attached
        found = (ATTACHMENT_READ.format(name=name),)
        return BodyText(
            text=text,
            content_type="text/plain",
            problems=problems + found + read_problems + budget.problems(),
        )
    return BodyText(text="", problems=(*problems, *budget.problems(), NO_TEXT))


def _text_attachment(message: MIMEPart, budget: _TextBudget) -> tuple[str, str, tuple[str, ...]] | None:
    for part in message.walk():
        if isinstance(part, MIMEPart) and part.is_attachment() and part.get_content_type() == "text/plain":
            text, problems = _part_text(part, budget)
            if text.strip():
                return part.get_filename() or "attachment", text, problems
    return None


def _part_text(part: MIMEPart, budget: _TextBudget) -> tuple[str, tuple[str, ...]]:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return "", ()
    payload = budget.take(payload)
    charset = part.get_content_charset()
    if part.get_content_subtype() == "html" and charset is None:
        charset = _meta_charset(payload)
    text, problems = decode_text(payload, charset)
    text = normalise_newlines(text)
    if part.get_content_subtype() == "html":
        return html_text(text), problems
    if str(part.get_param("format", "")).lower() == "flowed":
        text = unflow(text, delsp=str(part.get_param("delsp", "")).lower() == "yes")
    return text, problems


META_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)


def _meta_charset(html: bytes) -> str | None:
    found = META_CHARSET.search(html[:4096])
    return found.group(1).decode("ascii").lower() if found else None


# --- Broken multiparts ---

BOUNDARY_LINE = re.compile(rb"^--([^\s\"]{1,200}?)(?:--)?[ \t]*\r?$", re.MULTILINE)


def _mend(part: MIMEPart) -> tuple[MIMEPart, tuple[str, ...]]:
    """``part`` with every multipart whose boundary was not found re-split, or read as text.

    The stdlib leaves such a multipart's whole body as one string (and ``get_body`` cannot walk
    it). Broken gateways and hand-rolled mailers mostly damage the declared boundary, so the
    boundary the parts actually use (the commonest ``--token`` line) is tried. Only the parts on
    the path to a repair are copied: the caller's message is never changed.
    """
    if part.get_content_maintype() != "multipart":
        return part, ()
    problems: tuple[str, ...] = ()
    if not part.is_multipart():
        recovered = _resplit(part)
        if recovered is None:
            return _as_plain_text(part), (BROKEN_RAW,)
        part, problems = recovered, (BROKEN_RECOVERED,)
    children = part.get_payload()
    assert isinstance(children, list)
    mended = [_mend(child) if isinstance(child, MIMEPart) else (child, ()) for child in children]
    problems += tuple(problem for _, child_problems in mended for problem in child_problems)
    if all(new is old for (new, _), old in zip(mended, children, strict=True)):
        return part, problems
    repaired = copy.copy(part)
    repaired.set_payload([new for new, _ in mended])
    return repaired, problems


def _raw_body(part: MIMEPart) -> bytes:
    """The undecoded body of a part the parser could not split, as the bytes received.

    The parser keeps undecodable bytes as surrogate escapes, but a body may also hold characters
    it decoded itself; UTF-8 with surrogate escapes gives both back."""
    body = part.get_payload()
    if not isinstance(body, str):
        return b""
    try:
        return body.encode("utf-8", "surrogateescape")
    except UnicodeError:
        return body.encode("utf-8", "replace")


def _resplit(part: MIMEPart) -> MIMEPart | None:
    body = _raw_body(part)
    tokens = Counter(found.group(1) for found in BOUNDARY_LINE.finditer(body))
    if not tokens:
        return None
    boundary = tokens.most_common(1)[0][0]
    head = b"Content-Type: " + part.get_content_type().encode("ascii", "replace") + b'; boundary="' + boundary
    raw = head + b'"\n\n' + body
    if limits.check(raw) is not None:
        # The structure found is over the caps the whole mail was checked against: the body is
        # read as text rather than parsed.
        return None
    resplit = read_message(raw)
    return resplit if resplit.is_multipart() else None


def _as_plain_text(part: MIMEPart) -> MIMEPart:
    text = EmailMessage(policy=policy.default)
    text["Content-Type"] = "text/plain"
    # As the parser stores bodies: ASCII, other bytes as surrogate escapes.
    text.set_payload(_raw_body(part).decode("ascii", "surrogateescape"))
    return text


# --- Charsets ---


def decode_text(payload: bytes, charset: str | None) -> tuple[str, tuple[str, ...]]:
    """``payload`` decoded by its declared ``charset`` (None: undeclared), as the module says."""
    codec = _codec(charset)
    if charset is not None and codec is None:
        text, used = _guess(payload)
        return text, (UNKNOWN_CHARSET.format(charset=charset, used=used),)
    if codec is None or codec == "ascii":
        return _guess(payload)[0], ()
    if codec in LATIN_LABELS:
        return _windows_1252(payload), ()
    try:
        return payload.decode(codec), ()
    except UnicodeError:
        pass
    if codec == "utf-8":
        return _windows_1252(payload), (NOT_AS_DECLARED.format(charset=charset, used=WINDOWS_1252),)
    try:
        return payload.decode("utf-8"), (NOT_AS_DECLARED.format(charset=charset, used="UTF-8"),)
    except UnicodeError:
        replaced = payload.decode(codec, errors="replace")
        return replaced, (
            NOT_AS_DECLARED.format(charset=charset, used=f"{charset} (unreadable bytes replaced)"),
        )


def _codec(charset: str | None) -> str | None:
    if not charset:
        return None
    try:
        name = codecs.lookup(charset.strip().strip("\"'")).name
    except (LookupError, ValueError):
        return None
    return None if name in NOT_CHARSETS else name


def _guess(payload: bytes) -> tuple[str, str]:
    try:
        return payload.decode("utf-8"), "UTF-8"
    except UnicodeError:
        return _windows_1252(payload), WINDOWS_1252


def _windows_1252(payload: bytes) -> str:
    """Windows-1252 as browsers read it: the five bytes it leaves undefined map to U+0081..."""
    text = payload.decode("cp1252", errors="surrogateescape")
    return re.sub("[\udc80-\udcff]", lambda byte: chr(ord(byte.group()) - 0xDC00), text)


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --- format=flowed (RFC 3676) ---


def unflow(text: str, delsp: bool = False) -> str:
    """Join the soft-broken lines of a ``format=flowed`` body (RFC 3676 section 4).

    A line ending in a space continues on the next line of the same quote depth; a leading
    space after the quote marks is space-stuffing and removed; ``-- `` (the signature
    separator) is never flowed. Quote marks are kept, as ``>`` per depth and one space.
    """
    lines: list[str] = []
    pending: list[str] = []
    pending_depth = 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        content = content.removeprefix(" ")
        if pending and depth != pending_depth:
            lines.append(_quoted(pending_depth, "".join(pending)))
            pending = []
        if content.endswith(" ") and content != "-- ":
            pending.append(content[:-1] if delsp else content)
            pending_depth = depth
            continue
        lines.append(_quoted(depth, "".join([*pending, content])))
        pending = []
    if pending:
        lines.append(_quoted(pending_depth, "".join(pending)))
    return "\n".join(lines)


def _quoted(depth: int, content: str) -> str:
    marks = ">" * depth
    return f"{marks} {content}" if marks and content else marks + content


# --- HTML ---

BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "center", "dd", "details", "dialog", "div",
        "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
        "h6", "header", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section", "summary",
        "table", "tbody", "tfoot", "thead", "tr", "ul",
    }
)  # fmt: skip
DROPPED = frozenset({"head", "script", "style", "template", "title"})
CELLS = frozenset({"td", "th"})
HTML_SPACE = re.compile(r"[ \t\n\r\f]+")


def html_text(html: str) -> str:
    """The text a reader sees in ``html``, one line per displayed line (see the module doc)."""
    reader = _HtmlReader()
    reader.feed(html)
    reader.close()
    return reader.text()


class _HtmlReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.dropping: list[str] = []
        self.quote_depth = 0
        self.pre_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            # A <head> left open by a careless mailer must not swallow the body.
            self.dropping = [dropped for dropped in self.dropping if dropped not in {"head", "title"}]
        if tag in DROPPED:
            self.dropping.append(tag)
        elif self.dropping:
            return
        elif tag == "br":
            self._end_line(keep_empty=True)
        elif tag in BLOCKS:
            self._end_line()
            if tag == "blockquote":
                self.quote_depth += 1
            if tag == "pre":
                self.pre_depth += 1
        elif tag in CELLS:
            self.line.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <br/>, <hr/>, <div/>: a void element, never an opened block.
        if tag == "br":
            self.handle_starttag(tag, attrs)
        elif not self.dropping and tag in BLOCKS:
            self._end_line()

    def handle_endtag(self, tag: str) -> None:
        if tag in DROPPED:
            if tag in self.dropping:
                del self.dropping[len(self.dropping) - 1 - self.dropping[::-1].index(tag)]
            return
        if self.dropping:
            return
        if tag in BLOCKS:
            self._end_line()
            if tag == "blockquote":
                self.quote_depth = max(0, self.quote_depth - 1)
            if tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)
        elif tag == "br":
            # </br> is read as <br> by browsers.
            self._end_line(keep_empty=True)

    def handle_data(self, data: str) -> None:
        if self.dropping:
            return
        if not self.pre_depth:
            self.line.append(HTML_SPACE.sub(" ", data))
            return
        for index, chunk in enumerate(normalise_newlines(data).split("\n")):
            if index:
                self._end_line(keep_empty=True)
            self.line.append(chunk)

    def _end_line(self, keep_empty: bool = False) -> None:
        content = "".join(self.line).replace("\xa0", " ")
        self.line = []
        content = content.rstrip() if self.pre_depth else re.sub(" {2,}", " ", content).strip()
        if content or keep_empty:
            self.lines.append(_quoted_html(self.quote_depth, content))

    def text(self) -> str:
        self._end_line()
        while self.lines and not self.lines[-1].strip("> "):
            self.lines.pop()
        return "".join(f"{line}\n" for line in self.lines)


def _quoted_html(depth: int, content: str) -> str:
    return ("> " * depth + content).rstrip()
