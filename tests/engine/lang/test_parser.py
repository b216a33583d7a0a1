"""Reading order lines into typed orders: every order of the language, the rules' own notation,
names resolved against what the writer knows, and the replacement rule."""

from __future__ import annotations

import pytest

from engine.core.rng import Rng
from engine.warpwar import robot
from engine.warpwar.components import Attr, Attributes
from engine.warpwar.lang import messages as msg
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.parser import ParsedOrders, parse_mail
from engine.warpwar.lang.printer import mail_text
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
    Scrap,
    SetDamagePriority,
    SetEcmPolicy,
    SetStandingCombatOrder,
    Tactic,
    TurnOrder,
    UnloadHold,
    WarplineStep,
)
from engine.warpwar.state import Visibility
from engine.warpwar.views import player_view
from tests.engine.builders import robot_game_states
from tests.engine.lang.contexts import context, mail

COMBAT = "COMBAT Babylon ROUND 1"


def parse(*lines: str, known: LangContext | None = None) -> ParsedOrders:
    return parse_mail(mail(*lines), known or context())


def one_order(line: str, known: LangContext | None = None) -> TurnOrder:
    parsed = parse(line, known=known)
    assert parsed.problems == (), [p.describe() for p in parsed.problems]
    (order,) = parsed.turn.orders
    return order


def combat(*lines: str, known: LangContext | None = None) -> dict[str, CombatOrder]:
    parsed = parse(COMBAT, *lines, known=known)
    assert parsed.problems == (), [p.describe() for p in parsed.problems]
    (section,) = parsed.rounds
    assert (section.star, section.round) == ("2223", 1)
    return section.ships


def messages(parsed: ParsedOrders) -> list[str]:
    return [p.message for p in parsed.problems]


# --- The rules' own examples (rules VI) ---


def test_rules_example_of_beam_fire_parses() -> None:
    # "W3 (TL0) ATTACKS S25: D=0 B=3 S=2 T=0"
    ships = combat("W3 (TL0) ATTACKS P2.S25: D=0 B=3 S=2 T=0")
    assert ships == {
        "W3": CombatOrder(
            tactic=Tactic.ATTACK, drive=0, beam=3, beam_target="P2.S25", screen=2, cannon_target="P2.S25"
        )
    }


def test_rules_example_of_missile_fire_adds_the_missile_line_to_the_ship_above() -> None:
    # "S25 (TL0) DODGE: D=4 B=0 S=0 T=1" then "M ATTACKS W3: D=3" (W3 is the only enemy so named)
    ships = combat("S20 (TL0) DODGE: D=4 B=0 S=0 T=1", "  M ATTACKS W7: D=3")
    assert ships == {
        "S20": CombatOrder(tactic=Tactic.DODGE, drive=4, missiles=(MissileShot(target="P2.W7", drive=3),))
    }


def test_rules_example_of_cannon_fire_counts_the_shells_of_each_cannon() -> None:
    # "S32 (TL1) ATTACKS W3: D=3 C=1 (firing 3 shells) C=1 (firing 1 shell)"
    ships = combat("S20 (TL1) ATTACKS P2.W7: D=3 C=1 (firing 3 shells) C=1 (firing 1 shell)")
    assert ships["S20"].cannons == (3, 1)
    assert ships["S20"].cannon_target == "P2.W7"


def test_design_in_the_rules_record_notation_reads_in_any_attribute_order() -> None:
    order = one_order("BUILD SYSTEMSHIP AT Babylon M=3 E=2 T=1 B=3 S=2 PD=7")
    assert order == BuildShip(at="2223", warp=False, design=Attributes(PD=7, S=2, B=3, T=1, M=3, E=2))


def test_tubes_powered_must_match_the_missiles_fired() -> None:
    parsed = parse(COMBAT, "S20 DODGE: D=4 T=2", "M ATTACKS P2.W7: D=3")
    assert messages(parsed) == [msg.TUBES_DISAGREE.format(ship="S20", tubes=2, missiles=1)]
    assert parsed.rounds[0].ships == {}


# --- Every turn order, as the guide writes it ---


