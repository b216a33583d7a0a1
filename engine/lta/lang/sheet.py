"""The orders sheet a player fills in: the header, then a line for each flying Zeppelin, with
what the player needs to write it as comments."""

from __future__ import annotations

import textwrap

from engine.lta.combat import Refused, aim
from engine.lta.hexmap import label
from engine.lta.orders import SMALL_ARMS, FireOrder
from engine.lta.state import Airship, Phase
from engine.lta.tables import Cargo, Weapon
from engine.lta.views import PlayerView


def describe(ship: Airship) -> str:
    """``A1 Dreadnought (Cruiser) at 0404 facing SE, altitude 5, 3 MP, gas 50/50``, and its damage."""
    hurt = [f"punctures {'+'.join(map(str, ship.punctures))}"] if ship.punctures else []
    hurt += ["IN FLAMES"] if ship.on_fire else []
    hurt += ["steering shot away"] if ship.steering_hit else []
    tail = f"; {', '.join(hurt)}" if hurt else ""
    return (
        f"{ship.id} {ship.name} ({ship.cls}) at {label(ship.col, ship.row)} facing {ship.facing.name}, "
        f"altitude {ship.altitude}, {ship.move_points} MP, gas {ship.gas}/{ship.gas_max}{tail}"
    )


def items(ship: Airship) -> str:
    """``1 L.Cannon F (5 shots), 2 Patch Crew, SA Small Arms``."""
    parts = []
    for item in ship.items:
        arc = f" {item.arc.value}" if item.arc else ""
        shots = f" ({item.shots} shots)" if item.shots is not None else ""
        parts.append(f"{item.key} {item.kind}{arc}{shots}")
    if ship.small_arms:
        parts.append("SA Small Arms")
    return ", ".join(parts) or "nothing aboard"


def _firing(ship: Airship) -> list[int]:
    keys = [
        i.key for i in ship.items if isinstance(i.kind, Weapon) or i.kind in (Cargo.PASSENGERS, Cargo.BOMBS)
    ]
    return keys + ([SMALL_ARMS] if ship.small_arms else [])


def orders_sheet(view: PlayerView, deadline: str | None = None) -> str:
    lines = [f"GAME {view.game_id}", f"PLAYER {view.player}", f"TURN {view.turn}", "CODE ________"]
    if deadline:
        lines.append(f"# Orders are due by {deadline}.")
    own = [s for s in view.own_ships if s.flying]
    if view.phase is Phase.MOVEMENT:
        lines.append(
            f"# Movement orders for turn {view.turn}: F ahead, L/R turn, U/D climb/descend, 1 MP each."
        )
        if view.initiative_chooser == view.player:
            lines += [
                "# You choose the order of play this turn: FIRST (high to low) or LAST.",
                "INITIATIVE FIRST",
            ]
        for ship in own:
            lines += [f"# {describe(ship)}", f"MOVE {ship.id} STAY"]
    elif view.phase is Phase.COMBAT:
        lines.append(f"# Combat orders for turn {view.turn}: remove the # before each shot you want.")
        enemies = [
            s for s in view.ships if s.status == "flying" and s.owner not in (view.player, *view.allies)
        ]
        for ship in own:
            # Wrapped: the sheet goes into a results mail whose text is at most 78 columns.
            listed = textwrap.wrap(f"items: {items(ship)}", 72, subsequent_indent="  ")
            lines += [f"# {describe(ship)}", *(f"#   {part}" for part in listed)]
            for key in _firing(ship):
                for enemy in enemies:
                    order = FireOrder(ship=ship.id, item=key, target=enemy.id)
                    if not isinstance(aim(ship, order, enemy), Refused):
                        item = "SA" if key == SMALL_ARMS else str(key)
                        lines.append(f"# FIRE {ship.id} {item} AT {enemy.id}   ({enemy.name}, in reach now)")
    lines.append("END")
    return "\n".join(lines) + "\n"
