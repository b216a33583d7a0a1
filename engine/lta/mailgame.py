"""Lighter Than Air Warfare's side of play by mail (engine/core/mailgame.py).

A turn has two order phases, each with its scope: ``move:<turn>`` for movement orders and
``fire:<turn>`` for combat orders (a ``MovementOrders`` or ``CombatOrders`` as JSON). When the
players build their own fleets, the game first waits for ``build:0``, each player's fleet (a
``BuildOrders``); ADD adds ships to the fleet sent before (a later one of the same name replaces
the earlier). A mail is read
for the phase the game waits for; lines with errors are left out and the rest is submitted,
unless the mail says CHECK, is for another turn, or has order lines but none usable. ``ADD``
adds to the orders sent before for the phase: a later MOVE for a Zeppelin, or FIRE for one of
its items, replaces the earlier one.

Orders kept from a mail with refused lines count as in (``Reading.ready``) only once the player
sends a clean mail, a clean ADD, or a line DONE (or READY), the host-wide rule (docs/players.md,
"Orders in, or only kept: DONE"). A mail whose only order is DONE submits the orders sent before
for the phase again, ready (or, where none were sent, nothing to order).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from engine.core.mailgame import Earlier, Reading, ScopedOrders, no_earlier
from engine.core.orderblock import Problem
from engine.lta.fleet import cost
from engine.lta.lang.forecast import forecast
from engine.lta.lang.printer import build_lines, combat_lines, movement_lines
from engine.lta.lang.reader import FLEET_REFUSED, read
from engine.lta.lang.rolls import rolls_text
from engine.lta.lang.sheet import orders_sheet
from engine.lta.orders import BuildOrders, CombatOrders, MovementOrders
from engine.lta.scenarios import seat_problems
from engine.lta.state import GameState, Phase
from engine.lta.tables import WEAPONS, Column, damage
from engine.lta.views import PlayerView, player_view

HELP = """\
Lighter Than Air Warfare orders, in short (docs/lta-players.md has everything):

  GAME <game id> / PLAYER <your id> / TURN <number> / CODE <your secret code>
  ADD      optional: add to the orders you sent before for this phase
  CHECK    optional: check only, submit nothing
  DONE     optional: these orders count as in despite lines with problems
           (alone: the orders you sent before count as in)

Your fleet (before turn 1, TURN 0, when the game lets players build):
  SHIP Escort Blitzkrieger: L.Cannon F, S.Cannon F, Machine Gun A, Small Arms
                           arcs F/A/S/P; counts: 2 Patch Crew; Ammo L.Cannon
Movement orders (the first mail of a turn):
  INITIATIVE FIRST         only the player who chooses this turn (or LAST)
  MOVE A1 FFRFU            F ahead, L/R turn, U/D climb/descend, 1 MP each; STAY
Combat orders (after the map update):
  FIRE A1 2 AT B3          item 2 of A1 (SA: its Small Arms) at B3
  DROP A1 5 ON B3          Bombs on a Zeppelin 1-2 steps below in the same hex
END

