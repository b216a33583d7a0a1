"""Computer commanders that play from their own PlayerView only and write their orders as text.

A robot sees what a player sees (``PlayerView``: never the ``GameState``), decides, and writes
an order mail in the order language (``write_turn``, ``write_round``), exactly as a player
would send it. Self-play (``play_turn``, ``rounds_for``) parses that text back as the host
would (``parse_mail`` with the robot's own ``LangContext``) and gives the engine the parsed
orders, so every robot game also exercises the printer and the parser; a mail that does not
parse cleanly is a bug and raises.

Two levels (``Level``):

* ``cadet`` (easy): builds random-sized balanced Warpships, spreads out to claim stars, sends
  a strike group of three at the nearest enemy Base, and fights with random tactics, targets
  and Missile drives (``cadet``).
* ``admiral`` (hard): reads the CRT for the power split and tactic with the best expected hits
  dealt less hits taken, focuses the whole side's fire on one enemy ship, sets Missile drives
  from the CRT, retreats hurt ships; builds armoured designs matched to tech level and BP,
  keeps a Systemship guard at every Base and comes back to defend a Base under threat, masses
  its Warpships before striking, and in the Advanced scenario carries BP in Holds to build
  Bases at valuable stars (``admiral``).

Randomness comes only from the robot's own stream (``stream_for``), derived from the game's
seed, the player, the turn and the combat round, so games replay exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum

from engine.core.mailgame import combat_parts
from engine.core.orderblock import Header
from engine.core.rng import Rng
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.parser import ParsedOrders, parse_mail
from engine.warpwar.lang.printer import mail_text
from engine.warpwar.orders import RoundOrders, TurnOrder, TurnOrders
from engine.warpwar.robot import admiral, cadet, fighting
from engine.warpwar.state import Combat, GameState
from engine.warpwar.turn import Outcome, play_player_turn
from engine.warpwar.views import PlayerView, player_view


class Level(StrEnum):
    """How well a robot plays: ``cadet`` is the easy level, ``admiral`` the hard one."""

    CADET = "cadet"
    ADMIRAL = "admiral"


Levels = Mapping[str, Level]
"""Player id -> level; players not named are cadets."""

MailSink = Callable[[str, ParsedOrders], None]
"""Somewhere a robot's order mails go, as written and as read (the demo prints them)."""


def play_turn(state: GameState, levels: Levels | None = None, sent: MailSink | None = None) -> Outcome:
    """The active player's whole player-turn with robots commanding every side, each writing
    its orders from its own view as a mail that is parsed back (self-play: demos, soak tests,
    benchmarks). ``sent`` sees every mail a robot writes, as the host would receive it."""
    player = state.active_player.id
    view = player_view(state, player)
    text = write_turn(view, stream_for(state, player), level_of(levels, player))
    parsed = read_mail(text, view)
    if sent:
        sent(text, parsed)

    def fight(now: GameState, combat: Combat) -> list[RoundOrders]:
        return rounds_for(now, combat, levels, sent)

    return play_player_turn(state, parsed.turn, fight)


def rounds_for(
    state: GameState, combat: Combat, levels: Levels | None = None, sent: MailSink | None = None
) -> list[RoundOrders]:
    """Each side's round orders at a combat, written as a mail from that side's own view and
    parsed back."""
    sides = sorted({s.owner for s in state.ships.values() if s.location == combat.star})
    orders = []
    for player in sides:
        view = player_view(state, player)
        rng = stream_for(state, player, combat)
        text = write_round(view, combat.star, combat.round, rng, level_of(levels, player))
        parsed = read_mail(text, view)
        if sent:
            sent(text, parsed)
        orders.append(
            parsed.rounds[0]
            if parsed.rounds
            else RoundOrders(player=player, star=combat.star, round=combat.round)
        )
    return orders


def level_of(levels: Levels | None, player: str) -> Level:
    return (levels or {}).get(player, Level.CADET)


def stream_for(state: GameState, player: str, combat: Combat | None = None) -> Rng:
    """The robot's own random stream for this player-turn (or combat round), from the game's seed."""
    where = f"/{combat.star}/{combat.round}" if combat else ""
    return Rng(state.seed).derive(f"robot/{player}/{state.turn}{where}")


# --- Writing orders ---


def write_turn(view: PlayerView, rng: Rng, level: Level = Level.CADET) -> str:
    """The robot's order mail for its player-turn: header, orders, END."""
    return mail_text(_header(view), turn_orders(view, rng, level))


def write_round(view: PlayerView, star: str, round_: int, rng: Rng, level: Level = Level.CADET) -> str:
    """The robot's order mail for one combat round at ``star``: header, a COMBAT section, END."""
    return mail_text(_header(view), rounds=[round_orders(view, star, round_, rng, level)])


def write_for(state: GameState, view: PlayerView, scope: str, level: Level = Level.CADET) -> str:
    """The robot's order mail for what ``scope`` awaits: a combat round (engine/core/mailgame.py
    ``combat_parts``), else its player-turn."""
    fight = combat_parts(scope)
    if fight is not None:
        combat = next((c for c in state.combats if c.star == fight.star), None)
        stream = stream_for(state, view.player, combat)
        return write_round(view, fight.star, fight.round, stream, level)
    return write_turn(view, stream_for(state, view.player), level)


def read_mail(text: str, view: PlayerView) -> ParsedOrders:
    """A robot's mail parsed as the host parses a player's; any error is a robot bug."""
    parsed = parse_mail(text, LangContext.from_view(view))
    errors = [p for p in parsed.problems if p.severity == "error"]
    if errors:
        raise AssertionError(f"robot {view.player} wrote orders that do not parse: {errors}\n{text}")
    return parsed


def _header(view: PlayerView) -> Header:
    return Header(game=view.game_id, player=view.player, turn=view.turn)


# --- Deciding ---


def turn_orders(view: PlayerView, rng: Rng, level: Level = Level.CADET) -> TurnOrders:
    """Orders for the robot's player-turn: Build event first, then Movement."""
    decided: list[TurnOrder] = (
        admiral.turn_orders(view, rng) if level is Level.ADMIRAL else cadet.turn_orders(view, rng)
    )
    return TurnOrders(player=view.player, orders=tuple(decided))


def round_orders(
    view: PlayerView, star: str, round_: int, rng: Rng, level: Level = Level.CADET
) -> RoundOrders:
    """Every own ship at ``star`` that takes part in the round fights."""
    combat = next(c for c in view.combats if c.star == star)
    fighters = [
        s for s in view.own_ships if s.location == star and s.carried_by is None and s.uid in combat.own_ships
    ]
    ships = {}
    for ship in fighters:
        if level is Level.ADMIRAL:
            threat = len(combat.enemy_ships) / len(fighters)
            ships[ship.name] = fighting.combat_order(ship, combat.enemy_ships, threat, rng)
        else:
            ships[ship.name] = cadet.combat_order(ship, combat.enemy_ships, rng)
    return RoundOrders(player=view.player, star=star, round=round_, ships=ships)


__all__ = [
    "Level",
    "Levels",
    "MailSink",
    "play_turn",
    "read_mail",
    "round_orders",
    "rounds_for",
    "stream_for",
    "turn_orders",
    "write_round",
    "write_turn",
]
