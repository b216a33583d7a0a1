"""WarpWar's side of play by mail (engine/core/mailgame.py): an order mail read, checked and
acknowledged (lang/ack.py), merged with the earlier mail when it says ``ADD`` (lang/merge.py),
and the sheets a player fills in (lang/sheet.py).

Submissions are stored per scope: the player-turn's orders (``turn:<n>``, a ``TurnOrders``) and
each combat round's orders (``combat:<turn>/<player>:<star>:<round>``, a ``RoundOrders``: the
combat's player-turn, see ``fought_in``), so that a mail with only combat orders leaves the turn's
orders alone, and the reverse.

An order block without a single order (the header and END) is a submission too: the player has
nothing to order (docs/players.md, "When you change your mind"). It answers the player's combat
rounds while they have combats to fight, else their player-turn, and lets early processing go on.

Orders kept from a mail with refused lines are stored but not ready (``Reading.ready``): early
processing waits until the player sends a clean mail, a clean ADD, or a line DONE (or READY). A
mail whose only order is DONE submits nothing new: it stores the orders sent before again, ready
(or, where none were sent, nothing to order).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.mailgame import Earlier, Reading, ScopedOrders, combat_scope, no_earlier, turn_scope
from engine.core.orderblock import Header, Problem
from engine.warpwar import crt
from engine.warpwar.lang.ack import Acknowledgement, UnderstoodLine, acknowledge, count, round_order_text
from engine.warpwar.lang.check import orders_turn, where
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.forecast import forecast
from engine.warpwar.lang.merge import merge
from engine.warpwar.lang.parser import ParsedOrders, parse_mail
from engine.warpwar.lang.printer import order_text, round_lines
from engine.warpwar.lang.sheet import combat_sheet, orders_sheet
from engine.warpwar.orders import RoundOrders, TurnOrders
from engine.warpwar.state import GameState
from engine.warpwar.views import PlayerView, player_view

HELP = """\
WarpWar orders, in short (the players' guide has everything):

  GAME <game id>           the orders start here
  PLAYER <your id>
  TURN <number>
  CODE <your secret code>  without it nothing is accepted
  ADD                      optional: add to the orders you sent before
  CHECK                    optional: check only, submit nothing
  BUILD WARPSHIP AT Babylon PD=6 B=3 S=2
  BASE AT Mosul 10
  LOAD W3 10 / UNLOAD W3 10 / SCRAP W3
  REPAIR W3 PD=2 S=1 / RESUPPLY W3 M=6 SH=4
  MOVE W3 1421 1522 / MOVE W3 WARP Babylon DROP S20
  PRIORITY W3 A H SH M / ECM W3 EVEN / STANDING W3 DODGE: D=3 S=2
  REARRANGE S20 ONTO W3
  COMBAT Babylon ROUND 1   then one line per ship:
  W3 ATTACK P2.S25: D=0 B=3 S=2 M=P2.S25@3
  DONE                     count these orders as in despite problems
  END                      the orders stop here

A later mail replaces your earlier orders for the turn, unless it says ADD.
Orders from a mail with problems are kept but not counted as in (the turn
waits for its deadline) until you send the lines again corrected, or DONE
(alone: the orders you sent before count as in).
Easiest: reply to your results mail and fill in the orders sheet at its end.
HELP CRT answers with the Combat Results Table and how to read it.
"""

CRT_HELP = f"""\
WarpWar's Combat Results Table (rules VI)

For each weapon fired, take the firing ship's Drive (a Missile's own D)
minus the target ship's Drive; read the firing ship's tactic row (a
Missile always ATTACKs) for that difference, and the target ship's
tactic column.

{crt.table_text()}

Hit: a Beam does its power in hits, a Missile 2, a Shell 1 each, plus
the firer's tech level (once per burst of Shells); Hit +1 and Hit +2 add
1 or 2. The target's powered Screen (plus its tech level) takes that
many hits off all hits of the round. Escapes: a RETREATing ship gets
away if every enemy ship that fired at it (not Missiles) gets Escapes.

Worked example, from the rules:

{crt.worked_example()}
"""
HELP_TOPICS = {"CRT": CRT_HELP}
"""``HELP <topic>`` answers: the topic's word in capitals."""