HELP DAMAGE answers with the weapons and the Damage Table.
ROLLS, with a line CODE <your code> below it, answers with your dice so far.
"""


def damage_help() -> str:
    lines = ["Weapons: range, to hit on 1D6 (1..n), Damage Table column"]
    lines += [f"  {w:<13} range {s.range:<3} hits 1-{s.to_hit}  {s.column}" for w, s in WEAPONS.items()]
    lines += ["", "Damage Table (1D20):", f"  {'roll':<5}" + "".join(f"{c:<24}" for c in Column)]
    lines += [f"  {n:<5}" + "".join(f"{damage(c, n):<24}" for c in Column) for n in range(1, 21)]
    return "\n".join(lines) + "\n"


HELP_TOPICS = {"DAMAGE": damage_help}
COMMANDS = ("ROLLS",)
"""The mail commands this game answers itself (engine/games.py ``GAME_COMMANDS`` names them for
the host)."""


def build_scope() -> str:
    return "build:0"


def scope(phase: Phase, turn: int) -> str:
    """The scope of the orders the game waits for in this phase."""
    if phase is Phase.BUILD:
        return build_scope()
    return move_scope(turn) if phase is Phase.MOVEMENT else fire_scope(turn)


def move_scope(turn: int) -> str:
    return f"move:{turn}"


def fire_scope(turn: int) -> str:
    return f"fire:{turn}"


class Acknowledgement(BaseModel):
    """The answer to an order mail, as data."""

    model_config = ConfigDict(frozen=True)

    game_id: str
    player: str
    turn: int
    phase: Phase
    submitted: bool
    ready: bool
    """The orders submitted count as in: no line was refused, or the mail says DONE."""
    verdict: str
    understood: tuple[str, ...]
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    forecast: tuple[str, ...] = ()
    """What the orders understood will do before the wind (engine/lta/lang/forecast.py)."""


class LtaMail:
    key = "lta"

    def read_orders(
        self,
        state_json: str,
        player: str,
        body: str,
        deadline: str | None = None,
        notes: Sequence[str] = (),
        earlier: Earlier = no_earlier,
    ) -> Reading:
        view = player_view(GameState.model_validate_json(state_json), player)
        reading = read(body, view)
        header_notes = tuple(Problem(line=None, text="", message=n, severity="warning") for n in notes)
        errors = reading.errors
        warnings = header_notes + tuple(p for p in reading.problems if p.severity == "warning")
        orders: Orders | None = reading.movement or reading.combat or reading.build
        wanted = scope(view.phase, view.turn)
        # A DONE mail without a single order accepted (not checked only, nothing wrong with the
        # mail as a whole) confirms the orders sent before.
        confirms = (
            reading.done
            and not reading.understood
            and not reading.header.check
            and not any(p.line is None for p in errors)
        )
        if orders is not None and confirms:
            orders, verdict = _confirmed(orders, earlier(wanted), len({p.line for p in errors}))
            submit = True
        else:
            if orders is not None and reading.header.add:
                orders = _added(orders, earlier(wanted))
                if isinstance(orders, BuildOrders) and (refused := _unflyable(view, orders)):
                    errors += (Problem(line=None, text="", message=FLEET_REFUSED.format(why=refused)),)
                    orders = None
            accepted = len(_lines(orders)) if orders is not None else 0
            # A block whose every line was refused must not replace the orders sent before; a
            # block with no line at all is a deliberate "nothing to order".
            meant = accepted > 0 or reading.lines == 0
            submit = reading.found and orders is not None and meant and not reading.header.check
            verdict = _verdict(view.phase, submit, reading.header.check, accepted, len(errors), reading.found)
            if submit and errors and reading.done:
                verdict += "; DONE: they count as in"
            if isinstance(orders, BuildOrders):
                total = sum(cost(d) for d in orders.ships)
                verdict += f"; the fleet costs {total} of your {view.budget} Resource Points"
        understood = tuple(_lines(orders)) if orders is not None else ()
        # Orders kept from a mail with refused lines wait for a clean mail, or DONE, before they
        # count as in (engine/core/mailgame.py ``Reading.ready``); the deadline uses them anyway.
        ready = submit and (not errors or reading.done)
        ack = Acknowledgement(
            game_id=view.game_id,
            player=player,
            turn=view.turn,
            phase=view.phase,
            submitted=submit,
            ready=ready,
            verdict=verdict,
            understood=understood,
            errors=errors,
            warnings=warnings,
            forecast=tuple(forecast(view, orders)) if orders is not None else (),
        )
        parts = (
            (ScopedOrders(scope=wanted, orders_json=orders.model_dump_json()),) if submit and orders else ()
        )
        return Reading(
            game_id=view.game_id,
            player=player,
            turn=view.turn,
            submitted=bool(parts),
            parts=parts,
            ready=ready,
            verdict=verdict,
            ack=ack,
        )

    def sheet(self, state_json: str, player: str, deadline: str | None = None) -> str:
        return orders_sheet(player_view(GameState.model_validate_json(state_json), player), deadline)

    def order_lines(self, scope: str, orders_json: str) -> list[str]:
        if scope.startswith("fire:"):
            return combat_lines(CombatOrders.model_validate_json(orders_json))
        if scope.startswith("build:"):
            return build_lines(BuildOrders.model_validate_json(orders_json))
        return movement_lines(MovementOrders.model_validate_json(orders_json))

    def help_text(self) -> str:
        return HELP

    def help_topic(self, topic: str) -> str | None:
        answer = HELP_TOPICS.get(topic.strip().upper())
        return answer() if answer else None

    def rolls(self, state_json: str, player: str) -> str:
        """The answer to ROLLS: the player's own dice so far (every player's at the end)."""
        return rolls_text(player_view(GameState.model_validate_json(state_json), player))

    def command(self, state_json: str, player: str, word: str, argument: str) -> str | None:
        """ROLLS (any case; its argument is ignored): the player's own dice; None for any
        other word."""
        return self.rolls(state_json, player) if word.strip().upper() in COMMANDS else None

    def names(self, state_json: str) -> dict[str, str]:
        return {p.id: p.name for p in GameState.model_validate_json(state_json).players}

    def rename(self, state_json: str, player: str, name: str) -> str:
        state = GameState.model_validate_json(state_json)
        if all(p.id != player for p in state.players):
            raise ValueError(f"game {state.game_id} has no player {player}")
        players = tuple(p.model_copy(update={"name": name}) if p.id == player else p for p in state.players)
        return state.model_copy(update={"players": players}).model_dump_json()


Orders = MovementOrders | CombatOrders | BuildOrders


def _lines(orders: Orders) -> list[str]:
    if isinstance(orders, BuildOrders):
        return build_lines(orders)
    return movement_lines(orders) if isinstance(orders, MovementOrders) else combat_lines(orders)


def _added(orders: Orders, stored: str | None) -> Orders:
    if stored is None:
        return orders
    if isinstance(orders, BuildOrders):
        ships = {d.name.lower(): d for d in (*BuildOrders.model_validate_json(stored).ships, *orders.ships)}
        return orders.model_copy(update={"ships": tuple(ships.values())})
    if isinstance(orders, MovementOrders):
        before = MovementOrders.model_validate_json(stored)
        moves = {m.ship: m for m in (*before.moves, *orders.moves)}
        return orders.model_copy(
            update={"initiative": orders.initiative or before.initiative, "moves": tuple(moves.values())}
        )
    earlier = CombatOrders.model_validate_json(stored)
    fire = {(f.ship, f.item): f for f in (*earlier.fire, *orders.fire)}
    return orders.model_copy(update={"fire": tuple(fire.values())})


def _unflyable(view: PlayerView, orders: BuildOrders) -> str:
    """Why a fleet added to the one sent before cannot fly; empty when it can."""
    return " ".join(seat_problems(view.scenario, view.seat, len(view.players), orders.ships))


def _confirmed(empty: Orders, stored: str | None, refused: int) -> tuple[Orders, str]:
    """The orders a DONE mail without orders confirms: those sent before for the phase, else
    nothing to order; and the verdict saying which."""
    orders = type(empty).model_validate_json(stored) if stored else empty
    count = len(_lines(orders))
    what = f"{count} order{'s' if count != 1 else ''} sent before" if stored else "nothing to order"
    ignored = f"{refused} line{'s' if refused != 1 else ''} with problems ignored; " if refused else ""
    return orders, f"{ignored}DONE: your {empty.kind} orders count as in: {what}"


def _verdict(phase: Phase, submitted: bool, check: bool, accepted: int, refused: int, found: bool) -> str:
    if phase is Phase.OVER:
        return "The game is over: no orders are taken"
    what = f"ship{'s' if accepted != 1 else ''} of your fleet" if phase is Phase.BUILD else f"{phase} orders"
    left_out = f"; {refused} line{'s' if refused != 1 else ''} left out (see below)" if refused else ""
    if not found:
        return "No orders found in this mail"
    if check:
        return f"Checked only, nothing submitted: {accepted} {what} understood{left_out}"
    if submitted:
        return f"Submitted: {accepted} {what}{left_out} (a later mail replaces them, unless it says ADD)"
    return f"Nothing submitted{left_out}"
