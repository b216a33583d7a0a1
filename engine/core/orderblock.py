"""The order block of a plain-text mail: where a player's orders start and end, and their header.

Game-agnostic. A mail body holds one block: it starts at the first header line ``GAME <id>`` and
ends at a line ``END``; greetings, signatures and quoted history around it are ignored. Header
lines (``GAME``, ``PLAYER``, ``TURN``, ``CODE``, ``ADD``, ``CHECK``) may come in any order before
the first order. ``#`` starts a comment. A player who replies to an orders sheet and writes in
place sends a block whose ``GAME`` line is quoted (``> GAME ...``): when no unquoted ``GAME`` line
exists, the block starts at the first quoted one and every quote marker up to ``END`` is removed.

Every game's checker reports through :class:`Problem`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

# Every message this module can produce (listed in docs/players.md, each pinned by a test).
NO_BLOCK = (
    "no orders found: the orders must start with a line GAME <game id> (then PLAYER, TURN and CODE lines) "
    "and end with a line END"
)
NO_END = (
    "there is no END line, so everything after GAME up to the end of the mail (or the signature) was read "
    "as orders: end your orders with a line END"
)
GAME_WITHOUT_ID = "GAME needs the game's id after it, as on your orders sheet: GAME <game id>"
PLAYER_WITHOUT_ID = "PLAYER needs your player id or name after it: PLAYER <your id>"
TURN_NOT_A_NUMBER = 'TURN needs the turn number in digits, e.g. TURN 5; "{value}" is not a number'
HEADER_TWICE = "{keyword} is given twice with different values ({first} and {second}): keep only one"
HEADER_AFTER_ORDERS = (
    "{keyword} is a header line after the orders: it is used, but header lines belong above the first order"
)
HEADER_WITH_VALUE = "{keyword} stands alone on its line: remove what follows it"
WRITTEN_BELOW_END = (
    "this and what follows is below the END of the orders sheet you replied to, so it was not read: "
    "write your orders above that END, or give them their own GAME line"
)
BLOCK_MESSAGES: tuple[str, ...] = (
    NO_BLOCK,
    NO_END,
    GAME_WITHOUT_ID,
    PLAYER_WITHOUT_ID,
    TURN_NOT_A_NUMBER,
    HEADER_TWICE,
    HEADER_AFTER_ORDERS,
    HEADER_WITH_VALUE,
    WRITTEN_BELOW_END,
)

MAX_DIGITS = 9
"""Numbers longer than this are refused before ``int()`` sees them (no game needs them, and
Python refuses to convert very long digit strings)."""


class Problem(BaseModel):
    """Something wrong with a mail, a line or an order, in the player's words."""

    model_config = ConfigDict(frozen=True)

    line: int | None
    text: str
    message: str
    suggestions: tuple[str, ...] = ()
    severity: Literal["error", "warning"] = "error"

    def describe(self) -> str:
        """One line for the player: ``Line 7: "MOVE W33 1421": you have no ship W33. Did you mean W3?``"""
        where = "" if self.line is None else f'Line {self.line}: "{self.text}": '
        hint = f" Did you mean {' or '.join(self.suggestions)}?" if self.suggestions else ""
        return f"{where}{self.message.rstrip('.')}.{hint}"


class SourceLine(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int
    text: str
    raw: str


class Header(BaseModel):
    model_config = ConfigDict(frozen=True)

    game: str | None = None
    player: str | None = None
    turn: int | None = None
    code: str | None = None
    add: bool = False
    check: bool = False


class OrderBlock(BaseModel):
    model_config = ConfigDict(frozen=True)

    found: bool
    header: Header
    lines: tuple[SourceLine, ...]
    problems: tuple[Problem, ...]


# --- Line normalisation ---

_SPACES = dict.fromkeys(map(ord, "\t\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"), " ")
_SPACES.update(dict.fromkeys(map(ord, "\u2009\u200a\u202f\u205f\u3000\x0b\x0c"), " "))
_TRANSLATION: dict[int, str | None] = {
    **_SPACES,
    **dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"), "-"),
    **dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2032"), "'"),
    **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"), '"'),
    **dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None),
}
_QUOTE_MARKERS = re.compile(r"^[ ]*((?:>[ ]?)+)")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SIGNATURE = re.compile(r"^(--|-- |_{5,}|-{3,} ?Original Message ?-{3,}.*)$", re.IGNORECASE)
_END = re.compile(r"^END\W*$", re.IGNORECASE)
_GAME = re.compile(r"^GAME:?(?:\s+(\S+))?$", re.IGNORECASE)
_HEADER = re.compile(r"^(GAME|PLAYER|TURN|CODE|ADD|CHECK)\b:?(.*)$", re.IGNORECASE)


def _characters(raw: str) -> str:
    """Lookalike characters replaced by the plain ones orders are written with."""
    text = raw if raw.isascii() else unicodedata.normalize("NFKC", raw).translate(_TRANSLATION)
    return text.replace("\t", " ")


def quote_depth(raw: str) -> tuple[int, str]:
    """How deep a line is quoted (``>``, ``> >``, ``>>``) and the line without its markers."""
    text = _characters(raw)
    match = _QUOTE_MARKERS.match(text)
    if match is None:
        return 0, text
    return match.group(1).count(">"), text[match.end() :]


