"""The printer writes canonical text that the parser reads back to exactly the same orders."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.orderblock import Header
from engine.warpwar.components import MAX_SHELLS_PER_CANNON, Attr, Attributes
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.parser import parse_block, parse_mail, replacement_key
from engine.warpwar.lang.printer import combat_order_text, design_text, mail_text, order_text
from engine.warpwar.orders import (
    BuildBase,
    BuildShip,
    CombatOrder,
    DropStep,
    EcmPolicy,
    HexStep,
    LoadHold,
    MissileShot,
    Move,
    PickUpStep,
    Rearrange,
    Repair,
    Resupply,
    RoundOrders,
    Scrap,
    SetDamagePriority,
    SetEcmPolicy,
    SetStandingCombatOrder,
    Tactic,
    TurnOrder,
    TurnOrders,
    UnloadHold,
    WarplineStep,
)
from tests.engine.lang.contexts import ENEMY_SHIPS, HEXES, OWN_SHIPS, context

CONTEXT = context()
NEW_NAMES = ("W50", "W51", "S60")

own = st.sampled_from(OWN_SHIPS)
enemy = st.sampled_from(ENEMY_SHIPS)
hexes = st.sampled_from(sorted(HEXES))
amount = st.integers(1, 500)
small = st.integers(0, 30)


def attributes(repairable: bool = False) -> st.SearchStrategy[Attributes]:
    fields = {attr.value: small for attr in Attr}
    if repairable:
        fields |= {"M": st.just(0), "SH": st.just(0)}
    return st.builds(Attributes, **fields)


priorities = st.lists(st.sampled_from(list(Attr)), min_size=1, max_size=12).map(tuple)

combat_orders = st.builds(
    CombatOrder,
    tactic=st.sampled_from(list(Tactic)),
    drive=small,
    beam=small,
    beam_target=st.none() | enemy,
    screen=small,
    ecm=small,
    missiles=st.lists(st.builds(MissileShot, target=enemy, drive=st.integers(1, 99)), max_size=3).map(tuple),
    cannons=st.lists(st.integers(1, MAX_SHELLS_PER_CANNON), max_size=3).map(tuple),
    cannon_target=st.none() | enemy,
    pick_up=st.lists(own, max_size=2).map(tuple),
    drop=st.lists(own, max_size=2).map(tuple),
    retreat_to=st.none() | hexes,
    damage_priority=st.none() | priorities,
    ecm_policy=st.none() | st.sampled_from(list(EcmPolicy)),
)

steps = st.one_of(
    st.builds(HexStep, to=hexes),
    st.builds(WarplineStep, to=hexes),
    st.builds(DropStep, systemship=own),
    st.builds(PickUpStep, systemship=own),
)

turn_orders: st.SearchStrategy[TurnOrder] = st.one_of(
    st.builds(LoadHold, ship=own, amount=amount),
    st.builds(UnloadHold, ship=own, amount=amount),
    st.builds(Scrap, ship=own),
    st.builds(
        BuildShip,
        at=hexes,
        warp=st.booleans(),
        design=attributes(),
        repair_bay=st.booleans(),
        name=st.none() | st.sampled_from(NEW_NAMES),
    ),
    st.builds(BuildBase, at=hexes, amount=amount),
    st.builds(Repair, ship=own, amounts=attributes(repairable=True), repair_bay=st.none() | own),
    st.builds(Resupply, ship=own, missiles=small, shells=small, repair_bay=st.none() | own),
    st.builds(Move, ship=own, steps=st.lists(steps, min_size=1, max_size=6).map(tuple)),
    st.builds(SetDamagePriority, ship=own, priority=priorities),
    st.builds(SetEcmPolicy, ship=own, policy=st.sampled_from(list(EcmPolicy))),
    st.builds(SetStandingCombatOrder, ship=own, order=st.none() | combat_orders),
    st.builds(Rearrange, systemship=own, to=st.none() | own),
)


def one_per_ship(orders: list[TurnOrder]) -> tuple[TurnOrder, ...]:
    """The orders without a second one of the same kind for the same ship (which would replace
    the first: that rule is tested on its own)."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for order in orders:
        key = replacement_key(order)
        if key is None or key not in seen:
            kept.append(order)
        if key is not None:
            seen.add(key)
    return tuple(kept)


