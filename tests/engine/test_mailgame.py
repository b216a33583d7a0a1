"""WarpWar's side of play by mail (engine/warpwar/mailgame.py): what the host stores per scope,
ADD merged with the stored orders, the host's reading problems passed on, the sheets."""

from __future__ import annotations

from engine.core.mailgame import CombatScope, MailGame, Reading, combat_parts, combat_scope, turn_scope
from engine.games import MAIL_GAMES
from engine.warpwar import crt
from engine.warpwar.lang.ack import Acknowledgement
from engine.warpwar.lang.messages import REPLACES_EARLIER_MAIL
from engine.warpwar.mailgame import WarpWarMail
from engine.warpwar.orders import RoundOrders, TurnOrders
from engine.warpwar.state import Combat, GameState, Stage
from tests.engine.builders import add_ship
from tests.engine.lang.test_check import stocked, view_of

GAME: MailGame = WarpWarMail()


def fleet() -> GameState:
    """P1: W1 at Alpha (0101), W3 at Delta (0505); P2's W9 at Epsilon."""
    state = stocked()
    add_ship(state, "W1: TL0 PD=6 B=3 S=2", location="0101")
    add_ship(state, "W3: TL0 PD=4 B=2", location="0505")
    add_ship(state, "W9: TL0 PD=4 B=1", owner="P2", location="0808")
    view_of(state)  # brings every player's knowledge up to date
    return state


def battle() -> GameState:
    """W3 and P2's W9 fight at Delta (0505), round 2."""
    state = fleet()
    state.ships["P2.W9"].location = "0505"
    state.stage = Stage.COMBAT
    state.combats = [Combat(star="0505", round=2)]
    view_of(state)
    return state


def mail(*orders: str, header: str = "") -> str:
    lines = "\n".join(orders)
    return f"Hello\n\nGAME test\nPLAYER P1\nTURN 2\nCODE ________\n{header}{lines}\nEND\n-- \nme\n"


def ack_of(reading: Reading) -> Acknowledgement:
    assert isinstance(reading.ack, Acknowledgement)
    return reading.ack


def test_accepted_turn_orders_are_one_part_for_the_turn() -> None:
    reading = GAME.read_orders(fleet().model_dump_json(), "P1", mail("MOVE W1 0102", "MOVE W3 0707"))
    assert reading.submitted
    assert [part.scope for part in reading.parts] == [turn_scope(2)]
    stored = TurnOrders.model_validate_json(reading.parts[0].orders_json)
    assert [order.kind for order in stored.orders] == ["move"]
    assert reading.verdict.startswith("1 order understood and submitted; 1 line with problems")


def test_a_checked_mail_submits_nothing() -> None:
    reading = GAME.read_orders(fleet().model_dump_json(), "P1", mail("MOVE W1 0102", header="CHECK\n"))
    assert not reading.submitted
    assert reading.parts == ()
    assert reading.verdict.startswith("Checked only (CHECK)")


def test_combat_orders_are_a_part_per_combat_round_and_leave_the_turn_alone() -> None:
    reading = GAME.read_orders(
        battle().model_dump_json(), "P1", mail("COMBAT Delta ROUND 2", "W3 ATTACK P2.W9: D=2 B=2")
    )
    assert [part.scope for part in reading.parts] == ["combat:2/P1:0505:2"]
    assert RoundOrders.model_validate_json(reading.parts[0].orders_json).ships["W3"].beam == 2


def test_a_combat_scope_names_the_player_turn_the_combat_is_fought_in() -> None:
    # Given combats at Delta in P1's and then in P2's player-turn of the same game-turn
    first = battle()
    second = battle()
    second.active = 1
    orders = mail("COMBAT Delta ROUND 2", "W3 ATTACK P2.W9: D=2 B=2")
    # When P1 sends the same round's orders in each
    scopes = [GAME.read_orders(s.model_dump_json(), "P1", orders).parts[0].scope for s in (first, second)]
    # Then they are orders for two combats: neither is taken for the other's
    assert scopes == [combat_scope("2/P1", "0505", 2), combat_scope("2/P2", "0505", 2)]
    assert combat_parts(scopes[1]) == CombatScope(turn="2/P2", star="0505", round=2)
    assert combat_parts(turn_scope(2)) is None


def test_add_merges_with_the_stored_orders_and_warns_for_each_replaced() -> None:
    state_json = fleet().model_dump_json()
    first = GAME.read_orders(state_json, "P1", mail("MOVE W1 0102", "MOVE W3 0506"))
    stored = {part.scope: part.orders_json for part in first.parts}
    added = GAME.read_orders(state_json, "P1", mail("MOVE W3 0504", header="ADD\n"), earlier=stored.get)
    orders = TurnOrders.model_validate_json(added.parts[0].orders_json).orders
    assert [(o.kind, o.ship) for o in orders] == [("move", "W1"), ("move", "W3")]
    assert "0504" in GAME.order_lines(added.parts[0].scope, added.parts[0].orders_json)[1]
    ack = ack_of(added)
    assert [w.message for w in ack.warnings] == [REPLACES_EARLIER_MAIL.format(earlier='"MOVE W3 0506"')]
    assert ack.warnings[0].line == 8
    assert added.verdict == "The order is understood; added to the 1 order sent before"


