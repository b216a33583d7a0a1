"""The Combat Results Table (rules VI), checked cell by cell against a transcription of the
rules' table made here independently of engine/warpwar/crt.py, and the rules' CRT examples."""

from __future__ import annotations

import re
from pathlib import Path

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


# --- The table as players read it (docs/players.md, HELP CRT) ---

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "players.md"


def test_the_table_text_has_every_row_of_the_rules_table_in_order() -> None:
    lines = crt.table_text().splitlines()
    assert lines[1].split() == ["Firing", "Drive", *COLUMNS]
    rows = [line for line in lines if any(f"  {r}" in line for r in ("Miss", "Hit", "Escapes"))]
    expected = [
        [firing if number == 0 else "", label, *results]
        for firing, bands in RULES_CRT.items()
        for number, (_, _, label, results) in enumerate(bands)
    ]
    read = [[cell.strip() for cell in _cells(row)] for row in rows]
    assert read == expected
    assert max(len(line) for line in lines) <= 48  # a phone's mail client shows it without wrapping


def _cells(row: str) -> list[str]:
    """A row split at its columns (two or more spaces), the tactic cell kept empty when blank."""
    cells = re.split(r"\s{2,}", row.strip())
    return ["", *cells] if row.startswith(" ") else cells


def test_the_worked_example_gives_the_rules_numbers() -> None:
    """Rules VI: "The two Missiles inflict 5 and 4 hits, respectively, for a total of 9 hits ...
    leaving 8 effective hits", and W4's Beam reads "ATTACK (-1,-2) ... DODGE ... MISS"."""
    example = crt.worked_example()
    for words in ("ATTACK (0, +1)", "Hit +2", "= 5 hits", "ATTACK (+2)", "= 4 hits", "8 effective hits"):
        assert words in example
    assert "row ATTACK (-1, -2),\n  S35's column DODGE: Miss" in example


def test_the_players_guide_shows_the_table_and_example_made_from_the_data() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    for marker, text in (("crt", crt.table_text()), ("crt-example", crt.worked_example())):
        block = guide[guide.index(f"<!-- {marker}:begin -->") : guide.index(f"<!-- {marker}:end -->")]
        assert block.split("```")[1].strip("\n") == text


def test_the_guides_planning_hints_hold() -> None:
    """docs/players.md, "The Combat Results Table": the three hints under the table."""
    a, d, r = Tactic.ATTACK, Tactic.DODGE, Tactic.RETREAT
    assert all(not crt.read(d, diff, r).hits for diff in range(-12, 13))
    assert all(crt.read(a, diff, t).hits and not crt.read(a, diff, a).hits for diff in (3, 4) for t in (d, r))
    assert crt.read(a, 0, a) is crt.read(a, 1, a) is Result.HIT_PLUS_2
