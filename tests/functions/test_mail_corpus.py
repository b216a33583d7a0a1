"""Real-world order mails, from raw message to typed orders.

Each mail in tests/corpus/ (described in its README.md) imitates one client's way of sending a
reply or a fresh mail. Every one must read, through ``order_text`` and the order language's
``parse_mail``, to exactly the orders its writer meant, with no problem at all; the one mail
without orders must get exactly the "no orders found" problem. Where a mail carries both a plain
and an HTML alternative, the HTML alone must read to the same orders too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.orderblock import NO_BLOCK, Header
from engine.warpwar.classic_map import classic_map
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.parser import ParsedOrders, parse_mail
from engine.warpwar.lang.printer import order_text as order_line
from engine.warpwar.lang.printer import round_lines
from functions.mail.body import BROKEN_RECOVERED, order_text, sender, subject

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
ANA = Header(game="wm-7", player="P1", code="K7Q2-XW")
ZOE = Header(game="wm-7", player="P2", code="88-ZEBRA")


@dataclass(frozen=True)
class Expected:
    """What a corpus mail says, in canonical order-language lines (places as hex numbers)."""

    player: str
    header: Header
    turn: tuple[str, ...] = ()
    rounds: tuple[str, ...] = ()
    sender: str = "ana.costa@gmail.com"
    subject: str = ""
    content_type: str = "text/plain"
    body_problems: tuple[str, ...] = ()
    html_alternative: bool = False
    """The mail also has an HTML alternative, which must read to the same orders."""


EXPECTED: dict[str, Expected] = {
    "01_gmail_reply_in_place.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 3}),
        turn=("MOVE W1 WARP 0710", "MOVE W2 0707 0708 0709", "BUILD WARPSHIP AT 0606 PD=5 B=2 S=1 M=2"),
        subject="Re: [wm-7] Turn 3 results for P1",
        html_alternative=True,
    ),
    "02_gmail_top_posting.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 4}),
        turn=(
            "LOAD W1 4",
            "UNLOAD W3 2",
            "REPAIR W2 S=1",
            "RESUPPLY W1 M=3 SH=0",
            "PRIORITY W1 A H SH M SR E T C S B PD",
            "ECM W1 EVEN",
            "STANDING W1 ATTACK: D=2 B=3 S=1",
            "BASE AT 0307 5",
            "REARRANGE S1 ONTO W3",
        ),
        subject="Re: [wm-7] Turn 4 results for P1",
        html_alternative=True,
    ),
    "03_outlook_html_cp1252.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 5}),
        turn=("MOVE W1 WARP 1011 WARP 1313", "LOAD W2 3", "ECM W1 FIRST-COME"),
        sender="bill.harper@contoso.example",
        subject="RE: [wm-7] Turn 5 results for P1",
        content_type="text/html",
    ),
    "04_apple_mail_flowed_qp.eml": Expected(
        player="P2",
        header=ZOE.model_copy(update={"turn": 3}),
        turn=(
            "MOVE W1 WARP 1922 WARP 1719 DROP S1 WARP 1415",
            "BUILD SYSTEMSHIP AT 2223 PD=4 B=2 S=2 E=1 AS S4",
            "REPAIR W2 PD=2 S=1 FROM W3",
        ),
        sender="zoe.angstrom@icloud.com",
        subject="Re: [wm-7] Turn 3 orders sheet for P2",
        html_alternative=True,
    ),
    "05_thunderbird_bottom_post_signature.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 5}),
        turn=(
            "MOVE W3 0707 0708 0709 WARP 1011 PICKUP S2 WARP 0813 DROP S2",
            "SCRAP W2",
            "STANDING W3 DODGE: D=3 S=2",
        ),
        sender="ana@posteo.example",
        subject="Re: [wm-7] Turn 5 results for P1",
    ),
    "06_phone_base64_utf8.eml": Expected(
        player="P2",
        header=ZOE.model_copy(update={"turn": 4, "player": "Zoë Ångström"}),
        turn=("MOVE W2 2122 2022", "LOAD W1 5", "SCRAP S3"),
        sender="zoe.angstrom@icloud.com",
        subject="Turn 4 \N{EN DASH} Zoë's orders",
    ),
    "07_windows1252_8bit_plain.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 6}),
        turn=("UNLOAD W3 4", "BASE AT 0804 4", "MOVE W3 WARP 1207"),
        sender="bill.harper@contoso.example",
        subject="Orders \N{EN DASH} turn 6",
    ),
    "08_html_only_divs_nbsp.eml": Expected(
        player="P2",
        header=ZOE.model_copy(update={"turn": 5}),
        turn=(
            "MOVE W2 2122 2022",
            "STANDING W1 DODGE: D=3 S=2",
            "ECM W1 MINIMISE-DAMAGE",
            "REARRANGE S1 OFF",
        ),
        sender="zoe_a@yahoo.example",
        subject="turn 5",
        content_type="text/html",
    ),
    "09_attachments_besides_text.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 7}),
        turn=(
            "BUILD WARPSHIP AT 0606 PD=8 B=4 S=3 T=1 M=2 R=1",
            "RESUPPLY W1 M=3 SH=4 FROM W4",
            "MOVE W1 WARP 0710 WARP 1011",
        ),
        sender="ana@posteo.example",
        subject="turn 7 orders (map attached)",
    ),
    "10_empty_plain_html_orders.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 8}),
        turn=("MOVE W2 0707", "LOAD W2 2", "REARRANGE S2 ONTO W2"),
        subject="Turn 8",
        content_type="text/html",
    ),
    "11_malformed_boundary.eml": Expected(
        player="P2",
        header=ZOE.model_copy(update={"turn": 6}),
        turn=("SCRAP W4", "MOVE W2 WARP 2318 WARP 2118"),
        sender="zoe.angstrom@icloud.com",
        subject="orders turn 6",
        body_problems=(BROKEN_RECOVERED,),
        html_alternative=True,
    ),
    "12_no_order_block.eml": Expected(player="P1", header=Header(), subject="deadline?"),
    "13_undeclared_8bit.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 9}),
        turn=("PRIORITY W2 A H SH M SR E T C S B PD", "STANDING W2 ATTACK: D=2 B=2 S=2", "MOVE W2 0707 0708"),
        sender="bill.harper@contoso.example",
        subject="turn 9",
    ),
    "14_combat_round_crlf.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 6}),
        rounds=("COMBAT 2020 ROUND 1", "W1 ATTACK P2.W1: D=2 B=3 S=1 M=P2.W2@3", "W2 DODGE: D=4 S=2"),
        sender="ana.costa@outlook.example",
        subject="Re: [wm-7] Combat at Akkad, round 1",
        html_alternative=True,
    ),
    "15_mutt_combat_sheet_in_place.eml": Expected(
        player="P1",
        header=ANA.model_copy(update={"turn": 6}),
        rounds=(
            "COMBAT 2020 ROUND 2",
            "W1 ATTACK P2.W1: D=1 B=3 S=2 M=P2.W2@3",
            "W2 RETREAT: D=4 RETREAT-TO 2019",
        ),
        sender="ana@posteo.example",
        subject="Re: [wm-7] Combat at Akkad, round 2",
    ),
}

NO_BLOCK_MAILS = frozenset({"12_no_order_block.eml"})


def context(player: str) -> LangContext:
    """The writer's knowledge on the classic map: four Warpships, Systemships and three enemies."""
    starmap = classic_map()
    enemy = "P2" if player == "P1" else "P1"
    own = {"W1", "W2", "W3", "W4", "S1", "S2", "S3"} | ({"S4"} if player == "P1" else set())
    return LangContext(
        player=player,
        places={star.name.lower(): star.hex for star in starmap.stars},
        hexes=frozenset(starmap.hexes),
        own_ships=frozenset(own),
        enemy_ships=frozenset({f"{enemy}.W1", f"{enemy}.W2", f"{enemy}.S1"}),
        players={"p1": "P1", "ana costa": "P1", "p2": "P2", "zoë ångström": "P2"},
        star_names={star.hex: star.name for star in starmap.stars},
    )


