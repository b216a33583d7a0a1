"""The working context of one engine step: a private copy of the state, an index of who is
where, the events produced, and who may see them.

Every phase module moves ships only through ``Step.place``/``Step.remove`` so the index and
the players' knowledge (what they have seen) can never drift from the ships themselves.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from engine.warpwar.copying import updated
from engine.warpwar.events import AnyEvent, Event, ShipSighted
from engine.warpwar.ships import Ship
from engine.warpwar.state import GameState, Knowledge, Sighting, Visibility


class Step:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[AnyEvent] = []
        self._at: dict[str, set[str]] = defaultdict(set)
        for uid, ship in state.ships.items():
            self._at[ship.location].add(uid)
        # The uids of each hex in order, kept until a ship comes or goes there: the same hex is
        # asked about many times in a step (every move into a star, every combat round).
        self._sorted_at: dict[str, list[str]] = {}
        self._everyone = tuple(sorted(p.id for p in state.players))
        # Hexes where ships or Bases have come, gone or changed hands since the players'
        # knowledge was last refreshed: within a game-turn only these need looking at again.
        self.touched: set[str] = set()

    # --- who is where ---

    @property
    def active_id(self) -> str:
        state = self.state
        return state.players[state.active].id

    def ships_at(self, hex_: str) -> list[Ship]:
        """Ships in a hex (carried Systemships included), sorted by uid."""
        ships = self.state.ships
        return [ships[uid] for uid in self.uids_at(hex_)]

    def uids_at(self, hex_: str) -> list[str]:
        """The uids of ``ships_at``, in the same order (do not change the list)."""
        uids = self._sorted_at.get(hex_)
        if uids is None:
            uids = self._sorted_at[hex_] = sorted(self._at.get(hex_, ()))
        return uids

    def owners_at(self, hex_: str) -> set[str]:
        """Players with a ship or a Base in the hex."""
        owners = {self.state.ships[uid].owner for uid in self._at.get(hex_, ())}
        base = self.state.bases.get(hex_)
        if base is not None:
            owners.add(base.owner)
        return owners

    def enemy_ships_at(self, hex_: str, player: str) -> list[Ship]:
        return [s for s in self.ships_at(hex_) if s.owner != player]

    def has_enemy_ships_at(self, hex_: str, player: str) -> bool:
        """Whether ``enemy_ships_at`` would find any, without listing them."""
        ships = self.state.ships
        return any(ships[uid].owner != player for uid in self._at.get(hex_, ()))

    def place(self, ship: Ship, hex_: str) -> None:
        """Move a ship (and everything it carries) to a hex."""
        self._move(ship, hex_)
        for uid in ship.carrying:
            self._move(self.state.ships[uid], hex_)

    def _move(self, ship: Ship, hex_: str) -> None:
        # What _left and _came do, spelt out: every step of every move comes here.
        uid, old = ship.uid, ship.location
        at, sorted_at, touched = self._at, self._sorted_at, self.touched
        at[old].discard(uid)
        sorted_at.pop(old, None)
        touched.add(old)
        ship.location = hex_
        at[hex_].add(uid)
        sorted_at.pop(hex_, None)
        touched.add(hex_)

    def _came(self, hex_: str, uid: str) -> None:
        self._at[hex_].add(uid)
        self._sorted_at.pop(hex_, None)
        self.touched.add(hex_)

    def _left(self, hex_: str, uid: str) -> None:
        self._at[hex_].discard(uid)
        self._sorted_at.pop(hex_, None)
        self.touched.add(hex_)

    def add(self, ship: Ship) -> None:
        self.state.ships[ship.uid] = ship
        self._came(ship.location, ship.uid)

    def remove(self, ship: Ship) -> None:
        """Take a ship out of the game (destroyed or scrapped) with everything it carries."""
        for uid in (ship.uid, *ship.carrying):
            gone = self.state.ships.pop(uid)
            self._left(gone.location, uid)
        if ship.carried_by is not None and ship.carried_by in self.state.ships:
            self.state.ships[ship.carried_by].carrying.remove(ship.uid)

    # --- who may see what ---

    def everyone(self) -> tuple[str, ...]:
        return self._everyone

    def observers(self, hex_: str, actor: str) -> tuple[str, ...]:
        """Who sees something happen in a hex: everyone in open games; in blind games the actor
        and the players with a ship or Base there."""
        if self.state.config.visibility is Visibility.OPEN:
            return self.everyone()
        return tuple(sorted(self.owners_at(hex_) | {actor}))

    def base_fields(self, visible_to: tuple[str, ...]) -> dict[str, Any]:
        if visible_to is not self._everyone:
            visible_to = tuple(sorted(set(visible_to)))
        return {"turn": self.state.turn, "player_turn": self.active_id, "visible_to": visible_to}

    def emit(self, event: Event) -> None:
        self.events.append(event)  # type: ignore[arg-type]

    def emit_redacted(self, event: Event, visible_to: tuple[str, ...], **blanked: Any) -> None:
        """Emit a copy of ``event`` for players who may see that it happened but not its secrets."""
        if visible_to:
            self.emit(updated(event, {"visible_to": tuple(sorted(visible_to)), "redacted": True, **blanked}))

    def knowledge(self, player: str) -> Knowledge:
        known = self.state.knowledge.get(player)
        if known is None:
            # Not setdefault(player, Knowledge()): that would build a Knowledge on every call.
            known = self.state.knowledge[player] = Knowledge()
        return known

    def sight(self, ship: Ship, hex_: str, viewers: tuple[str, ...] | set[str]) -> None:
        """Record that ``viewers`` saw an enemy ship in a hex, with an event for each."""
        others = tuple(sorted(v for v in viewers if v != ship.owner))
        if not others:
            return
        for viewer in others:
            self.knowledge(viewer).sightings[ship.uid] = Sighting(
                ship=ship.uid, owner=ship.owner, hex=hex_, turn=self.state.turn
            )
        self.emit(ShipSighted(**self.base_fields(others), ship=ship.uid, owner=ship.owner, hex=hex_))
