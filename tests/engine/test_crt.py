"""The Combat Results Table (rules VI), checked cell by cell against a transcription of the
rules' table made here independently of engine/warpwar/crt.py, and the rules' CRT examples."""

from __future__ import annotations

import pytest

from engine.warpwar import crt
from engine.warpwar.crt import Result
from engine.warpwar.orders import Tactic

# The rules' table, row by row: (lowest difference, highest difference, label as printed,
# results against ATTACK, DODGE, RETREAT). -99/+99 stand for "or less" / "or more".
RULES_CRT: dict[str, list[tuple[int, int, str, tuple[str, str, str]]]] = {
    "ATTACK": [
        (-99, -3, "-3 or less", ("Miss", "Miss", "Escapes")),
        (-2, -1, "-1, -2", ("Hit", "Miss", "Escapes")),
        (0, 1, "0, +1", ("Hit +2", "Miss", "Miss")),
        (2, 2, "+2", ("Hit +1", "Hit +1", "Miss")),
        (3, 4, "+3, +4", ("Miss", "Hit", "Hit")),
        (5, 99, "+5 or more", ("Miss", "Miss", "Miss")),
    ],
    "DODGE": [
        (-99, -4, "-4 or less", ("Miss", "Miss", "Escapes")),
        (-3, -2, "-2, -3", ("Miss", "Hit", "Escapes")),
        (-1, 0, "0, -1", ("Hit", "Hit", "Escapes")),
        (1, 2, "+1, +2", ("Hit", "Miss", "Escapes")),
        (3, 99, "+3 or more", ("Miss", "Miss", "Escapes")),
    ],
    "RETREAT": [
        (-99, -2, "-2 or less", ("Miss", "Miss", "Escapes")),
        (-1, 0, "-1, 0", ("Hit", "Miss", "Escapes")),
        (1, 99, "+1 or more", ("Miss", "Miss", "Escapes")),
    ],
}
COLUMNS = ("ATTACK", "DODGE", "RETREAT")


def rules_cell(firing: str, difference: int, target: str) -> tuple[str, str]:
    for low, high, label, results in RULES_CRT[firing]:
        if low <= difference <= high:
            return label, results[COLUMNS.index(target)]
    raise AssertionError("the transcription has a gap")


CELLS = [
    (firing, difference, target) for firing in COLUMNS for target in COLUMNS for difference in range(-8, 9)
]


@pytest.mark.parametrize(("firing", "difference", "target"), CELLS)
def test_crt_cell_matches_the_rules_table(firing: str, difference: int, target: str) -> None:
    # Given the rules' table
    label, expected = rules_cell(firing, difference, target)
    # When the engine reads the same cell
    result = crt.read(Tactic(firing), difference, Tactic(target))
    # Then it gives the rules' result, in the rules' row
    assert result.value == expected
    assert crt.row_label(Tactic(firing), difference) == f"{firing} ({label})"


def test_crt_has_every_tactic_row_and_column() -> None:
    assert set(crt.TABLE) == set(Tactic)
    assert len(CELLS) == 3 * 3 * 17


def test_hit_bonuses_add_one_and_two_hits() -> None:
    """ "HIT +1" and "HIT +2" mean you add one and two hits"; MISS and ESCAPES do no damage."""
    assert [r.bonus for r in Result] == [0, 0, 1, 2, 0]
    assert [r.hits for r in Result] == [False, True, True, True, False]


def test_beam_fire_example_dodge_plus_one_against_attack_hits() -> None:
    """Beam Fire Example: firer DODGEs with Drive 3, the target ATTACKs with Drive 2: "+1 ...
    the firing ship's DODGE row at +1, +2 ... The result at this intersection is HIT"."""
    difference = 3 - 2
    assert crt.row_label(Tactic.DODGE, difference) == "DODGE (+1, +2)"
    assert crt.read(Tactic.DODGE, difference, Tactic.ATTACK) is Result.HIT
    # "(It also would have been read if the difference was +2.)"
    assert crt.row_label(Tactic.DODGE, 2) == "DODGE (+1, +2)"


def test_cannon_fire_example_reads_like_beam_fire_and_both_shells_hit() -> None:
    """Cannon Fire Example: DODGE, Drive 3, one Cannon firing 2 Shells at an ATTACKing target
    with Drive 2: "HIT  Both Shells hit" (1 hit per Shell, TL 0 adds nothing)."""
    result = crt.read(Tactic.DODGE, 3 - 2, Tactic.ATTACK)
    assert result is Result.HIT
    shells, tech_level = 2, 0
    assert shells + tech_level + result.bonus == 2


def test_missile_fire_example_drive_four_against_drive_three_is_hit_plus_two() -> None:
    """Missile Fire Example: Missile Drive 4, target ATTACKs with Drive 3: "the firing ship's
    ATTACK (0, +1) row ... The result at that intersection is Hit +2"."""
    difference = 4 - 3
    assert crt.row_label(Tactic.ATTACK, difference) == "ATTACK (0, +1)"
    assert crt.read(Tactic.ATTACK, difference, Tactic.ATTACK) is Result.HIT_PLUS_2
