"""A ``SHIP`` line of a fleet-building mail, read forgivingly::

    SHIP Escort Blitzkrieger: L.Cannon F, S.Cannon Forward, Machine Gun A, Small Arms
    SHIP Frigate Argosy: 3 Bulk Cargo, Machine Gun Aft, Patch Crew, Small Arms
    SHIP Cruiser Victoria: L.Cannon F, Ammo L.Cannon, 2 Patch Crew

The class comes first (or the name first, if that is how it is written), the items after a
colon, separated by commas (a line ending in a comma goes on on the next line): a weapon with
its arc (F, A, S, P or Forward, Aft, Starboard, Port), a cargo, a count before either
("2 Patch Crew", "2x Bulk Cargo"), Ammo with the cannon it feeds.
Names are read in any case, with or without dots and spaces ("l cannon", "LargeCannon"); a
name not known gets the closest known ones as suggestions.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.core.orderblock import SourceLine
from engine.lta.fleet import Design, Fitting
from engine.lta.hexmap import Arc
from engine.lta.tables import AMMO_SHOTS, Cargo, ShipClass, Weapon

SHIP_FORM = "write SHIP <class> <name>: <items>, e.g. SHIP Escort Blitzkrieger: L.Cannon F, Machine Gun A"
NO_CLASS = "{word} is not a class of Zeppelin: the classes are {classes}"
BAD_NAME = "a Zeppelin's name is one word of letters, digits, ' or - (at most 24), starting with a letter"
NO_ITEM = '"{item}" is not a weapon or cargo'
NO_ARC = "{weapon} needs an arc: F, A, S or P (Forward, Aft, Starboard, Port)"
ARC_ON_CARGO = "{cargo} has no arc: write it without one"
AMMO_FOR = "say which cannon the Ammo feeds: Ammo L.Cannon or Ammo S.Cannon"
SECOND_SMALL_ARMS = "a Zeppelin carries one Small Arms at most"
BAD_COUNT = "a count is 1 to 9, before the item: 2 Patch Crew"

MESSAGES: tuple[str, ...] = (
    SHIP_FORM,
    NO_CLASS,
    BAD_NAME,
    NO_ITEM,
    NO_ARC,
    ARC_ON_CARGO,
    AMMO_FOR,
    SECOND_SMALL_ARMS,
    BAD_COUNT,
)

_SHIP = re.compile(r"^SHIP\s+(\S+)\s+([^:,]+?)\s*(?::\s*(.*))?$", re.IGNORECASE)
_COUNT = re.compile(r"^(\d+)\s*[x*]?\s+(.*)$", re.IGNORECASE)
_ARCS = {"f": Arc.FORWARD, "forward": Arc.FORWARD, "a": Arc.AFT, "aft": Arc.AFT}
_ARCS |= {"s": Arc.STARBOARD, "starboard": Arc.STARBOARD, "p": Arc.PORT, "port": Arc.PORT}


def _key(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


_KINDS: dict[str, Weapon | Cargo] = {_key(k): k for k in (*Weapon, *Cargo)}
# Other ways the text itself writes them ("Large Cannon", the Damage Table's "Flamethrw").
_KINDS |= {"largecannon": Weapon.LARGE_CANNON, "smallcannon": Weapon.SMALL_CANNON}
_KINDS |= {"flamethrw": Weapon.FLAME_THROWER, "gastank": Cargo.GAS_TANKS, "bomb": Cargo.BOMBS}
_KINDS |= {"mg": Weapon.MACHINE_GUN, "patchcrews": Cargo.PATCH_CREW, "passenger": Cargo.PASSENGERS}
_CLASSES = {c.value.lower(): c for c in ShipClass}
_SPOKEN = [*(w.value for w in Weapon), *(c.value for c in Cargo)]


class ShipProblem(BaseModel):
    model_config = ConfigDict(frozen=True)

    message: str
    suggestions: tuple[str, ...] = ()


class ShipLine(BaseModel):
    """A SHIP line read: the design, when the line names a class and a name, and what is wrong."""

    model_config = ConfigDict(frozen=True)

    design: Design | None
    problems: tuple[ShipProblem, ...]


def is_ship_line(text: str) -> bool:
    return text[:4].upper() == "SHIP" and (len(text) == 4 or text[4].isspace())


def read_ship(text: str) -> ShipLine:
    m = _SHIP.match(text)
    if m is None:
        return ShipLine(design=None, problems=(ShipProblem(message=SHIP_FORM),))
    first, name = m.group(1), m.group(2).strip()
    cls = _CLASSES.get(first.lower())
    if cls is None and name.lower() in _CLASSES:
        cls, name = _CLASSES[name.lower()], first
    if cls is None:
        classes = ", ".join(ShipClass)
        close = tuple(
            c.value
            for c in ShipClass
            if c.value.lower() in difflib.get_close_matches(first.lower(), _CLASSES)
        )
        return ShipLine(
            design=None,
            problems=(ShipProblem(message=NO_CLASS.format(word=first, classes=classes), suggestions=close),),
        )
    problems: list[ShipProblem] = []
    fittings: list[Fitting] = []
    small_arms = 0
    for part in (m.group(3) or "").split(","):
        if not part.strip():
            continue
        read, count, wrong = _item(part.strip())
        problems += wrong
        if read is None:
            continue
        if read.kind is Weapon.SMALL_ARMS:
            small_arms += count
        else:
            fittings += [read] * count
    if small_arms > 1:
        problems.append(ShipProblem(message=SECOND_SMALL_ARMS))
    try:
        design = Design(name=name, cls=cls, fittings=tuple(fittings), small_arms=small_arms > 0)
    except ValidationError:
        return ShipLine(design=None, problems=(*problems, ShipProblem(message=BAD_NAME)))
    return ShipLine(design=design, problems=tuple(problems))


def _item(text: str) -> tuple[Fitting | None, int, list[ShipProblem]]:
    """One item of the list, how many of it, and what is wrong with it."""
    count = 1
    if (m := _COUNT.match(text)) is not None:
        count, text = int(m.group(1)), m.group(2)
        if not 1 <= count <= 9:
            return None, 0, [ShipProblem(message=BAD_COUNT)]
    words = text.split()
    whole = _KINDS.get(_key(text))
    arc = _ARCS.get(words[-1].lower()) if len(words) > 1 else None
    kind = whole or (_KINDS.get(_key(" ".join(words[:-1]))) if arc else None)
    if kind is None:
        return _ammo(words, count)
    if whole is not None:
        arc = None
    if isinstance(kind, Weapon):
        if kind is Weapon.SMALL_ARMS:
            return Fitting(kind=kind), count, []
        if arc is None:
            return None, 0, [ShipProblem(message=NO_ARC.format(weapon=kind))]
        return Fitting(kind=kind, arc=arc), count, []
    if arc is not None:
        return None, 0, [ShipProblem(message=ARC_ON_CARGO.format(cargo=kind))]
    if kind is Cargo.AMMO:
        return None, 0, [ShipProblem(message=AMMO_FOR)]
    return Fitting(kind=kind), count, []


def _ammo(words: list[str], count: int) -> tuple[Fitting | None, int, list[ShipProblem]]:
    """``Ammo L.Cannon``, ``L.Cannon Ammo``, ``Ammo (S.Cannon)``; else the item is unknown."""
    keys = [_key(w) for w in words]
    if "ammo" in keys and len(keys) > 1:
        rest = _KINDS.get("".join(k for k in keys if k != "ammo"))
        if rest in AMMO_SHOTS:
            return Fitting(kind=Cargo.AMMO, ammo_for=rest), count, []
        return None, 0, [ShipProblem(message=AMMO_FOR)]
    written = " ".join(words)
    close = tuple(difflib.get_close_matches(written.lower(), [s.lower() for s in _SPOKEN], n=2, cutoff=0.5))
    spoken = tuple(s for s in _SPOKEN if s.lower() in close)
    return None, 0, [ShipProblem(message=NO_ITEM.format(item=written), suggestions=spoken)]


def joined(lines: Sequence[SourceLine]) -> list[SourceLine]:
    """The lines with each SHIP line's continuations (after a line ending in a comma) joined to
    it, under the SHIP line's number."""
    out: list[SourceLine] = []
    for line in lines:
        if out and is_ship_line(out[-1].text) and out[-1].text.endswith(","):
            last = out[-1]
            out[-1] = last.model_copy(
                update={"text": f"{last.text} {line.text}", "raw": f"{last.raw} {line.raw}"}
            )
        else:
            out.append(line)
    return out


