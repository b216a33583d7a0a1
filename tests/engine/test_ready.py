"""Orders in, or only kept (issue 14, item 1): a mail with refused lines is stored but not ready
(``Reading.ready``) until a clean mail, a clean ADD or a line DONE (or READY) confirms it."""

from __future__ import annotations

from engine.core.mailgame import Reading, turn_scope
from engine.warpwar.lang.messages import NO_END, SIGN_OFF, UNKNOWN_ORDER
from engine.warpwar.orders import RoundOrders, TurnOrders
from tests.engine.test_mailgame import GAME, ack_of, battle, fleet, mail

BAD = "MOVE W3 0707"
"""Too far for W3's Drive: refused by the checker."""
ROUND = "combat:2/P1:0505:2"


def read(
    *orders: str, header: str = "", stored: dict[str, str] | None = None, combat: bool = False
) -> Reading:
    state_json = (battle() if combat else fleet()).model_dump_json()
    return GAME.read_orders(state_json, "P1", mail(*orders, header=header), earlier=(stored or {}).get)


def stored_of(reading: Reading) -> dict[str, str]:
    return {part.scope: part.orders_json for part in reading.parts}


def test_a_clean_mail_is_ready() -> None:
    reading = read("MOVE W1 0102")
    assert reading.submitted and reading.ready
    assert ack_of(reading).ready


def test_a_mail_with_a_refused_line_is_kept_but_not_ready() -> None:
    reading = read("MOVE W1 0102", BAD)
    assert reading.submitted
    assert not reading.ready
    assert [part.scope for part in reading.parts] == [turn_scope(2)]


def test_done_with_orders_makes_the_mail_ready_despite_its_problems() -> None:
    for word in ("DONE", "ready", "Done!"):
        reading = read("MOVE W1 0102", BAD, word)
        assert reading.ready, word
        assert reading.verdict.endswith("DONE: the orders understood count as in")
        assert [e.line for e in ack_of(reading).errors] == [8]  # the DONE line is not a problem


def test_done_alone_confirms_the_orders_sent_before_unchanged() -> None:
    # Given orders kept from a mail with a refused line
    first = read("MOVE W1 0102", BAD)
    # When the player sends DONE alone
    done = read("DONE", stored=stored_of(first))
    # Then the same orders are submitted again, ready, and the answer lists them
    assert done.ready and done.submitted
    assert stored_of(done) == stored_of(first)
    assert done.verdict == "DONE: your orders count as in for turn 2, 1 order sent before"
    assert [row.text for row in ack_of(done).understood] == ["MOVE W1 0102"]


def test_done_alone_with_nothing_sent_before_is_nothing_to_order() -> None:
    done = read("DONE")
    assert done.ready
    assert TurnOrders.model_validate_json(done.parts[0].orders_json).orders == ()
    assert done.verdict == "DONE: your orders count as in for turn 2, nothing to order"


def test_a_clean_add_mail_makes_the_orders_ready() -> None:
    first = read("MOVE W1 0102", BAD)
    added = read("MOVE W3 0504", header="ADD\n", stored=stored_of(first))
    assert added.ready
    assert len(TurnOrders.model_validate_json(added.parts[0].orders_json).orders) == 2


def test_an_add_mail_with_a_problem_is_not_ready() -> None:
    first = read("MOVE W1 0102")
    added = read("MOVE W3 0504", BAD.replace("W3", "W1"), header="ADD\n", stored=stored_of(first))
    assert added.submitted and not added.ready


def test_done_in_a_checked_mail_submits_nothing() -> None:
    reading = read("MOVE W1 0102", "DONE", header="CHECK\n")
    assert not reading.submitted
    assert reading.parts == ()


def test_a_bad_combat_line_keeps_the_round_orders_not_ready_until_done() -> None:
    # Given one good ship line and one for a ship the player does not have
    kept = read("COMBAT Delta ROUND 2", "W3 ATTACK P2.W9: D=2 B=2", "W7 DODGE: D=1", combat=True)
    assert [part.scope for part in kept.parts] == [ROUND]
    assert not kept.ready
    # When DONE follows alone, the round's orders count as in as they are
    done = read("DONE", stored=stored_of(kept), combat=True)
    assert done.ready
    assert stored_of(done) == stored_of(kept)
    assert RoundOrders.model_validate_json(done.parts[0].orders_json).ships["W3"].beam == 2
    assert done.verdict == "DONE: your orders count as in for round 2 at Delta (0505), as sent before"


def test_done_alone_in_combat_with_nothing_sent_is_standing_orders() -> None:
    done = read("DONE", combat=True)
    assert [part.scope for part in done.parts] == [ROUND]
    assert RoundOrders.model_validate_json(done.parts[0].orders_json).ships == {}
    assert done.ready


def test_a_sign_off_without_end_is_a_warning_and_the_mail_is_ready() -> None:
    state_json = fleet().model_dump_json()
    body = "GAME test\nPLAYER P1\nTURN 2\nCODE x\nMOVE W1 0102\n\nThanks,\nAnn\n\nSent from my iPhone\n"
    reading = GAME.read_orders(state_json, "P1", body)
    ack = ack_of(reading)
    assert reading.ready
    assert ack.errors == ()
    assert [(w.line, w.message) for w in ack.warnings] == [(None, NO_END), (7, SIGN_OFF)]
    assert ack.warnings[1].text == "Thanks,"


def test_a_reply_header_and_the_history_below_it_are_not_read() -> None:
    state_json = fleet().model_dump_json()
    body = (
        "GAME test\nPLAYER P1\nTURN 2\nCODE x\nMOVE W1 0102\nCheers\n"
        "On Tue, 3 Mar 2026 at 10:00, WarpMail <test@example.org> wrote:\n"
        "Turn 1 results\nMOVE W3 9999\n> quoted\n"
    )
    reading = GAME.read_orders(state_json, "P1", body)
    assert reading.ready
    assert [w.line for w in ack_of(reading).warnings if w.message == SIGN_OFF] == [6]
    assert [row.text for row in ack_of(reading).understood] == ["MOVE W1 0102"]


def test_a_mistyped_order_at_the_end_is_still_a_problem() -> None:
    state_json = fleet().model_dump_json()
    body = "GAME test\nPLAYER P1\nTURN 2\nCODE x\nMOVE W1 0102\nScarp\nMve\nThanks\n"
    ack = ack_of(reading := GAME.read_orders(state_json, "P1", body))
    assert [(e.line, e.message) for e in ack.errors] == [
        (6, UNKNOWN_ORDER.format(word="Scarp")),
        (7, UNKNOWN_ORDER.format(word="Mve")),
    ]
    assert [w.line for w in ack.warnings if w.message == SIGN_OFF] == [8]
    assert not reading.ready
