"""Every message the order language can give is listed in docs/players.md and made by a case here."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.core.orderblock import Problem
from engine.warpwar.lang import messages as msg
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.merge import merge
from engine.warpwar.lang.parser import parse_mail
from tests.engine.lang.contexts import context, mail

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "players.md"
COMBAT = "COMBAT Babylon ROUND 1"


def body(text: str, known: LangContext | None = None) -> Callable[[], tuple[Problem, ...]]:
    return lambda: parse_mail(text, known or context()).problems


def lines(*orders: str, known: LangContext | None = None) -> Callable[[], tuple[Problem, ...]]:
    return body(mail(*orders), known)


def added_mail() -> tuple[Problem, ...]:
    earlier = parse_mail(mail("MOVE W3 1421"), context())
    later = parse_mail(mail("MOVE W3 1522", header="GAME g1\nTURN 3\nADD"), context())
    return merge(earlier, later).problems


def broken_context() -> LangContext:
    """A context whose star lies at no proper hex: the parser must still not raise."""
    return context().model_copy(update={"places": {"nowhere": "12"}})


CASES: list[tuple[str, Callable[[], tuple[Problem, ...]]]] = [
    (msg.NO_BLOCK, body("Hello, here are my orders\nMOVE W3 1421\n")),
    (msg.NO_END, body("GAME g1\nMOVE W3 1421\n")),
    (msg.SIGN_OFF, body("GAME g1\nMOVE W3 1421\nCheers,\nAnn\n")),
    (msg.GAME_WITHOUT_ID, body("GAME\nMOVE W3 1421\nEND\n")),
    (msg.PLAYER_WITHOUT_ID, body("GAME g1\nPLAYER\nEND\n")),
    (msg.TURN_NOT_A_NUMBER, body("GAME g1\nTURN five\nEND\n")),
    (msg.HEADER_TWICE, body("GAME g1\nTURN 3\nTURN 4\nEND\n")),
    (msg.HEADER_AFTER_ORDERS, body("GAME g1\nSCRAP W3\nTURN 3\nEND\n")),
    (msg.HEADER_WITH_VALUE, body("GAME g1\nADD please\nEND\n")),
    (msg.WRITTEN_BELOW_END, body("> GAME g1\n> TURN 3\n> END\nMOVE W3 1421\nEND\n")),
    (msg.UNKNOWN_ORDER, lines("FLY W3 1421")),
    (msg.NO_SUCH_SHIP, lines("MOVE W33 1421")),
    (msg.SHIP_EXPECTED, lines("SCRAP")),
    (msg.NOT_A_SHIP_NAME, lines("SCRAP Enterprise")),
    (msg.NAME_TAKEN, lines("BUILD WARPSHIP AT Babylon PD=6 AS W3")),
    (msg.NUMBER_EXPECTED, lines("LOAD W3")),
    (msg.NOT_A_NUMBER, lines("LOAD W3 ten")),
    (msg.OUT_OF_RANGE, lines("LOAD W3 0")),
    (msg.PLACE_EXPECTED, lines("BASE AT")),
    (msg.UNKNOWN_STAR, lines("BASE AT Babylan 10")),
    (msg.HEX_NOT_ON_MAP, lines("MOVE W3 9999")),
    (msg.NOT_A_HEX, lines("MOVE W3 142")),
    (msg.UNKNOWN_ATTRIBUTE, lines("BUILD WARPSHIP AT Babylon PD=6 Q=3")),
    (msg.ATTRIBUTE_FORM, lines("BUILD WARPSHIP AT Babylon PD 6")),
    (msg.GIVEN_TWICE, lines("BUILD WARPSHIP AT Babylon PD=6 PD=7")),
    (msg.DESIGN_EXPECTED, lines("BUILD WARPSHIP AT Babylon")),
    (msg.SHIP_KIND_EXPECTED, lines("BUILD SHIP AT Babylon PD=6")),
    (msg.NOT_FOR_RESUPPLY, lines("RESUPPLY W3 PD=2")),
    (msg.NOT_FOR_REPAIR, lines("REPAIR W3 M=3")),
    (msg.ROUTE_EXPECTED, lines("MOVE W3")),
    (msg.PRIORITY_EXPECTED, lines("PRIORITY W3")),
    (msg.ECM_POLICY_EXPECTED, lines("ECM W3 LAST")),
    (msg.REARRANGE_FORM, lines("REARRANGE S20 W3")),
    (msg.UNEXPECTED_WORDS, lines("SCRAP W3 now")),
    (msg.TACTIC_EXPECTED, lines(COMBAT, "W3 ATACK P2.S25: D=1")),
    (msg.NO_SUCH_ENEMY, lines(COMBAT, "W3 ATTACK P2.W77: D=1")),
    (msg.AMBIGUOUS_ENEMY, lines(COMBAT, "W3 ATTACK S25: B=3")),
    (msg.COMBAT_LINE_FORM, lines("COMBAT Babylon")),
    (msg.OUTSIDE_COMBAT, lines("W3 ATTACK P2.S25: D=1")),
    (msg.TURN_ORDER_IN_COMBAT, lines(COMBAT, "SCRAP W3")),
    (msg.MISSILE_LINE_ALONE, lines(COMBAT, "M ATTACKS P2.W7: D=3")),
    (msg.MISSILE_LINE_FORM, lines(COMBAT, "W3 DODGE: D=4 T=1", "M ATTACKS P2.W7 3")),
    (msg.MISSILE_FORM, lines(COMBAT, "W3 ATTACK P2.S25: M=3")),
    (msg.MISSILE_WITHOUT_TARGET, lines(COMBAT, "W3 DODGE: M=@3")),
    (msg.CANNON_FORM, lines(COMBAT, "W3 ATTACK P2.S25: C=two")),
    (msg.TUBES_DISAGREE, lines(COMBAT, "S20 (TL0) DODGE: D=4 B=0 S=0 T=1")),
    (msg.UNKNOWN_COMBAT_WORD, lines(COMBAT, "W3 ATTACK P2.S25: D=1 FIRE")),
    (msg.REPLACES, lines("SCRAP W3", "SCRAP W3")),
    (msg.REPLACES_EARLIER_MAIL, added_mail),
    (msg.NOT_UNDERSTOOD, lines("BASE AT Nowhere 10", known=broken_context())),
]


@pytest.mark.parametrize(("template", "produce"), CASES, ids=[msg.as_listed(t)[:40] for t, _ in CASES])
def test_each_message_is_given_for_its_mistake(
    template: str, produce: Callable[[], tuple[Problem, ...]]
) -> None:
    # Given a mail with the mistake, When it is read, Then the player gets that message
    problems = produce()
    assert any(msg.pattern(template).match(p.message) for p in problems), [p.describe() for p in problems]


def test_every_message_has_a_case() -> None:
    covered = {template for template, _ in CASES}
    assert [m for m in msg.ALL_MESSAGES if m not in covered] == []


def test_every_message_is_listed_in_the_players_guide() -> None:
    # Given the guide's section on mistakes
    guide = GUIDE.read_text(encoding="utf-8")
    section = guide.split("## When something is wrong", 1)[1].split("<!-- checks:begin -->", 1)[0]
    listed = set(re.findall(r"^- `(.+)`$", section, re.MULTILINE))
    # Then every message is a bullet there, with <field> for each part that varies
    assert [msg.as_listed(m) for m in msg.ALL_MESSAGES if msg.as_listed(m) not in listed] == []


def test_messages_are_distinct() -> None:
    assert len(set(msg.ALL_MESSAGES)) == len(msg.ALL_MESSAGES)


def test_a_problem_describes_itself_with_line_text_and_suggestions() -> None:
    # Given a mail naming a ship the player does not have on line 7
    text = mail("LOAD W3 10", "", "MOVE W33 1421")
    # When it is read
    (problem,) = parse_mail(text, context()).problems
    # Then the player reads the line, the text, what is wrong and the nearest name
    assert problem.describe() == (
        'Line 7: "MOVE W33 1421": you have no ship W33: use the name of one of your ships, as on your '
        "orders sheet. Did you mean W3?"
    )
