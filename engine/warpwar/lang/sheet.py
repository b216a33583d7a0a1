"""Orders sheets: what a player fills in and sends back (issue 3, "The orders sheet for the next turn:
pre-filled header with game, player, turn, deadline ... a commented line per ship and Base with what
it can do (MP left, BP available), so that filling it in and replying works").

A sheet is an order block as it stands: sent back untouched it is read without a single problem.
Lines starting ``##`` tell the player what they have; lines starting ``# `` are example orders,
each valid on its own: removing the ``# `` in front of one gives an order the checker accepts.
The secret code is never printed unless given (the player opted in).
"""

from __future__ import annotations

from engine.warpwar.combat import default_order
from engine.warpwar.components import (
    MISSILES_PER_BP,
    SHELLS_PER_BP,
    WARP_GENERATOR_COST,
    Attr,
    Attributes,
    ceil_div,
    repair_cost,
)
from engine.warpwar.hexgrid import adjacency
from engine.warpwar.lang.check import orders_turn, where
from engine.warpwar.lang.printer import combat_order_text, order_text
from engine.warpwar.orders import (
    BuildShip,
    CombatOrder,
    MissileShot,
    Move,
    Repair,
    Resupply,
    Tactic,
    TurnOrder,
)
from engine.warpwar.routes import distances, route
from engine.warpwar.ships import Ship
from engine.warpwar.state import BASE_COST, Base
from engine.warpwar.views import CombatView, PlayerView

CODE_PLACEHOLDER = "________"
EXAMPLE = "# "
NOTE = "## "
CRT_NOTE = "The Combat Results Table and how to read it: send a mail HELP CRT"
EXAMPLE_MISSILE_DRIVE = 3
INTRO = (
    "One order per line; # starts a comment. Remove the '# ' in front of an",
    "example to use it (each example is good on its own; together they may",
    "need more BP than you have). Send everything from GAME down to END.",
)


def orders_sheet(view: PlayerView, deadline: str | None = None, code: str | None = None) -> str:
    """The sheet for the player's next player-turn."""
    turn = orders_turn(view)
    lines = [f"# WarpWar orders for game {view.game_id}, turn {turn}, player {_player_label(view)}"]
    lines += _intro(deadline)
    lines += _header(view, turn, code)
    lines += _bases(view)
    lines += _ships(view)
    lines.append("END")
    return "\n".join(lines) + "\n"


def combat_sheet(view: PlayerView, star: str, deadline: str | None = None, code: str | None = None) -> str:
    """The sheet for the next round of the player's combat at ``star``."""
    place = where(view, star)
    combat = next((c for c in view.combats if c.star == star), None)
    round_ = combat.round if combat is not None else 1
    lines = [
        f"# WarpWar combat orders for game {view.game_id}: {place}, round {round_}, "
        f"player {_player_label(view)}"
    ]
    lines += _intro(deadline)
    lines += _header(view, view.turn, code)
    if combat is None:
        lines.append(f"{NOTE}You have no combat at {place}.")
    else:
        lines += _combat(view, combat)
    lines += [f"{NOTE}{CRT_NOTE}", "END"]
    return "\n".join(lines) + "\n"


def _player_label(view: PlayerView) -> str:
    me = next((p for p in view.players if p.id == view.player), None)
    return f"{view.player} ({me.name})" if me is not None and me.name != view.player else view.player


def _intro(deadline: str | None) -> list[str]:
    lines = [f"# {text}" for text in INTRO]
    if deadline is not None:
        lines.append(f"# Deadline: {deadline}")
    return lines


def _header(view: PlayerView, turn: int, code: str | None) -> list[str]:
    return [
        f"GAME {view.game_id}",
        f"PLAYER {view.player}",
        f"TURN {turn}",
        f"CODE {code or CODE_PLACEHOLDER}",
    ]


def _example(order: TurnOrder) -> str:
    return EXAMPLE + order_text(order)


# --- Bases ---


def _bases(view: PlayerView) -> list[str]:
    if not view.own_bases:
        return []
    lines = ["#", f"{NOTE}BASES (a Warpship costs {WARP_GENERATOR_COST} BP plus its attributes)"]
    for base in view.own_bases:
        lines += _base(view, base)
    return lines


def _base(view: PlayerView, base: Base) -> list[str]:
    place = where(view, base.star)
    if not base.complete:
        cargo = sum(s.cargo for s in view.own_ships if s.location == base.star)
        return [
            f"{NOTE}Base being built at {place}: {base.invested}/{BASE_COST} BP; "
            f"ships there carry {cargo} BP (BASE AT {base.star} <BP>)"
        ]
    lines = [f"{NOTE}Base at {place}: {base.stockpile} BP to build, repair and resupply"]
    build = _example_build(view, base)
    if build is not None:
        lines.append(_example(build))
    return lines


