"""Fleet building by mail (option ``building``, interpretation 26): SHIP lines read and checked
cell by cell, the sheet, the blind build phase, the robot's ready-made fleet, and a whole game
where the players build, then play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.turnhost import Deadlines, Seat
from engine.lta.examples import EXAMPLES
from engine.lta.fleet import Design, Fitting, cost, slots_used
from engine.lta.game import LighterThanAir
from engine.lta.hexmap import Arc
from engine.lta.host import LtaTurns
from engine.lta.lang.reader import read
from engine.lta.lang.shipline import read_ship, ship_line, ship_lines
from engine.lta.mailgame import LtaMail
from engine.lta.orders import BuildOrders
from engine.lta.robot import orders as robot_orders
from engine.lta.scenarios import FLEET_BATTLE_BUDGET, PlayerSpec, Setup, default_fleet
from engine.lta.state import GameState, Phase, Scenario
from engine.lta.tables import AMMO_SHOTS, CLASSES, Cargo, ShipClass, Weapon
from engine.lta.views import player_view
from functions.render.jinja import render
from functions.render.report import row, wrap

TURNS = LtaTurns()
MAIL = LtaMail()
LTA = LighterThanAir()
SEATS = [Seat(player_id="Red", name="Ann"), Seat(player_id="Blue", name="Bob")]


def _building(scenario: str = "fleet", turn_limit: int = 2) -> str:
    options = {"scenario": scenario, "turn_limit": turn_limit, "building": True}
    return TURNS.new_state("g1", json.dumps(options), SEATS, 11)


def _mail(*lines: str, turn: int = 0, player: str = "Red") -> str:
    return "\n".join([f"GAME g1\nPLAYER {player}\nTURN {turn}", *lines, "END"]) + "\n"


def _read(state_json: str, *lines: str) -> tuple[BuildOrders | None, list[tuple[int | None, str]]]:
    reading = read(_mail(*lines), player_view(GameState.model_validate_json(state_json), "Red"))
    return reading.build, [(p.line, p.message) for p in reading.problems]


def test_the_text_example_ships_cost_their_listed_resource_points_as_ship_lines() -> None:
    """The text's four examples written as SHIP lines cost what it lists (70, 139, 132, 90) and
    are refused as builds for their one slot too many (interpretations 6 and 26)."""
    state = _building()
    for printed in EXAMPLES:
        design = printed.design
        # The Liverpool's Machine Gun has no arc in the text: a SHIP line must give one.
        fittings = tuple(
            f.model_copy(update={"arc": Arc.FORWARD}) if isinstance(f.kind, Weapon) and f.arc is None else f
            for f in design.fittings
        )
        line = ship_line(design.model_copy(update={"fittings": fittings}))
        read = read_ship(line)
        assert read.problems == () and read.design is not None
        assert cost(read.design) == printed.listed_cost
        slots = CLASSES[design.cls].slots
        build, problems = _read(state, line)
        assert build is not None and build.ships == ()
        assert problems == [
            (4, f"{design.name} needs {slots + 1} cargo slots; its class, {design.cls}, has {slots}.")
        ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "SHIP Escort Kite: L.Cannon F, S.Cannon F, Machine Gun A",
            "Kite needs 4 cargo slots; its class, Escort, has 3.",
        ),
        (
            "SHIP Escort Kite: Machine Gun",
            "Machine Gun needs an arc: F, A, S or P (Forward, Aft, Starboard, Port)",
        ),
        ("SHIP Escort Kite: Small Arms, Small Arms", "a Zeppelin carries one Small Arms at most"),
        ("SHIP Escort Kite: Patch Crew F", "Patch Crew has no arc: write it without one"),
        ("SHIP Escort Kite: Ammo", "say which cannon the Ammo feeds: Ammo L.Cannon or Ammo S.Cannon"),
        (
            "SHIP Escort Kite: Ammo Machine Gun",
            "say which cannon the Ammo feeds: Ammo L.Cannon or Ammo S.Cannon",
        ),
        ("SHIP Escort Kite: Lazer F", '"Lazer F" is not a weapon or cargo'),
        ("SHIP Escort Kite: 12 Patch Crew", "a count is 1 to 9, before the item: 2 Patch Crew"),
        (
            "SHIP Zeppelin Kite: Engine",
            "Zeppelin is not a class of Zeppelin: the classes are "
            "Scout, Escort, Destroyer, Frigate, Cruiser, Battleship",
        ),
        (
            "SHIP Escort 9Lives: Engine",
            "a Zeppelin's name is one word of letters, digits, ' or - (at most 24), starting with a letter",
        ),
        (
            "SHIP",
            "write SHIP <class> <name>: <items>, e.g. SHIP Escort Blitzkrieger: L.Cannon F, Machine Gun A",
        ),
        ("MOVE A1 F", "the game waits for your fleet now: write SHIP lines (movement and combat come after)"),
    ],
)
def test_a_ship_line_with_a_problem_is_left_out_with_its_line_number(line: str, message: str) -> None:
    build, problems = _read(_building(), "SHIP Scout Gadfly: Machine Gun F", line)
    assert (5, message) in problems
    assert build is not None and [d.name for d in build.ships] == ["Gadfly"]


def test_ship_lines_are_read_forgivingly_and_priced_cell_by_cell() -> None:
    """Any case, with or without dots, long arcs, counts, Ammo either way round, name before
    class, and a line going on after a comma: each Zeppelin's cost is its class plus its items."""
    build, problems = _read(
        _building(),
        "ship cruiser Victoria: large cannon forward, MACHINE GUN f, s.cannon Aft,",
        "   l.cannon ammo, 1 patch crew",
        "SHIP Hawk Scout: 2x Machine Gun Starboard, small arms",
    )
    assert problems == [] and build is not None
    victoria, hawk = build.ships
    assert victoria == Design(
        name="Victoria",
        cls=ShipClass.CRUISER,
        fittings=(
            Fitting(kind=Weapon.LARGE_CANNON, arc=Arc.FORWARD),
            Fitting(kind=Weapon.MACHINE_GUN, arc=Arc.FORWARD),
            Fitting(kind=Weapon.SMALL_CANNON, arc=Arc.AFT),
            Fitting(kind=Cargo.AMMO, ammo_for=Weapon.LARGE_CANNON),
            Fitting(kind=Cargo.PATCH_CREW),
        ),
    )
    assert cost(victoria) == 59 + 18 + 11 + 14 + 10 + 10 == 122  # the text's Victoria less a Patch Crew
    assert hawk.cls is ShipClass.SCOUT and hawk.small_arms and cost(hawk) == 17 + 11 + 11 + 7


