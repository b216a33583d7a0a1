"""A player's results report as data: one model the text, HTML and JSON reports all render.

Built only from the player's view and the events they may see (``views.events_for``), never
from the game state, so it cannot tell a player anything the rules keep secret. Redacted event
copies (another player's ship built, a round's damage to enemy ships) are shown with exactly
the fields they still carry.

The JSON form is a versioned schema (``schema``): client tools may rely on it; a change that
removes or renames a field gets a new version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.warpwar import events as ev
from engine.warpwar.lang.check import orders_turn
from engine.warpwar.narrate import event_lines
from engine.warpwar.orders import CombatOrder, OrderResult, OrderStatus
from engine.warpwar.ships import Ship
from engine.warpwar.standings import Standings
from engine.warpwar.state import Stage
from engine.warpwar.views import PlayerView, events_for

SCHEMA: Final = "warpmail.warpwar.report/1"


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Header(_Part):
    game: str
    player: str
    player_name: str
    turn: int
    active_player: str = Field(description="Whose player-turn it is now")
    active_player_name: str
    orders_turn: int | None = Field(
        None,
        description="The game-turn of the orders sheet in this report: the player's next player-turn "
        "(None: a combat sheet, or the game over)",
    )
    scenario: str
    visibility: str
    map_name: str
    tech_level: int = Field(description="Tech level of ships built this turn")
    stage: str
    deadline: str | None = Field(description="When the next orders are due, as the host words it")
    combats: tuple[str, ...] = Field(
        description="Combats waiting for round orders, e.g. 'Larsu 0804, round 2'"
    )
    winners: tuple[str, ...] = ()


class OrderOutcome(_Part):
    """What became of one of the player's own orders."""

    number: int = Field(description="1-based position in the orders sent")
    order: str = Field(description="The order as understood, when known")
    status: OrderStatus
    reason: str


class CombatOrderLine(_Part):
    """A ship's revealed order, as the rules' examples write them."""

    ship: str
    text: str = Field(description="e.g. 'W3 ATTACKS S25: D=0 B=3 S=2 T=0'")
    missiles: tuple[str, ...] = Field(description="One line per Missile: 'M ATTACKS W3: D=3'")


class ShotLine(_Part):
    firer: str
    weapon: str
    target: str
    row: str = Field(description="The firing tactic's CRT row, e.g. 'ATTACK (0, +1)'")
    column: str = Field(description="The target's tactic: the CRT column")
    difference: int = Field(description="Drive difference (firer's or Missile's drive minus the target's)")
    ecm: int
    result: str
    hits: int
    text: str


class DamageLine(_Part):
    ship: str
    hits: int
    absorbed: int
    effective: int
    record: str = Field(description="The ship's record after the round; empty for ships not the player's")
    text: str


class CombatRound(_Part):
    round: int
    orders: tuple[CombatOrderLine, ...]
    shots: tuple[ShotLine, ...]
    damage: tuple[DamageLine, ...]
    destroyed: tuple[str, ...]
    escaped: tuple[str, ...]
    notes: tuple[str, ...] = Field(description="The player's own orders adjusted, and why")


class CombatReport(_Part):
    star: str
    place: str
    turn: int
    player_turn: str
    sides: dict[str, tuple[str, ...]]
    rounds: tuple[CombatRound, ...]
    outcome: str = Field(description="How it ended; empty while it goes on")


class ShipRow(_Part):
    name: str
    record: str
    hex: str
    place: str
    mp: int
    cargo: int
    carrying: tuple[str, ...]
    carried_by: str | None
    value: int


class BaseRow(_Part):
    hex: str
    place: str
    stockpile: int
    invested: int
    complete: bool
    star_value: int


class IncomeLine(_Part):
    hex: str
    place: str
    amount: int
    where: Literal["base", "holds", "lost", "star"] = Field(
        description="To a Base, into Holds, lost for want of Hold space, or mined at a star awaiting Holds"
    )


class StarRow(_Part):
    hex: str
    name: str
    value: int
    owner: str | None
    base: str | None


class Income(_Part):
    collected: tuple[IncomeLine, ...]
    total: int = Field(description="BP collected into Bases and Holds")
    owned_stars: tuple[StarRow, ...]
    owned_value: int = Field(description="Sum of the basic values of the stars owned")
    awaiting: tuple[IncomeLine, ...] = Field(description="BP mined at Baseless stars, waiting for Holds")


class Changes(_Part):
    built: tuple[str, ...]
    lost: tuple[str, ...]
    stars_gained: tuple[str, ...]
    stars_lost: tuple[str, ...]
    bases_gained: tuple[str, ...]
    bases_lost: tuple[str, ...]

    @property
    def any(self) -> bool:
        return any(
            (self.built, self.lost, self.stars_gained, self.stars_lost, self.bases_gained, self.bases_lost)
        )