class WarpWarMail:
    key = "warpwar"

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
        ack = _with_notes(acknowledge(body, view, deadline), notes)
        turn = orders_turn(view)
        parts: tuple[ScopedOrders, ...] = ()
        if _confirms_earlier(ack):
            ack, parts = _confirmed(ack, view, turn, earlier)
        elif _nothing_ordered(ack):
            ack = _nothing_to_order(ack, view, turn)
            parts = _parts(ack, view, turn, empty_turn=not ack.rounds)
        elif ack.submitted:
            if ack.header.add:
                ack = _added(ack, body, view, turn, earlier)
            parts = _parts(ack, view, turn)
        return Reading(
            game_id=view.game_id,
            player=player,
            turn=turn,
            submitted=bool(parts),
            parts=parts,
            ready=ack.ready,
            verdict=ack.verdict,
            ack=ack,
        )

    def sheet(self, state_json: str, player: str, deadline: str | None = None) -> str:
        view = player_view(GameState.model_validate_json(state_json), player)
        if view.combats:
            return "\n".join(combat_sheet(view, combat.star, deadline) for combat in view.combats)
        return orders_sheet(view, deadline)

    def order_lines(self, scope: str, orders_json: str) -> list[str]:
        if scope.startswith("combat:"):
            return round_lines(RoundOrders.model_validate_json(orders_json))
        return [order_text(order) for order in TurnOrders.model_validate_json(orders_json).orders]

    def help_text(self) -> str:
        return HELP

    def help_topic(self, topic: str) -> str | None:
        return HELP_TOPICS.get(topic.strip().upper())

    def command(self, state_json: str, player: str, word: str, argument: str) -> str | None:
        """WarpWar has no mail commands of its own: the host's are all it answers."""
        return None

    def names(self, state_json: str) -> dict[str, str]:
        return {p.id: p.name for p in GameState.model_validate_json(state_json).players}

    def rename(self, state_json: str, player: str, name: str) -> str:
        state = GameState.model_validate_json(state_json)
        if all(p.id != player for p in state.players):
            raise ValueError(f"game {state.config.game_id} has no player {player}")
        # The set-up's PlayerSpec too: views and reports take names from the players, a new
        # game made again from the set-up (a replay) from the specs.
        specs = tuple(
            s.model_copy(update={"name": name}) if s.id == player else s for s in state.config.players
        )
        players = [p.model_copy(update={"name": name}) if p.id == player else p for p in state.players]
        config = state.config.model_copy(update={"players": specs})
        return state.model_copy(update={"config": config, "players": players}).model_dump_json()


def _with_notes(ack: Acknowledgement, notes: Sequence[str]) -> Acknowledgement:
    """The host's problems reading the mail come first among the warnings: they concern it all."""
    if not notes:
        return ack
    found = tuple(Problem(line=None, text="", message=note, severity="warning") for note in notes)
    return ack.model_copy(update={"warnings": found + ack.warnings})


def fought_in(turn: int, active_player: str) -> str:
    """The ``<turn>`` of a combat's scope: its player-turn, "5/P2" (game-turn 5, P2's player-turn).
    Rules III: "Combat MUST occur whenever ships from opposing fleets occupy the same star hex at
    the end of a player's movement event", so combats at one star in two player-turns of one
    game-turn are two combats, each with its own rounds' orders."""
    return f"{turn}/{active_player}"


def round_scope(view: PlayerView, star: str, round_: int) -> str:
    """The scope of a round of the combat at ``star`` of the player-turn ``view`` is in."""
    return combat_scope(fought_in(view.turn, view.active_player), star, round_)


def _parts(
    ack: Acknowledgement, view: PlayerView, turn: int, empty_turn: bool = False
) -> tuple[ScopedOrders, ...]:
    parts = []
    if ack.orders.orders or empty_turn:
        parts.append(ScopedOrders(scope=turn_scope(turn), orders_json=ack.orders.model_dump_json()))
    parts += [
        ScopedOrders(
            scope=round_scope(view, section.star, section.round), orders_json=section.model_dump_json()
        )
        for section in ack.rounds
    ]
    return tuple(parts)


def _nothing_ordered(ack: Acknowledgement) -> bool:
    """An order block with no order at all and nothing wrong: not checked only, not added to
    earlier orders (adding nothing leaves them as they are)."""
    return not (ack.understood or ack.errors or ack.header.check or ack.header.add)


def _nothing_to_order(ack: Acknowledgement, view: PlayerView, turn: int) -> Acknowledgement:
    """The acknowledgement of an order block without orders, submitted as "nothing to order":
    the rounds of the player's combats (their ships fight on standing orders), else the
    player-turn (nothing is built, every ship holds)."""
    if view.combats:
        rounds = tuple(RoundOrders(player=view.player, star=c.star, round=c.round) for c in view.combats)
        fights = ", ".join(f"round {c.round} at {where(view, c.star)}" for c in view.combats)
        what = f"combat {fights}: your ships fight on their standing orders"
    else:
        rounds = ()
        what = f"turn {turn}: nothing is built and every ship holds"
    verdict = f"No orders in this mail: submitted as nothing to order for {what} (a later mail replaces it)"
    return ack.model_copy(update={"submitted": True, "ready": True, "rounds": rounds, "verdict": verdict})


def _confirms_earlier(ack: Acknowledgement) -> bool:
    """A mail saying DONE without a single order accepted (not checked only, and nothing wrong
    with the mail as a whole): it confirms the orders sent before."""
    return (
        ack.done
        and not ack.understood
        and not ack.header.check
        and not any(problem.line is None for problem in ack.errors)
    )


