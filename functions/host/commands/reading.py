"""Reading a command mail: which command it gives (one of its first few lines, above any order
block: a greeting may come first; or its subject when the mail holds no orders), the words after
it, and the text below it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from engine.core.orderblock import clean, quote_depth
from engine.games import GAME_COMMANDS

COMMANDS = (
    "HELP",
    "LIST",
    "STATUS",
    "REPORT",
    "CHECK",
    "JOIN",
    "CONFIRM",
    "MESSAGE",
    "WAIT",
    "ABSENT",
    "TIMEZONE",
)
LIST_ARGS: tuple[list[str], ...] = ([], ["GAMES"], ["OPEN"], ["OPEN", "GAMES"])
"""What may follow LIST on its line: LIST takes no words, and a line starting with "List" that
goes on is a sentence."""
GAME_WORDS = frozenset(word for words in GAME_COMMANDS.values() for word in words) - set(COMMANDS)
"""Words some hosted game answers itself (``ROLLS``): commands too, answered by the mail's game."""
MAX_MESSAGE = 4000
"""Characters of a relayed message (the Star Fleet Warlord service took 90 per order; a mail
may say more, but not a whole novel)."""
REPLY_PREFIX = re.compile(r"^\s*((re|fwd?|aw|sv|antw)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)
SUBJECT_TAG = re.compile(r"^\[[^\]]*\]\s*")
"""The ``[WarpWar g1]`` the host puts before its subjects: a reply to the JOIN confirmation,
"Re: [WarpWar g1] CONFIRM <token> ...", is the CONFIRM command."""
GAME_LINE = re.compile(r"^GAME:?(\s+\S+)?$", re.IGNORECASE)
CODE_LINE = re.compile(r"^\s*CODE:?\s+(\S.*)$", re.IGNORECASE)
SIGNATURE = re.compile(r"^(-- ?|_{5,}|-{3,} ?Original Message ?-{3,}.*)$", re.IGNORECASE)
END_LINE = re.compile(r"^\s*END\W*$", re.IGNORECASE)
COMMAND_LINES = 3
"""Non-blank lines at the top of a mail looked at for a command: room for a greeting ("Hi,") and a
line more before it, not so many that a sentence starting with "Report" deep in a letter is one."""


class Command(BaseModel):
    """A command as written: its word, the words after it, and the mail's lines below it."""

    model_config = ConfigDict(frozen=True)

    word: str
    args: tuple[str, ...] = ()
    line: int | None = None
    """The command's line in the body (0-based), None when it is the subject."""
    below: tuple[str, ...] = ()


def find_command(subject: str, text: str) -> Command | None:
    """The command a mail gives, or None for an order mail (see the module doc)."""
    lines = text.split("\n")
    block = _game_line(lines)
    top = [i for i, line in enumerate(lines[:block]) if line.strip() and not quote_depth(line)[0]]
    for index in top[:COMMAND_LINES]:
        found = _command(lines[index])
        if found is not None:
            word, args = found
            return Command(word=word, args=args, line=index, below=tuple(lines[index + 1 :]))
    if block is not None:
        return None
    found = _command(SUBJECT_TAG.sub("", REPLY_PREFIX.sub("", subject)))
    if found is None:
        return None
    word, args = found
    return Command(word=word, args=args, below=tuple(lines))


def _command(line: str) -> tuple[str, tuple[str, ...]] | None:
    words = line.split()
    if not words:
        return None
    word = words[0].upper().rstrip(":")
    if word == "LIST" and [w.upper() for w in words[1:]] not in LIST_ARGS:
        # "List of my changes:" above the orders is a sentence, not the command.
        return None
    return (word, tuple(words[1:])) if word in COMMANDS or word in GAME_WORDS else None


def _game_line(lines: Sequence[str]) -> int | None:
    """Where the order block starts, as engine/core/orderblock.py finds it: the first unquoted
    GAME line, else the first quoted one."""
    for quoted in (False, True):
        for index, raw in enumerate(lines):
            depth, text = quote_depth(raw)
            if (depth > 0) == quoted and GAME_LINE.match(clean(text)):
                return index
    return None


def checked_body(text: str, command: Command) -> str | None:
    """``text`` with a ``CHECK`` header line in its order block, so that the game checks and
    submits nothing; None when it has no order block. A line above the block (the command's
    own, or else a blank one) is taken out, so that the order lines keep their numbers."""
    lines = text.split("\n")
    start = _game_line(lines)
    if start is None:
        return None
    if command.line is not None and command.line < start:
        spare: int | None = command.line
    else:
        spare = next((i for i in range(start - 1, -1, -1) if not lines[i].strip()), None)
    if spare is not None:
        del lines[spare]
        start -= 1
    lines.insert(start + 1, "CHECK")
    return "\n".join(lines)


def code_and_args(command: Command) -> tuple[str | None, tuple[str, ...]]:
    """The secret code (a CODE line below the command, or ``CODE <code>`` after it on its line)
    and the command's own words (those before ``CODE``)."""
    words = [word.upper().rstrip(":") for word in command.args]
    if "CODE" in words:
        at = words.index("CODE")
        return " ".join(command.args[at + 1 :]) or None, command.args[:at]
    return message_text(command.below)[1], command.args


def message_text(lines: Sequence[str]) -> tuple[str, str | None]:
    """The text of a MESSAGE (up to END, a signature or the quoted history of a reply) and
    the secret code given on the first CODE line (no CODE line is part of the text)."""
    kept: list[str] = []
    code = None
    for line in lines:
        if END_LINE.match(line) or SIGNATURE.match(line.strip()):
            break
        if quote_depth(line)[0] > 0:
            continue
        found = CODE_LINE.match(line)
        if found is not None:
            # Every CODE line is left out (a second one may be the right code): never relayed.
            code = code or found.group(1).strip()
            continue
        kept.append(line.rstrip())
    text = "\n".join(kept).strip("\n")
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE].rstrip() + "\n" + CUT.format(limit=MAX_MESSAGE)
    return text, code


CUT = "[... the rest was cut: messages are relayed up to {limit} characters]"