def ship_lines(design: Design, width: int = 72) -> list[str]:
    """A design's SHIP line broken after commas to fit ``width``, the rest indented (the first
    item stays on the SHIP line: a line ending in a colon would not go on)."""
    head, _, items = ship_line(design).partition(": ")
    if not items:
        return [head]
    first, *rest = items.split(", ")
    lines = [f"{head}: {first}"]
    for item in rest:
        # Room for ", ", the item and the comma that may follow it.
        if len(lines[-1]) + len(item) + 3 > width:
            lines[-1] += ","
            lines.append(f"  {item}")
        else:
            lines[-1] += f", {item}"
    return lines


def ship_line(design: Design) -> str:
    """A design as a SHIP line, its items in the design's order, counts joined."""
    parts: list[str] = []
    for fitting in design.fittings:
        if fitting.ammo_for is not None:
            parts.append(f"Ammo {fitting.ammo_for}")
        elif fitting.arc is not None:
            parts.append(f"{fitting.kind} {fitting.arc.value}")
        else:
            parts.append(str(fitting.kind))
    joined: list[str] = []
    for part in parts:
        if joined and joined[-1].split(" ", 1)[-1] == part and joined[-1][0].isdigit():
            n, _ = joined[-1].split(" ", 1)
            joined[-1] = f"{int(n) + 1} {part}"
        elif joined and joined[-1] == part:
            joined[-1] = f"2 {part}"
        else:
            joined.append(part)
    if design.small_arms:
        joined.append("Small Arms")
    items = f": {', '.join(joined)}" if joined else ""
    return f"SHIP {design.cls} {design.name}{items}"