def test_without_add_a_later_mail_replaces_and_nothing_stored_is_asked_for() -> None:
    def never(scope: str) -> str | None:
        raise AssertionError("a mail without ADD reads nothing stored")

    reading = GAME.read_orders(fleet().model_dump_json(), "P1", mail("MOVE W3 0504"), earlier=never)
    assert len(TurnOrders.model_validate_json(reading.parts[0].orders_json).orders) == 1


def test_add_with_nothing_stored_is_the_mail_itself() -> None:
    reading = GAME.read_orders(fleet().model_dump_json(), "P1", mail("MOVE W3 0504", header="ADD\n"))
    assert reading.verdict == "The order is understood"
    assert len(TurnOrders.model_validate_json(reading.parts[0].orders_json).orders) == 1


def test_add_merges_combat_rounds_ship_by_ship() -> None:
    state_json = battle().model_dump_json()
    earlier = RoundOrders(player="P1", star="0505", round=2, ships={}).model_dump_json()
    reading = GAME.read_orders(
        state_json,
        "P1",
        mail("COMBAT Delta ROUND 2", "W3 DODGE: D=4", header="ADD\n"),
        earlier={combat_scope("2/P1", "0505", 2): earlier}.get,
    )
    assert list(RoundOrders.model_validate_json(reading.parts[0].orders_json).ships) == ["W3"]


def test_an_order_block_without_orders_submits_nothing_to_order_for_the_turn() -> None:
    # Given a mail with the header and END only
    reading = GAME.read_orders(fleet().model_dump_json(), "P1", mail())
    # Then it is the player's (empty) orders for the turn, and the acknowledgement says so
    assert reading.submitted
    assert [part.scope for part in reading.parts] == [turn_scope(2)]
    assert TurnOrders.model_validate_json(reading.parts[0].orders_json).orders == ()
    assert reading.verdict.startswith("No orders in this mail: submitted as nothing to order for turn 2")
    assert ack_of(reading).submitted


def test_an_order_block_without_orders_in_combat_leaves_the_rounds_to_standing_orders() -> None:
    reading = GAME.read_orders(battle().model_dump_json(), "P1", mail())
    assert [part.scope for part in reading.parts] == ["combat:2/P1:0505:2"]
    assert RoundOrders.model_validate_json(reading.parts[0].orders_json).ships == {}
    assert "your ships fight on their standing orders" in reading.verdict


def test_an_empty_add_mail_or_check_submits_nothing() -> None:
    for header in ("ADD\n", "CHECK\n"):
        reading = GAME.read_orders(fleet().model_dump_json(), "P1", mail(header=header))
        assert not reading.submitted
        assert reading.parts == ()


def test_an_order_block_with_only_bad_lines_submits_nothing() -> None:
    reading = GAME.read_orders(fleet().model_dump_json(), "P1", mail("MOVE W77 0102"))
    assert not reading.submitted


def test_the_hosts_reading_problems_come_first_among_the_warnings() -> None:
    note = "The text is declared as charset 'x-foo', which is unknown; it was read as UTF-8."
    reading = GAME.read_orders(fleet().model_dump_json(), "P1", mail("MOVE W1 0102"), notes=[note])
    assert ack_of(reading).warnings[0].message == note
    assert reading.submitted


def test_nothing_a_player_writes_makes_reading_raise() -> None:
    state_json = fleet().model_dump_json()
    for body in ("", "\x00\x01", "GAME", "GAME test\nADD\nCOMBAT\nEND", "x" * 10_000):
        reading = GAME.read_orders(state_json, "P1", body, earlier=lambda scope: "not json")
        assert not reading.submitted


def test_sheet_is_the_orders_sheet_or_the_combat_sheet() -> None:
    assert "MOVE W1" in GAME.sheet(fleet().model_dump_json(), "P1", deadline="Friday")
    assert "# Deadline: Friday" in GAME.sheet(fleet().model_dump_json(), "P1", deadline="Friday")
    assert "COMBAT 0505 ROUND 2" in GAME.sheet(battle().model_dump_json(), "P1")


def test_help_is_short_and_names_the_header() -> None:
    text = GAME.help_text()
    assert len(text.splitlines()) < 30
    assert max(len(line) for line in text.splitlines()) <= 78
    for word in ("GAME", "PLAYER", "TURN", "CODE", "ADD", "CHECK", "END"):
        assert word in text


def test_help_crt_is_the_combat_results_table_with_the_rules_example() -> None:
    text = GAME.help_topic("crt")
    assert text is not None
    assert crt.table_text() in text
    assert crt.worked_example() in text
    assert max(len(line) for line in text.splitlines()) <= 78
    assert GAME.help_topic(" CRT ") == text
    assert GAME.help_topic("nonsense") is None
    assert "HELP CRT" in GAME.help_text()


def test_warpwar_is_registered_for_mail() -> None:
    assert MAIL_GAMES["warpwar"].key == "warpwar"