whole_turns = st.builds(
    TurnOrders, player=st.just("P1"), orders=st.lists(turn_orders, max_size=12).map(one_per_ship)
)
round_orders = st.builds(
    RoundOrders,
    player=st.just("P1"),
    star=hexes,
    round=st.integers(1, 40),
    ships=st.dictionaries(own, combat_orders, max_size=4),
)
tokens = st.text(
    alphabet="abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789-_.", min_size=1, max_size=12
)
headers = st.builds(
    Header,
    game=tokens,
    player=st.none() | tokens,
    turn=st.none() | st.integers(0, 10_000),
    code=st.none() | tokens.filter(lambda code: code.strip("_")),
    add=st.booleans(),
    check=st.booleans(),
)


def read_back(text: str, known: LangContext = CONTEXT) -> TurnOrder:
    parsed = parse_mail(f"GAME g\n{text}\nEND\n", known)
    assert parsed.problems == (), [p.describe() for p in parsed.problems]
    (order,) = parsed.turn.orders
    return order


@settings(max_examples=300, deadline=None)
@given(order=turn_orders)
def test_every_turn_order_reads_back_from_its_printed_line(order: TurnOrder) -> None:
    # Given any turn order, when it is printed and the line read back, Then it is the same order
    assert read_back(order_text(order)) == order


@settings(max_examples=200, deadline=None)
@given(order=combat_orders, ship=own)
def test_every_combat_order_reads_back_from_its_printed_line(order: CombatOrder, ship: str) -> None:
    # Given any combat order, When printed under a COMBAT line and read back
    parsed = parse_mail(f"GAME g\nCOMBAT 2223 ROUND 1\n{combat_order_text(ship, order)}\nEND", CONTEXT)
    # Then it is the same order, for the same ship
    assert parsed.problems == (), [p.describe() for p in parsed.problems]
    assert parsed.rounds[0].ships == {ship: order}


@settings(max_examples=100, deadline=None)
@given(header=headers, turn=whole_turns, rounds=st.lists(round_orders, max_size=3))
def test_a_printed_mail_reads_back_to_the_same_header_and_orders(
    header: Header, turn: TurnOrders, rounds: list[RoundOrders]
) -> None:
    # Given whole turn orders and combat sections (one per battle and round)
    sections = list({(r.star, r.round): r for r in rounds}.values())
    # When the mail is printed and parsed
    parsed = parse_mail(mail_text(header, turn, sections), CONTEXT)
    # Then everything reads back exactly and without problems
    assert parsed.problems == (), [p.describe() for p in parsed.problems]
    assert parsed.header == header
    assert parsed.turn == turn
    assert parsed.rounds == tuple(sections)


@settings(max_examples=50, deadline=None)
@given(turn=whole_turns)
def test_parse_block_of_the_printed_lines_gives_the_orders_back(turn: TurnOrders) -> None:
    # Given the order lines of a printed mail (header lines taken out by the block reader)
    from engine.core.orderblock import find_block

    block = find_block(mail_text(Header(game="g"), turn))
    # When they are parsed on their own, Then the orders come back
    assert parse_block(block.lines, CONTEXT).turn == turn


def test_designs_print_in_the_rules_record_order_with_the_repair_bay_last() -> None:
    # Given a design written in any attribute order, When printed, Then it is in record order
    design = Attributes(E=2, M=3, T=1, B=3, S=2, PD=7)
    assert design_text(design) == "PD=7 B=3 S=2 T=1 M=3 E=2"
    assert design_text(design, repair_bay=True) == "PD=7 B=3 S=2 T=1 M=3 E=2 R=1"
    assert design_text(Attributes()) == "PD=0"


def test_the_canonical_combat_line_names_the_shared_target_after_the_tactic() -> None:
    order = CombatOrder(
        tactic=Tactic.ATTACK, drive=0, beam=3, beam_target="P2.S25", screen=2, cannon_target="P2.S25"
    )
    assert combat_order_text("W3", order) == "W3 ATTACK P2.S25: D=0 B=3 S=2"
