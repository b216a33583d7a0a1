"""DONE (or READY) for Lighter Than Air, the host-wide rule (docs/players.md, "Orders in, or only
kept: DONE"): with orders, the orders understood count as in despite refused lines; alone, the
orders sent before for the phase count as in (nothing sent: nothing to order)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.mailgame import Reading
from engine.lta.game import LighterThanAir
from engine.lta.lang.reader import DONE_ALONE
from engine.lta.mailgame import Acknowledgement, LtaMail, fire_scope, move_scope
from engine.lta.orders import CombatOrders, MovementOrders
from engine.lta.scenarios import PlayerSpec, Setup
from engine.lta.state import GameState, Phase

GAME = LighterThanAir()
MAIL = LtaMail()


def _state() -> GameState:
    players = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))
    return GAME.new_game(Setup(game_id="g1", players=players), 1).state


def _mail(*lines: str, header: tuple[str, ...] = ()) -> str:
    return "\n".join(["GAME g1", "PLAYER Red", "TURN 1", "CODE x", *header, *lines, "END"])


def _read(state: GameState, body: str, stored: dict[str, str] | None = None) -> Reading:
    return MAIL.read_orders(state.model_dump_json(), "Red", body, earlier=(stored or {}).get)


def _ack(reading: Reading) -> Acknowledgement:
    assert isinstance(reading.ack, Acknowledgement)
    return reading.ack


def test_done_with_orders_makes_them_count_as_in_despite_a_refused_line() -> None:
    state = _state()
    kept = _read(state, _mail("MOVE A1 FF", "MOVE Z9 F"))
    assert kept.submitted and not kept.ready and not _ack(kept).ready
    done = _read(state, _mail("MOVE A1 FF", "MOVE Z9 F", "DONE"))
    assert done.submitted and done.ready and _ack(done).ready
    assert [p.line for p in _ack(done).errors] == [6], "the bad line is still reported"
    orders = MovementOrders.model_validate_json(done.parts[0].orders_json)
    assert [(m.ship, m.steps) for m in orders.moves] == [("A1", "FF")]
    assert done.verdict.endswith("; DONE: they count as in")


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["DONE", "done", "READY", "Ready!", "DONE!"]), st.booleans())
def test_done_or_ready_alone_confirms_the_orders_sent_before_for_the_phase(word: str, add: bool) -> None:
    state = _state()
    first = _read(state, _mail("MOVE A1 FF", "MOVE Z9 F"))
    assert not first.ready
    stored = {move_scope(1): first.parts[0].orders_json}
    confirmed = _read(state, _mail(word, header=("ADD",) if add else ()), stored)
    assert confirmed.submitted and confirmed.ready
    assert [(p.scope, p.orders_json) for p in confirmed.parts] == [(move_scope(1), stored[move_scope(1)])]
    assert _ack(confirmed).understood == ("MOVE A1 FF",)
    assert confirmed.verdict == "DONE: your movement orders count as in: 1 order sent before"


def test_done_alone_with_nothing_sent_before_is_nothing_to_order() -> None:
    reading = _read(_state(), _mail("DONE"))
    assert reading.submitted and reading.ready
    assert MovementOrders.model_validate_json(reading.parts[0].orders_json).moves == ()
    assert reading.verdict == "DONE: your movement orders count as in: nothing to order"


def test_done_confirms_combat_orders_and_names_the_lines_it_ignored() -> None:
    combat = GAME.process(_state(), []).state
    assert combat.phase is Phase.COMBAT
    fire = CombatOrders.model_validate_json(
        MAIL.read_orders(combat.model_dump_json(), "Red", _mail("FIRE A1 1 AT B1")).parts[0].orders_json
    )
    stored = {fire_scope(1): fire.model_dump_json()}
    reading = _read(combat, _mail("FIRE A1 9 AT B1", "DONE"), stored)
    assert reading.ready and reading.parts[0].scope == fire_scope(1)
    assert CombatOrders.model_validate_json(reading.parts[0].orders_json) == fire
    said = "1 line with problems ignored; DONE: your combat orders count as in: 1 order sent before"
    assert reading.verdict == said


def test_done_does_not_submit_a_checked_mail_or_one_for_another_turn() -> None:
    state = _state()
    stored = {move_scope(1): MovementOrders(player="Red").model_dump_json()}
    checked = _read(state, _mail("DONE", header=("CHECK",)), stored)
    assert not checked.submitted and not checked.ready and checked.parts == ()
    other_turn = _read(state, _mail("DONE").replace("TURN 1", "TURN 3"), stored)
    assert not other_turn.submitted and not other_turn.ready


def test_words_after_done_are_a_warning_and_done_still_counts() -> None:
    reading = _read(_state(), _mail("MOVE A1 F", "MOVE Z9 F", "DONE with this"))
    ack = _ack(reading)
    assert reading.ready and [w.message for w in ack.warnings] == [DONE_ALONE.format(word="DONE")]
    assert [p.line for p in ack.errors] == [6]


def test_help_tells_of_done() -> None:
    assert "DONE" in MAIL.help_text()
