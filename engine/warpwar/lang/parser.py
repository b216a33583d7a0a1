"""Order mails read into typed orders, with a Problem for everything that cannot be read.

Nothing a mail says can make this raise: every line is read on its own, and whatever is wrong
with it becomes a Problem naming the line, quoting it, saying what is wrong and how to fix it,
with did-you-mean suggestions. The language is specified in docs/players.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.core.orderblock import NO_END, Header, Problem, SourceLine, find_block, written
from engine.warpwar.lang import messages as msg
from engine.warpwar.lang.combat_orders import combat_order, missile_line
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.reader import LineError, Names, Reader, ship_name, suggest
from engine.warpwar.lang.signoff import sign_off_start
from engine.warpwar.lang.turn_orders import TURN_READERS
from engine.warpwar.lang.words import (
    AT,
    COMBAT,
    CONFIRM,
    LINE_STARTS,
    MISSILE,
    ROUND,
    TACTICS,
    TURN_KEYWORDS,
)
from engine.warpwar.orders import BuildShip, CombatOrder, RoundOrders, TurnOrder, TurnOrders

COMBAT_EXAMPLE = "W3 ATTACK P2.S25: D=1 B=3 S=2"


class ParsedOrders(BaseModel):
    """What one order mail says: its header, its turn orders and its combat round orders."""

    model_config = ConfigDict(frozen=True)

    header: Header
    turn: TurnOrders
    turn_lines: tuple[int, ...]
    rounds: tuple[RoundOrders, ...]
    round_lines: tuple[dict[str, int], ...]
    problems: tuple[Problem, ...]
    done: bool = False
    """A line DONE (or READY): the orders count as in even if some lines were refused."""


def replacement_key(order: TurnOrder) -> tuple[str, str] | None:
    """Orders with the same key replace each other: the same kind for the same ship, the same
    Systemship for REARRANGE, the same star for BASE. Every BUILD counts."""
    match order.kind:
        case "build":
            return None
        case "base":
            return (order.kind, order.at)
        case "rearrange":
            return (order.kind, order.systemship)
        case _:
            return (order.kind, order.ship)


@dataclass
class _Section:
    """The orders of one COMBAT section (all sections for the same battle and round together)."""

    star: str
    round: int
    line: SourceLine
    ships: dict[str, CombatOrder] = field(default_factory=dict)
    sources: dict[str, SourceLine] = field(default_factory=dict)
    tubes: dict[str, tuple[int, SourceLine]] = field(default_factory=dict)
    last: str | None = None


@dataclass
class _Reading:
    """The state of reading one block, line by line."""

    context: LangContext
    names: Names
    orders: list[tuple[TurnOrder, SourceLine]] = field(default_factory=list)
    sections: dict[tuple[str, int], _Section] = field(default_factory=dict)
    section: _Section | None = None
    in_combat: bool = False
    done: bool = False
    problems: list[Problem] = field(default_factory=list)

    def report(
        self,
        line: SourceLine,
        message: str,
        suggestions: Sequence[str] = (),
        severity: Literal["error", "warning"] = "error",
    ) -> None:
        self.problems.append(
            Problem(
                line=line.number,
                text=written(line),
                message=message,
                suggestions=tuple(suggestions),
                severity=severity,
            )
        )


def parse_mail(body: str, context: LangContext) -> ParsedOrders:
    """A whole mail body: its order block found, its header and orders read. Without an END
    line, the block's last lines that are plainly not orders (a sign-off, a name, "On ... wrote:"
    and what follows) are left unread with a warning, not read as orders that fail."""
    block = find_block(body)
    lines, problems = block.lines, block.problems
    tail = sign_off_start(lines) if any(p.message == NO_END for p in problems) else None
    if tail is not None:
        # The block reader's problems with the lines left unread (a "Turn 4 results" in the
        # history below "On ... wrote:" read as a TURN line) are not the player's.
        first = lines[tail]
        kept = tuple(p for p in problems if p.line is None or p.line < first.number)
        left = Problem(line=first.number, text=written(first), message=msg.SIGN_OFF, severity="warning")
        problems, lines = (*kept, left), lines[:tail]
    parsed = parse_block(lines, context, block.header)
    return parsed.model_copy(update={"problems": _in_order(problems + parsed.problems)})


def parse_block(
    lines: Sequence[SourceLine], context: LangContext, header: Header | None = None
) -> ParsedOrders:
    """The order lines of a block (header lines already taken out) read into orders.

    Ships the block's BUILD lines build may be ordered in the same block, wherever the BUILD
    line stands: the Build event comes before Movement (rules III). The block is read once to
    find those names, and again knowing them; the checker then follows the Build event."""
    reading = _read(lines, context)
    built = _names_built(reading.orders, context) - context.own_ships
    if built and context.knows_names:
        reading = _read(lines, context.model_copy(update={"built_here": frozenset(built)}))
    return _result(reading, header or Header())


def _read(lines: Sequence[SourceLine], context: LangContext) -> _Reading:
    reading = _Reading(context=context, names=Names.of(context))
    for line in lines:
        _read_line(reading, line)
    _close_section(reading)
    return reading


def _names_built(orders: Sequence[tuple[TurnOrder, SourceLine]], context: LangContext) -> set[str]:
    """The names BUILD lines give, numbered as ``build.BuildEvent.name_for`` numbers them."""
    highest = {"W": context.warpships_named, "S": context.systemships_named}
    names: set[str] = set()
    for order, _ in orders:
        if not isinstance(order, BuildShip):
            continue
        letter = "W" if order.warp else "S"
        name = order.name
        if name is None:
            number = highest[letter] + 1
            while f"{letter}{number}" in context.own_ships | names:
                number += 1
            name = f"{letter}{number}"
        if name.startswith(letter):
            names.add(name)
            highest[letter] = max(highest[letter], int(name[1:]))
    return names


def _in_order(problems: Sequence[Problem]) -> tuple[Problem, ...]:
    return tuple(sorted(problems, key=lambda p: -1 if p.line is None else p.line))


def _read_line(reading: _Reading, line: SourceLine) -> None:
    reader = Reader(line, reading.names)
    try:
        _dispatch(reading, reader)
    except LineError as wrong:
        reading.report(line, wrong.message, wrong.suggestions, wrong.severity)
    except ValidationError as error:
        reading.report(line, msg.NOT_UNDERSTOOD.format(reason=_reason(error)))


def _reason(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def _dispatch(reading: _Reading, reader: Reader) -> None:
    if reader.done():
        return
    first = reader.peek()
    keyword = TURN_KEYWORDS.get(first)
    if keyword is not None:
        reader.take()
        _turn_order(reading, reader, keyword)
    elif first == COMBAT:
        reader.take()
        _start_section(reading, reader)
    elif first.rstrip("!") in CONFIRM:
        reader.take()
        reader.end(first.rstrip("!"))
        reading.done = True
    elif first == MISSILE and reader.upper[1:2] and reader.upper[1] in TACTICS:
        reader.take()
        _missile(reading, reader)
    elif ship_name(first) is not None:
        _combat_line(reading, reader)
    else:
        choices = (*LINE_STARTS, *(reading.context.own_ships if reading.in_combat else ()))
        raise LineError(msg.UNKNOWN_ORDER.format(word=reader.words[0]), suggest(first, choices))


def _turn_order(reading: _Reading, reader: Reader, keyword: str) -> None:
    read: Callable[[Reader], TurnOrder] = TURN_READERS[keyword]
    order = read(reader)
    if reading.in_combat:
        reading.report(reader.source, msg.TURN_ORDER_IN_COMBAT.format(keyword=keyword), severity="warning")
    reading.orders.append((order, reader.source))


def _start_section(reading: _Reading, reader: Reader) -> None:
    _close_section(reading)
    reading.in_combat = True
    reading.section = None
    reader.skip(AT)
    if reader.done():
        raise LineError(msg.COMBAT_LINE_FORM)
    star = reader.place(COMBAT, "COMBAT Babylon ROUND 1")
    if not reader.skip(ROUND) or reader.done():
        raise LineError(msg.COMBAT_LINE_FORM)
    round_ = reader.count("the round number", "COMBAT Babylon ROUND 1", low=1)
    reader.end("COMBAT Babylon ROUND 1")
    key = (star, round_)
    reading.section = reading.sections.setdefault(key, _Section(star=star, round=round_, line=reader.source))
    reading.section.last = None


def _combat_line(reading: _Reading, reader: Reader) -> None:
    if not reading.in_combat:
        raise LineError(msg.OUTSIDE_COMBAT)
    ship = reader.own_ship_named(reader.take())
    order, tubes = combat_order(reader, ship, COMBAT_EXAMPLE.replace("W3", ship, 1))
    section = reading.section
    if section is None:
        return
    earlier = section.sources.get(ship)
    if earlier is not None:
        message = msg.REPLACES.format(line=earlier.number, earlier=written(earlier))
        reading.report(reader.source, message, severity="warning")
    section.ships[ship] = order
    section.sources[ship] = reader.source
    section.last = ship
    if tubes is None:
        section.tubes.pop(ship, None)
    else:
        section.tubes[ship] = (tubes, reader.source)


def _missile(reading: _Reading, reader: Reader) -> None:
    if not reading.in_combat:
        raise LineError(msg.OUTSIDE_COMBAT)
    shot = missile_line(reader)
    section = reading.section
    if section is None:
        return
    if section.last is None:
        raise LineError(msg.MISSILE_LINE_ALONE)
    order = section.ships[section.last]
    section.ships[section.last] = order.model_copy(update={"missiles": (*order.missiles, shot)})


def _close_section(reading: _Reading) -> None:
    """The rules' ``T=`` (Tubes powered) must match the Missiles the ship fires."""
    section = reading.section
    if section is None:
        return
    for ship, (tubes, line) in sorted(section.tubes.items()):
        missiles = len(section.ships[ship].missiles)
        if tubes != missiles:
            reading.report(line, msg.TUBES_DISAGREE.format(ship=ship, tubes=tubes, missiles=missiles))
            del section.ships[ship]
            del section.sources[ship]
    section.tubes.clear()