@pytest.mark.parametrize(
    ("line", "order"),
    [
        (
            "BUILD WARPSHIP AT Babylon PD=6 B=3 S=2 T=1 M=3",
            BuildShip(at="2223", warp=True, design=Attributes(PD=6, B=3, S=2, T=1, M=3)),
        ),
        (
            "BUILD WARPSHIP AT 2223 PD=5 H=2 R=1",
            BuildShip(at="2223", warp=True, design=Attributes(PD=5, H=2), repair_bay=True),
        ),
        (
            "BUILD SYSTEMSHIP AT 2223 PD=7 B=5 S=5 E=3 AS S40",
            BuildShip(at="2223", warp=False, design=Attributes(PD=7, B=5, S=5, E=3), name="S40"),
        ),
        ("BASE AT Mosul 10", BuildBase(at="0307", amount=10)),
        ("BASE Mosul 10", BuildBase(at="0307", amount=10)),
        ("LOAD W3 10", LoadHold(ship="W3", amount=10)),
        ("UNLOAD W3: 10", UnloadHold(ship="W3", amount=10)),
        ("SCRAP W3", Scrap(ship="W3")),
        ("REPAIR W3 PD=2 S=1", Repair(ship="W3", amounts=Attributes(PD=2, S=1))),
        ("REPAIR W3 A=4 FROM W7", Repair(ship="W3", amounts=Attributes(A=4), repair_bay="W7")),
        ("RESUPPLY W3 M=6 SH=4", Resupply(ship="W3", missiles=6, shells=4)),
        ("RESUPPLY W3 SH=6 FROM W7", Resupply(ship="W3", shells=6, repair_bay="W7")),
        (
            "MOVE W3 1421 1522 WARP Babylon DROP S20 PICKUP S21",
            Move(
                ship="W3",
                steps=(
                    HexStep(to="1421"),
                    HexStep(to="1522"),
                    WarplineStep(to="2223"),
                    DropStep(systemship="S20"),
                    PickUpStep(systemship="S21"),
                ),
            ),
        ),
        ("MOVE W3 1421, 1522", Move(ship="W3", steps=(HexStep(to="1421"), HexStep(to="1522")))),
        ("MOVE W3 1421 -> 1522", Move(ship="W3", steps=(HexStep(to="1421"), HexStep(to="1522")))),
        ("MOVE W3 1421-1522", Move(ship="W3", steps=(HexStep(to="1421"), HexStep(to="1522")))),
        ("MOVE W3 1421 \u2013 1522", Move(ship="W3", steps=(HexStep(to="1421"), HexStep(to="1522")))),
        ("MOVE W3 Al Tarf WARP ur", Move(ship="W3", steps=(HexStep(to="0908"), WarplineStep(to="0606")))),
        ("PRIORITY W3 A H SH M", SetDamagePriority(ship="W3", priority=(Attr.A, Attr.H, Attr.SH, Attr.M))),
        ("PRIORITY W3 A, A, PD", SetDamagePriority(ship="W3", priority=(Attr.A, Attr.A, Attr.PD))),
        ("ECM W3 FIRST-COME", SetEcmPolicy(ship="W3", policy=EcmPolicy.FIRST_COME)),
        ("ECM W3 minimize damage", SetEcmPolicy(ship="W3", policy=EcmPolicy.MINIMISE_DAMAGE)),
        ("ECM W3 Even", SetEcmPolicy(ship="W3", policy=EcmPolicy.EVEN)),
        (
            "STANDING W3 ATTACK: D=2 B=3 S=1",
            SetStandingCombatOrder(
                ship="W3", order=CombatOrder(tactic=Tactic.ATTACK, drive=2, beam=3, screen=1)
            ),
        ),
        ("STANDING W3 NONE", SetStandingCombatOrder(ship="W3", order=None)),
        ("REARRANGE S20 ONTO W3", Rearrange(systemship="S20", to="W3")),
        ("REARRANGE S20 OFF", Rearrange(systemship="S20", to=None)),
    ],
)
def test_each_turn_order_of_the_guide_reads_into_its_typed_order(line: str, order: TurnOrder) -> None:
    assert one_order(line) == order


def test_keywords_and_names_are_case_insensitive_and_comments_are_ignored() -> None:
    assert one_order("move w03 babylon   # to the capital") == Move(ship="W3", steps=(HexStep(to="2223"),))


def test_the_full_combat_line_of_the_guide_reads_every_part() -> None:
    ships = combat(
        "W3 ATTACK P2.S25: D=0 B=3 S=2 E=1 M=P2.S25@3,P2.W7@2 C=2,1 PICKUP S20 DROP S21 "
        "RETREAT-TO 1522 PRIORITY A H ECM EVEN"
    )
    assert ships["W3"] == CombatOrder(
        tactic=Tactic.ATTACK,
        drive=0,
        beam=3,
        beam_target="P2.S25",
        screen=2,
        ecm=1,
        missiles=(MissileShot(target="P2.S25", drive=3), MissileShot(target="P2.W7", drive=2)),
        cannons=(2, 1),
        cannon_target="P2.S25",
        pick_up=("S20",),
        drop=("S21",),
        retreat_to="1522",
        damage_priority=(Attr.A, Attr.H),
        ecm_policy=EcmPolicy.EVEN,
    )


