"""Reading one order line word by word: ships, enemy ships, places, numbers and designs, each
resolved against what the writer knows, with a friendly :class:`LineError` when it cannot be."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import Literal

from engine.core.orderblock import SourceLine, number
from engine.warpwar.components import Attr
from engine.warpwar.lang import messages as msg
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.words import ATTRIBUTES, DESIGN_WORDS, REPAIR_BAY

MAX_AMOUNT = 9999
"""The largest amount any order takes; far above anything a game reaches."""

_SHIP = re.compile(r"^([WS])0*(\d{1,5})$")
_DIGITS = re.compile(r"^[0-9]+$")
_NEGATIVE = re.compile(r"^-[0-9]+$")
_CANNON_NOTE = re.compile(r"\bC\s*=\s*1\s*\(\s*firing\s+(\d+)\s+shells?\s*\)", re.IGNORECASE)
_TECH_NOTE = re.compile(r"\(\s*TL\s*\d*\s*\)", re.IGNORECASE)
_ARROW = re.compile(r"->|=>|\u2192|(?<=\d)-(?=\d)|(?<!\S)-(?!\S)")
_GLUE = re.compile(r"\s+(?=[=@,])|(?<=[=@,])\s+")
_ITEM_SPLIT = re.compile(r",(?=[A-Za-z]+=)")


class LineError(Exception):
    """Why a line cannot be read; becomes a Problem on that line."""

    def __init__(
        self, message: str, suggestions: Iterable[str] = (), severity: Literal["error", "warning"] = "error"
    ) -> None:
        super().__init__(message)
        self.message = message
        self.suggestions = tuple(suggestions)
        self.severity: Literal["error", "warning"] = severity


def suggest(word: str, choices: Iterable[str]) -> tuple[str, ...]:
    """Did-you-mean candidates, best first, compared without regard to case."""
    by_upper = {choice.upper(): choice for choice in choices}
    return tuple(by_upper[m] for m in get_close_matches(word.upper(), sorted(by_upper), n=3, cutoff=0.6))


def ship_name(word: str) -> str | None:
    """A ship's own name in its canonical spelling (``w03`` -> ``W3``), or None."""
    match = _SHIP.match(word.upper())
    return None if match is None else match.group(1) + match.group(2)


def tokens(text: str) -> list[str]:
    """The words of an order line. ``=``, ``@`` and ``,`` glue what is around them; the colon
    after a subject is optional, so it goes; the rules' notes ``(TL0)`` and
    ``C=1 (firing 3 shells)`` become plain order words."""
    text = text.rstrip(".;")
    if "(" in text:
        text = _TECH_NOTE.sub(" ", _CANNON_NOTE.sub(r"C=\1", text))
    if "-" in text or ">" in text or "\u2192" in text:
        text = _ARROW.sub(" ", text)
    text = _GLUE.sub("", text).replace(":", " ")
    if "," not in text:
        return text.split()
    words: list[str] = []
    for word in text.split():
        if "," not in word:
            words.append(word)
        elif "=" in word:
            words.extend(_ITEM_SPLIT.split(word))
        else:
            words.extend(part for part in word.split(",") if part)
    return words


@dataclass(frozen=True)
class Names:
    """A LangContext indexed for look-ups."""

    context: LangContext
    enemies_by_upper: dict[str, str] = field(default_factory=dict)
    enemies_by_name: dict[str, list[str]] = field(default_factory=dict)
    place_words: int = 1

    @classmethod
    def of(cls, context: LangContext) -> Names:
        by_name: defaultdict[str, list[str]] = defaultdict(list)
        for uid in sorted(context.enemy_ships):
            by_name[uid.rsplit(".", 1)[-1].upper()].append(uid)
        return cls(
            context=context,
            enemies_by_upper={uid.upper(): uid for uid in context.enemy_ships},
            enemies_by_name=dict(by_name),
            place_words=max((len(name.split()) for name in context.places), default=1),
        )

    def star_display(self, key: str) -> str:
        hex_ = self.context.places[key]
        return self.context.star_names.get(hex_, key.title())