class EnemyRow(_Part):
    ship: str
    owner: str
    owner_name: str
    hex: str
    place: str
    turn: int = Field(description="Game-turn last seen")


class Report(_Part):
    schema_: Literal["warpmail.warpwar.report/1"] = Field(SCHEMA, alias="schema")
    header: Header
    happened: tuple[str, ...]
    orders: tuple[OrderOutcome, ...]
    combats: tuple[CombatReport, ...]
    ships: tuple[ShipRow, ...]
    bases: tuple[BaseRow, ...]
    income: Income
    changes: Changes
    enemies: tuple[EnemyRow, ...]
    stars: tuple[StarRow, ...]
    sheet: str
    standings: Standings | None = Field(
        None,
        description="The final standings, in the report of a finished game only (absent otherwise)",
        exclude_if=lambda standings: standings is None,
    )

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, serialize_by_alias=True)


def build_report(
    view: PlayerView,
    events: Sequence[ev.AnyEvent],
    results: Sequence[OrderResult] = (),
    sheet: str = "",
    deadline: str | None = None,
    order_texts: Sequence[str] = (),
    standings: Standings | None = None,
) -> Report:
    """The report for ``view``'s player: ``events`` since their last report (only those they may
    see are used), ``results`` of their own orders (``order_texts``: those orders as written,
    same order, if the caller has them), the orders ``sheet`` for the next turn, the ``deadline``;
    a finished game's ``standings`` (with a view whose fog is lifted: ``standings.final_view``)."""
    seen = events_for(list(events), view.player)
    places = _Places(view)
    return Report(
        header=_header(view, places, deadline),
        happened=tuple(_happened(seen)),
        orders=tuple(_outcome(r, order_texts) for r in results),
        combats=_combats(seen, places),
        ships=tuple(_ship_row(s, places) for s in sorted(view.own_ships, key=_ship_order)),
        bases=tuple(_base_row(b.star, b.stockpile, b.invested, places) for b in view.own_bases),
        income=_income(view, seen, places),
        changes=_changes(view.player, seen, places),
        enemies=tuple(
            EnemyRow(
                ship=s.ship,
                owner=s.owner,
                owner_name=places.player_name(s.owner),
                hex=s.hex,
                place=places.place(s.hex),
                turn=s.turn,
            )
            for s in view.enemy_ships
        ),
        stars=tuple(
            StarRow(hex=s.hex, name=s.name, value=s.value, owner=s.owner, base=s.base_owner)
            for s in sorted(view.stars, key=lambda s: s.hex)
        ),
        sheet=sheet,
        standings=standings,
    )


class _Places:
    """Star names and player names, as the player knows them."""

    def __init__(self, view: PlayerView) -> None:
        self.stars = {s.hex: s for s in view.stars}
        self.players = {p.id: p.name for p in view.players}

    def place(self, hex_: str) -> str:
        star = self.stars.get(hex_)
        return f"{star.name} {hex_}" if star is not None else hex_

    def value(self, hex_: str) -> int:
        star = self.stars.get(hex_)
        return star.value if star is not None else 0

    def player_name(self, player: str) -> str:
        return self.players.get(player, player)


def _header(view: PlayerView, places: _Places, deadline: str | None) -> Header:
    return Header(
        game=view.game_id,
        player=view.player,
        player_name=places.player_name(view.player),
        turn=view.turn,
        active_player=view.active_player,
        active_player_name=places.player_name(view.active_player),
        orders_turn=None if view.stage is Stage.OVER or view.combats else orders_turn(view),
        scenario=view.scenario.value,
        visibility=view.visibility.value,
        map_name=view.map_name,
        tech_level=view.tech_level,
        stage=view.stage.value,
        deadline=deadline,
        combats=tuple(f"{places.place(c.star)}, round {c.round}" for c in view.combats),
        winners=view.winners,
    )


def _happened(seen: Sequence[ev.AnyEvent]) -> list[str]:
    """Every event in order, in the log's notation; combat rounds in brief (detailed below)."""
    lines: list[str] = []
    for event in seen:
        if isinstance(event, ev.CombatRoundResolved):
            lines.append(f"    Round {event.round} at {event.star}: {_round_summary(event)}")
        elif event.redacted and isinstance(event, ev.ShipScrapped):
            lines.append(f"  {event.ship} scrapped at {event.star}")
        elif event.redacted and isinstance(event, ev.BaseBuilt) and not event.complete:
            lines.append(f"  Base being built at {event.star} for {event.owner}")
        else:
            lines += event_lines(event)
    return lines


