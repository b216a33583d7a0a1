"""Combat round orders (rules VI, combat round sequence step 1) read from their line.

    W3 ATTACK P2.S25: D=0 B=3 S=2 E=1 M=P2.S25@3,@2 C=2,1 PICKUP S20 DROP S21 RETREAT-TO 1522
    W3 (TL0) ATTACKS S25: D=0 B=3 S=2 T=0            # the rules' own notation
    S25 (TL0) DODGE: D=4 B=0 S=0 T=1                 # ... with a Missile on the next line:
      M ATTACKS W3: D=3

The target after the tactic is the Beam and Cannon target (``B=3@P2.W7`` and ``C=2,1@P2.W8``
give each its own) and the target of every Missile written without one (``M=@3``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.warpwar.components import MAX_SHELLS_PER_CANNON, Attr
from engine.warpwar.lang import messages as msg
from engine.warpwar.lang.reader import LineError, Reader, check_range, read_number, suggest
from engine.warpwar.lang.words import (
    ATTRIBUTES,
    COMBAT_ITEMS,
    COMBAT_WORDS,
    DROP,
    ECM_POLICIES,
    PICKUP,
    RETREAT_TO,
    TACTICS,
)
from engine.warpwar.orders import CombatOrder, EcmPolicy, MissileShot, Tactic

MAX_PRIORITY = 4 * len(Attr)
MAX_MISSILE_DRIVE = 99
_TECH_LEVEL = re.compile(r"^TL\d+$")
_POWERED = ("D", "B", "S", "E", "T")
_POWER_NAMES = {"D": "Drive", "B": "Beam", "S": "Screen", "E": "ECM", "T": "Tubes"}


@dataclass
class _Parts:
    """What a combat line says, before targets are settled."""

    power: dict[str, int] = field(default_factory=dict)
    beam_target: str | None = None
    missiles: list[tuple[str | None, int]] = field(default_factory=list)
    cannons: list[int] = field(default_factory=list)
    cannon_target: str | None = None
    pick_up: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()
    retreat_to: str | None = None
    priority: tuple[Attr, ...] | None = None
    policy: EcmPolicy | None = None
    seen: set[str] = field(default_factory=set)

    def once(self, item: str) -> None:
        if item in self.seen:
            raise LineError(msg.GIVEN_TWICE.format(item=item))
        self.seen.add(item)


def combat_order(line: Reader, ship: str, example: str) -> tuple[CombatOrder, int | None]:
    """The order after a ship's name, and the Tubes it powers (``T=``) when it says so."""
    if _TECH_LEVEL.match(line.peek()):
        line.take()
    tactic = _tactic(line, ship, example)
    target = None
    if not line.done() and "=" not in line.peek() and line.peek() not in COMBAT_WORDS:
        target = line.enemy(line.take())
    parts = _Parts()
    while not line.done():
        _item(line, parts)
    return _order(tactic, target, parts), parts.power.get("T")


def _tactic(line: Reader, ship: str, example: str) -> Tactic:
    tactic = TACTICS.get(line.peek())
    if tactic is None:
        hints = suggest(line.peek(), TACTICS) if line.peek() else ()
        raise LineError(msg.TACTIC_EXPECTED.format(ship=ship, example=example), hints)
    line.take()
    return tactic


def _order(tactic: Tactic, target: str | None, parts: _Parts) -> CombatOrder:
    missiles = []
    for shot_target, drive in parts.missiles:
        aimed = shot_target or target
        if aimed is None:
            raise LineError(msg.MISSILE_WITHOUT_TARGET)
        missiles.append(MissileShot(target=aimed, drive=drive))
    return CombatOrder(
        tactic=tactic,
        drive=parts.power.get("D", 0),
        beam=parts.power.get("B", 0),
        beam_target=parts.beam_target or target,
        screen=parts.power.get("S", 0),
        ecm=parts.power.get("E", 0),
        missiles=tuple(missiles),
        cannons=tuple(parts.cannons),
        cannon_target=parts.cannon_target or target,
        pick_up=parts.pick_up,
        drop=parts.drop,
        retreat_to=parts.retreat_to,
        damage_priority=parts.priority,
        ecm_policy=parts.policy,
    )


def _item(line: Reader, parts: _Parts) -> None:
    word = line.take()
    upper = word.upper()
    if "=" in word:
        name, _, value = word.partition("=")
        _setting(line, parts, name.upper(), value, word)
    elif upper in PICKUP:
        parts.once("PICKUP")
        parts.pick_up = line.own_ships("PICKUP", "PICKUP S20")
    elif upper == DROP:
        parts.once(DROP)
        parts.drop = line.own_ships(DROP, "DROP S20")
    elif upper in RETREAT_TO:
        parts.once("RETREAT-TO")
        parts.retreat_to = line.place("RETREAT-TO", "RETREAT-TO 1522")
    elif upper == "PRIORITY":
        parts.once("PRIORITY")
        parts.priority = read_priority(line)
    elif upper == "ECM":
        parts.once("ECM")
        parts.policy = read_policy(line)
    else:
        raise LineError(msg.UNKNOWN_COMBAT_WORD.format(word=word), suggest(upper, COMBAT_ITEMS))


