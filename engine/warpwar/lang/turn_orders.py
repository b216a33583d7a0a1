"""Turn order lines (the Build and Movement events, standing settings, rearrangement) read into
typed orders. Each reader takes the line after its keyword; see docs/players.md for the forms."""

from __future__ import annotations

from collections.abc import Callable

from engine.warpwar.components import Attr, Attributes
from engine.warpwar.lang import messages as msg
from engine.warpwar.lang.combat_orders import combat_order, read_policy, read_priority
from engine.warpwar.lang.reader import LineError, Reader, attributes_of, ship_name, suggest
from engine.warpwar.lang.words import (
    AS,
    AT,
    ATTRIBUTES,
    DROP,
    FROM,
    NONE,
    OFF,
    ONTO,
    PICKUP,
    REPAIR_BAY,
    SHIP_KINDS,
    WARP,
)
from engine.warpwar.orders import (
    BuildBase,
    BuildShip,
    DropStep,
    HexStep,
    LoadHold,
    Move,
    MoveStep,
    PickUpStep,
    Rearrange,
    Repair,
    Resupply,
    Scrap,
    SetDamagePriority,
    SetEcmPolicy,
    SetStandingCombatOrder,
    TurnOrder,
    UnloadHold,
    WarplineStep,
)

BUILD_EXAMPLE = "BUILD WARPSHIP AT Babylon PD=6 B=3 S=2"


def build(line: Reader) -> TurnOrder:
    """``BUILD WARPSHIP|SYSTEMSHIP [AT] <place> <design> [R=1] [AS <name>]``"""
    warp = SHIP_KINDS.get(line.peek())
    if warp is None:
        raise LineError(msg.SHIP_KIND_EXPECTED, suggest(line.peek(), SHIP_KINDS) if line.peek() else ())
    line.take()
    line.skip(AT)
    at = line.place("BUILD", BUILD_EXAMPLE)
    design = line.amounts("BUILD", BUILD_EXAMPLE)
    name = None
    if line.skip(AS):
        name = _new_name(line)
    line.end(BUILD_EXAMPLE + " AS W5")
    return BuildShip(
        at=at,
        warp=warp,
        design=Attributes.model_validate(attributes_of(design)),
        repair_bay=design.get(REPAIR_BAY, 0) == 1,
        name=name,
    )


def _new_name(line: Reader) -> str:
    if line.done():
        raise LineError(msg.SHIP_EXPECTED.format(keyword=AS, example=BUILD_EXAMPLE + " AS W5"))
    word = line.take()
    name = ship_name(word)
    if name is None:
        raise LineError(msg.NOT_A_SHIP_NAME.format(word=word))
    if name in line.context.own_ships:
        raise LineError(msg.NAME_TAKEN.format(ship=name))
    return name


def base(line: Reader) -> TurnOrder:
    """``BASE [AT] <place> <BP>``"""
    example = "BASE AT Mosul 10"
    line.skip(AT)
    at = line.place("BASE", example)
    amount = line.count("the BP to put into the Base", example, low=1)
    line.end(example)
    return BuildBase(at=at, amount=amount)


def load(line: Reader) -> TurnOrder:
    """``LOAD <ship> <BP>``"""
    ship, amount = _ship_and_amount(line, "LOAD", "LOAD W3 10")
    return LoadHold(ship=ship, amount=amount)


def unload(line: Reader) -> TurnOrder:
    """``UNLOAD <ship> <BP>``"""
    ship, amount = _ship_and_amount(line, "UNLOAD", "UNLOAD W3 10")
    return UnloadHold(ship=ship, amount=amount)


def _ship_and_amount(line: Reader, keyword: str, example: str) -> tuple[str, int]:
    ship = line.own_ship(keyword, example)
    amount = line.count(f"the BP to {keyword.lower()}", example, low=1)
    line.end(example)
    return ship, amount


def scrap(line: Reader) -> TurnOrder:
    """``SCRAP <ship>``"""
    ship = line.own_ship("SCRAP", "SCRAP W3")
    line.end("SCRAP W3")
    return Scrap(ship=ship)


