"""Bounded work on hostile MIME: caps checked on the raw bytes before the stdlib parses a mail.

The stdlib's parser and the code walking its result are recursive and linear at best: a mail of
10 MB (``MAX_MAIL_BYTES``) can hold 100,000 parts, 10,000 nested multiparts (RecursionError),
50,000 headers or one header of 1 MB, each costing seconds or a crash. :func:`check` reads the
structure as the stdlib's feed parser would (the same header-line rule, the same boundary lines,
the same ``Content-Type`` reading through :class:`email.message.Message`), with regular
expressions over the bytes and never a loop over every line, and stops at the first cap
passed; each cap is far above what real mail holds (measured on tests/corpus/: at most 6 parts,
depth 2, 18 header fields, 3 parameters a header; real headers as SES stores them, with
Received, DKIM, ARC and anti-spam lines, are 40 to 80 fields and 5 to 40 KB).

:func:`head` is the part of a refused (or too big) mail that is still read: its top header
block cut at the caps, enough to know its sender, its Message-ID and its verdicts.
"""

from __future__ import annotations

import re
from email.message import Message

from pydantic import BaseModel, ConfigDict

MAX_PARTS = 200
"""MIME parts (every body part, containers included). Real mail: 1 to 10; a forwarded thread
with its photos attached, some dozens."""
MAX_DEPTH = 20
"""Nesting of multiparts and attached messages. Real mail: 3 (mixed > alternative > related);
each forwarded message as an attachment adds 2. The stdlib overflows its stack at about 700."""
MAX_HEADERS = 1000
"""Header fields in the whole mail, parts included. Real mail: 40 to 80 at the top (30
``Received`` at most, ``is_automatic`` calls more a loop) and 2 to 5 a part."""
MAX_HEADER_BYTES = 256 * 1024
"""Bytes of one header block. Real mail: 5 to 40 KB (Microsoft 365's anti-spam headers)."""
MAX_FIELD_BYTES = 64 * 1024
"""Bytes of one header field, folded lines together. Real mail: ``References`` of a long thread
and Microsoft's ``X-Microsoft-Antispam-Message-Info``, under 16 KB."""
MAX_PARAMS = 32
"""Parameters of one MIME header (``Content-Type``, ``Content-Disposition``). Real mail: 1 to 4
(charset, boundary, format, delsp, name), some more when a long file name is split by RFC 2231."""
MAX_TEXT_BYTES = 1024 * 1024
"""Decoded text read from a mail's parts, all together (functions/mail/body.py). Order mails are
a few KB; an HTML reply quoting a long thread some hundreds. Text beyond it is not read."""

NOTICE = (
    "Your mail could not be read: its structure is too complex ({why}). Nothing was submitted. "
    "Orders are plain text: please send them again in a simple mail, without attachments."
)

# A header line as the feed parser sees it (email.feedparser.headerRE); any other line ends the
# header block (an empty one, or body text after a missing blank line).
# Searched from the newline before a line: a literal start lets the regex engine skip ahead.
_NOT_HEADER_LINE = re.compile(rb"\n(?!From |[\041-\071\073-\176]*:|[\t ])")
_NOT_HEADER_FIRST_LINE = re.compile(rb"(?!From |[\041-\071\073-\176]*:|[\t ])")
_FIELD_START = re.compile(rb"^[^ \t\r\n]", re.MULTILINE)
_FIELD = re.compile(rb"^([\041-\071\073-\176]*):([^\n]*(?:\n[ \t][^\n]*)*)", re.MULTILINE)
_PARAMETERISED = frozenset({b"content-type", b"content-disposition"})


class Refusal(BaseModel):
    """Why a mail is not parsed: the cap it passes, in the mail log's words and the sender's."""

    model_config = ConfigDict(frozen=True)

    cap: str
    """The constant's name, e.g. "MAX_PARTS"."""
    why: str
    """e.g. "more than 200 MIME parts"."""

    @property
    def reason(self) -> str:
        return f"mail too complex: {self.why} ({self.cap}): not read"

    @property
    def notice(self) -> str:
        return NOTICE.format(why=self.why)


class _TooComplexError(Exception):
    def __init__(self, cap: str, why: str) -> None:
        super().__init__(why)
        self.refusal = Refusal(cap=cap, why=why)


def check(raw: bytes) -> Refusal | None:
    """The first cap ``raw`` passes, or None when the stdlib may parse it; never raises."""
    try:
        _Scan(raw).run()
        # Lone CRs are looked for only in a mail under the caps as read without them: a
        # hostile mail is refused before that costs a pass over it.
        normalised = _newlines(raw)
        if normalised is not raw:
            _Scan(normalised).run()
    except _TooComplexError as error:
        return error.refusal
    return None


def head(raw: bytes) -> bytes:
    """The top header block of ``raw`` within the caps, the body left out: what is parsed of a
    mail refused before parsing. The first ``MAX_HEADERS`` fields of the first
    ``MAX_HEADER_BYTES``, less any field over a cap (the header parser is slow on those too).
    Lone ``\\r`` are left (the parser may split a field at them): what it reads stays within
    ``MAX_HEADER_BYTES``."""
    end = min(_header_end(raw, 0), MAX_HEADER_BYTES)
    kept: list[bytes] = []
    for field in _FIELD.finditer(raw, 0, end):
        if len(kept) == MAX_HEADERS:
            break
        if len(field.group(2)) <= MAX_FIELD_BYTES and not _too_many_params(field):
            kept.append(field.group(0).rstrip(b"\r") + b"\n")
    return b"".join(kept) + b"\n"


def _too_many_params(field: re.Match[bytes]) -> bool:
    return field.group(1).lower() in _PARAMETERISED and field.group(2).count(b";") > MAX_PARAMS


