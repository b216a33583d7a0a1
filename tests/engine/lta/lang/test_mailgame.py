"""The order language by mail: reading, checking, submitting, ADD, CHECK, the sheet, ROLLS."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.mailgame import MailGame
from engine.lta import robot
from engine.lta.game import LighterThanAir
from engine.lta.hexmap import Facing
from engine.lta.lang.reader import MESSAGES, read
from engine.lta.mailgame import Acknowledgement, LtaMail, fire_scope, move_scope
from engine.lta.orders import CombatOrders, MovementOrders
from engine.lta.scenarios import PlayerSpec, Setup
from engine.lta.state import GameState, Phase

GAME = LighterThanAir()
MAIL: MailGame = LtaMail()
LTA_MAIL = LtaMail()


def _state(seed: int = 1) -> GameState:
    players = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))
    return GAME.new_game(Setup(game_id="g1", players=players), seed).state


def _mail(*lines: str, turn: int = 1, extra: str = "") -> str:
    return "\n".join(
        ["Hi,", "GAME g1", "PLAYER Red", f"TURN {turn}", "CODE x", extra, *lines, "END", "-- ", "me"]
    )


def _ack(state: GameState, body: str, player: str = "Red") -> Acknowledgement:
    ack = MAIL.read_orders(state.model_dump_json(), player, body).ack
    assert isinstance(ack, Acknowledgement)
    return ack


def test_movement_orders_are_read_by_id_or_name_and_stored_for_the_phase() -> None:
    state = _state()
    reading = MAIL.read_orders(state.model_dump_json(), "Red", _mail("MOVE A1 F F R", "move hornet fu"))
    assert reading.submitted and [p.scope for p in reading.parts] == [move_scope(1)]
    orders = MovementOrders.model_validate_json(reading.parts[0].orders_json)
    assert [(m.ship, m.steps) for m in orders.moves] == [("A1", "FFR"), ("A2", "FU")]
    assert MAIL.order_lines(move_scope(1), reading.parts[0].orders_json) == ["MOVE A1 FFR", "MOVE A2 FU"]
    assert GAME.process(state, [orders]).state.ship("A1") != state.ship("A1")


def test_problems_name_their_line_and_suggest_and_only_the_bad_lines_are_left_out() -> None:
    ack = _ack(
        _state(), _mail("MOVE dreadnot FFF", "MOVE A3 FX", "FIRE A1 1 AT B1", "Bogus", "MOVE A2 FFFFFF")
    )
    described = [p.describe() for p in ack.errors]
    assert (
        described[0]
        == 'Line 7: "MOVE dreadnot FFF": you have no Zeppelin dreadnot flying. Did you mean Dreadnought?'
    )
    assert [p.line for p in ack.errors] == [7, 8, 9, 10]
    assert "after the map update" in described[2] and "not an order" in described[3]
    assert [p.line for p in ack.warnings] == [11] and "4 Movement Points" in ack.warnings[0].message
    assert ack.submitted and ack.understood == ("MOVE A2 FFFF",)


def test_only_the_chooser_may_choose_first_or_last() -> None:
    state = _state()
    chooser = state.initiative.chooser
    other = next(p.id for p in state.players if p.id != chooser)
    body = _mail("INITIATIVE LAST").replace("PLAYER Red", f"PLAYER {chooser}")
    assert _ack(state, body, chooser).understood == ("INITIATIVE LAST",)
    ack = _ack(state, _mail("INITIATIVE LAST").replace("PLAYER Red", f"PLAYER {other}"), other)
    assert ack.understood == () and "chooses first or last" in ack.warnings[0].message


def test_combat_orders_check_items_targets_and_warn_of_shots_out_of_reach() -> None:
    state = GAME.process(_state(), []).state
    assert state.phase is Phase.COMBAT
    body = _mail(
        "FIRE A1 1 AT B1",
        "FIRE A1 5 AT B1",
        "FIRE A1 9 AT B1",
        "FIRE A1 SA AT A2",
        "DROP A1 SA ON Hornet",
        "FIRE A1 1 AT",
    )
    ack = _ack(state, body)
    assert ack.understood == ("FIRE A1 1 AT B1",)
    messages = [p.message for p in ack.errors]
    assert "Patch Crew, which does not fire" in messages[0] and "has no item 9" in messages[1]
    assert (
        "on your side" in messages[2] and "on your side" in messages[3] and "FIRE <your ship>" in messages[4]
    )
    assert "cannot be made" in ack.warnings[0].message
    reading = MAIL.read_orders(state.model_dump_json(), "Red", body)
    assert reading.parts[0].scope == fire_scope(1)
    assert CombatOrders.model_validate_json(reading.parts[0].orders_json).fire[0].target == "B1"


def test_check_submits_nothing_and_add_merges_with_the_earlier_orders() -> None:
    state = _state()
    checked = MAIL.read_orders(state.model_dump_json(), "Red", _mail("MOVE A1 F", extra="CHECK"))
    assert not checked.submitted and checked.verdict.startswith("Checked only")
    first = (
        MAIL.read_orders(state.model_dump_json(), "Red", _mail("MOVE A1 F", "MOVE A2 R")).parts[0].orders_json
    )
    added = MAIL.read_orders(
        state.model_dump_json(),
        "Red",
        _mail("MOVE A2 L", extra="ADD"),
        earlier=lambda s: first if s == move_scope(1) else None,
    )
    merged = MovementOrders.model_validate_json(added.parts[0].orders_json)
    assert [(m.ship, m.steps) for m in merged.moves] == [("A1", "F"), ("A2", "L")]


def test_a_mail_without_orders_or_for_another_turn_is_answered_not_submitted() -> None:
    state = _state()
    nothing = MAIL.read_orders(state.model_dump_json(), "Red", "just saying hello")
    assert not nothing.submitted and nothing.verdict == "No orders found in this mail"
    wrong = _ack(state, _mail("MOVE A1 F", turn=4))
    assert "orders for turn 4" in wrong.errors[0].message and not wrong.submitted
    early = _ack(state, _mail("FIRE A1 1 AT B1"))
    assert not early.submitted and early.verdict.startswith("Nothing submitted; 1 line left out")
    empty = MAIL.read_orders(state.model_dump_json(), "Red", _mail())
    assert empty.submitted and MovementOrders.model_validate_json(empty.parts[0].orders_json).moves == ()


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["MOVE A1 ", "FIRE A1 ", "INITIATIVE ", "DROP ", ""]))
def test_nothing_a_player_writes_raises(text: str, start: str) -> None:
    state = _state()
    for phase_state in (state, GAME.process(state, []).state):
        body = _mail(start + text, *text.splitlines())
        reading = MAIL.read_orders(phase_state.model_dump_json(), "Red", body)
        assert reading.player == "Red"
        for part in reading.parts:
            assert MAIL.order_lines(part.scope, part.orders_json) is not None


def test_the_sheet_read_back_is_accepted_as_it_stands_in_both_phases() -> None:
    state = _state()
    for _ in range(4):
        for player in ("Red", "Blue"):
            sheet = MAIL.sheet(state.model_dump_json(), player, "Friday")
            reading = read(sheet, GAME.view(state, player))
            assert reading.errors == () and reading.found
            assert "CODE ________" in sheet and "Friday" in sheet
        state = GAME.process(state, [robot.orders(GAME.view(state, p)) for p in GAME.awaiting(state)]).state


def test_the_combat_sheet_offers_the_shots_in_reach_and_they_read_back() -> None:
    state = GAME.process(_state(), []).state
    close = state.model_copy(
        update={
            "ships": tuple(
                s.model_copy(update={"col": 10, "row": 10 if s.owner == "Red" else 7, "facing": Facing.N})
                if s.id in ("A1", "B1")
                else s
                for s in state.ships
            )
        }
    )
    sheet = MAIL.sheet(close.model_dump_json(), "Red")
    offered = [line[2:].split("   ")[0] for line in sheet.splitlines() if line.startswith("# FIRE")]
    assert any(o.startswith("FIRE A1 1 AT B1") for o in offered)
    one_each = {" ".join(o.split()[:3]): o for o in reversed(offered)}
    shots = list(one_each.values())
    ack = _ack(close, _mail(*shots))
    assert ack.errors == () and ack.warnings == () and len(ack.understood) == len(shots)


def test_rolls_lists_only_the_players_own_dice_until_the_end() -> None:
    state = _state()
    while state.phase is not Phase.OVER:
        text = LTA_MAIL.rolls(state.model_dump_json(), "Red")
        assert "Your seed's SHA-256" in text and str(state.player("Red").seed) not in text
        assert "Blue:" not in text
        state = GAME.process(state, [robot.orders(GAME.view(state, p)) for p in GAME.awaiting(state)]).state
    final = LTA_MAIL.rolls(state.model_dump_json(), "Red")
    assert (
        f"Blue: seed {state.player('Blue').seed}" in final
        and f"Red: seed {state.player('Red').seed}" in final
    )


def test_help_names_the_orders_and_help_damage_prints_the_table() -> None:
    assert "MOVE A1 FFRFU" in MAIL.help_text() and "FIRE A1 2 AT B3" in MAIL.help_text()
    table = MAIL.help_topic("damage")
    assert table is not None and "Blowout" in table and "Crit Puncture" in table
    assert MAIL.help_topic("CRT") is None


def test_the_players_guide_lists_every_message_an_order_line_can_get() -> None:
    guide = (Path(__file__).resolve().parents[4] / "docs" / "lta-players.md").read_text(encoding="utf-8")
    assert all(f"- {message}\n" in guide for message in MESSAGES)


def test_orders_with_refused_lines_are_kept_but_not_ready_until_a_clean_mail() -> None:
    state = _state().model_dump_json()
    flawed = MAIL.read_orders(state, "Red", _mail("MOVE A1 FF", "MOVE Z9 F"))
    assert flawed.submitted and not flawed.ready
    clean = MAIL.read_orders(state, "Red", _mail("MOVE A1 FF"))
    assert clean.submitted and clean.ready
    checked = MAIL.read_orders(state, "Red", _mail("MOVE A1 FF", extra="CHECK"))
    assert not checked.submitted and not checked.ready


def test_names_and_rename_touch_the_players_name_only() -> None:
    state = _state().model_dump_json()
    assert MAIL.names(state) == {"Red": "Red", "Blue": "Blue"}
    renamed = MAIL.rename(state, "Blue", "Dee")
    assert MAIL.names(renamed) == {"Red": "Red", "Blue": "Dee"}
    before, after = GameState.model_validate_json(state), GameState.model_validate_json(renamed)
    assert after.model_copy(update={"players": before.players}) == before
    with pytest.raises(ValueError, match="no player Green"):
        MAIL.rename(state, "Green", "Gil")


def test_rolls_is_the_games_one_command() -> None:
    state = _state().model_dump_json()
    assert MAIL.command(state, "Red", "rolls", "") == LTA_MAIL.rolls(state, "Red")
    assert MAIL.command(state, "Red", "DICE", "") is None
    assert "ROLLS" in MAIL.help_text() and "CODE" in MAIL.help_text()
