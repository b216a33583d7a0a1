"""Nothing a mail says makes reading it raise: arbitrary text, unicode, huge numbers, order-like
noise. Every problem points at a line of the mail (or at the whole mail)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.orderblock import SourceLine
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.merge import merge
from engine.warpwar.lang.parser import ParsedOrders, parse_block, parse_mail
from tests.engine.lang.contexts import context

CONTEXTS = (context(), LangContext.syntax_only("P1"))

WORDS = (
    *("GAME", "PLAYER", "TURN", "CODE", "ADD", "CHECK", "END", "COMBAT", "ROUND", "M"),
    *("BUILD", "BASE", "LOAD", "UNLOAD", "SCRAP", "REPAIR", "RESUPPLY", "MOVE", "PRIORITY", "ECM"),
    *("STANDING", "REARRANGE", "WARPSHIP", "SYSTEMSHIP", "AT", "AS", "FROM", "WARP", "DROP", "PICKUP"),
    *("ONTO", "OFF", "NONE", "ATTACK", "DODGES", "RETREAT", "RETREAT-TO", "EVEN", "FIRST-COME", "(TL1)"),
    *("W3", "W33", "S20", "P2.W7", "P2.S25", "S25", "two.w8", "Babylon", "Al", "Tarf", "2223", "1421"),
    *("PD=6", "B=3@P2.W7", "M=@3", "M=P2.S25@0", "C=2,1", "C=@P2.W8", "T=1", "R=1", "Q=3", "SH=", "=", "@"),
    *(",", ":", ">", "#", "-", "->", "0", "-1", "99999999999999999999", "9" * 40, "\u00a0", "\u2013", "\t"),
)
order_lines = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)
order_mails = st.lists(order_lines, max_size=25).map("\n".join)


def assert_sound(parsed: ParsedOrders, body: str) -> None:
    last = len(body.splitlines()) + 1
    for problem in parsed.problems:
        assert problem.line is None or 1 <= problem.line <= last
        assert problem.message
    assert len(parsed.turn_lines) == len(parsed.turn.orders)
    assert len(parsed.round_lines) == len(parsed.rounds)


@settings(max_examples=300, deadline=None)
@given(body=st.text(), which=st.sampled_from(CONTEXTS))
def test_arbitrary_text_never_raises(body: str, which: LangContext) -> None:
    assert_sound(parse_mail(body, which), body)
    assert_sound(parse_mail("GAME g\n" + body, which), body)


@settings(max_examples=300, deadline=None)
@given(body=order_mails, which=st.sampled_from(CONTEXTS))
def test_order_like_noise_never_raises(body: str, which: LangContext) -> None:
    parsed = parse_mail("GAME g\n" + body, which)
    assert_sound(parsed, "GAME g\n" + body)


@settings(max_examples=100, deadline=None)
@given(texts=st.lists(st.text(), max_size=8), which=st.sampled_from(CONTEXTS))
def test_arbitrary_source_lines_never_raise(texts: list[str], which: LangContext) -> None:
    lines = [SourceLine(number=n, text=t, raw=t) for n, t in enumerate(texts, start=1)]
    assert len(parse_block(lines, which).turn_lines) <= len(texts)


@settings(max_examples=100, deadline=None)
@given(first=order_mails, second=order_mails, add=st.booleans())
def test_merging_any_two_mails_never_raises(first: str, second: str, add: bool) -> None:
    earlier = parse_mail("GAME g\n" + first, context())
    later = parse_mail("GAME g\n" + ("ADD\n" if add else "") + second, context())
    merged = merge(earlier, later)
    assert len(merged.turn_lines) == len(merged.turn.orders)
