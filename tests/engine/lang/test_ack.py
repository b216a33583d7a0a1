"""The acknowledgement of an order mail (engine/warpwar/lang/ack.py): valid orders are accepted,
lines with errors are listed and ignored, a problem with the whole mail stops everything."""

from __future__ import annotations

from engine.warpwar.lang.ack import acknowledge
from engine.warpwar.state import GameState
from tests.engine.builders import add_ship
from tests.engine.lang.test_check import stocked, view_of


def fleet() -> GameState:
    state = stocked()
    add_ship(state, "W1: TL0 PD={6}4 B=3 S=2", location="0101")
    add_ship(state, "W3: TL0 PD=4 B=2", location="0505")
    return state


MAIL = """Hi GM, my orders:

GAME test
PLAYER P1
TURN 2
CODE ________
build warpship at alpha pd=6 b=3 s=2   # a new ship
MOVE W1 0102 0203
MOVE W3 0707
END
--
Sent from my phone
"""


def test_valid_orders_are_accepted_and_lines_with_errors_ignored() -> None:
    ack = acknowledge(MAIL, view_of(fleet()), deadline="Friday 18:00 UTC")
    assert [(u.line, u.source, u.text) for u in ack.understood] == [
        (7, "build warpship at alpha pd=6 b=3 s=2   # a new ship", "BUILD WARPSHIP AT 0101 PD=6 B=3 S=2"),
        (8, "MOVE W1 0102 0203", "MOVE W1 0102 0203"),
    ]
    assert [(p.line, p.text) for p in ack.errors] == [(9, "MOVE W3 0707")]
    assert ack.verdict == (
        "2 orders understood and submitted; 1 line with problems ignored: send them again corrected, with ADD"
    )
    assert ack.submitted
    assert len(ack.orders.orders) == 2
    assert ack.deadline == "Friday 18:00 UTC"
    assert "W2 will be built at Alpha (0101) for 16 BP: W2: TL0 PD=6 B=3 S=2" in ack.forecast


def test_all_good_orders_are_counted() -> None:
    body = MAIL.replace("MOVE W3 0707\n", "")
    ack = acknowledge(body, view_of(fleet()))
    assert ack.verdict == "All 2 orders understood"
    assert ack.errors == ()


def test_a_problem_with_the_whole_mail_submits_nothing() -> None:
    body = MAIL.replace("GAME test", "GAME another")
    ack = acknowledge(body, view_of(fleet()))
    assert ack.verdict == "1 problem with the whole mail: nothing was submitted"
    assert not ack.submitted
    assert ack.orders.orders == ()
    assert ack.understood == ()


def test_a_mail_marked_check_is_never_submitted() -> None:
    body = MAIL.replace("CODE ________", "CODE ________\nCHECK")
    ack = acknowledge(body, view_of(fleet()))
    assert (
        ack.verdict
        == "Checked only (CHECK): nothing was submitted; 2 orders understood, 1 line with problems"
    )
    assert not ack.submitted


def test_a_mail_without_orders() -> None:
    ack = acknowledge("Thanks for the game!\n", view_of(fleet()))
    assert not ack.submitted
    assert ack.verdict == "1 problem with the whole mail: nothing was submitted"
    empty = acknowledge("GAME test\nPLAYER P1\nTURN 2\nEND\n", view_of(fleet()))
    assert empty.verdict == "No orders in this mail: nothing was submitted"


def test_a_single_order_and_only_bad_lines() -> None:
    single = acknowledge("GAME test\nPLAYER P1\nTURN 2\nMOVE W1 0102\nEND\n", view_of(fleet()))
    assert single.verdict == "The order is understood"
    bad = acknowledge("GAME test\nPLAYER P1\nTURN 2\nMOVE W1 0505\nEND\n", view_of(fleet()))
    assert bad.verdict == "1 line with problems and no order understood: nothing was submitted"
    assert not bad.submitted