def test_weapons_can_have_targets_of_their_own_and_missiles_use_the_line_target() -> None:
    ships = combat("W3 ATTACKS P2.S25 B=3@P2.W7 C=2,1@P2.W8 M=@3")
    order = ships["W3"]
    assert (order.beam_target, order.cannon_target) == ("P2.W7", "P2.W8")
    assert order.missiles == (MissileShot(target="P2.S25", drive=3),)


def test_enemy_ships_are_named_by_uid_by_player_name_or_by_a_name_only_one_enemy_has() -> None:
    ships = combat("W3 ATTACK W8: B=1", "W4 ATTACK two.w7: B=1", "W7 ATTACK p3.s25: B=1")
    assert [ships[s].beam_target for s in ("W3", "W4", "W7")] == ["P2.W8", "P2.W7", "P3.S25"]


def test_an_ambiguous_enemy_name_lists_the_ships_it_could_be() -> None:
    parsed = parse(COMBAT, "W3 ATTACK S25: B=3")
    assert messages(parsed) == [msg.AMBIGUOUS_ENEMY.format(ship="S25", choices="P2.S25, P3.S25")]


def test_sections_for_the_same_battle_and_round_are_one_and_others_are_separate() -> None:
    parsed = parse(COMBAT, "W3 DODGE: D=1", "COMBAT 0307 ROUND 2", "W3 DODGE: D=2", COMBAT, "W4 DODGE: D=3")
    assert [(r.star, r.round, sorted(r.ships)) for r in parsed.rounds] == [
        ("2223", 1, ["W3", "W4"]),
        ("0307", 2, ["W3"]),
    ]
    assert parsed.round_lines == ({"W3": 6, "W4": 10}, {"W3": 8})


def test_a_turn_order_in_a_combat_section_still_counts_with_a_warning() -> None:
    parsed = parse(COMBAT, "SCRAP W3")
    assert parsed.turn.orders == (Scrap(ship="W3"),)
    assert [p.severity for p in parsed.problems] == ["warning"]


# --- Replacement: a later order for the same ship replaces the earlier one ---


def test_a_later_order_of_the_same_kind_for_the_same_ship_replaces_the_earlier_one() -> None:
    # Given two MOVE orders for W3 and one LOAD
    parsed = parse("MOVE W3 1421", "LOAD W3 5", "MOVE W3 1522")
    # Then the later MOVE counts, in its own place, and the player is told which line it replaced
    assert parsed.turn.orders == (LoadHold(ship="W3", amount=5), Move(ship="W3", steps=(HexStep(to="1522"),)))
    assert parsed.turn_lines == (6, 7)
    (warning,) = parsed.problems
    assert (warning.line, warning.severity) == (7, "warning")
    assert warning.message == msg.REPLACES.format(line=5, earlier="MOVE W3 1421")


def test_base_orders_replace_each_other_per_star_and_every_build_counts() -> None:
    parsed = parse("BASE AT Mosul 10", "BASE AT Ur 5", "BASE AT 0307 12", *["BUILD WARPSHIP AT Ur PD=2"] * 2)
    assert [o.kind for o in parsed.turn.orders] == ["base", "base", "build", "build"]
    assert BuildBase(at="0307", amount=12) in parsed.turn.orders


def test_a_later_combat_order_for_the_same_ship_in_the_same_round_replaces_the_earlier_one() -> None:
    parsed = parse(COMBAT, "W3 DODGE: D=1", "W3 RETREAT: D=4")
    assert parsed.rounds[0].ships["W3"].tactic is Tactic.RETREAT
    assert messages(parsed) == [msg.REPLACES.format(line=6, earlier="W3 DODGE: D=1")]


# --- Mistakes are reported per line, never raised ---


def test_a_wrong_line_is_reported_and_the_others_still_count() -> None:
    parsed = parse("SCRAP W3", "MOVE W33 1421", "LOAD W4 2")
    assert parsed.turn.orders == (Scrap(ship="W3"), LoadHold(ship="W4", amount=2))
    (problem,) = parsed.problems
    assert (problem.line, problem.text, problem.suggestions) == (6, "MOVE W33 1421", ("W3",))