def _confirmed(
    ack: Acknowledgement, view: PlayerView, turn: int, earlier: Earlier
) -> tuple[Acknowledgement, tuple[ScopedOrders, ...]]:
    """The acknowledgement and the parts of a DONE mail without orders: the player's stored
    orders for what the game waits for (the rounds of their combats, else the player-turn) and
    their stored turn orders, submitted again as ready; nothing stored for a round or the
    player-turn the game waits for is submitted as nothing to order."""
    parts: list[ScopedOrders] = []
    said: list[str] = []
    rows: list[UnderstoodLine] = []
    turn_json = earlier(turn_scope(turn))
    orders = TurnOrders.model_validate_json(turn_json) if turn_json else TurnOrders(player=view.player)
    if turn_json is not None or not view.combats:
        parts.append(ScopedOrders(scope=turn_scope(turn), orders_json=orders.model_dump_json()))
        rows += [UnderstoodLine(line=None, source="", text=order_text(order)) for order in orders.orders]
        sent = f"{count(len(orders.orders), 'order')} sent before" if turn_json else "nothing to order"
        said.append(f"turn {turn}, {sent}")
    for combat in view.combats:
        scope = round_scope(view, combat.star, combat.round)
        stored = earlier(scope)
        empty = RoundOrders(player=view.player, star=combat.star, round=combat.round)
        section = RoundOrders.model_validate_json(stored) if stored else empty
        parts.append(ScopedOrders(scope=scope, orders_json=section.model_dump_json()))
        rows += [
            UnderstoodLine(line=None, source="", text=round_order_text(section, ship))
            for ship in sorted(section.ships)
        ]
        sent = "as sent before" if stored else "your ships on their standing orders"
        said.append(f"round {combat.round} at {where(view, combat.star)}, {sent}")
    refused = len({problem.line for problem in ack.errors})
    ignored = f"{count(refused, 'line')} with problems ignored; " if refused else ""
    update: dict[str, object] = {
        "submitted": True,
        "ready": True,
        "understood": tuple(rows),
        "orders": orders,
        "rounds": (),
        "verdict": f"{ignored}DONE: your orders count as in for {'; '.join(said)}",
        "forecast": tuple(forecast(orders, view).lines()) if orders.orders else (),
    }
    return ack.model_copy(update=update), tuple(parts)


def _added(ack: Acknowledgement, body: str, view: PlayerView, turn: int, earlier: Earlier) -> Acknowledgement:
    """The acknowledgement of an ADD mail, its accepted orders merged with the earlier mail's
    (docs/players.md, "When you change your mind"), with a warning for each order replaced."""
    accepted = _accepted(ack, parse_mail(body, LangContext.from_view(view)))
    turn_json = earlier(turn_scope(turn)) if ack.orders.orders else None
    rounds_json = [stored for s in ack.rounds if (stored := earlier(round_scope(view, s.star, s.round)))]
    before = _stored(ack.player, turn_json, tuple(RoundOrders.model_validate_json(r) for r in rounds_json))
    merged = merge(before, accepted)
    warnings = tuple(
        sorted((*ack.warnings, *merged.problems), key=lambda p: -1 if p.line is None else p.line)
    )
    kept = len(merged.turn.orders) - len(ack.orders.orders)
    update: dict[str, object] = {"orders": merged.turn, "rounds": merged.rounds, "warnings": warnings}
    if kept > 0:
        update["forecast"] = tuple(forecast(merged.turn, view).lines())
        update["verdict"] = f"{ack.verdict}; added to the {count(kept, 'order')} sent before"
    return ack.model_copy(update=update)


def _mail_order(problem: Problem) -> int:
    return -1 if problem.line is None else problem.line


def _stored(player: str, turn_json: str | None, rounds: tuple[RoundOrders, ...]) -> ParsedOrders:
    """Stored orders as a parsed mail (their line numbers are not kept: merge only quotes the
    later mail's lines)."""
    turn = TurnOrders.model_validate_json(turn_json) if turn_json else TurnOrders(player=player)
    return ParsedOrders(
        header=Header(),
        turn=turn,
        turn_lines=tuple(0 for _ in turn.orders),
        rounds=rounds,
        round_lines=tuple({} for _ in rounds),
        problems=(),
    )


def _accepted(ack: Acknowledgement, parsed: ParsedOrders) -> ParsedOrders:
    """The accepted orders of ``ack`` with the mail lines they came from, as merge wants them."""
    bad = {problem.line for problem in ack.errors}
    lines = tuple(line for line in parsed.turn_lines if line not in bad)
    sections = {
        (section.star, section.round): lines
        for section, lines in zip(parsed.rounds, parsed.round_lines, strict=False)
    }
    return ParsedOrders(
        header=ack.header,
        turn=ack.orders,
        turn_lines=lines,
        rounds=ack.rounds,
        round_lines=tuple(
            {ship: line for ship, line in sections.get((s.star, s.round), {}).items() if ship in s.ships}
            for s in ack.rounds
        ),
        problems=(),
    )
