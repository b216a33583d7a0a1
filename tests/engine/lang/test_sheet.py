"""Orders sheets (engine/warpwar/lang/sheet.py): sent back as they are, they are read without a
problem, and each example line, uncommented, is an order the checker accepts."""

from __future__ import annotations

import pytest

from engine.core.orderblock import Problem
from engine.warpwar.lang.check import check_rounds, check_turn
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.parser import parse_mail
from engine.warpwar.lang.sheet import CODE_PLACEHOLDER, CRT_NOTE, combat_sheet, orders_sheet
from engine.warpwar.state import Combat, GameState, Stage, Visibility
from engine.warpwar.views import PlayerView, player_view
from tests.engine.builders import add_ship, carry, robot_game_states
from tests.engine.lang.test_check import stocked, view_of


def fleet() -> GameState:
    state = stocked(bp=30)
    add_ship(state, "W1: TL0 PD={6}4 B=3 S={2}1 T=1 M={6}3", location="0101")
    w3 = add_ship(state, "W3: TL0 PD=4 B=2 SR=1", location="0505")
    carry(state, w3, add_ship(state, "S4: TL0 PD=2 B=1", location="0505"))
    add_ship(state, "S5: TL0 PD=2 B=1", location="0103")
    add_ship(state, "W9: TL0 PD=4 B=1", owner="P2", location="0808")
    return state


def all_problems(body: str, view: PlayerView) -> list[Problem]:
    parsed = parse_mail(body, LangContext.from_view(view))
    return [*parsed.problems, *check_turn(parsed, view), *check_rounds(parsed, view)]


def examples(sheet: str) -> list[int]:
    lines = sheet.splitlines()
    return [
        i for i, line in enumerate(lines) if line.startswith("# ") and line[2:3].isupper() and " " in line[2:]
    ]


def uncommented(sheet: str, index: int) -> str:
    lines = sheet.splitlines()
    lines[index] = lines[index][2:]
    return "\n".join(lines) + "\n"


def assert_sheet_works(sheet: str, view: PlayerView) -> None:
    """No problem at all as it stands; no error with any one example uncommented."""
    assert all_problems(sheet, view) == []
    for index in examples(sheet):
        errors = [p for p in all_problems(uncommented(sheet, index), view) if p.severity == "error"]
        assert errors == [], (sheet.splitlines()[index], errors)


def test_the_orders_sheet_as_it_stands_is_read_without_a_problem() -> None:
    view = view_of(fleet())
    sheet = orders_sheet(view, deadline="Friday 18:00 UTC")
    assert all_problems(sheet, view) == []
    lines = sheet.splitlines()
    assert lines[lines.index("GAME test") : lines.index("GAME test") + 4] == [
        "GAME test",
        "PLAYER P1",
        "TURN 2",
        f"CODE {CODE_PLACEHOLDER}",
    ]
    assert "# Deadline: Friday 18:00 UTC" in lines
    assert lines[-1] == "END"


def test_the_sheet_tells_what_each_base_and_ship_can_do() -> None:
    sheet = orders_sheet(view_of(fleet()))
    assert "## Base at Alpha (0101): 30 BP to build, repair and resupply" in sheet
    assert "## W1: TL0 PD={6}4 B=3 S={2}1 T=1 M={6}3 -- at Alpha (0101), 2 MP" in sheet
    assert "## S4: TL0 PD=2 B=1 -- carried by W3 at Delta (0505)" in sheet
    assert "## S5: TL0 PD=2 B=1 -- at Beta (0103); moves only when a Warpship carries it" in sheet
    assert "# BUILD WARPSHIP AT 0101 PD=10 B=8 S=7" in sheet
    assert "# REPAIR W1 PD=2 S=1" in sheet
    assert "# RESUPPLY W1 M=3 SH=0" in sheet


def test_every_example_uncommented_is_a_good_order() -> None:
    view = view_of(fleet())
    sheet = orders_sheet(view)
    assert len(examples(sheet)) >= 5
    assert_sheet_works(sheet, view)


def test_the_code_is_printed_only_when_given() -> None:
    view = view_of(fleet())
    assert "CODE s3cret" in orders_sheet(view, code="s3cret")
    assert "s3cret" not in orders_sheet(view)


@pytest.mark.parametrize("visibility", [Visibility.OPEN, Visibility.BLIND])
def test_sheets_of_a_robot_game_work_for_every_player(visibility: Visibility) -> None:
    for state in robot_game_states(visibility, 7, 24)[::6]:
        for player in ("Red", "Blue"):
            view = player_view(state, player)
            assert_sheet_works(orders_sheet(view), view)


def battle() -> GameState:
    state = fleet()
    state.ships["P2.W9"].location = "0505"
    state.stage = Stage.COMBAT
    state.combats = [Combat(star="0505", round=2)]
    return state


def test_the_combat_sheet_lists_the_enemy_and_a_template_per_ship() -> None:
    view = view_of(battle())
    sheet = combat_sheet(view, "0505")
    assert "COMBAT 0505 ROUND 2" in sheet
    assert "## Enemy ships seen at Delta (0505): P2.W9" in sheet
    assert "# W3 ATTACK P2.W9: D=2 B=2" in sheet
    assert "# W3 DODGE: D=4" in sheet
    assert "# W3 RETREAT: D=4" in sheet
    assert sheet.splitlines()[-2:] == [f"## {CRT_NOTE}", "END"]
    assert "HELP CRT" in CRT_NOTE
    assert_sheet_works(sheet, view)


def test_the_combat_sheet_offers_no_retreat_to_a_warpship_with_pd_0() -> None:
    """ "A Warpship whose PD is reduced to zero may not move": no RETREAT example for it."""
    state = battle()
    w3 = state.ships["P1.W3"]
    w3.current = w3.current.replace(PD=0)
    view = view_of(state)
    sheet = combat_sheet(view, "0505")
    assert "# W3 DODGE: D=0" in sheet
    assert "W3 RETREAT" not in sheet
    assert_sheet_works(sheet, view)


def test_a_combat_sheet_without_a_combat_says_so() -> None:
    view = view_of(fleet())
    sheet = combat_sheet(view, "0101")
    assert "## You have no combat at Alpha (0101)." in sheet
    assert all_problems(sheet, view) == []