def read(raw: bytes, player: str) -> ParsedOrders:
    return parse_mail(order_text(raw).text, context(player))


def turn_lines(parsed: ParsedOrders) -> tuple[str, ...]:
    return tuple(order_line(order) for order in parsed.turn.orders)


def combat_lines(parsed: ParsedOrders) -> tuple[str, ...]:
    return tuple(line for section in parsed.rounds for line in round_lines(section))


def corpus_mail(name: str) -> bytes:
    return (CORPUS / name).read_bytes()


def test_every_corpus_mail_has_its_expected_orders_and_a_readme_entry() -> None:
    names = sorted(path.name for path in CORPUS.glob("*.eml"))
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")

    assert names == sorted(EXPECTED)
    assert len(names) >= 12
    assert [name for name in names if f"`{name}`" not in readme] == []


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - NO_BLOCK_MAILS))
def test_corpus_mail_reads_to_exactly_the_orders_its_writer_meant(name: str) -> None:
    expected = EXPECTED[name]

    body = order_text(corpus_mail(name))
    parsed = parse_mail(body.text, context(expected.player))

    assert body.content_type == expected.content_type
    assert body.problems == expected.body_problems
    assert parsed.header == expected.header
    assert turn_lines(parsed) == expected.turn
    assert combat_lines(parsed) == expected.rounds
    assert parsed.problems == ()