def _example_build(view: PlayerView, base: Base) -> BuildShip | None:
    """A balanced Warpship that uses the Base's whole stockpile: 40% Power/Drive, Beams, Screens."""
    points = base.stockpile - WARP_GENERATOR_COST
    if points < 1:
        return None
    pd = max(1, (points * 2 + 4) // 5)
    rest = points - pd
    beam = (rest + 1) // 2
    return BuildShip(at=base.star, warp=True, design=Attributes(PD=pd, B=beam, S=rest - beam))


# --- Ships ---


def _ships(view: PlayerView) -> list[str]:
    ships = [s for s in sorted(view.own_ships, key=_ship_order) if not s.destroyed]
    if not ships:
        return []
    lines = ["#", f"{NOTE}SHIPS (MP: Movement Points, half of PD rounded up)"]
    grid = adjacency(view.hexes)
    for ship in ships:
        lines.append(NOTE + _ship_line(view, ship))
        examples: list[TurnOrder] = [*_example_upkeep(view, ship)]
        move = _example_move(view, grid, ship)
        if move is not None:
            examples.append(move)
        lines += [_example(order) for order in examples]
    return lines


def _ship_order(ship: Ship) -> tuple[str, int]:
    return ship.name[0], int(ship.name[1:])


def _ship_line(view: PlayerView, ship: Ship) -> str:
    place = where(view, ship.location)
    if ship.carried_by is not None:
        return f"{ship.record()} -- carried by {ship.carried_by.split('.', 1)[1]} at {place}"
    if not ship.is_warpship:
        return f"{ship.record()} -- at {place}; moves only when a Warpship carries it"
    return f"{ship.record()} -- at {place}, {ship.movement_points} MP"


def _example_upkeep(view: PlayerView, ship: Ship) -> list[TurnOrder]:
    """Repair and resupply at a complete Base of the player's, when its stockpile pays for all."""
    base = next((b for b in view.own_bases if b.star == ship.location and b.complete), None)
    if base is None:
        return []
    orders: list[TurnOrder] = []
    missing = {a.value: ship.built.get(a) - ship.current.get(a) for a in Attr if a not in (Attr.M, Attr.SH)}
    amounts = Attributes(**missing)
    if 0 < repair_cost(amounts) <= base.stockpile:
        orders.append(Repair(ship=ship.name, amounts=amounts))
    missiles, shells = ship.built.M - ship.current.M, ship.built.SH - ship.current.SH
    if (missiles or shells) and ceil_div(missiles, MISSILES_PER_BP) + ceil_div(
        shells, SHELLS_PER_BP
    ) <= base.stockpile:
        orders.append(Resupply(ship=ship.name, missiles=missiles, shells=shells))
    return orders


def _example_move(view: PlayerView, grid: dict[str, tuple[str, ...]], ship: Ship) -> Move | None:
    """To the nearest star in reach, unowned stars first, never onto an enemy Base on the first turn."""
    if not ship.is_warpship or ship.carried_by is not None or ship.movement_points == 0:
        return None
    reach = distances(grid, ship.location, view.warplines)
    enemy_bases = {s.hex for s in view.stars if s.base_owner not in (None, view.player)}
    candidates = sorted(
        (s.owner == view.player, reach[s.hex], s.hex)
        for s in view.stars
        if s.hex != ship.location and 0 < reach.get(s.hex, ship.movement_points + 1) <= ship.movement_points
    )
    for _, _, star in candidates:
        steps = route(grid, ship.location, star, view.warplines)
        if view.turn == 1 and any(step.to in enemy_bases for step in steps):
            continue
        return Move(ship=ship.name, steps=tuple(steps))
    return None


# --- Combat ---


def _combat(view: PlayerView, combat: CombatView) -> list[str]:
    place = where(view, combat.star)
    enemies = list(combat.enemy_ships)
    lines = [
        f"COMBAT {combat.star} ROUND {combat.round}",
        f"{NOTE}Enemy ships seen at {place}: {', '.join(enemies) or 'none'}",
        f"{NOTE}Power: D+B+S+E, plus 1 per Missile and per Cannon fired, at most PD",
    ]
    for uid in combat.own_ships:
        ship = view.ship(uid.split(".", 1)[1])
        if ship is None or ship.carried_by is not None:
            continue
        lines.append(f"{NOTE}{ship.record()}")
        lines += [EXAMPLE + combat_order_text(ship.name, order) for order in _combat_examples(ship, enemies)]
    return lines


def _combat_examples(ship: Ship, enemies: list[str]) -> list[CombatOrder]:
    """An attack with what the ship has, a dodge with full Screens and ECM, and a retreat (for a
    Warpship that can move)."""
    now = ship.current
    power = now.PD
    orders = []
    volley = min(now.T, now.M, power)
    if enemies and now.B and power:
        beam = min(now.B, power)
        screen = min(now.S, power - beam)
        orders.append(
            CombatOrder(
                tactic=Tactic.ATTACK,
                drive=power - beam - screen,
                beam=beam,
                beam_target=enemies[0],
                cannon_target=enemies[0],
                screen=screen,
            )
        )
    elif enemies and volley:
        shots = tuple(MissileShot(target=enemies[0], drive=EXAMPLE_MISSILE_DRIVE) for _ in range(volley))
        orders.append(CombatOrder(tactic=Tactic.ATTACK, drive=power - volley, missiles=shots))
    orders.append(default_order(ship))
    if ship.is_warpship and power:  # "A Warpship whose PD is reduced to zero may not move"
        screen = min(now.S, power)
        orders.append(CombatOrder(tactic=Tactic.RETREAT, drive=power - screen, screen=screen))
    return orders
