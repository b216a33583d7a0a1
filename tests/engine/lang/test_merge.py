"""A later mail replaces the earlier submission for the turn, unless it says ADD."""

from __future__ import annotations

from engine.warpwar.lang import messages as msg
from engine.warpwar.lang.merge import merge
from engine.warpwar.lang.parser import ParsedOrders, parse_mail
from engine.warpwar.orders import HexStep, LoadHold, Move, Scrap, Tactic
from tests.engine.lang.contexts import context, mail

ADD_HEADER = "GAME g1\nPLAYER P1\nTURN 3\nADD"


def parsed(*lines: str, add: bool = False) -> ParsedOrders:
    return parse_mail(mail(*lines, header=ADD_HEADER) if add else mail(*lines), context())


def test_a_later_mail_replaces_the_whole_earlier_submission() -> None:
    # Given a first mail with two orders and a second without ADD
    earlier = parsed("SCRAP W3", "LOAD W4 5")
    later = parsed("MOVE W7 1421")
    # Then only the second mail's orders count
    assert merge(earlier, later) == later


def test_a_later_mail_with_add_appends_its_orders() -> None:
    earlier = parsed("SCRAP W3", "BUILD WARPSHIP AT Ur PD=2")
    later = parsed("LOAD W4 5", "BUILD WARPSHIP AT Ur PD=2", add=True)
    merged = merge(earlier, later)
    # Then both mails' orders count, earlier ones first, and both BUILDs build
    assert [o.kind for o in merged.turn.orders] == ["scrap", "build", "load", "build"]
    assert merged.turn.orders[2] == LoadHold(ship="W4", amount=5)
    assert merged.turn_lines == (5, 6, 5, 6)
    assert merged.header.add
    assert merged.problems == ()


def test_with_add_a_later_order_for_the_same_ship_replaces_the_earlier_mails_order() -> None:
    # Given a first mail moving W3 and loading W4, and an added mail moving W3 elsewhere
    earlier = parsed("MOVE W3 1421", "LOAD W4 5")
    later = parsed("MOVE W3 1522", add=True)
    merged = merge(earlier, later)
    # Then the later MOVE replaces the earlier, and the player is told so on the later line
    assert merged.turn.orders == (LoadHold(ship="W4", amount=5), Move(ship="W3", steps=(HexStep(to="1522"),)))
    (warning,) = merged.problems
    assert (warning.line, warning.severity) == (5, "warning")
    assert warning.message == msg.REPLACES_EARLIER_MAIL.format(earlier='"MOVE W3 1421"')


def test_with_add_combat_orders_join_the_same_round_and_replace_per_ship() -> None:
    earlier = parsed("COMBAT Babylon ROUND 1", "W3 DODGE: D=1", "W4 DODGE: D=1")
    later = parsed("COMBAT 2223 ROUND 1", "W3 ATTACK P2.W7: B=2", "COMBAT Ur ROUND 1", "W7 DODGE", add=True)
    merged = merge(earlier, later)
    assert [(r.star, sorted(r.ships)) for r in merged.rounds] == [("2223", ["W3", "W4"]), ("0606", ["W7"])]
    assert merged.rounds[0].ships["W3"].tactic is Tactic.ATTACK
    assert merged.round_lines[0] == {"W3": 6, "W4": 7}
    assert [p.line for p in merged.problems] == [6]


def test_merging_keeps_the_later_mails_problems() -> None:
    earlier = parsed("SCRAP W33")
    later = parsed("SCRAP W3", "FLY W4", add=True)
    merged = merge(earlier, later)
    assert merged.turn.orders == (Scrap(ship="W3"),)
    assert [p.line for p in merged.problems] == [6]