def _result(reading: _Reading, header: Header) -> ParsedOrders:
    kept: dict[tuple[str, str] | int, tuple[TurnOrder, SourceLine]] = {}
    for index, (order, line) in enumerate(reading.orders):
        key = replacement_key(order)
        if key is None:
            kept[index] = (order, line)
            continue
        earlier = kept.pop(key, None)
        if earlier is not None:
            message = msg.REPLACES.format(line=earlier[1].number, earlier=written(earlier[1]))
            reading.report(line, message, severity="warning")
        kept[key] = (order, line)
    ordered = sorted(kept.values(), key=lambda pair: pair[1].number)
    rounds, round_lines = _rounds(reading)
    return ParsedOrders(
        header=header,
        turn=TurnOrders(player=reading.context.player, orders=tuple(order for order, _ in ordered)),
        turn_lines=tuple(line.number for _, line in ordered),
        rounds=rounds,
        round_lines=round_lines,
        problems=_in_order(reading.problems),
        done=reading.done,
    )


def _rounds(reading: _Reading) -> tuple[tuple[RoundOrders, ...], tuple[dict[str, int], ...]]:
    rounds: list[RoundOrders] = []
    lines: list[dict[str, int]] = []
    for section in reading.sections.values():
        try:
            rounds.append(
                RoundOrders(
                    player=reading.context.player, star=section.star, round=section.round, ships=section.ships
                )
            )
        except ValidationError as error:
            reading.report(section.line, msg.NOT_UNDERSTOOD.format(reason=_reason(error)))
            continue
        lines.append({ship: source.number for ship, source in section.sources.items()})
    return tuple(rounds), tuple(lines)