def test_over_budget_a_twice_named_ship_and_a_convoy_without_its_cargo() -> None:
    big = "SHIP Battleship B{n}: L.Cannon F, L.Cannon A, L.Cannon S, Patch Crew"  # 69+54+10 = 133
    build, problems = _read(_building(), big.format(n=1), big.format(n=2), "SHIP Scout B1: Engine")
    assert problems == [
        (5, f"B2 (133 RP) brings the fleet to 266 Resource Points; your budget is {FLEET_BATTLE_BUDGET}"),
        (6, "a Zeppelin named B1 is in this fleet already: the later line counts"),
    ]
    assert build is not None and [(d.name, d.cls) for d in build.ships] == [("B1", ShipClass.SCOUT)]
    build, problems = _read(_building("convoy"), "SHIP Frigate Argosy: 3 Bulk Cargo")
    assert build is None
    assert problems == [
        (
            None,
            "The convoy carries at least 4 Bulk Cargo. Nothing is submitted: you fly the ready-made fleet "
            "unless you mail one that can fly",
        )
    ]


designs = st.builds(
    Design,
    name=st.from_regex(r"[A-Z][a-z0-9'-]{0,10}", fullmatch=True),
    cls=st.sampled_from(ShipClass),
    fittings=st.lists(
        st.one_of(
            st.builds(
                Fitting,
                kind=st.sampled_from([w for w in Weapon if w is not Weapon.SMALL_ARMS]),
                arc=st.sampled_from(Arc),
            ),
            st.builds(Fitting, kind=st.sampled_from([c for c in Cargo if c is not Cargo.AMMO])),
            st.builds(Fitting, kind=st.just(Cargo.AMMO), ammo_for=st.sampled_from(list(AMMO_SHOTS))),
        ),
        max_size=8,
    ).map(tuple),
    small_arms=st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(designs)
def test_a_design_printed_as_ship_lines_reads_back_as_itself(design: Design) -> None:
    state = _building()
    view = player_view(GameState.model_validate_json(state), "Red")
    reading = read(_mail(*ship_lines(design, 40)), view)
    ok = cost(design) <= FLEET_BATTLE_BUDGET and slots_used(design) <= CLASSES[design.cls].slots
    assert reading.build is not None
    assert reading.build.ships == ((design,) if ok else ())
    assert all(len(line) <= 40 for line in ship_lines(design, 40)[1:])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.text(max_size=60), max_size=6),
    st.sampled_from(["SHIP ", "SHIP Scout X: ", "SHIP Escort Y: 2 ", ""]),
)
def test_nothing_written_in_a_fleet_mail_raises(lines: list[str], prefix: str) -> None:
    view = player_view(GameState.model_validate_json(_building()), "Red")
    reading = read(_mail(*(prefix + line.replace("\n", " ") for line in lines)), view)
    assert reading.phase is Phase.BUILD and reading.movement is None and reading.combat is None


