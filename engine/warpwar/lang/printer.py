"""Orders as canonical text in the order language (docs/players.md): what the parser reads back
to exactly the same orders, what acknowledgements show and what robots send.

Places are printed as hex numbers and enemy ships by uid, so the text needs no map to be read.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.orderblock import Header
from engine.warpwar.components import NOTATION_ORDER, Attributes
from engine.warpwar.orders import (
    BuildBase,
    BuildShip,
    CombatOrder,
    LoadHold,
    Move,
    MoveStep,
    Rearrange,
    Repair,
    Resupply,
    RoundOrders,
    Scrap,
    SetDamagePriority,
    SetEcmPolicy,
    SetStandingCombatOrder,
    TurnOrder,
    TurnOrders,
    UnloadHold,
)


def design_text(design: Attributes, repair_bay: bool = False) -> str:
    """A design in the rules' record notation, ``PD=6 B=3 S=2 T=1 M=3``; ``R=1`` for a Repair Bay.
    Attributes at zero are left out (``PD=0`` stands for a design with nothing at all)."""
    parts = [f"{attr.value}={design.get(attr)}" for attr in NOTATION_ORDER if design.get(attr)]
    if repair_bay:
        parts.append("R=1")
    return " ".join(parts) or "PD=0"


def _step_text(step: MoveStep) -> str:
    if step.kind == "hex":
        return step.to
    if step.kind == "warp":
        return f"WARP {step.to}"
    if step.kind == "drop":
        return f"DROP {step.systemship}"
    return f"PICKUP {step.systemship}"


def _from(repair_bay: str | None) -> str:
    return f" FROM {repair_bay}" if repair_bay else ""


def order_text(order: TurnOrder) -> str:
    """One turn order as one line, e.g. ``MOVE W3 1421 1522 WARP 2223``."""
    match order:
        case LoadHold():
            return f"LOAD {order.ship} {order.amount}"
        case UnloadHold():
            return f"UNLOAD {order.ship} {order.amount}"
        case Scrap():
            return f"SCRAP {order.ship}"
        case BuildShip():
            kind = "WARPSHIP" if order.warp else "SYSTEMSHIP"
            name = f" AS {order.name}" if order.name else ""
            return f"BUILD {kind} AT {order.at} {design_text(order.design, order.repair_bay)}{name}"
        case BuildBase():
            return f"BASE AT {order.at} {order.amount}"
        case Repair():
            return f"REPAIR {order.ship} {design_text(order.amounts)}{_from(order.repair_bay)}"
        case Resupply():
            return f"RESUPPLY {order.ship} M={order.missiles} SH={order.shells}{_from(order.repair_bay)}"
        case Move():
            return f"MOVE {order.ship} " + " ".join(_step_text(step) for step in order.steps)
        case SetDamagePriority():
            return f"PRIORITY {order.ship} " + " ".join(attr.value for attr in order.priority)
        case SetEcmPolicy():
            return f"ECM {order.ship} {order.policy.value.upper()}"
        case SetStandingCombatOrder():
            rest = "NONE" if order.order is None else _combat_body(order.order)
            return f"STANDING {order.ship} {rest}"
        case Rearrange():
            return f"REARRANGE {order.systemship} " + (f"ONTO {order.to}" if order.to else "OFF")


def _combat_body(order: CombatOrder) -> str:
    """Everything of a combat order after the ship's name.

    The target after the tactic is both the Beam and the Cannon target; when they differ each
    is written with its weapon (``B=3@P2.W7``, ``C=2,1@P2.W8``)."""
    shared = order.beam_target if order.beam_target == order.cannon_target else None
    head = order.tactic.value + (f" {shared}" if shared else "") + ":"
    parts = [head, f"D={order.drive}"]
    beam_target = order.beam_target if order.beam_target != shared else None
    if order.beam or beam_target:
        parts.append(f"B={order.beam}" + (f"@{beam_target}" if beam_target else ""))
    if order.screen:
        parts.append(f"S={order.screen}")
    if order.ecm:
        parts.append(f"E={order.ecm}")
    if order.missiles:
        shots = (("" if shot.target == shared else shot.target) + f"@{shot.drive}" for shot in order.missiles)
        parts.append("M=" + ",".join(shots))
    cannon_target = order.cannon_target if order.cannon_target != shared else None
    if order.cannons or cannon_target:
        shells = ",".join(str(count) for count in order.cannons)
        parts.append(f"C={shells}" + (f"@{cannon_target}" if cannon_target else ""))
    if order.pick_up:
        parts.append("PICKUP " + " ".join(order.pick_up))
    if order.drop:
        parts.append("DROP " + " ".join(order.drop))
    if order.retreat_to:
        parts.append(f"RETREAT-TO {order.retreat_to}")
    if order.damage_priority is not None:
        parts.append("PRIORITY " + (" ".join(a.value for a in order.damage_priority) or "NONE"))
    if order.ecm_policy is not None:
        parts.append(f"ECM {order.ecm_policy.value.upper()}")
    return " ".join(parts)


def combat_order_text(ship: str, order: CombatOrder) -> str:
    """One ship's combat round order, e.g. ``W3 ATTACK P2.S25: D=0 B=3 S=2``."""
    return f"{ship} {_combat_body(order)}"


def header_lines(header: Header) -> list[str]:
    lines = []
    if header.game is not None:
        lines.append(f"GAME {header.game}")
    if header.player is not None:
        lines.append(f"PLAYER {header.player}")
    if header.turn is not None:
        lines.append(f"TURN {header.turn}")
    if header.code is not None:
        lines.append(f"CODE {header.code}")
    if header.add:
        lines.append("ADD")
    if header.check:
        lines.append("CHECK")
    return lines


def round_lines(rounds: RoundOrders) -> list[str]:
    """A COMBAT section: its line, then one line per ship in name order."""
    lines = [f"COMBAT {rounds.star} ROUND {rounds.round}"]
    lines.extend(combat_order_text(ship, rounds.ships[ship]) for ship in sorted(rounds.ships))
    return lines


def mail_text(header: Header, turn: TurnOrders | None = None, rounds: Sequence[RoundOrders] = ()) -> str:
    """A whole order block: header, turn orders, COMBAT sections, END."""
    lines = header_lines(header)
    if turn is not None:
        lines.extend(order_text(order) for order in turn.orders)
    for section in rounds:
        lines.extend(round_lines(section))
    lines.append("END")
    return "\n".join(lines) + "\n"
