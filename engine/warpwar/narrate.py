"""One line of plain text per event, in the rules' own notation (ship records, CRT rows).

Used for the console game log and replays; player reports are rendered from the same events by
templates elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.warpwar import events as ev
from engine.warpwar.orders import CombatOrder


def narrate(events: Iterable[ev.AnyEvent]) -> list[str]:
    """The referee's log: every event in full (the copies made for other players are skipped)."""
    lines: list[str] = []
    for event in events:
        if not event.redacted:
            lines += _WRITERS[type(event)](event)
    return lines


def event_lines(event: ev.AnyEvent) -> list[str]:
    """The lines of one event (a redacted copy is written from the fields it still has)."""
    return _WRITERS[type(event)](event)


def _began(e: ev.PlayerTurnBegan) -> list[str]:
    return [f"== Turn {e.turn}, {e.player_turn}'s player-turn =="]


def _collected(e: ev.BPCollected) -> list[str]:
    where = {"base": "to the Base stockpile", "holds": "into Holds", "lost": "lost (no Hold space)"}
    return [f"  {e.star}: {e.amount} BP {where.get(e.where, 'mined, awaiting Holds')}"]


def _loaded(e: ev.HoldLoaded) -> list[str]:
    verb = "loads" if e.amount > 0 else "unloads"
    return [f"  {e.ship} {verb} {abs(e.amount)} BP at {e.star}"]


def _scrapped(e: ev.ShipScrapped) -> list[str]:
    return [f"  {e.ship} scrapped at {e.star} for {e.bp} BP"]


def _built(e: ev.ShipBuilt) -> list[str]:
    detail = f"{e.record} ({e.cost} BP)" if e.record else e.ship
    return [f"  built at {e.star}: {detail}"]


def _base(e: ev.BaseBuilt) -> list[str]:
    state = "complete" if e.complete else f"{e.invested}/30 BP"
    return [f"  Base at {e.star} for {e.owner}: {state}"]


def _repaired(e: ev.ShipRepaired) -> list[str]:
    return [f"  repaired/resupplied for {e.cost} BP: {e.record}"]


def _moved(e: ev.ShipMoved) -> list[str]:
    stop = f" (stopped: {e.stopped_by})" if e.stopped_by else ""
    return [f"  {e.ship} moves {' > '.join(e.path)} [{e.mp_used} MP]{stop}"]


def _sighted(e: ev.ShipSighted) -> list[str]:
    return [f"  sighted: {e.ship} at {e.hex}"]


def _transferred(e: ev.SystemshipTransferred) -> list[str]:
    if e.to_ship is None:
        return [f"  {e.from_ship} drops {e.systemship} at {e.star}"]
    if e.from_ship is None:
        return [f"  {e.to_ship} picks up {e.systemship} at {e.star}"]
    return [f"  {e.systemship} moves from {e.from_ship} to {e.to_ship} at {e.star}"]


def _owner(e: ev.StarOwnerChanged) -> list[str]:
    return [f"  {e.star} now owned by {e.owner}"]


def _combat_began(e: ev.CombatBegan) -> list[str]:
    sides = "; ".join(f"{p}: {', '.join(ships)}" for p, ships in sorted(e.sides.items()))
    return [f"  ** Combat at {e.star}: {sides}"]


def order_line(ship: str, order: CombatOrder) -> str:
    """A combat order written as the rules' examples write them."""
    parts = [f"{ship} {order.tactic.value}"]
    if order.beam_target:
        parts.append(f"{order.beam_target}:")
    parts.append(f"D={order.drive}")
    for label, value in (
        ("B", order.beam),
        ("S", order.screen),
        ("E", order.ecm),
        ("T", len(order.missiles)),
    ):
        if value:
            parts.append(f"{label}={value}")
    parts += [f"C=1 ({shells} shells)" for shells in order.cannons]
    if order.cannons and order.cannon_target:
        parts.append(f"at {order.cannon_target}")
    parts += [f"M at {m.target}: D={m.drive}" for m in order.missiles]
    return " ".join(parts)


def _round(e: ev.CombatRoundResolved) -> list[str]:
    lines = [f"    Round {e.round} at {e.star}"]
    lines += [f"      {order_line(ship, order)}" for ship, order in sorted(e.orders.items())]
    for shot in e.shots:
        ecm = f" ECM {shot.ecm}" if shot.ecm else ""
        lines.append(
            f"      {shot.firer} {shot.weapon} at {shot.target}: {shot.row} vs {shot.column}"
            f" ({shot.difference:+d}){ecm}: {shot.result}, {shot.hits} hits"
        )
    for hurt in e.damage:
        screened = f"{hurt.hits} - {hurt.absorbed} screened = {hurt.effective}"
        lines.append(f"      {hurt.ship} takes {screened}: {hurt.record}")
    return lines


def _destroyed(e: ev.ShipDestroyed) -> list[str]:
    return [f"    {e.ship} destroyed at {e.hex} ({e.cause})"]


def _retreated(e: ev.ShipRetreated) -> list[str]:
    return [f"    {e.ship} escapes from {e.star} to {e.to}"]


def _combat_ended(e: ev.CombatEnded) -> list[str]:
    return [
        f"  ** Combat at {e.star} over after {e.rounds} rounds ({e.reason}); held by {e.holder or 'nobody'}"
    ]


def _base_destroyed(e: ev.BaseDestroyed) -> list[str]:
    return [f"  !! {e.owner}'s Base at {e.star} destroyed by {e.by}; {e.recovered} BP recovered"]


def _eliminated(e: ev.PlayerEliminated) -> list[str]:
    return [f"  !! {e.player} is eliminated"]


def _over(e: ev.GameOver) -> list[str]:
    return [f"== Game over: {', '.join(e.winners)} wins ({e.reason}) =="]


_WRITERS: dict[type[Any], Callable[[Any], list[str]]] = {
    ev.PlayerTurnBegan: _began,
    ev.BPCollected: _collected,
    ev.HoldLoaded: _loaded,
    ev.ShipScrapped: _scrapped,
    ev.ShipBuilt: _built,
    ev.BaseBuilt: _base,
    ev.ShipRepaired: _repaired,
    ev.ShipMoved: _moved,
    ev.ShipSighted: _sighted,
    ev.SystemshipTransferred: _transferred,
    ev.StarOwnerChanged: _owner,
    ev.CombatBegan: _combat_began,
    ev.CombatRoundResolved: _round,
    ev.ShipDestroyed: _destroyed,
    ev.ShipRetreated: _retreated,
    ev.CombatEnded: _combat_ended,
    ev.BaseDestroyed: _base_destroyed,
    ev.PlayerEliminated: _eliminated,
    ev.GameOver: _over,
}
