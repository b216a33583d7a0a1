"""Two order mails for the same turn made into one submission (docs/players.md, "When you change
your mind"): a later mail replaces the earlier submission, unless its header says ``ADD``; then
its orders are added, and a later order for the same ship (or Base) replaces the earlier one."""

from __future__ import annotations

from engine.core.orderblock import Problem
from engine.warpwar.lang import messages as msg
from engine.warpwar.lang.parser import ParsedOrders, replacement_key
from engine.warpwar.lang.printer import combat_order_text, order_text
from engine.warpwar.orders import RoundOrders, TurnOrder, TurnOrders


def merge(earlier: ParsedOrders, later: ParsedOrders) -> ParsedOrders:
    """The submission after ``later`` arrives. Line numbers stay those of the mail each order
    came from; the problems are the later mail's, with a warning for each order it replaces."""
    if not later.header.add:
        return later
    orders, lines, replaced = _merge_turn(earlier, later)
    rounds, round_lines, replaced_in_rounds = _merge_rounds(earlier, later)
    problems = (*later.problems, *replaced, *replaced_in_rounds)
    return ParsedOrders(
        header=later.header,
        turn=TurnOrders(player=later.turn.player, orders=tuple(orders)),
        turn_lines=tuple(lines),
        rounds=tuple(rounds),
        round_lines=tuple(round_lines),
        problems=tuple(sorted(problems, key=lambda p: -1 if p.line is None else p.line)),
    )


def _replaced(line: int, text: str, earlier: str) -> Problem:
    message = msg.REPLACES_EARLIER_MAIL.format(earlier=f'"{earlier}"')
    return Problem(line=line, text=text, message=message, severity="warning")


def _merge_turn(
    earlier: ParsedOrders, later: ParsedOrders
) -> tuple[list[TurnOrder], list[int], list[Problem]]:
    replacing = {
        key: (order, line)
        for order, line in zip(later.turn.orders, later.turn_lines, strict=True)
        if (key := replacement_key(order)) is not None
    }
    kept: list[tuple[TurnOrder, int]] = []
    problems: list[Problem] = []
    for order, line in zip(earlier.turn.orders, earlier.turn_lines, strict=True):
        key = replacement_key(order)
        if key is not None and key in replacing:
            newer, newer_line = replacing[key]
            problems.append(_replaced(newer_line, order_text(newer), order_text(order)))
            continue
        kept.append((order, line))
    kept.extend(zip(later.turn.orders, later.turn_lines, strict=True))
    return [order for order, _ in kept], [line for _, line in kept], problems


def _merge_rounds(
    earlier: ParsedOrders, later: ParsedOrders
) -> tuple[list[RoundOrders], list[dict[str, int]], list[Problem]]:
    merged: dict[tuple[str, int], tuple[RoundOrders, dict[str, int]]] = {}
    problems: list[Problem] = []
    for section, lines in zip(earlier.rounds, earlier.round_lines, strict=True):
        merged[(section.star, section.round)] = (section, dict(lines))
    for section, lines in zip(later.rounds, later.round_lines, strict=True):
        key = (section.star, section.round)
        if key not in merged:
            merged[key] = (section, dict(lines))
            continue
        before, before_lines = merged[key]
        for ship in sorted(set(before.ships) & set(section.ships)):
            newer = combat_order_text(ship, section.ships[ship])
            problems.append(_replaced(lines[ship], newer, combat_order_text(ship, before.ships[ship])))
        ships = {**before.ships, **section.ships}
        merged[key] = (before.model_copy(update={"ships": ships}), {**before_lines, **lines})
    return [r for r, _ in merged.values()], [lines for _, lines in merged.values()], problems