def _round_summary(event: ev.CombatRoundResolved) -> str:
    hits = sum(1 for s in event.shots if s.hits)
    parts = [f"{_count(len(event.shots), 'shot')}, {_count(hits, 'hit')}"]
    if event.destroyed:
        parts.append("destroyed " + ", ".join(event.destroyed))
    if event.escaped:
        parts.append("escaped " + ", ".join(event.escaped))
    return "; ".join(parts) + " (see Combat)"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _outcome(result: OrderResult, texts: Sequence[str]) -> OrderOutcome:
    order = texts[result.index] if 0 <= result.index < len(texts) else ""
    return OrderOutcome(number=result.index + 1, order=order, status=result.status, reason=result.reason)


# --- Combat, round by round ---


def _combats(seen: Sequence[ev.AnyEvent], places: _Places) -> tuple[CombatReport, ...]:
    """One report per combat, its rounds in order; a combat already under way when this report
    begins (a report after one round) starts at its first round seen."""
    done: list[CombatReport] = []
    open_: dict[str, CombatReport] = {}
    for event in seen:
        if isinstance(event, ev.CombatBegan):
            open_[event.star] = _new_combat(event.star, event.turn, event.player_turn, event.sides, places)
        elif isinstance(event, ev.CombatRoundResolved):
            combat = open_.get(event.star) or _new_combat(
                event.star, event.turn, event.player_turn, {}, places
            )
            open_[event.star] = combat.model_copy(update={"rounds": (*combat.rounds, _round(event))})
        elif isinstance(event, ev.CombatEnded) and event.star in open_:
            holder = places.player_name(event.holder) if event.holder else "nobody"
            outcome = f"over after {_count(event.rounds, 'round')} ({event.reason}); held by {holder}"
            done.append(open_.pop(event.star).model_copy(update={"outcome": outcome}))
    return (*done, *(open_[star] for star in sorted(open_)))


def _new_combat(
    star: str, turn: int, player_turn: str, sides: dict[str, tuple[str, ...]], places: _Places
) -> CombatReport:
    return CombatReport(
        star=star,
        place=places.place(star),
        turn=turn,
        player_turn=player_turn,
        sides=dict(sorted(sides.items())),
        rounds=(),
        outcome="",
    )


def _round(event: ev.CombatRoundResolved) -> CombatRound:
    return CombatRound(
        round=event.round,
        orders=tuple(_order_line(ship, order) for ship, order in sorted(event.orders.items())),
        shots=tuple(_shot(s) for s in event.shots),
        damage=tuple(_damage(d) for d in event.damage),
        destroyed=event.destroyed,
        escaped=event.escaped,
        notes=tuple(f"{ship}: {note}" for ship, note in sorted(event.order_notes.items())),
    )


_TACTIC_VERB = {"ATTACK": "ATTACKS", "DODGE": "DODGES", "RETREAT": "RETREATS"}


def _order_line(ship: str, order: CombatOrder) -> CombatOrderLine:
    """As in "W3 (TL0) ATTACKS S25: D=0 B=3 S=2 T=0" and "S32 (TL1) ATTACKS W3: D=3 C=1 (firing
    3 shells)", with "M ATTACKS W3: D=3" for each Missile (rules VI, examples of fire)."""
    target = order.beam_target or order.cannon_target
    head = f"{ship} {_TACTIC_VERB[order.tactic.value]}" + (f" {target}:" if target else ":")
    parts = [head, f"D={order.drive}", f"B={order.beam}", f"S={order.screen}", f"T={len(order.missiles)}"]
    if order.ecm:
        parts.append(f"E={order.ecm}")
    parts += [f"C=1 (firing {shells} shell{'s' if shells > 1 else ''})" for shells in order.cannons]
    if order.cannons and order.cannon_target and order.cannon_target != target:
        parts.append(f"at {order.cannon_target}")
    if order.pick_up:
        parts.append("picks up " + ", ".join(order.pick_up))
    if order.drop:
        parts.append("drops " + ", ".join(order.drop))
    if order.retreat_to:
        parts.append(f"retreat to {order.retreat_to}")
    missiles = tuple(f"M ATTACKS {m.target}: D={m.drive}" for m in order.missiles)
    return CombatOrderLine(ship=ship, text=" ".join(parts), missiles=missiles)


