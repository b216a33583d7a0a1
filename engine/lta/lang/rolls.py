"""The answer to ROLLS: the player's own dice so far, each with its use; at the end every
player's, with the seeds to check them (docs/lta-dice.md)."""

from __future__ import annotations

from engine.lta.dice import Roll
from engine.lta.views import PlayerView


def roll_line(roll: Roll) -> str:
    die = f"d{roll.sides:<3d}= {roll.value:<3d}"
    return f"{roll.n:5d}  turn {roll.turn:<3d} {roll.phase:<10} {die} {roll.purpose}"


def rolls_text(view: PlayerView) -> str:
    lines = [f"Your die rolls in game {view.game_id} ({view.player}), in the order drawn:"]
    lines += [roll_line(r) for r in view.my_rolls] or ["  none yet"]
    lines.append(f"Your seed's SHA-256, published at the start: {view.commitments[view.player]}")
    if view.revealed is not None:
        for player, seed in view.revealed.seeds.items():
            lines += ["", f"{player}: seed {seed}, SHA-256 {view.commitments[player]}"]
            lines += [roll_line(r) for r in view.revealed.rolls[player]]
        lines += ["", "docs/lta-dice.md shows how to recompute every roll from its seed."]
    return "\n".join(lines) + "\n"