def _setting(line: Reader, parts: _Parts, name: str, value: str, word: str) -> None:
    if name == "M":
        parts.missiles.extend(_missiles(line, value, word))
    elif name == "C":
        _cannons(line, parts, value, word)
    elif name in _POWERED:
        parts.once(name)
        amount, _, aimed = value.partition("@")
        what = f"{_POWER_NAMES[name]} ({word})"
        parts.power[name] = read_number(amount, what, f"{name}=2")
        if aimed and name == "B":
            parts.beam_target = line.enemy(aimed)
        elif aimed:
            raise LineError(msg.UNKNOWN_COMBAT_WORD.format(word=word))
    else:
        raise LineError(msg.UNKNOWN_COMBAT_WORD.format(word=word), suggest(name + "=", COMBAT_ITEMS))


def _missiles(line: Reader, value: str, word: str) -> list[tuple[str | None, int]]:
    shots: list[tuple[str | None, int]] = []
    for piece in value.split(","):
        aimed, at, drive = piece.rpartition("@")
        if not at or not drive:
            raise LineError(msg.MISSILE_FORM.format(word=word))
        target = line.enemy(aimed) if aimed else None
        shots.append(
            (target, read_number(drive, f"a Missile's drive ({word})", "M=@3", 1, MAX_MISSILE_DRIVE))
        )
    return shots


def _cannons(line: Reader, parts: _Parts, value: str, word: str) -> None:
    shells, _, aimed = value.partition("@")
    for piece in shells.split(",") if shells else ():
        if not piece.isdigit():
            raise LineError(msg.CANNON_FORM.format(word=word))
        what = f"the Shells a Cannon fires ({word})"
        parts.cannons.append(read_number(piece, what, "C=2", 1, MAX_SHELLS_PER_CANNON))
    if aimed:
        target = line.enemy(aimed)
        if parts.cannon_target not in (None, target):
            raise LineError(msg.GIVEN_TWICE.format(item="the Cannon target"))
        parts.cannon_target = target
    elif not shells:
        raise LineError(msg.CANNON_FORM.format(word=word))


def missile_line(line: Reader) -> MissileShot:
    """``M ATTACKS <target>: D=<drive>``: a Missile of the ship on the line above (rules' notation)."""
    if TACTICS.get(line.peek()) is not Tactic.ATTACK:
        raise LineError(msg.MISSILE_LINE_FORM)
    line.take()
    if line.done() or "=" in line.peek():
        raise LineError(msg.MISSILE_LINE_FORM)
    target = line.enemy(line.take())
    if line.done():
        raise LineError(msg.MISSILE_LINE_FORM)
    name, _, value = line.take().partition("=")
    if name.upper() != "D":
        raise LineError(msg.MISSILE_LINE_FORM)
    drive = read_number(value, "a Missile's drive", "D=3", 1, MAX_MISSILE_DRIVE)
    line.end("M ATTACKS W3: D=3")
    return MissileShot(target=target, drive=drive)


def read_priority(line: Reader) -> tuple[Attr, ...]:
    """Attribute names, hit first to hit last, up to the first word that is not one."""
    order: list[Attr] = []
    while not line.done() and line.peek() in ATTRIBUTES:
        order.append(ATTRIBUTES[line.take().upper()])
    if not order:
        word = line.peek()
        if word.isalpha() and len(word) <= 3 and word not in COMBAT_WORDS:
            raise LineError(msg.UNKNOWN_ATTRIBUTE.format(attr=line.take()), suggest(word, ATTRIBUTES))
        raise LineError(msg.PRIORITY_EXPECTED)
    check_range(len(order), "the number of attributes in a PRIORITY", 1, MAX_PRIORITY)
    return tuple(order)


def read_policy(line: Reader) -> EcmPolicy:
    """``MINIMISE-DAMAGE``, ``FIRST-COME`` or ``EVEN`` (also written with a space)."""
    pair = "-".join(line.upper[line.at : line.at + 2])
    if pair in ECM_POLICIES and line.at + 2 <= len(line.words):
        line.at += 2
        return ECM_POLICIES[pair]
    policy = ECM_POLICIES.get(line.peek())
    if policy is None:
        raise LineError(msg.ECM_POLICY_EXPECTED, suggest(line.peek(), ECM_POLICIES) if line.peek() else ())
    line.take()
    return policy