@pytest.mark.parametrize(
    "name", sorted(name for name, expected in EXPECTED.items() if expected.html_alternative)
)
def test_html_alternative_reads_to_the_same_orders_as_the_plain_one(name: str) -> None:
    expected = EXPECTED[name]

    html = order_text(corpus_mail(name), prefer=("html",))
    parsed = parse_mail(html.text, context(expected.player))

    assert html.content_type == "text/html"
    assert parsed.header == expected.header
    assert turn_lines(parsed) == expected.turn
    assert combat_lines(parsed) == expected.rounds
    assert parsed.problems == ()


def test_mail_without_orders_gets_exactly_the_no_orders_found_problem() -> None:
    parsed = read(corpus_mail("12_no_order_block.eml"), "P1")

    assert [(problem.line, problem.message, problem.severity) for problem in parsed.problems] == [
        (None, NO_BLOCK, "error")
    ]
    assert parsed.turn.orders == ()
    assert parsed.rounds == ()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sender_and_subject_are_read_from_every_client(name: str) -> None:
    raw = corpus_mail(name)

    assert sender(raw) == EXPECTED[name].sender
    assert subject(raw) == EXPECTED[name].subject


# --- Fuzzing: nothing a mail holds makes reading it raise ---


@settings(max_examples=150, deadline=None)
@given(raw=st.binary(max_size=2000))
def test_arbitrary_bytes_read_as_a_mail_never_raise(raw: bytes) -> None:
    body = order_text(raw)
    parsed = parse_mail(body.text, context("P1"))

    assert isinstance(parsed.problems, tuple)
    assert body.text or body.problems


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(EXPECTED)),
    cuts=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 40), st.binary(max_size=12)), max_size=6),
)
def test_corpus_mails_damaged_anywhere_never_make_reading_raise(
    name: str, cuts: list[tuple[int, int, bytes]]
) -> None:
    """Bytes cut out or replaced at random (a truncated download, a broken gateway) anywhere."""
    raw = corpus_mail(name)
    for at, length, insert in cuts:
        at %= len(raw) + 1
        raw = raw[:at] + insert + raw[at + length :]

    body = order_text(raw)
    parsed = parse_mail(body.text, context(EXPECTED[name].player))

    assert isinstance(body.text, str)
    assert isinstance(parsed.problems, tuple)
    assert isinstance(sender(raw), str | None)
    assert isinstance(subject(raw), str)