def _shot(shot: ev.Shot) -> ShotLine:
    """As the rules read the CRT: the firing tactic's row for the drive difference, the
    target's tactic column, the result and the hits it does."""
    ecm = f", ECM {shot.ecm}" if shot.ecm else ""
    text = (
        f"{shot.firer} {shot.weapon.capitalize()} at {shot.target}: row {shot.row}, column {shot.column} "
        f"(drive difference {shot.difference:+d}{ecm}): {shot.result}, {_count(shot.hits, 'hit')}"
    )
    return ShotLine(
        firer=shot.firer,
        weapon=shot.weapon,
        target=shot.target,
        row=shot.row,
        column=shot.column,
        difference=shot.difference,
        ecm=shot.ecm,
        result=shot.result,
        hits=shot.hits,
        text=text,
    )


def _damage(hurt: ev.DamageTaken) -> DamageLine:
    text = (
        f"{hurt.ship} takes {hurt.hits} hits, {hurt.absorbed} absorbed by Screens, {hurt.effective} effective"
    )
    if hurt.record:
        text += f": {hurt.record}"
    return DamageLine(
        ship=hurt.ship,
        hits=hurt.hits,
        absorbed=hurt.absorbed,
        effective=hurt.effective,
        record=hurt.record,
        text=text,
    )


# --- Ships, Bases, income, changes ---


def _ship_order(ship: Ship) -> tuple[bool, int]:
    """Warpships first, then Systemships, each by number."""
    return (not ship.warp_generator, int(ship.name[1:]))


def _short(uid: str) -> str:
    return uid.split(".", 1)[-1]


def _ship_row(ship: Ship, places: _Places) -> ShipRow:
    return ShipRow(
        name=ship.name,
        record=ship.record(),
        hex=ship.location,
        place=places.place(ship.location),
        mp=ship.movement_points,
        cargo=ship.cargo,
        carrying=tuple(_short(uid) for uid in ship.carrying),
        carried_by=_short(ship.carried_by) if ship.carried_by else None,
        value=ship.value(),
    )


def _base_row(star: str, stockpile: int, invested: int, places: _Places) -> BaseRow:
    return BaseRow(
        hex=star,
        place=places.place(star),
        stockpile=stockpile,
        invested=invested,
        complete=invested >= 30,
        star_value=places.value(star),
    )


def _income(view: PlayerView, seen: Sequence[ev.AnyEvent], places: _Places) -> Income:
    collected = tuple(
        IncomeLine(hex=e.star, place=places.place(e.star), amount=e.amount, where=e.where)
        for e in seen
        # BP mined at a Baseless star are not collected until Holds take them (``awaiting``).
        if isinstance(e, ev.BPCollected) and e.player_turn == view.player and e.where != "star"
    )
    owned = tuple(
        StarRow(hex=s.hex, name=s.name, value=s.value, owner=s.owner, base=s.base_owner)
        for s in sorted(view.stars, key=lambda s: s.hex)
        if s.owner == view.player
    )
    return Income(
        collected=collected,
        total=sum(line.amount for line in collected if line.where in ("base", "holds")),
        owned_stars=owned,
        owned_value=sum(s.value for s in owned),
        awaiting=tuple(
            IncomeLine(hex=h, place=places.place(h), amount=bp, where="star")
            for h, bp in sorted(view.star_pools.items())
            if bp
        ),
    )


def _changes(player: str, seen: Sequence[ev.AnyEvent], places: _Places) -> Changes:
    mine = f"{player}."
    built: list[str] = []
    lost: list[str] = []
    gained: list[str] = []
    given_up: list[str] = []
    bases_gained: list[str] = []
    bases_lost: list[str] = []
    for e in seen:
        if isinstance(e, ev.ShipBuilt) and e.ship.startswith(mine):
            built.append(f"{_short(e.ship)} at {places.place(e.star)}")
        elif isinstance(e, ev.ShipDestroyed) and e.ship.startswith(mine):
            lost.append(f"{_short(e.ship)} destroyed at {places.place(e.hex)} ({e.cause})")
        elif isinstance(e, ev.ShipScrapped) and e.ship.startswith(mine):
            lost.append(f"{_short(e.ship)} scrapped at {places.place(e.star)}")
        elif isinstance(e, ev.StarOwnerChanged) and e.owner != e.previous:
            if e.owner == player:
                gained.append(places.place(e.star))
            elif e.previous == player:
                given_up.append(places.place(e.star))
        elif isinstance(e, ev.BaseBuilt) and e.owner == player and e.complete:
            bases_gained.append(places.place(e.star))
        elif isinstance(e, ev.BaseDestroyed) and e.owner == player:
            bases_lost.append(f"{places.place(e.star)} (destroyed by {places.player_name(e.by)})")
    return Changes(
        built=tuple(built),
        lost=tuple(lost),
        stars_gained=tuple(gained),
        stars_lost=tuple(given_up),
        bases_gained=tuple(bases_gained),
        bases_lost=tuple(bases_lost),
    )