@pytest.mark.parametrize(
    ("line", "suggestion"),
    [
        ("MOVEE W3 1421", "MOVE"),
        ("MOVE W3 Babilon", "Babylon"),
        ("BUILD WARPSHIP AT Ur PD=6 SHH=3", "SH"),
        ("ECM W3 EVAN", "EVEN"),
        ("BUILD WARPSHP AT Ur PD=2", "WARPSHIP"),
    ],
)
def test_did_you_mean_suggests_keywords_stars_and_attributes(line: str, suggestion: str) -> None:
    (problem,) = parse(line).problems
    assert suggestion in problem.suggestions


def test_did_you_mean_suggests_enemy_ships_and_tactics() -> None:
    assert "P2.W7" in parse(COMBAT, "W3 ATTACK P2.W77: B=1").problems[0].suggestions
    assert "ATTACK" in parse(COMBAT, "W3 ATACK P2.W7: B=1").problems[0].suggestions


@pytest.mark.parametrize(
    "line",
    [
        "LOAD W3 -4",
        "LOAD W3 99999999999999999999999",
        "BUILD WARPSHIP AT Ur PD=" + "9" * 5000,
        "BUILD WARPSHIP AT Ur R=2 PD=1",
        "BUILD SYSTEMSHIP AT Ur PD=1 AS W1234567",
        "PRIORITY W3 " + "A " * 45,
    ],
)
def test_numbers_out_of_range_are_problems(line: str) -> None:
    parsed = parse(line)
    assert parsed.turn.orders == ()
    assert len(parsed.problems) == 1


def test_combat_settings_out_of_range_are_problems() -> None:
    for line in (
        "W3 ATTACK P2.W7: C=4",
        "W3 ATTACK P2.W7: M=@0",
        "W3 ATTACK P2.W7: M=@100",
        "W3 DODGE D=1 D=2",
    ):
        parsed = parse(COMBAT, line)
        assert parsed.rounds[0].ships == {}, line
        assert len(parsed.problems) == 1, line


def test_a_mail_without_orders_has_only_the_missing_block_problem() -> None:
    parsed = parse_mail("Thanks for the game!", context())
    assert parsed.turn.orders == ()
    assert [(p.line, p.message) for p in parsed.problems] == [(None, msg.NO_BLOCK)]


# --- What the writer knows ---


def test_a_syntax_only_context_takes_any_ship_and_hex_but_needs_hex_numbers() -> None:
    known = LangContext.syntax_only("P1")
    assert one_order("MOVE W99 1421 WARP 020304", known) == Move(
        ship="W99", steps=(HexStep(to="1421"), WarplineStep(to="020304"))
    )
    assert messages(parse("MOVE W99 Babylon", known=known)) == [msg.UNKNOWN_STAR.format(word="Babylon")]
    parsed = parse("COMBAT 2223 ROUND 1", "W3 ATTACK W7: B=1", "W4 ATTACK Two.W7: B=1", known=known)
    assert parsed.rounds[0].ships == {
        "W3": CombatOrder(tactic=Tactic.ATTACK, beam=1, beam_target="W7", cannon_target="W7"),
        "W4": CombatOrder(tactic=Tactic.ATTACK, beam=1, beam_target="Two.W7", cannon_target="Two.W7"),
    }


def test_the_context_of_a_player_view_knows_stars_ships_enemies_and_players() -> None:
    # Given a robot game some turns in
    state = robot_game_states(Visibility.OPEN, 3, 12)[-1]
    view = player_view(state, state.active_player.id)
    known = LangContext.from_view(view)
    # Then the names come from the view
    assert known.own_ships == {s.name for s in view.own_ships if not s.destroyed}
    assert known.places == {s.name.lower(): s.hex for s in view.stars}
    assert known.enemy_ships == {s.ship for s in view.enemy_ships}
    assert known.players[view.player.lower()] == view.player
    assert known.hexes == set(state.map.hexes)


@pytest.mark.parametrize("index", [2, 7, 11])
def test_a_robots_orders_printed_as_a_mail_read_back_in_its_own_view(index: int) -> None:
    # Given a robot's orders for a player-turn of a real game
    state = robot_game_states(Visibility.BLIND, 5, 12)[index]
    view = player_view(state, state.active_player.id)
    orders = robot.turn_orders(view, Rng(state.seed).derive(f"test/{index}"))
    # When printed and read with what that player knows
    from engine.core.orderblock import Header

    parsed = parse_mail(mail_text(Header(game=view.game_id), orders), LangContext.from_view(view))
    # Then the very same orders come back
    assert parsed.problems == ()
    assert parsed.turn == orders
