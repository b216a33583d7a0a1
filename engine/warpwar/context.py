"""The working context of one engine step: a private copy of the state, an index of who is
where, the events produced, and who may see them.

Every phase module moves ships only through ``Step.place``/``Step.remove`` so the index and
the players' knowledge (what they have seen) can never drift from the ships themselves.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from engine.warpwar.events import AnyEvent, Event, ShipSighted
from engine.warpwar.ships import Ship
from engine.warpwar.state import GameState, Knowledge, Sighting, Visibility


class Step:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[AnyEvent] = []
        self._at: dict[str, set[str]] = defaultdict(set)
        for ship in state.ships.values():
            self._at[ship.location].add(ship.uid)
        # Hexes where ships or Bases have come, gone or changed hands since the players'
        # knowledge was last refreshed: within a game-turn only these need looking at again.
        self.touched: set[str] = set()

    # --- who is where ---

    @property
    def active_id(self) -> str:
        return self.state.active_player.id

    def ships_at(self, hex_: str) -> list[Ship]:
        """Ships in a hex (carried Systemships included), sorted by uid."""
        return [self.state.ships[uid] for uid in sorted(self._at.get(hex_, ()))]

    def owners_at(self, hex_: str) -> set[str]:
        """Players with a ship or a Base in the hex."""
        owners = {self.state.ships[uid].owner for uid in self._at.get(hex_, ())}
        base = self.state.bases.get(hex_)
        if base is not None:
            owners.add(base.owner)
        return owners

    def enemy_ships_at(self, hex_: str, player: str) -> list[Ship]:
        return [s for s in self.ships_at(hex_) if s.owner != player]

    def place(self, ship: Ship, hex_: str) -> None:
        """Move a ship (and everything it carries) to a hex."""
        for uid in (ship.uid, *ship.carrying):
            moving = self.state.ships[uid]
            self._at[moving.location].discard(uid)
            self.touched.add(moving.location)
            moving.location = hex_
            self._at[hex_].add(uid)
        self.touched.add(hex_)

    def add(self, ship: Ship) -> None:
        self.state.ships[ship.uid] = ship
        self._at[ship.location].add(ship.uid)
        self.touched.add(ship.location)

    def remove(self, ship: Ship) -> None:
        """Take a ship out of the game (destroyed or scrapped) with everything it carries."""
        for uid in (ship.uid, *ship.carrying):
            gone = self.state.ships.pop(uid)
            self._at[gone.location].discard(uid)
            self.touched.add(gone.location)
        if ship.carried_by is not None and ship.carried_by in self.state.ships:
            self.state.ships[ship.carried_by].carrying.remove(ship.uid)

    # --- who may see what ---

    def everyone(self) -> tuple[str, ...]:
        return tuple(sorted(p.id for p in self.state.players))

    def observers(self, hex_: str, actor: str) -> tuple[str, ...]:
        """Who sees something happen in a hex: everyone in open games; in blind games the actor
        and the players with a ship or Base there."""
        if self.state.config.visibility is Visibility.OPEN:
            return self.everyone()
        return tuple(sorted(self.owners_at(hex_) | {actor}))

    def base_fields(self, visible_to: tuple[str, ...]) -> dict[str, Any]:
        return {
            "turn": self.state.turn,
            "player_turn": self.active_id,
            "visible_to": tuple(sorted(set(visible_to))),
        }

    def emit(self, event: Event) -> None:
        self.events.append(event)  # type: ignore[arg-type]

    def emit_redacted(self, event: Event, visible_to: tuple[str, ...], **blanked: Any) -> None:
        """Emit a copy of ``event`` for players who may see that it happened but not its secrets."""
        if visible_to:
            self.emit(
                event.model_copy(
                    update={"visible_to": tuple(sorted(visible_to)), "redacted": True, **blanked}
                )
            )

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