def repair(line: Reader) -> TurnOrder:
    """``REPAIR <ship> <amounts> [FROM <Repair Bay ship>]``"""
    example = "REPAIR W3 PD=2 S=1"
    ship = line.own_ship("REPAIR", example)
    allowed = tuple(name for name in ATTRIBUTES if name not in (Attr.M, Attr.SH))
    amounts = line.amounts("REPAIR", example, allowed)
    bay = _repair_bay(line, example)
    return Repair(ship=ship, amounts=Attributes.model_validate(amounts), repair_bay=bay)


def resupply(line: Reader) -> TurnOrder:
    """``RESUPPLY <ship> M=<Missiles> SH=<Shells> [FROM <Repair Bay ship>]``"""
    example = "RESUPPLY W3 M=6 SH=4"
    ship = line.own_ship("RESUPPLY", example)
    amounts = line.amounts("RESUPPLY", example, (Attr.M.value, Attr.SH.value))
    bay = _repair_bay(line, example)
    return Resupply(
        ship=ship, missiles=amounts.get(Attr.M, 0), shells=amounts.get(Attr.SH, 0), repair_bay=bay
    )


def _repair_bay(line: Reader, example: str) -> str | None:
    bay = line.own_ship(FROM, example + " FROM W7") if line.skip(FROM) else None
    line.end(example + " FROM W7")
    return bay


def move(line: Reader) -> TurnOrder:
    """``MOVE <ship> <step> <step> ...``: hexes or stars, ``WARP <star>``, ``DROP <S>``, ``PICKUP <S>``"""
    example = "MOVE W3 1421 1522 WARP Babylon"
    ship = line.own_ship("MOVE", example)
    steps: list[MoveStep] = []
    while not line.done():
        steps.append(_step(line, example))
    if not steps:
        raise LineError(msg.ROUTE_EXPECTED)
    return Move(ship=ship, steps=tuple(steps))


def _step(line: Reader, example: str) -> MoveStep:
    if line.skip(WARP):
        return WarplineStep(to=line.place(WARP, "WARP Babylon"))
    if line.skip(DROP):
        return DropStep(systemship=line.own_ship(DROP, "DROP S20"))
    if line.skip(*PICKUP):
        return PickUpStep(systemship=line.own_ship("PICKUP", "PICKUP S20"))
    return HexStep(to=line.place("MOVE", example))


def priority(line: Reader) -> TurnOrder:
    """``PRIORITY <ship> <attribute> <attribute> ...``"""
    ship = line.own_ship("PRIORITY", "PRIORITY W3 A H SH M")
    order = read_priority(line)
    line.end("PRIORITY W3 A H SH M")
    return SetDamagePriority(ship=ship, priority=order)


def ecm(line: Reader) -> TurnOrder:
    """``ECM <ship> MINIMISE-DAMAGE|FIRST-COME|EVEN``"""
    ship = line.own_ship("ECM", "ECM W3 EVEN")
    policy = read_policy(line)
    line.end("ECM W3 EVEN")
    return SetEcmPolicy(ship=ship, policy=policy)


def standing(line: Reader) -> TurnOrder:
    """``STANDING <ship> <combat order>`` or ``STANDING <ship> NONE``"""
    example = "STANDING W3 ATTACK: D=2 B=3 S=1"
    ship = line.own_ship("STANDING", example)
    if line.skip(NONE):
        line.end(f"STANDING {ship} NONE")
        return SetStandingCombatOrder(ship=ship, order=None)
    order, _ = combat_order(line, ship, example)
    return SetStandingCombatOrder(ship=ship, order=order)


def rearrange(line: Reader) -> TurnOrder:
    """``REARRANGE <Systemship> ONTO <Warpship>`` or ``REARRANGE <Systemship> OFF``"""
    example = "REARRANGE S20 ONTO W3"
    systemship = line.own_ship("REARRANGE", example)
    to = None
    if line.skip(*ONTO):
        to = line.own_ship("ONTO", example)
    elif not line.skip(OFF):
        raise LineError(msg.REARRANGE_FORM)
    line.end(example)
    return Rearrange(systemship=systemship, to=to)


TURN_READERS: dict[str, Callable[[Reader], TurnOrder]] = {
    "BUILD": build,
    "BASE": base,
    "LOAD": load,
    "UNLOAD": unload,
    "SCRAP": scrap,
    "REPAIR": repair,
    "RESUPPLY": resupply,
    "MOVE": move,
    "PRIORITY": priority,
    "ECM": ecm,
    "STANDING": standing,
    "REARRANGE": rearrange,
}