def test_the_sheet_lists_classes_items_costs_and_the_ready_made_fleet_which_reads_back() -> None:
    state = _building()
    sheet = MAIL.sheet(state, "Red", "Friday")
    assert "TURN 0" in sheet and "your budget is 250 Resource Points" in sheet
    assert "Battleship 69 RP 7 slots 2 MP 60" in sheet and "L.Cannon 18 RP 2 slots" in sheet
    assert "Patch Crew 10 RP" in sheet and "Small Arms 7 RP" in sheet
    assert all(len(line) <= 78 for line in sheet.splitlines())
    ready = default_fleet(Scenario.FLEET_BATTLE, 0, 2)
    reading = MAIL.read_orders(state, "Red", sheet.replace("CODE ________\n", ""))
    assert reading.ready and BuildOrders.model_validate_json(reading.parts[0].orders_json).ships == ready
    assert reading.verdict.endswith(
        f"the fleet costs {sum(cost(d) for d in ready)} of your 250 Resource Points"
    )


def test_interpretation_26_fleets_are_built_blind_then_placed_and_turn_1_initiative_rolled() -> None:
    state = _building()
    game = GameState.model_validate_json(state)
    assert (game.turn, game.phase, game.initiative.winner) == (0, Phase.BUILD, "")
    assert all(p.rolls == () for p in game.players)
    red = player_view(game, "Red")
    assert {s.owner for s in red.ships} == {"Red"} and red.own_ships  # nobody else's fleet
    pending = TURNS.pending(state, "cycle", "mail")
    assert pending is not None and pending.clock == "turn"
    assert [(w.player, w.scope) for w in pending.wants] == [("Red", "build:0"), ("Blue", "build:0")]
    opening = TURNS.opening(state).results("Red", Deadlines(turn="Friday"))
    assert opening.subject == "Fleet building: mail your fleet"
    assert opening.report.budget == 250 and opening.report.others == ()
    sent = MAIL.read_orders(state, "Red", _mail("SHIP Escort Kite: S.Cannon F, Machine Gun A, Small Arms"))
    step = TURNS.play(state, pending, {pending.wants[0]: sent.parts[0].orders_json})  # Blue sent nothing
    after = GameState.model_validate_json(step.state_json)
    assert (after.turn, after.phase) == (1, Phase.MOVEMENT) and after.initiative.winner in ("Red", "Blue")
    assert [(s.id, s.name) for s in after.ships if s.owner == "Red"] == [("A1", "Kite")]
    assert [s.name for s in after.ships if s.owner == "Blue"] == [
        d.name for d in default_fleet(Scenario.FLEET_BATTLE, 1, 2)
    ]
    told = step.results("Red", Deadlines(turn="Friday"))
    assert told.subject == "Fleet building: the fleets are in place \N{EM DASH} turn 1 movement orders"
    assert [o.note for o in told.report.orders] == ["your fleet of 1 flies: 59 of 250 Resource Points"]
    assert [o.note for o in step.results("Blue", Deadlines()).report.orders] == [
        "you fly the ready-made fleet: 248 of 250 Resource Points"
    ]
    assert {r.turn for p in after.players for r in p.rolls} == {1}  # turn 1's initiative, the first dice


