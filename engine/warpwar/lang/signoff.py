"""Lines after the orders that are plainly not orders: a sign-off ("Thanks,", "Best, Ann"), a
lone name, a phone's "Sent from my iPhone", a reply's "On <date>, <name> wrote:" and what follows.

Without an END line everything after GAME is read as orders, so these would each be an error and
make the mail look broken when the orders are fine: they are told apart here and get one warning.
They are told apart strictly, because a mistyped order must stay an error: a sign-off line has no
digit (every order names a ship or a number) and no word close to a word of the order language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.core.orderblock import SourceLine
from engine.warpwar.lang.words import LINE_STARTS, TACTICS

_REPLY_HEADER = re.compile(r"^on\s.*\bwrote:?$", re.IGNORECASE)
_DEVICE = re.compile(r"^(sent (from|with|via) |get outlook for )", re.IGNORECASE)
_THANKS = re.compile(r"^(many |big )?(thanks|thank you|thank u|thx|ty)\b", re.IGNORECASE)
_CLOSINGS = (
    "all the best",
    "best regards",
    "best wishes",
    "kind regards",
    "warm regards",
    "yours truly",
    "good luck",
    "have fun",
    "take care",
    "see you",
    "sincerely",
    "greetings",
    "regards",
    "cheers",
    "yours",
    "best",
    "love",
    "ciao",
    "bye",
)
"""Longest first: "Best regards, Ann" is "best regards" and a name, not "best" and two words."""
_CLOSING = re.compile(rf"^({'|'.join(_CLOSINGS)})\b", re.IGNORECASE)
_NAME_WORD = re.compile(r"^[A-Z][a-z]*(?:['-]?[A-Z][a-z]+|['-][a-z]+)*$")
_SEPARATORS = re.compile(r"[\s,;]+")
_AROUND_WORDS = ".!:~()\"'-"
_ORDER_WORDS: frozenset[str] = frozenset(
    {*LINE_STARTS, *TACTICS, "GAME", "PLAYER", "TURN", "CODE", "ADD", "CHECK", "END"}
)
"""The words an order line starts with (a combat line: a ship, then its tactic), and the
header's: one typo in any order line leaves one of them, or a digit, or both."""
MAX_NAME_WORDS = 3
LONG_WORD = 6
"""An order word this long is still recognised with two typos ("Rearange", "STADNING")."""


def sign_off_start(lines: Sequence[SourceLine]) -> int | None:
    """The index of the first of the block's last lines that are plainly not orders (a reply's
    "On ... wrote:" and everything below it, then the sign-off lines above), or None."""
    start = next((i for i, line in enumerate(lines) if _REPLY_HEADER.match(line.text)), len(lines))
    while start > 0 and is_sign_off(lines[start - 1].text):
        start -= 1
    return None if start == len(lines) else start


def is_sign_off(text: str) -> bool:
    """Whether a line is plainly not an order: a closing ("Thanks!", "Best, Ann"), a lone name, a
    mail program's "Sent from my iPhone"."""
    if _DEVICE.match(text) or _THANKS.match(text):
        return True
    if any(char.isdigit() for char in text):
        return False
    words = [word for word in (w.strip(_AROUND_WORDS) for w in _SEPARATORS.split(text)) if word]
    closing = _CLOSING.match(" ".join(words))
    if closing is not None:
        rest = words[len(closing.group(0).split()) :]
        return not rest or _is_name(rest)
    return _is_name(words)


def _is_name(words: Sequence[str]) -> bool:
    """A person's name: one to three capitalised words ("Ann", "Jean-Luc Picard", "J. McLean"),
    none of them a typo away from an order word (so that "Scarp" stays a mistyped SCRAP)."""
    return (
        0 < len(words) <= MAX_NAME_WORDS
        and all(_NAME_WORD.match(word) for word in words)
        and not any(_near_order_word(word.upper()) for word in words)
    )


def _near_order_word(word: str) -> bool:
    return any(
        _typos(word, known) <= (2 if len(known) >= LONG_WORD else 1)
        for known in _ORDER_WORDS
        if abs(len(known) - len(word)) <= 2
    )


def _typos(a: str, b: str) -> int:
    """The typos between ``a`` and ``b``: characters replaced, dropped, added, or two swapped
    (the optimal string alignment distance)."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]