def check_range(value: int, what: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise LineError(msg.OUT_OF_RANGE.format(what=what, low=low, high=high, value=value))
    return value


def read_number(word: str, what: str, example: str, low: int = 0, high: int = MAX_AMOUNT) -> int:
    """A number within ``low``..``high``, read from ``word``."""
    value = number(word)
    if value is None:
        if _NEGATIVE.match(word) or (_DIGITS.match(word) and len(word) > 6):
            raise LineError(msg.OUT_OF_RANGE.format(what=what, low=low, high=high, value=word))
        raise LineError(msg.NOT_A_NUMBER.format(word=word, what=what, example=example))
    return check_range(value, what, low, high)


class Reader:
    """A cursor over the words of one line."""

    def __init__(self, source: SourceLine, names: Names) -> None:
        self.source = source
        self.names = names
        self.context = names.context
        self.words = tokens(source.text)
        self.upper = [word.upper() for word in self.words]
        self.at = 0

    def done(self) -> bool:
        return self.at >= len(self.words)

    def peek(self) -> str:
        """The next word in capitals ("" at the end of the line)."""
        return "" if self.done() else self.upper[self.at]

    def take(self) -> str:
        word = self.words[self.at]
        self.at += 1
        return word

    def skip(self, *words: str) -> bool:
        """Pass over the next word if it is one of ``words``."""
        if not self.done() and self.upper[self.at] in words:
            self.at += 1
            return True
        return False

    def end(self, example: str) -> None:
        if not self.done():
            raise LineError(
                msg.UNEXPECTED_WORDS.format(words=" ".join(self.words[self.at :]), example=example)
            )

    # --- own ships ---

    def own_ship(self, keyword: str, example: str) -> str:
        if self.done():
            raise LineError(msg.SHIP_EXPECTED.format(keyword=keyword, example=example))
        return self.own_ship_named(self.take())

    def own_ship_named(self, word: str) -> str:
        name = ship_name(word)
        if name is None:
            raise LineError(msg.NOT_A_SHIP_NAME.format(word=word), suggest(word, self.context.own_ships))
        known = self.context.own_ships | self.context.built_here
        if self.context.knows_names and name not in known:
            raise LineError(msg.NO_SUCH_SHIP.format(ship=name), suggest(name, known))
        return name

    def own_ships(self, keyword: str, example: str) -> tuple[str, ...]:
        """One or more own ships, as far as the words are ship names."""
        names = [self.own_ship(keyword, example)]
        while not self.done() and ship_name(self.peek()) is not None:
            names.append(self.own_ship_named(self.take()))
        return tuple(names)

    # --- enemy ships ---

    def enemy(self, word: str) -> str:
        """An enemy ship's uid from ``P2.W7``, ``Two.W7`` or ``W7`` (one known enemy so named)."""
        if "." in word:
            return self._enemy_uid(word)
        name = ship_name(word)
        if name is None:
            raise LineError(msg.NOT_A_SHIP_NAME.format(word=word), self._enemy_suggestions(word))
        known = self.names.enemies_by_name.get(name, [])
        if len(known) == 1:
            return known[0]
        if len(known) > 1:
            raise LineError(msg.AMBIGUOUS_ENEMY.format(ship=name, choices=", ".join(known)))
        if self.context.knows_names:
            raise LineError(msg.NO_SUCH_ENEMY.format(ship=word), self._enemy_suggestions(word))
        return name

    def _enemy_uid(self, word: str) -> str:
        owner, _, short = word.rpartition(".")
        name = ship_name(short)
        if name is None or not owner:
            raise LineError(msg.NOT_A_SHIP_NAME.format(word=word), self._enemy_suggestions(word))
        uid = f"{self.context.players.get(owner.lower(), owner)}.{name}"
        known = self.names.enemies_by_upper.get(uid.upper())
        if known is not None:
            return known
        if self.context.knows_names:
            raise LineError(msg.NO_SUCH_ENEMY.format(ship=word), self._enemy_suggestions(word))
        return uid

    def _enemy_suggestions(self, word: str) -> tuple[str, ...]:
        return suggest(word, self.context.enemy_ships) or suggest(word, self.names.enemies_by_name)

    # --- places ---

    def place(self, keyword: str, example: str) -> str:
        """A hex id from a hex number or a star name (of one or more words)."""
        if self.done():
            raise LineError(msg.PLACE_EXPECTED.format(keyword=keyword, example=example))
        places = self.context.places
        for length in range(min(self.names.place_words, len(self.words) - self.at), 1, -1):
            key = " ".join(self.words[self.at : self.at + length]).lower()
            if key in places:
                self.at += length
                return places[key]
        word = self.take()
        if _DIGITS.match(word):
            if len(word) not in (4, 6):
                raise LineError(msg.NOT_A_HEX.format(word=word))
            if self.context.knows_names and word not in self.context.hexes:
                raise LineError(msg.HEX_NOT_ON_MAP.format(hex=word))
            return word
        hex_ = places.get(word.lower())
        if hex_ is not None:
            return hex_
        matches = get_close_matches(word.lower(), sorted(places), n=3, cutoff=0.6)
        raise LineError(msg.UNKNOWN_STAR.format(word=word), (self.names.star_display(m) for m in matches))

    # --- numbers ---

    def count(self, what: str, example: str, low: int = 0, high: int = MAX_AMOUNT) -> int:
        if self.done():
            raise LineError(msg.NUMBER_EXPECTED.format(what=what, example=example))
        return read_number(self.take(), what, example, low, high)

    # --- designs in the rules' notation ---

    def amounts(self, keyword: str, example: str, allowed: tuple[str, ...] = DESIGN_WORDS) -> dict[str, int]:
        """``NAME=number`` words up to the first word without ``=``: attribute name -> amount."""
        found: dict[str, int] = {}
        while not self.done() and "=" in self.words[self.at]:
            item = self.take()
            name, _, value = item.partition("=")
            name = name.upper()
            if name not in DESIGN_WORDS:
                raise LineError(msg.UNKNOWN_ATTRIBUTE.format(attr=name), suggest(name, allowed))
            if name not in allowed:
                raise self._not_allowed(keyword, name)
            if name in found:
                raise LineError(msg.GIVEN_TWICE.format(item=name))
            high = 1 if name == REPAIR_BAY else MAX_AMOUNT
            found[name] = read_number(value, f"{name} (in {item})", f"{name}=3", 0, high)
        if not found:
            if not self.done() and self.peek().isalpha() and self.peek() in DESIGN_WORDS:
                raise LineError(msg.ATTRIBUTE_FORM.format(word=self.words[self.at]))
            raise LineError(msg.DESIGN_EXPECTED.format(keyword=keyword, example=example))
        return found

    def _not_allowed(self, keyword: str, name: str) -> LineError:
        if keyword == "RESUPPLY":
            return LineError(msg.NOT_FOR_RESUPPLY.format(attr=name))
        if keyword == "REPAIR" and name in (Attr.M, Attr.SH):
            return LineError(msg.NOT_FOR_REPAIR.format(attr=name))
        return LineError(msg.UNKNOWN_ATTRIBUTE.format(attr=name))


def attributes_of(found: dict[str, int]) -> dict[str, int]:
    """The counted attributes among ``found`` (the Repair Bay flag left out)."""
    return {name: value for name, value in found.items() if name in ATTRIBUTES}
