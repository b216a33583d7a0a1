"""Lines after the orders that are plainly not orders (engine/warpwar/lang/signoff.py): a sign-off
is told apart from an order, and never a mistyped order from a sign-off."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.orderblock import SourceLine
from engine.warpwar.lang.messages import SIGN_OFF
from engine.warpwar.lang.parser import parse_mail
from engine.warpwar.lang.signoff import is_sign_off, sign_off_start
from tests.engine.lang.contexts import context

ORDERS = (
    "BUILD WARPSHIP AT Babylon PD=6 B=3 S=2",
    "BUILD SYSTEMSHIP AT 1421 PD=0 B=2",
    "BASE AT Mosul 10",
    "LOAD W3 10",
    "UNLOAD W3 10",
    "SCRAP W3",
    "REPAIR W3 PD=2 S=1",
    "RESUPPLY W3 M=6 SH=4",
    "MOVE W3 1421 1522",
    "MOVE W3 WARP Babylon DROP S20",
    "PRIORITY W3 A H SH M",
    "ECM W3 EVEN",
    "STANDING W3 DODGE: D=3 S=2",
    "STANDING W3 NONE",
    "REARRANGE S20 ONTO W3",
    "REARRANGE S20 OFF",
    "COMBAT Babylon ROUND 1",
    "W3 ATTACK P2.S25: D=0 B=3 S=2 M=P2.S25@3",
    "W3 DODGE: D=4",
    "M ATTACKS W3: D=3",
    "DONE",
    "READY",
)
"""One of every kind of line the order language reads (docs/players.md)."""

SIGN_OFFS = (
    "Thanks,",
    "Thanks!",
    "Thank you for hosting, see you next turn",
    "Cheers",
    "Best, Ann",
    "Best regards,",
    "Kind regards, Jean-Luc Picard",
    "All the best",
    "Ann",
    "J. McLean",
    "O'Brien",
    "Sent from my iPhone",
    "Get Outlook for Android",
)


@pytest.mark.parametrize("line", SIGN_OFFS)
def test_sign_offs_names_and_phone_lines_are_not_orders(line: str) -> None:
    assert is_sign_off(line)


@pytest.mark.parametrize("line", ORDERS)
def test_no_order_is_a_sign_off(line: str) -> None:
    assert not is_sign_off(line)
    assert not is_sign_off(line.lower())
    assert not is_sign_off(line.title())


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 =@:.,"


@st.composite
def mistyped(draw: st.DrawFn) -> str:
    """An order line with one typo (a character replaced, dropped, doubled, or two swapped), in
    any of the cases players write orders in."""
    line = draw(st.sampled_from(ORDERS))
    line = draw(st.sampled_from((line, line.lower(), line.title(), line.capitalize())))
    at = draw(st.integers(0, len(line) - 1))
    kind = draw(st.sampled_from(("replace", "drop", "double", "swap", "insert")))
    char = draw(st.sampled_from(LETTERS))
    if kind == "replace":
        return line[:at] + char + line[at + 1 :]
    if kind == "drop":
        return line[:at] + line[at + 1 :]
    if kind == "double":
        return line[:at] + line[at] + line[at:]
    if kind == "swap" and at + 1 < len(line):
        return line[:at] + line[at + 1] + line[at] + line[at + 2 :]
    return line[:at] + char + line[at:]


@settings(max_examples=300)
@given(mistyped())
def test_an_order_with_a_typo_is_never_a_sign_off(line: str) -> None:
    assert not is_sign_off(line)


@given(
    st.sampled_from(("Thanks", "Cheers", "Best", "Regards", "Best wishes", "Take care", "Love")),
    st.sampled_from(("", ",", "!", " -", ".")),
    st.sampled_from(("", "Ann", "Bob Smith", "Jean-Luc", "Mary Jones")),
)
def test_a_closing_with_or_without_a_name_is_a_sign_off(closing: str, mark: str, name: str) -> None:
    assert is_sign_off(f"{closing}{mark} {name}".strip())


def lines(*texts: str) -> list[SourceLine]:
    return [SourceLine(number=n, text=t, raw=t) for n, t in enumerate(texts, start=1)]


def test_the_sign_off_is_the_last_lines_only() -> None:
    assert sign_off_start(lines("MOVE W3 1421", "Thanks,", "Ann")) == 1
    assert sign_off_start(lines("Ann", "MOVE W3 1421")) is None
    assert sign_off_start(lines("MOVE W3 1421")) is None


def test_a_reply_header_takes_everything_below_it() -> None:
    found = lines("MOVE W3 1421", "Cheers", "On Tue, 3 Mar 2026 at 10:00, Bob <b@x.org> wrote:", "MOVE W3 1")
    assert sign_off_start(found) == 1


def test_with_an_end_line_nothing_after_the_orders_is_read_or_warned_about() -> None:
    parsed = parse_mail("GAME g1\nMOVE W3 1421\nEND\nThanks,\nAnn\n", context())
    assert parsed.problems == ()


def test_without_end_a_sign_off_is_one_warning_and_not_read() -> None:
    parsed = parse_mail("GAME g1\nMOVE W3 1421\nThanks,\nAnn\n", context())
    assert [(p.line, p.severity) for p in parsed.problems if p.message == SIGN_OFF] == [(3, "warning")]
    assert all(p.severity == "warning" for p in parsed.problems)
    assert len(parsed.turn.orders) == 1