def test_the_robot_builds_the_ready_made_fleet() -> None:
    state = _building("convoy")
    for seat, player in enumerate(("Red", "Blue")):
        view = player_view(GameState.model_validate_json(state), player)
        built = robot_orders(view)
        assert isinstance(built, BuildOrders)
        assert built.ships == default_fleet(Scenario.CONVOY, seat, 2)
        [(part, text)] = TURNS.robot_orders(state, player, "cadet", ["build:0"])
        assert (
            part.scope == "build:0" and BuildOrders.model_validate_json(part.orders_json).ships == built.ships
        )
        assert "TURN 0" in text and ("SHIP Frigate Argosy" in text) == (seat == 0)


def test_a_whole_game_where_the_players_build_then_play() -> None:
    """Red builds a fleet of its own by mail, Blue's robot the ready-made one; then robots play
    every phase to the end."""
    state = _building(turn_limit=3)
    phases = []
    while (pending := TURNS.pending(state, "cycle", "mail")) is not None:
        phases.append(GameState.model_validate_json(state).phase)
        orders = {}
        for wanted in pending.wants:
            if wanted.scope == "build:0" and wanted.player == "Red":
                mail = _mail(
                    "SHIP Cruiser Victoria: L.Cannon F, Machine Gun F, S.Cannon A, 2 Patch Crew, Small Arms",
                    "SHIP Scout Gnat: 2 Machine Gun F",
                )
                orders[wanted] = MAIL.read_orders(state, "Red", mail).parts[0].orders_json
            else:
                [(part, _)] = TURNS.robot_orders(state, wanted.player, "cadet", [wanted.scope])
                orders[wanted] = part.orders_json
        state = TURNS.play(state, pending, orders).state_json
    end = GameState.model_validate_json(state)
    assert phases[:3] == [Phase.BUILD, Phase.MOVEMENT, Phase.COMBAT] and end.phase is Phase.OVER
    assert sorted(s.name for s in end.ships if s.owner == "Red") == ["Gnat", "Victoria"]
    assert {s.cost for s in end.ships if s.name == "Victoria"} == {59 + 18 + 11 + 14 + 20 + 7}
    assert LTA.process(end, []).state == end


def test_fleet_lines_after_the_build_phase_are_refused() -> None:
    state = TURNS.new_state("g1", '{"turn_limit": 2}', SEATS, 11)
    reading = read(
        _mail("SHIP Scout Gnat: Engine", turn=1), player_view(GameState.model_validate_json(state), "Red")
    )
    assert [(p.line, p.message) for p in reading.problems] == [
        (4, "fleets are built before turn 1: the game is past that")
    ]
    assert (
        Setup(game_id="g", players=(PlayerSpec(id="a", name="A"), PlayerSpec(id="b", name="B"))).building
        is False
    )


def test_the_players_guide_example_fleet_costs_what_it_says() -> None:
    """docs/lta-players.md, "Building your fleet": its mail reads without a problem, at the costs
    it gives (122, 59 and 39: 220 Resource Points)."""
    guide = (Path(__file__).resolve().parents[3] / "docs" / "lta-players.md").read_text(encoding="utf-8")
    found = re.search(r"```\n(GAME g1\nPLAYER Red\nTURN 0\n.*?)```", guide, re.DOTALL)
    assert found is not None
    reading = read(found.group(1), player_view(GameState.model_validate_json(_building()), "Red"))
    assert reading.problems == () and reading.build is not None
    assert [(d.name, cost(d)) for d in reading.build.ships] == [
        ("Victoria", 122),
        ("Kite", 59),
        ("Gadfly", 39),
    ]
    assert "Victoria costs 122 RP (6 of 6 slots), the Kite 59 and the Gadfly\n39, 220 of" in guide


def test_the_fleet_building_report_shows_the_budget_and_the_fleet_within_78_columns() -> None:
    state = _building()
    report = TURNS.opening(state).results("Red", Deadlines(turn="Friday 14 March, 18:00 UTC")).report
    text = render("lta/report.txt", report=report, row=row, wrap=wrap, width=78)
    html = render("lta/report.html", report=report, map_src="cid:map", map_width=600)
    assert all(len(line) <= 78 for line in text.splitlines())
    said = " ".join(text.split())
    assert "Next: your fleet, before turn 1" in said and "your fleet, before turn 1" in html
    assert "Your fleet: 248 of your budget of 250 Resource Points" in said and "Dreadnought" in said
    assert "248 of your budget of 250 Resource Points" in html and "Play order" not in html
    assert "SHIP Cruiser Dreadnought:" in said and "Initiative:" not in said
