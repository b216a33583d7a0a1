"""The Combat Results Table (rules VI), as data.

A cell is read at the firing ship's tactic row (Missiles always use ATTACK) for the drive
difference (firer's drive, or the Missile's drive, minus the target's drive) and the target
ship's tactic column.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache

from engine.warpwar.orders import Tactic


class Result(StrEnum):
    MISS = "Miss"
    HIT = "Hit"
    HIT_PLUS_1 = "Hit +1"
    HIT_PLUS_2 = "Hit +2"
    ESCAPES = "Escapes"

    @property
    def hits(self) -> bool:
        return self in _HITTING

    @property
    def bonus(self) -> int:
        return _BONUS.get(self, 0)


M, H, H1, H2, E = Result.MISS, Result.HIT, Result.HIT_PLUS_1, Result.HIT_PLUS_2, Result.ESCAPES
_HITTING = frozenset((H, H1, H2))
_BONUS = {H1: 1, H2: 2}

# (lowest difference of the band, or None for "or less", label, (vs ATTACK, vs DODGE, vs RETREAT))
Band = tuple[int | None, str, tuple[Result, Result, Result]]

TABLE: dict[Tactic, tuple[Band, ...]] = {
    Tactic.ATTACK: (
        (None, "-3 or less", (M, M, E)),
        (-2, "-1, -2", (H, M, E)),
        (0, "0, +1", (H2, M, M)),
        (2, "+2", (H1, H1, M)),
        (3, "+3, +4", (M, H, H)),
        (5, "+5 or more", (M, M, M)),
    ),
    Tactic.DODGE: (
        (None, "-4 or less", (M, M, E)),
        (-3, "-2, -3", (M, H, E)),
        (-1, "0, -1", (H, H, E)),
        (1, "+1, +2", (H, M, E)),
        (3, "+3 or more", (M, M, E)),
    ),
    Tactic.RETREAT: (
        (None, "-2 or less", (M, M, E)),
        (-1, "-1, 0", (H, M, E)),
        (1, "+1 or more", (M, M, E)),
    ),
}

COLUMN: dict[Tactic, int] = {Tactic.ATTACK: 0, Tactic.DODGE: 1, Tactic.RETREAT: 2}


def band(firing: Tactic, difference: int) -> Band:
    """The row band of ``firing``'s tactic that holds this drive difference."""
    rows = TABLE[firing]
    chosen = rows[0]
    for row in rows[1:]:
        low = row[0]
        assert low is not None
        if difference >= low:
            chosen = row
    return chosen


@cache
def read(firing: Tactic, difference: int, target: Tactic) -> Result:
    """The CRT cell for a firing tactic, drive difference and target tactic. Remembered, as is
    ``row_label``: every shot and every Missile's ECM choice reads the table, and it is small."""
    return band(firing, difference)[2][COLUMN[target]]


@cache
def row_label(firing: Tactic, difference: int) -> str:
    """How the rules name the row read, e.g. ``ATTACK (0, +1)``."""
    return f"{firing.value} ({band(firing, difference)[1]})"


def table_text() -> str:
    """The table as players read it in plain text (the guide, ``HELP CRT``), made from ``TABLE``
    so that it cannot drift from what the engine reads: a row per band, the firing ship's tactic
    (a Missile's is always ATTACK) named on its first band, a column per target tactic."""
    targets = tuple(COLUMN)
    header = ("Firing", "Drive", *(t.value for t in targets))
    rows = [header, ("tactic", "difference", "", "", "")]
    for firing, bands in TABLE.items():
        for number, (_, label, cells) in enumerate(bands):
            rows.append((firing.value if number == 0 else "", label, *(cell.value for cell in cells)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    rule = "-" * len(max(lines, key=len))
    title = " " * (sum(widths[:2]) + 4) + "Target ship's tactic"
    return "\n".join([title, *lines[:2], rule, *lines[2:]])


MISSILE_HITS = 2
"""Rules VI: "A Missile which hits does 2 hits damage, plus tech level"."""


def worked_example() -> str:
    """The rules' own example (rules VI, "Recording ship damage": W4 against S35), read from
    ``TABLE`` step by step as a player would read it."""
    attack, dodge = Tactic.ATTACK, Tactic.DODGE
    lines = [
        "S35 (TL1) DODGEs with D=4 and fires two Missiles at W4, the first",
        "with D=3, the second with D=4. W4 (TL0) ATTACKs S35: D=2 B=2 S=1.",
        "",
    ]
    total = 0
    for number, drive in ((1, 3), (2, 4)):
        result = read(attack, drive - 2, attack)
        hits = MISSILE_HITS + 1 + result.bonus if result.hits else 0
        total += hits
        lines += [
            f"Missile {number}: its D={drive} minus W4's D=2 is {drive - 2:+d}: a Missile always",
            f"  attacks, so the row is {row_label(attack, drive - 2)}, W4's column ATTACK:",
            f"  {result.value}: {MISSILE_HITS} hits + 1 (S35's TL1) + {result.bonus} = {hits} hits.",
        ]
    beam = read(attack, 2 - 4, dodge)
    lines += [
        f"W4's Screen of 1 (+ TL0) takes 1 of the {total} hits: W4 takes {total - 1} effective hits.",
        f"W4's Beam: its D=2 minus S35's D=4 is -2: row {row_label(attack, -2)},",
        f"  S35's column DODGE: {beam.value}. S35 takes no damage.",
    ]
    return "\n".join(lines)
