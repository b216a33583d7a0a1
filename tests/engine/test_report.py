"""The results report: built from the player's view and the events they may see, in the rules'
notation (ship records; combat orders and CRT readings as in rules VI's examples)."""

from __future__ import annotations

from engine.warpwar.context import Step
from engine.warpwar.events import AnyEvent
from engine.warpwar.knowledge import refresh_knowledge
from engine.warpwar.orders import (
    CombatOrder,
    HexStep,
    MissileShot,
    Move,
    OrderResult,
    OrderStatus,
    RoundOrders,
    Tactic,
    TurnOrders,
)
from engine.warpwar.report import SCHEMA, Report, build_report
from engine.warpwar.state import GameState, Knowledge, Visibility
from engine.warpwar.turn import Outcome, submit_round, submit_turn
from engine.warpwar.views import player_view
from tests.engine.builders import add_ship, make_state


def state_with_ships(visibility: Visibility = Visibility.BLIND) -> GameState:
    """P1's W3 next to Delta 0505, where P2's S25 waits (the ships of rules VI's examples)."""
    state = make_state(visibility=visibility)
    for player in ("P1", "P2"):
        state.knowledge[player] = Knowledge(stars=sorted(s.hex for s in state.map.stars))
    add_ship(state, "W3: TL0 PD=6 B=3 S=2 H=1", owner="P1", location="0606")
    add_ship(state, "S25: TL0 PD=5 T=1 M=3", owner="P2", location="0505")
    refresh_knowledge(Step(state))
    return state


def fight_one_round() -> tuple[Outcome, list[AnyEvent]]:
    """P1's W3 moves into Delta and both fight a round: W3 fires its Beam at S25 ("W3 (TL0)
    ATTACKS S25: D=0 B=3 S=2 T=0"), S25 dodges and fires a Missile at W3 with drive 1."""
    moved = submit_turn(
        state_with_ships(), TurnOrders(player="P1", orders=(Move(ship="W3", steps=(HexStep(to="0505"),)),))
    )
    orders = [
        RoundOrders(
            player="P1",
            star="0505",
            round=1,
            ships={"W3": CombatOrder(tactic=Tactic.ATTACK, drive=0, beam=3, beam_target="P2.S25", screen=2)},
        ),
        RoundOrders(
            player="P2",
            star="0505",
            round=1,
            ships={
                "S25": CombatOrder(
                    tactic=Tactic.DODGE, drive=4, missiles=(MissileShot(target="P1.W3", drive=1),)
                )
            },
        ),
    ]
    fought = submit_round(moved.state, "0505", orders)
    return fought, [*moved.events, *fought.events]


def report_for(player: str) -> Report:
    outcome, events = fight_one_round()
    return build_report(player_view(outcome.state, player), events, deadline="Monday noon")


def test_the_header_names_game_player_turn_whose_turn_and_deadline() -> None:
    # Given P1's report after a combat round that leaves the combat going on
    header = report_for("P1").header
    # Then it names all that, and the combat waiting for round orders
    assert (header.game, header.player, header.player_name, header.turn) == ("test", "P1", "One", 2)
    assert (header.active_player, header.scenario, header.deadline) == ("P1", "advanced", "Monday noon")
    assert header.combats == ("Delta 0505, round 2",)


def test_combat_orders_are_written_as_the_rules_examples_write_them() -> None:
    # Given the round of rules VI's Beam and Missile examples
    (combat,) = report_for("P1").combats
    (first,) = combat.rounds
    # Then the orders read "W3 (TL0) ATTACKS S25: D=0 B=3 S=2 T=0" and "S25 (TL0) DODGE: D=4
    # B=0 S=0 T=1" with the Missile's own line "M ATTACKS W3: D=3" (here drive 1), ships by uid
    texts = {o.ship: (o.text, o.missiles) for o in first.orders}
    assert texts == {
        "P1.W3": ("P1.W3 ATTACKS P2.S25: D=0 B=3 S=2 T=0", ()),
        "P2.S25": ("P2.S25 DODGES: D=4 B=0 S=0 T=1", ("M ATTACKS P1.W3: D=1",)),
    }


def test_each_shot_gives_its_crt_row_column_result_and_hits() -> None:
    # Given the same round
    (combat,) = report_for("P1").combats
    shots = {s.weapon: s for s in combat.rounds[0].shots}
    # Then the Beam (drive 0 - 4 = -4) reads ATTACK "-3 or less" against DODGE: Miss
    beam = shots["beam"]
    assert (beam.row, beam.column, beam.difference, beam.result, beam.hits) == (
        "ATTACK (-3 or less)",
        "DODGE",
        -4,
        "Miss",
        0,
    )
    # And the Missile (drive 1 - 0 = +1) reads ATTACK (0, +1) against ATTACK: Hit +2, 2 + 2 hits
    missile = shots["missile"]
    assert (missile.row, missile.column, missile.result, missile.hits) == (
        "ATTACK (0, +1)",
        "ATTACK",
        "Hit +2",
        4,
    )
    assert missile.text == (
        "P2.S25 Missile at P1.W3: row ATTACK (0, +1), column ATTACK (drive difference +1): Hit +2, 4 hits"
    )