def clean(text: str) -> str:
    """A line (quote markers already removed) without its comment, whitespace normalised."""
    return " ".join(text.split("#", 1)[0].split())


def written(line: SourceLine) -> str:
    """The line as the player wrote it, quote markers removed: what a Problem quotes."""
    return quote_depth(line.raw)[1].strip()


def number(word: str) -> int | None:
    """A whole number 0 or more written in digits, or None."""
    if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:
        return int(word)
    return None


# --- Finding the block ---


def find_block(body: str) -> OrderBlock:
    """The order block of a mail body, its header, and what is wrong with its shape."""
    raws = _LINE_BREAK.split(body)
    lines = [(number_, *quote_depth(raw), raw) for number_, raw in enumerate(raws, start=1)]
    start = _first_game_line(lines, quoted=False)
    quoted = start is None
    if start is None:
        start = _first_game_line(lines, quoted=True)
    if start is None:
        return OrderBlock(
            found=False, header=Header(), lines=(), problems=(Problem(line=None, text="", message=NO_BLOCK),)
        )
    body_lines, end = _block_lines(lines[start:], quoted)
    header, order_lines, problems = _read_header(body_lines)
    if end is None:
        problems.append(Problem(line=None, text="", message=NO_END, severity="warning"))
    elif quoted:
        problems.extend(_written_below(lines[start + end + 1 :]))
    return OrderBlock(found=True, header=header, lines=tuple(order_lines), problems=tuple(problems))


_Numbered = tuple[int, int, str, str]
"""Line number, quote depth, text without quote markers, raw line."""


def _first_game_line(lines: Sequence[_Numbered], quoted: bool) -> int | None:
    for index, (_, depth, text, _) in enumerate(lines):
        if (depth > 0) == quoted and _GAME.match(clean(text)):
            return index
    return None


def _block_lines(lines: Sequence[_Numbered], quoted: bool) -> tuple[list[SourceLine], int | None]:
    """The block's lines up to END (the END excluded), and where END is among ``lines``.

    An unquoted block skips quoted lines (history below a top-posted reply); without END it
    stops at a signature or an "Original Message" separator, which no order looks like."""
    kept: list[SourceLine] = []
    for index, (number_, depth, text, raw) in enumerate(lines):
        if depth > 0 and not quoted:
            continue
        if _SIGNATURE.match(text.strip()):
            return kept, None
        cleaned = clean(text)
        if _END.match(cleaned):
            return kept, index
        if cleaned:
            # Built without validation: the fields are exactly the declared types, and a mail has
            # hundreds of lines.
            kept.append(SourceLine.model_construct(number=number_, text=cleaned, raw=raw))
    return kept, None


def _written_below(lines: Sequence[_Numbered]) -> Iterator[Problem]:
    """A warning when the player wrote below the quoted END of the sheet they replied to
    (bottom-posting): those lines are not read, and the player should know."""
    for number_, depth, text, raw in lines:
        if _SIGNATURE.match(text.strip()):
            return
        if depth == 0 and clean(text):
            yield Problem(line=number_, text=raw.strip(), message=WRITTEN_BELOW_END, severity="warning")
            return


def _header_parts(text: str) -> tuple[str, str] | None:
    """The header keyword of a line and what follows it, or None for any other line."""
    match = _HEADER.match(text)
    return None if match is None else (match.group(1).upper(), match.group(2).strip())


def _read_header(lines: Sequence[SourceLine]) -> tuple[Header, list[SourceLine], list[Problem]]:
    values: dict[str, object] = {}
    orders: list[SourceLine] = []
    problems: list[Problem] = []
    for line in lines:
        parts = _header_parts(line.text)
        if parts is None:
            orders.append(line)
            continue
        word, value = parts
        wrong = list(_header_line(word, value, line, values))
        if orders and not wrong:
            wrong.append(_problem(line, HEADER_AFTER_ORDERS.format(keyword=word), severity="warning"))
        problems.extend(wrong)
    header = Header.model_validate(values)
    return header, orders, problems


def _header_line(word: str, value: str, line: SourceLine, values: dict[str, object]) -> Iterator[Problem]:
    key = word.lower()
    read: object
    if word == "GAME":
        if not value:
            yield _problem(line, GAME_WITHOUT_ID)
            return
        read = value.split(" ", 1)[0]
    elif word == "PLAYER":
        if not value:
            yield _problem(line, PLAYER_WITHOUT_ID)
            return
        read = value
    elif word == "TURN":
        turn = number(value)
        if turn is None:
            yield _problem(line, TURN_NOT_A_NUMBER.format(value=value))
            return
        read = turn
    elif word == "CODE":
        if not value.strip("_ "):
            return
        read = value
    elif value:
        yield _problem(line, HEADER_WITH_VALUE.format(keyword=word))
        return
    else:
        read = True
    if key in values and values[key] != read:
        yield _problem(line, HEADER_TWICE.format(keyword=word, first=values[key], second=read))
        return
    values[key] = read


def _problem(line: SourceLine, message: str, severity: Literal["error", "warning"] = "error") -> Problem:
    return Problem(line=line.number, text=written(line), message=message, severity=severity)
