"""Target: reading a 300-line order mail in well under 20 ms.

    python -m benchmarks.parse_orders [--repeat N] [--lines L] [--quick]

The mail is written by the printer (``mail_text``) from varied orders of every kind on the
classic map: builds, Bases, Holds, repairs, resupply, moves by hex, star name and warpline,
priorities, ECM policies, standing orders, rearrangement, and COMBAT sections with full ship
lines, one per line, with comments and a quoted-reply greeting around the block. Star names are
written as names (not hex numbers) so that place look-ups are timed too.

Timed: ``parse_mail`` of the whole body with a classic-map LangContext (block finding, header,
every order line, replacement rule), and ``find_block`` alone. The script checks the mail reads
back without a problem and with as many orders as lines.

Also timed, for the target "parsing and checking": ``acknowledge`` (parse, check every order
against the player's view, forecast) of a mail of as many lines from a real game: a 2-player
Advanced game on the classic map played by the robots to game-turn 10, the active player's
robot orders followed by standing settings and one-hex moves for each of their ships in turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.timing import arguments, machine, measure, ms, speed_note, table
from engine.core.orderblock import Header, find_block
from engine.warpwar import robot
from engine.warpwar.classic_map import classic_map
from engine.warpwar.components import Attr, Attributes
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.hexgrid import neighbours
from engine.warpwar.lang.ack import acknowledge
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.parser import parse_mail
from engine.warpwar.lang.printer import combat_order_text, mail_text, order_text
from engine.warpwar.orders import (
    BuildBase,
    BuildShip,
    CombatOrder,
    EcmPolicy,
    HexStep,
    LoadHold,
    MissileShot,
    Move,
    Rearrange,
    Repair,
    Resupply,
    SetDamagePriority,
    SetEcmPolicy,
    SetStandingCombatOrder,
    Tactic,
    TurnOrder,
    TurnOrders,
    UnloadHold,
    WarplineStep,
)
from engine.warpwar.state import GameConfig, PlayerSpec, Scenario, Stage
from engine.warpwar.views import PlayerView, player_view

TARGET_MS = 20.0
ENEMIES = tuple(f"P2.W{n}" for n in range(1, 40)) + tuple(f"P2.S{n}" for n in range(1, 40))


def classic_context(ships: int) -> LangContext:
    """P1 on the classic map, knowing every star, ``ships`` Warpships and as many Systemships."""
    star_map = classic_map()
    own = {f"W{n}" for n in range(1, ships + 1)} | {f"S{n}" for n in range(1, ships + 1)}
    return LangContext(
        player="P1",
        places={star.name.lower(): star.hex for star in star_map.stars},
        hexes=frozenset(star_map.hexes),
        own_ships=frozenset(own),
        enemy_ships=frozenset(ENEMIES),
        players={"p1": "P1", "one": "P1", "p2": "P2", "two": "P2"},
        star_names={star.hex: star.name for star in star_map.stars},
    )


def _turn_order(n: int, stars: Sequence[str], hexes: Sequence[str]) -> TurnOrder:
    """The n-th order of the mail: every kind in turn, each for its own ship."""
    ship, systemship, star = f"W{n}", f"S{n}", stars[n % len(stars)]
    design = Attributes(PD=6 + n % 5, B=3, S=2, T=1, M=3)
    kinds: list[TurnOrder] = [
        BuildShip(at=star, warp=n % 2 == 0, design=design, repair_bay=n % 3 == 0),
        BuildBase(at=stars[n % len(stars)], amount=5 + n % 10),
        LoadHold(ship=ship, amount=1 + n % 9),
        UnloadHold(ship=ship, amount=1 + n % 7),
        Repair(ship=ship, amounts=Attributes(PD=1, S=n % 3, A=2)),
        Resupply(ship=ship, missiles=3, shells=n % 6),
        Move(ship=ship, steps=(HexStep(to=hexes[n % len(hexes)]), WarplineStep(to=star), HexStep(to=star))),
        SetDamagePriority(ship=ship, priority=(Attr.A, Attr.H, Attr.SH, Attr.M, Attr.PD)),
        SetEcmPolicy(ship=ship, policy=list(EcmPolicy)[n % 3]),
        SetStandingCombatOrder(ship=ship, order=_combat_order(n)),
        Rearrange(systemship=systemship, to=ship if n % 2 else None),
    ]
    return kinds[n % len(kinds)]


def _combat_order(n: int) -> CombatOrder:
    target = ENEMIES[n % len(ENEMIES)]
    return CombatOrder(
        tactic=list(Tactic)[n % 3],
        drive=n % 4,
        beam=2,
        beam_target=target,
        screen=1,
        missiles=(MissileShot(target=target, drive=3), MissileShot(target=ENEMIES[0], drive=2)),
        cannons=(2, 1),
        cannon_target=target,
        damage_priority=(Attr.A, Attr.H),
    )


def order_mail(lines: int, context: LangContext) -> str:
    """A mail of ``lines`` order lines (a fifth of them combat lines), with stars by name."""
    names = dict(context.star_names)
    stars = sorted(names)
    hexes = sorted(context.hexes - set(stars))
    combat_lines = lines // 5
    header = Header(game="bench", player="P1", turn=7, code="secret")
    body = ["Hi, my orders:", "", f"GAME {header.game}", "PLAYER P1", "TURN 7", "CODE secret"]
    for n in range(1, lines - combat_lines + 1):
        text = order_text(_turn_order(n, stars, hexes))
        for hex_, name in names.items():
            text = text.replace(f" {hex_}", f" {name}")
        body.append(text + ("   # comment" if n % 4 == 0 else ""))
    body.append("COMBAT Babylon ROUND 1")
    body.extend(combat_order_text(f"W{n}", _combat_order(n)) for n in range(1, combat_lines))
    body += ["END", "", "-- ", "Player One"]
    return "\n".join(body)


def game_mail(lines: int) -> tuple[str, PlayerView]:
    """A ``lines``-order mail for the active player of a robot game at game-turn 10, and their view."""
    config = GameConfig(
        game_id="bench",
        scenario=Scenario.ADVANCED,
        players=(PlayerSpec(id="P1", name="One"), PlayerSpec(id="P2", name="Two")),
    )
    state = WarpWar().new_game(Setup(config=config), 1).state
    while state.turn < 10 and state.stage is not Stage.OVER:
        state = robot.play_turn(state).state
    view = player_view(state, state.active_player.id)
    orders = list(robot.turn_orders(view, robot.stream_for(state, view.player)).orders)
    ships = [s for s in view.own_ships if s.is_warpship and s.carried_by is None]
    for n in range(lines - len(orders)):
        ship = ships[n % len(ships)]
        settings: list[TurnOrder] = [
            SetDamagePriority(ship=ship.name, priority=(Attr.A, Attr.SH, Attr.PD)),
            SetEcmPolicy(ship=ship.name, policy=list(EcmPolicy)[n % 3]),
            SetStandingCombatOrder(ship=ship.name, order=CombatOrder(tactic=Tactic.DODGE, drive=1)),
            Move(ship=ship.name, steps=(HexStep(to=sorted(neighbours(ship.location))[0]),)),
        ]
        orders.append(settings[n % len(settings)])
    header = Header(game=view.game_id, player=view.player, turn=view.turn)
    return mail_text(header, TurnOrders(player=view.player, orders=tuple(orders))), view


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments("Reading a 300-line order mail on the classic map.", repeat=200)
    parser.add_argument("--lines", type=int, default=300, help="order lines in the mail (default 300)")
    args = parser.parse_args(argv)
    lines, repeat = (30, 5) if args.quick else (args.lines, args.repeat)

    context = classic_context(ships=lines)
    body = order_mail(lines, context)
    parsed = parse_mail(body, context)
    if parsed.problems:
        raise SystemExit(f"the benchmark mail does not read cleanly: {parsed.problems[0].describe()}")
    orders = len(parsed.turn.orders) + sum(len(r.ships) for r in parsed.rounds)
    whole = measure(lambda: parse_mail(body, context), repeat)
    block = measure(lambda: find_block(body), repeat)
    game_body, view = game_mail(lines)
    checked = measure(lambda: acknowledge(game_body, view), repeat)

    print(f"machine: {machine()}; {speed_note()}")
    print(f"classic map: a mail of {len(body.splitlines())} lines, {orders} orders, {len(body):,} characters")
    print()
    rows = [
        ("parse_mail: block, header, orders", whole.runs, ms(whole.median), ms(whole.best)),
        ("find_block alone", block.runs, ms(block.median), ms(block.best)),
        ("acknowledge: read, check, forecast", checked.runs, ms(checked.median), ms(checked.best)),
    ]
    print(table(("reading the mail", "runs", "median ms", "best ms"), rows))
    print()
    verdict = "met" if ms(checked.median) < TARGET_MS else "NOT met"
    print(
        f"target: reading and checking < {TARGET_MS:.0f} ms: {verdict} "
        f"(acknowledge of {len(game_body.splitlines())} lines from a game at turn 10: "
        f"{ms(checked.median):.2f} ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
