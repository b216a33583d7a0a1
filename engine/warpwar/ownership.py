"""Who owns a star (rules IV, "Ship building").

"If Player 1 moves through an unowned star it is now owned by Player 1 and produces BPs at the
start of Player 1's next turn. If Player 2 moves through it on his turn there are no BPs right
away BUT it is now owned by Player 2." A star with a Base belongs to the Base's owner until the
Base is destroyed (see docs/rules-interpretations.md).
"""

from __future__ import annotations

from engine.warpwar.context import Step
from engine.warpwar.events import StarOwnerChanged
from engine.warpwar.state import StarControl


def claim(step: Step, star: str, player: str) -> None:
    """``player`` passes through or holds ``star``: it becomes theirs unless another's Base is there."""
    if star not in step.star_at:
        return
    base = step.bases.get(star)
    if base is not None and base.owner != player:
        return
    current = step.control.get(star)
    if current is not None and current.owner == player:
        return
    step.control[star] = StarControl(owner=player, since_turn=step.turn)
    previous = current.owner if current else None
    viewers = step.observers(star, player)
    if not step.open_game:
        # Open games read owners from the state (knowledge.known_to).
        for viewer in viewers:
            step.knowledge(viewer).owners[star] = player
    step.emit(step.event(StarOwnerChanged, viewers, star=star, owner=player, previous=previous))


def produces_for(step: Step, star: str, player: str) -> bool:
    """Stars produce "beginning on the turn AFTER the turn that player took ownership"."""
    control = step.control.get(star)
    return control is not None and control.owner == player and control.since_turn < step.turn