def _newlines(raw: bytes) -> bytes:
    """``raw`` as the scan reads it. The scan's expressions take ``\\n`` and ``\\r\\n`` (SES
    stores CRLF) alike, without a copy; but the parser also ends a line at a lone ``\\r``, and a
    structure drawn with those must be seen: only then is a copy made, every ending a ``\\n``."""
    if b"\r" not in raw or raw.count(b"\r") == raw.count(b"\r\n"):
        return raw
    return raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def _header_end(raw: bytes, start: int) -> int:
    """Where the header block starting at ``start`` ends (the empty or non-header line that ends
    it); searched no further than the cap, so a longer block ends past the cap."""
    limit = min(len(raw), start + MAX_HEADER_BYTES + 1)
    if _NOT_HEADER_FIRST_LINE.match(raw, start, limit):
        return start
    found = _NOT_HEADER_LINE.search(raw, start, limit)
    if found is None:
        return limit if limit < len(raw) else len(raw)
    return found.start() + 1


class _Scan:
    """One pass over a raw mail: the top header block, then each boundary line of the open
    multiparts (one regular expression for all of them, as the feed parser also ends an inner
    multipart at an outer one's boundary), and each part's header block."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.parts = 1
        self.headers = 0
        self.open: list[tuple[bytes, int, bool]] = []
        """The open multiparts, outermost first: (boundary, depth, is a digest)."""
        self._patterns: dict[tuple[bytes, ...], re.Pattern[bytes]] = {}

    def run(self) -> None:
        end, content_type = self.header_block(0)
        self.enter(content_type, end, depth=0)
        position = end
        while self.open:
            found = self.boundary_pattern().search(self.raw, max(position - 1, 0))
            if found is None:
                return
            boundary, closing = found.group(1), bool(found.group(2))
            level = max(i for i, (open_boundary, _, _) in enumerate(self.open) if open_boundary == boundary)
            _, depth, digest = self.open[level]
            del self.open[level + (1 if not closing else 0) :]
            position = found.end()
            if closing:
                continue
            self.parts += 1
            if self.parts > MAX_PARTS:
                raise _TooComplexError("MAX_PARTS", f"more than {MAX_PARTS} MIME parts")
            end, content_type = self.header_block(position + 1)
            default = "message/rfc822" if digest else "text/plain"
            position = self.enter(content_type or _default_type(default), end, depth + 1)

    def enter(self, content_type: Message, end: int, depth: int) -> int:
        """Open the part whose header block ends at ``end``: a multipart's boundary is looked
        for from there; an attached message's own header block is read. Where scanning goes on."""
        if depth > MAX_DEPTH:
            raise _TooComplexError("MAX_DEPTH", f"MIME parts nested more than {MAX_DEPTH} deep")
        maintype = content_type.get_content_maintype()
        if maintype == "multipart":
            boundary = content_type.get_boundary()
            if boundary:
                digest = content_type.get_content_subtype() == "digest"
                self.open.append((boundary.encode("utf-8", "surrogateescape"), depth, digest))
            return end
        if content_type.get_content_type() == "message/rfc822":
            inner_end, inner_type = self.header_block(_body_start(self.raw, end))
            return self.enter(inner_type or _default_type("text/plain"), inner_end, depth + 1)
        return end

    def header_block(self, start: int) -> tuple[int, Message]:
        """The end of the header block at ``start`` and its Content-Type (in a Message, read by
        the same code as the parser's); each header cap checked."""
        end = _header_end(self.raw, start)
        if end - start > MAX_HEADER_BYTES:
            raise _TooComplexError("MAX_HEADER_BYTES", f"a header block over {MAX_HEADER_BYTES // 1024} KB")
        block = self.raw[start:end]
        self.headers += len(_FIELD_START.findall(block))
        if self.headers > MAX_HEADERS:
            raise _TooComplexError("MAX_HEADERS", f"more than {MAX_HEADERS} header fields")
        content_type = Message()
        for field in _FIELD.finditer(block):
            name, value = field.group(1).lower(), field.group(2)
            if len(value) > MAX_FIELD_BYTES:
                raise _TooComplexError("MAX_FIELD_BYTES", f"a header field over {MAX_FIELD_BYTES // 1024} KB")
            if _too_many_params(field):
                raise _TooComplexError("MAX_PARAMS", f"more than {MAX_PARAMS} parameters in a MIME header")
            if name == b"content-type" and "Content-Type" not in content_type:
                content_type["Content-Type"] = value.decode("ascii", "surrogateescape").strip()
        return end, content_type

    def boundary_pattern(self) -> re.Pattern[bytes]:
        """A line opening or closing a part of any open multipart (email.feedparser's rule:
        ``--boundary``, ``--`` again when it closes, then spaces or tabs), with the newline
        before it: scanning goes on from the start of a line, one byte before."""
        boundaries = tuple(sorted({boundary for boundary, _, _ in self.open}, key=len, reverse=True))
        pattern = self._patterns.get(boundaries)
        if pattern is None:
            alternatives = b"|".join(re.escape(boundary) for boundary in boundaries)
            # From the newline before the line: a literal start lets the regex engine skip ahead
            # at memchr speed (a ``^`` is tried at every byte, 6 times slower on 10 MB).
            pattern = re.compile(rb"\n--(" + alternatives + rb")(--)?[ \t]*\r?$", re.MULTILINE)
            self._patterns[boundaries] = pattern
        return pattern


def _default_type(content_type: str) -> Message:
    message = Message()
    message["Content-Type"] = content_type
    return message


def _body_start(raw: bytes, header_end: int) -> int:
    """The first byte after the line that ended a header block (the blank line)."""
    newline = raw.find(b"\n", header_end)
    return len(raw) if newline < 0 else newline + 1
