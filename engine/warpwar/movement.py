"""The Movement event and the Systemship rearrangement after combat (rules III, IV, V, VI).

Movement (rules V): "One half of a ship's present PD value, rounded up, is the ship's store of
Movement Points." It costs a Warpship 1 MP to

    move from one space or star hex to an adjacent hex,
    move the full distance along a warpline, from the star hex at one end to the star hex at the other,
    drop off OR pick up one Systemship.

Each Move is walked step by step in the order the player gave. A step that cannot be taken ends
the move where the ship is (PARTIAL, or REFUSED if nothing was done), and so does a star held by
enemy ships: "Warpships must stop movement on any star hex occupied by an enemy ship."

Systemship rearrangement (rules III, VI) comes after all combats and costs no movement: a
Systemship is dropped at its carrier's star, picked up there, or moved to another Warpship there.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.warpwar import ownership
from engine.warpwar.context import Step
from engine.warpwar.events import ShipMoved, SystemshipTransferred
from engine.warpwar.orders import (
    DropStep,
    HexStep,
    Move,
    MoveStep,
    OrderResult,
    OrderStatus,
    Rearrange,
    WarplineStep,
)
from engine.warpwar.ships import Ship, ship_uid
from engine.warpwar.starmap import StarMap
from engine.warpwar.state import Visibility

FIRST_TURN = 1


def run_movement_event(step: Step, orders: list[tuple[int, Move]]) -> list[OrderResult]:
    """Carry out the active player's Moves in the order given, one result per order.

    One Move per ship: a later Move for the same ship replaces an earlier one, so a ship never
    moves twice in one movement event."""
    last = {move.ship: position for position, (_, move) in enumerate(orders)}
    results: list[OrderResult] = []
    for position, (index, move) in enumerate(orders):
        if last[move.ship] != position:
            results.append(_refused(index, f"{move.ship}: replaced by a later order for the same ship"))
        else:
            results.append(_carry_out(step, index, move))
    return results


def run_rearrangement(step: Step, orders: list[tuple[int, Rearrange]]) -> list[OrderResult]:
    """The free shuffling of Systemships at stars after all combats (rules III, "Systemship
    Rearrangement"): drop (``to`` None), pick up, or transfer between Warpships at one star."""
    results: list[OrderResult] = []
    for index, order in orders:
        problem = _rearrange(step, order)
        if problem is None:
            results.append(OrderResult(index=index, status=OrderStatus.DONE))
        else:
            results.append(_refused(index, problem))
    return results


# --- Movement ---


def _carry_out(step: Step, index: int, move: Move) -> OrderResult:
    ship = _own(step, move.ship)
    if ship is None:
        return _refused(index, f"you have no ship {move.ship}")
    refusal = _why_cannot_move(ship)
    if refusal is not None:
        return _refused(index, refusal)
    walk = _Walk(step, ship)
    stop = walk.follow(move.steps)
    if walk.used == 0:
        return _refused(index, stop or "")
    _announce_move(step, walk, stop)
    if stop is None:
        return OrderResult(index=index, status=OrderStatus.DONE)
    return OrderResult(index=index, status=OrderStatus.PARTIAL, reason=stop)


def _why_cannot_move(ship: Ship) -> str | None:
    carried_by = ship.carried_by
    if carried_by is not None:
        carrier = carried_by.split(".", 1)[1]
        return (
            f"{ship.name} is carried by {carrier}: it moves only with its carrier (rules IV: "
            '"Systemships may NEVER move from one hex to another under their own power")'
        )
    if not ship.is_warpship:
        return (
            f"{ship.name} is a Systemship: a Warpship must carry it (rules IV: "
            '"Systemships may NEVER move from one hex to another under their own power")'
        )
    if ship.current.PD == 0:
        return f'{ship.name} cannot move: "A Warpship whose PD is reduced to zero may not move" (rules V)'
    return None


class _Walk:
    """One Warpship's move in progress: the MP it has used and the hexes it has been in."""

    def __init__(self, step: Step, ship: Ship) -> None:
        self.step = step
        self.ship = ship
        self.player = ship.owner
        self.map: StarMap = step.state.map
        self.allowance = ship.movement_points
        self.used = 0
        self.path = [ship.location]
        self.halted: str | None = None

    @property
    def here(self) -> str:
        return self.ship.location

    def follow(self, steps: Sequence[MoveStep]) -> str | None:
        """Take the steps in order; the reason the move ended early, or None."""
        for position, move_step in enumerate(steps):
            problem = self.take(move_step)
            if problem is not None:
                return problem
            if self.halted is not None:
                return self._planned_drops(steps[position + 1 :])
        return None

    def _planned_drops(self, rest: Sequence[MoveStep]) -> str | None:
        """After a forced stop, drops planned for that star are still made (rules V, blind games:
        "If enemy ships are found to be present at that star, the Systemships are dropped and
        available for use on the first round of combat"); everything after them is cancelled."""
        for move_step in rest:
            if not isinstance(move_step, DropStep):
                return self.halted
            problem = self.take(move_step)
            if problem is not None:
                return problem
        return None

    def take(self, move_step: MoveStep) -> str | None:
        """One step for one MP; the reason it cannot be taken, or None."""
        if self.used >= self.allowance:
            return (
                f"{self.ship.name} has no Movement Points left at {_where(self.map, self.here)}: it has "
                f'{self.allowance} (rules V: "One half of a ship\'s present PD value, rounded up")'
            )
        if isinstance(move_step, HexStep):
            problem = self._hex(move_step.to)
        elif isinstance(move_step, WarplineStep):
            problem = self._warpline(move_step.to)
        elif isinstance(move_step, DropStep):
            problem = self._drop(move_step.systemship)
        else:
            problem = self._pick_up(move_step.systemship)
        if problem is None:
            self.used += 1
        return problem

    def _hex(self, to: str) -> str | None:
        step, here = self.step, self.here
        if to not in step.hex_set:
            return f"{self.ship.name} cannot move to {to}: it is off the map"
        if to not in step.adjacency.get(here, ()):
            name = self.ship.name
            return f"{name} cannot move to {to}: it is not adjacent to {here} (rules V: one hex per MP)"
        return self._enter(to)

    def _warpline(self, to: str) -> str | None:
        name, here = self.ship.name, self.here
        if to not in self.step.hex_set:
            return f"{name} cannot jump to {to}: it is off the map"
        if here not in self.step.star_at:
            return (
                f"{name} cannot jump to {to} from {here}: Warpships may only enter warplines "
                '"at one end of the warpline, NOT in the middle" (rules V)'
            )
        if to not in self.map.warpline_ends.get(here, ()):
            return (
                f"{name} cannot jump from {_where(self.map, here)} to {_where(self.map, to)}: no warpline "
                "joins them (rules V: a jump goes from the star at one end to the star at the other)"
            )
        return self._enter(to)

    def _enter(self, to: str) -> str | None:
        step = self.step
        if step.turn == FIRST_TURN:
            base = step.bases.get(to)
            if base is not None and base.owner != self.player:
                return (
                    f"{self.ship.name} may not enter {_where(self.map, to)}: "
                    '"Ships may NOT move onto an enemy Base star during the first turn" (rules V)'
                )
        step.place(self.ship, to)
        self.path.append(to)
        if not step.open_game:
            _meet(step, self.ship, to)
        if to in step.star_at:
            if step.has_enemy_ships_at(to, self.player):
                self.halted = (
                    f"{self.ship.name} stopped at {_where(self.map, to)}: enemy ships are there (rules V: "
                    '"Warpships must stop movement on any star hex occupied by an enemy ship")'
                )
            else:
                ownership.claim(step, to, self.player)
        return None

    def _drop(self, name: str) -> str | None:
        here = self.here
        if not self.map.is_star(here):
            return (
                f"{self.ship.name} cannot drop {name} at {here}: Systemships "
                '"may exist only on star hexes unless carried by Warpships" (rules IV)'
            )
        systemship = _own(self.step, name)
        if systemship is None or systemship.carried_by != self.ship.uid:
            return f"{self.ship.name} cannot drop {name}: it is not carrying it"
        _transfer(self.step, systemship, None)
        return None

    def _pick_up(self, name: str) -> str | None:
        here = self.here
        if not self.map.is_star(here):
            return (
                f"{self.ship.name} cannot pick up {name} at {here}: Systemships are picked up at stars "
                '(rules IV: they "may exist only on star hexes unless carried by Warpships")'
            )
        systemship = _own(self.step, name)
        if systemship is None:
            return f"you have no ship {name}"
        problem = _loading_problem(self.step, self.ship, systemship)
        if problem is None and systemship.carried_by is not None:
            carrier = systemship.carried_by.split(".", 1)[1]
            problem = (
                f"{name} is carried by {carrier}: during movement only a Systemship left at the star is "
                "picked up (rules V); move it between Warpships in the Systemship rearrangement"
            )
        if problem is not None:
            return problem
        _transfer(self.step, systemship, self.ship)
        return None


def _meet(step: Step, ship: Ship, hex_: str) -> None:
    """Blind games: the players with a ship or Base in the hex see the moving ship there, and its
    owner sees their ships and Base. Carried Systemships are never seen ("the Systemship's counter
    does NOT appear on the map")."""
    step.sight(ship, hex_, step.owners_at(hex_) - {ship.owner})
    for other in step.enemy_ships_at(hex_, ship.owner):
        if other.carried_by is None:
            step.sight(other, hex_, (ship.owner,))
    base = step.state.bases.get(hex_)
    if base is not None and base.owner != ship.owner:
        step.knowledge(ship.owner).bases[hex_] = base.owner


def _announce_move(step: Step, walk: _Walk, stop: str | None) -> None:
    """Open games: "All moves and builds are 'seen'" (rules VII). Blind games: only the owner
    sees the whole move; others see it only through sightings where they are present."""
    viewers = step.everyone() if step.open_game else (walk.player,)
    step.emit(
        step.event(
            ShipMoved,
            viewers,
            ship=walk.ship.uid,
            path=tuple(walk.path),
            mp_used=walk.used,
            stopped_by=stop,
        )
    )


# --- Systemships changing hands ---


def _rearrange(step: Step, order: Rearrange) -> str | None:
    """Carry out one rearrangement; the reason it cannot be done, or None."""
    name = order.systemship
    systemship = _own(step, name)
    if systemship is None:
        return f"you have no ship {name}"
    if systemship.is_warpship:
        return f'{name} is a Warpship: "A Warpship may NOT be carried in a Systemship Rack" (rules IV)'
    star = systemship.location
    if not step.state.map.is_star(star):
        return (
            f"{name} is at {star}, not at a star: Systemships are rearranged only at a star hex "
            "(rules III, Systemship Rearrangement)"
        )
    if order.to is None:
        if systemship.carried_by is None:
            return f"{name} is not carried: there is nothing to drop"
        _transfer(step, systemship, None)
        return None
    carrier = _own(step, order.to)
    if carrier is None:
        return f"you have no ship {order.to}"
    problem = _loading_problem(step, carrier, systemship)
    if problem is None:
        _transfer(step, systemship, carrier)
    return problem


def _loading_problem(step: Step, carrier: Ship, systemship: Ship) -> str | None:
    """Why ``carrier`` cannot take ``systemship`` into a rack where both are, or None."""
    name, carrier_name = systemship.name, carrier.name
    if systemship.is_warpship:
        return f'{name} is a Warpship: "A Warpship may NOT be carried in a Systemship Rack" (rules IV)'
    if not carrier.is_warpship:
        return f'{carrier_name} is a Systemship: "Systemships may not have SRs" (rules IV)'
    if carrier.location != systemship.location:
        where = _where(step.state.map, carrier.location)
        return f"{name} is not at {where} where {carrier_name} is"
    if systemship.carried_by == carrier.uid:
        return f"{carrier_name} already carries {name}"
    if carrier.free_racks < 1:
        return (
            f"{carrier_name} has no free undamaged Systemship Rack (SR={carrier.current.SR}, carrying "
            f'{len(carrier.carrying)}; rules IV: it "may carry one Systemship for each SR it has")'
        )
    return None


def _transfer(step: Step, systemship: Ship, to: Ship | None) -> None:
    """Take a Systemship from its carrier, if any, and put it in ``to``'s rack or, if None, on the
    star. A Systemship left on the star is on the map again, so in blind games the players present
    there see it."""
    star = systemship.location
    previous = systemship.carried_by
    if previous is not None:
        step.state.ships[previous].carrying.remove(systemship.uid)
    systemship.carried_by = to.uid if to is not None else None
    if to is not None:
        to.carrying.append(systemship.uid)
    step.emit(
        step.event(
            SystemshipTransferred,
            step.observers(star, systemship.owner),
            systemship=systemship.uid,
            star=star,
            from_ship=previous,
            to_ship=systemship.carried_by,
        )
    )
    if to is None and step.state.config.visibility is Visibility.BLIND:
        step.sight(systemship, star, step.owners_at(star) - {systemship.owner})


# --- Small helpers ---


def _own(step: Step, name: str) -> Ship | None:
    """The active player's ship of that name (turn orders name one's own ships by short name)."""
    return step.state.ships.get(ship_uid(step.active_id, name))


def _where(star_map: StarMap, hex_: str) -> str:
    star = star_map.star_at.get(hex_)
    return f"{star.name} ({hex_})" if star is not None else hex_


def _refused(index: int, reason: str) -> OrderResult:
    return OrderResult(index=index, status=OrderStatus.REFUSED, reason=reason)
