"""The orders sheet a player fills in: the header, then a line for each flying Zeppelin, with
what the player needs to write it as comments; before turn 1, when the players build their own
fleets, the classes, items and costs, and the ready-made fleet as an example to edit."""

from __future__ import annotations

import textwrap

from engine.lta.combat import Refused, aim
from engine.lta.fleet import design_of
from engine.lta.hexmap import label
from engine.lta.lang.shipline import ship_lines
from engine.lta.orders import SMALL_ARMS, FireOrder
from engine.lta.scenarios import CONVOY, CONVOY_MIN_BULK, MAX_FLEET
from engine.lta.state import Airship, Phase
from engine.lta.tables import AMMO_SHOTS, CARGO, CLASSES, WEAPONS, Cargo, Weapon
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
    if view.phase is Phase.BUILD:
        lines += _building(view)
    elif view.phase is Phase.MOVEMENT:
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


def _building(view: PlayerView) -> list[str]:
    """What a fleet is written with, what everything costs, and the ready-made fleet."""
    classes = ", ".join(
        f"{c} {s.cost} RP {s.slots} slots {s.move} MP {s.gas} gas" for c, s in CLASSES.items()
    )
    weapons = ", ".join(
        f"{w} {s.cost} RP {s.slots} slot{'s' if s.slots != 1 else ''}"
        for w, s in WEAPONS.items()
        if w is not Weapon.SMALL_ARMS
    )
    cargo = ", ".join(f"{c} {s.cost} RP" for c, s in CARGO.items())
    ammo = " or ".join(f"Ammo {w} ({n} shots)" for w, n in AMMO_SHOTS.items())
    said = [
        f"Fleet building: your budget is {view.budget} Resource Points (RP) for at most "
        f"{MAX_FLEET} Zeppelins. Nobody sees your fleet before turn 1.",
        "Write SHIP <class> <name>: <items>, the items separated by commas (a line ending "
        "in a comma goes on on the next); a weapon needs its arc, F, A, S or P; a count "
        "goes first: 2 Patch Crew.",
        f"Classes: {classes}.",
        f"Weapons: {weapons}; Small Arms {WEAPONS[Weapon.SMALL_ARMS].cost} RP, no slot, "
        "one per Zeppelin, any arc.",
        f"Cargo, one slot each: {cargo}. Ammo names its cannon: {ammo}.",
    ]
    if view.side == CONVOY and view.seat == 0:
        said.append(f"Your convoy carries at least {CONVOY_MIN_BULK} Bulk Cargo.")
    ready = sum(s.cost for s in view.own_ships)
    said.append(
        f"The ready-made fleet ({ready} RP) is below: you fly it if you send nothing. "
        "Edit it, or write your own in its place."
    )
    lines = [f"# {part}" for text in said for part in textwrap.wrap(text, 72)]
    return lines + [line for ship in view.own_ships for line in ship_lines(design_of(ship))]