def test_damage_shows_the_owner_the_new_record_and_the_enemy_only_the_hits() -> None:
    # Given W3 took 4 hits, 2 absorbed by its Screens powered at 2 (rules VI, recording damage)
    (own,) = report_for("P1").combats[0].rounds[0].damage
    (seen,) = report_for("P2").combats[0].rounds[0].damage
    # Then its owner sees the hits and the record after them
    assert (own.hits, own.absorbed, own.effective) == (4, 2, 2)
    assert own.record.startswith("W3: TL0 ") and "{" in own.record
    # And the enemy sees the hits but not the record ("ship attributes are still secret")
    assert (seen.hits, seen.absorbed, seen.effective, seen.record) == (4, 2, 2, "")
    assert seen.text == "P1.W3 takes 4 hits, 2 absorbed by Screens, 2 effective"


def test_own_ships_are_listed_with_record_place_mp_and_cargo() -> None:
    # Given P1's report
    (ship,) = report_for("P1").ships
    # Then W3 is listed in the rules' notation, at Delta, with its movement points
    assert ship.name == "W3"
    assert ship.record.startswith("W3: TL0 PD=6 B=3 S=")
    assert (ship.hex, ship.place, ship.mp, ship.cargo, ship.carrying) == ("0505", "Delta 0505", 3, 0, ())


def test_bases_list_stockpile_and_state() -> None:
    # Given P1's three home Bases (complete, empty)
    bases = report_for("P1").bases
    # Then each is listed at its star with the star's value
    assert [(b.place, b.stockpile, b.complete, b.star_value) for b in bases] == [
        ("Alpha 0101", 0, True, 2),
        ("Beta 0103", 0, True, 3),
        ("Gamma 0301", 0, True, 1),
    ]


def test_order_results_are_numbered_with_the_order_text_and_reason() -> None:
    # Given two orders, the second refused
    results = [
        OrderResult(index=0, status=OrderStatus.DONE),
        OrderResult(index=1, status=OrderStatus.REFUSED, reason="you have no ship W7"),
    ]
    view = player_view(state_with_ships(), "P1")
    # When the report is built with the orders' texts
    report = build_report(view, [], results, order_texts=["MOVE W3 0505", "MOVE W7 0505"])
    # Then each result is numbered from 1 with its order and reason
    assert [(o.number, o.order, o.status, o.reason) for o in report.orders] == [
        (1, "MOVE W3 0505", OrderStatus.DONE, ""),
        (2, "MOVE W7 0505", OrderStatus.REFUSED, "you have no ship W7"),
    ]


def test_events_the_player_may_not_see_are_left_out() -> None:
    # Given a blind game in which P2 moves a ship where P1 has nothing
    state = state_with_ships()
    add_ship(state, "W9: TL0 PD=4 B=1", owner="P2", location="1008")
    state.active = 1
    moved = submit_turn(
        state, TurnOrders(player="P2", orders=(Move(ship="W9", steps=(HexStep(to="0907"),)),))
    )
    # When P1's report is built from all the events
    report = build_report(player_view(moved.state, "P1"), moved.events)
    # Then the move is not in it, nor is the ship among known enemies; P2's report has it
    assert not any("W9" in line for line in report.happened)
    assert all(e.ship != "P2.W9" for e in report.enemies)
    theirs = build_report(player_view(moved.state, "P2"), moved.events)
    assert any("P2.W9 moves 1008 > 0907" in line for line in theirs.happened)


def test_known_enemies_are_the_views_sightings_with_place_and_turn() -> None:
    # Given P1 sees P2's S25 at Delta in the fight
    enemies = report_for("P1").enemies
    # Then it is listed where and when it was seen
    assert [(e.ship, e.owner_name, e.place, e.turn) for e in enemies] == [("P2.S25", "Two", "Delta 0505", 2)]


def test_stars_gained_are_what_changed() -> None:
    # Given P1's ship moves onto Delta, with no enemy there
    state = state_with_ships()
    del state.ships["P2.S25"]
    moved = submit_turn(
        state, TurnOrders(player="P1", orders=(Move(ship="W3", steps=(HexStep(to="0505"),)),))
    )
    # When P1's report is built
    changes = build_report(player_view(moved.state, "P1"), moved.events).changes
    # Then Delta is a star gained
    assert changes.stars_gained == ("Delta 0505",)
    assert changes.any


def test_the_json_carries_the_schema_version_and_reads_back_equal() -> None:
    # Given a report
    report = report_for("P1")
    # When written as JSON and read back
    text = report.model_dump_json(indent=2)
    # Then it names its schema and is the same report
    assert f'"schema": "{SCHEMA}"' in text
    assert Report.model_validate_json(text) == report
