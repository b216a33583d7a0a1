"""A player's results as text: what they saw happen (the events meant for them), the map in
words, and what the game waits for next. Made from the view and the events only."""

from __future__ import annotations

from collections.abc import Sequence

from engine.lta.events import (
    AnyEvent,
    DamageTaken,
    DiceCommitted,
    DiceRevealed,
    Fate,
    GameOver,
    InitiativeDecided,
    Moved,
    PlayOrder,
    Repaired,
    ShotFired,
)
from engine.lta.lang.sheet import describe, items
from engine.lta.orders import SMALL_ARMS
from engine.lta.state import Phase
from engine.lta.views import PlayerView


def event_line(event: AnyEvent) -> str:
    if isinstance(event, DiceCommitted):
        # Whole, so that each player can check every seed revealed at the end, not only their own.
        return "Dice committed (SHA-256 of each seed): " + "; ".join(
            f"{p} {h}" for p, h in event.commitments.items()
        )
    if isinstance(event, InitiativeDecided):
        return f"Turn {event.turn} initiative: {event.winner} wins; {event.chooser} chooses first or last"
    if isinstance(event, PlayOrder):
        return f"Order of play ({event.choice}): {', '.join(event.order)}"
    if isinstance(event, Moved):
        return (
            f"{event.ship} ({event.cause}): at {event.hex} facing {event.facing}, altitude {event.altitude}"
        )
    if isinstance(event, ShotFired):
        item = "Small Arms" if event.item == SMALL_ARMS else f"item {event.item} ({event.weapon})"
        outcome = f"hit: {event.result}" if event.hit else "missed"
        return f"{event.ship} fired {item} at {event.target}: {outcome}"
    if isinstance(event, DamageTaken):
        return f"{event.ship}: {event.what}"
    if isinstance(event, Fate):
        return f"{event.ship} is {event.status} ({event.cause})"
    if isinstance(event, Repaired):
        return f"{event.ship}'s patch crew {event.what}"
    if isinstance(event, GameOver):
        who = ", ".join(event.winners) or "nobody"
        return f"The game is over: {event.reason}. Winner: {who}"
    assert isinstance(event, DiceRevealed)
    return "Every seed is revealed: mail ROLLS for every roll, and check them (docs/lta-dice.md)"


def report_text(view: PlayerView, events: Sequence[AnyEvent]) -> str:
    seen = [e for e in events if view.player in e.visible_to]
    lines = [f"Lighter Than Air Warfare, game {view.game_id}: {view.player}, turn {view.turn}", ""]
    if seen:
        lines += ["What happened:", *(f"  {event_line(e)}" for e in seen), ""]
    lines.append("Your Zeppelins:")
    for ship in view.own_ships:
        state = "" if ship.flying else f" ({ship.status})"
        lines += [f"  {describe(ship)}{state}", f"    items: {items(ship)}"]
    others = [s for s in view.ships if s.owner != view.player and s.status == "flying"]
    lines += ["", "Other Zeppelins flying:"]
    lines += [
        f"  {s.id} {s.name} ({s.cls}, {s.owner}) at {s.hex} facing {s.facing}, altitude {s.altitude}"
        + (", IN FLAMES" if s.on_fire else "")
        for s in others
    ] or ["  none"]
    lines.append("")
    if view.phase is Phase.OVER:
        lines.append(f"The game is over: {view.ended}. Winner: {', '.join(view.winners) or 'nobody'}.")
    else:
        lines.append(f"Next: {view.phase} orders for turn {view.turn} (turn limit {view.turn_limit}).")
    return "\n".join(lines) + "\n"
