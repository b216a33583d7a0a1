"""The working context of one engine step: a private copy of the state, an index of who is
where, the events produced, and who may see them.

Every phase module moves ships only through ``Step.place``/``Step.remove`` so the index and
the players' knowledge (what they have seen) can never drift from the ships themselves.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from functools import cache
from typing import Any, TypeVar

from pydantic_core import SchemaValidator

from engine.warpwar.copying import updated
from engine.warpwar.events import AnyEvent, Event, ShipSighted
from engine.warpwar.ships import Ship
from engine.warpwar.state import GameState, Knowledge, Sighting, Visibility

E = TypeVar("E", bound=Event)


@cache
def _validator(kind: type[Event]) -> SchemaValidator:
    # Looked up once: attributes of a model class go through pydantic's metaclass.
    return kind.__pydantic_validator__  # type: ignore[return-value]


class Step:
    def __init__(self, state: GameState) -> None:
        self.state = state
        # Parts of the state read everywhere, as plain attributes: reading a pydantic model's
        # attribute costs several times a plain object's on Python 3.11 (its ``__getattr__``
        # keeps the interpreter from specialising the look-up). None of them is ever replaced.
        self.ships = state.ships
        self.bases = state.bases
        self.control = state.control
        self.star_at = state.map.star_at
        self.hex_set = state.map.hex_set
        self.adjacency = state.map.adjacency
        self.open_game = state.config.visibility is Visibility.OPEN
        self.turn = state.turn
        self.events: list[AnyEvent] = []
        # The ships in each hex, uid -> owner (a ship's owner never changes).
        self._at: dict[str, dict[str, str]] = defaultdict(dict)
        for uid, ship in state.ships.items():
            self._at[ship.location][uid] = ship.owner
        # The uids of each hex in order, kept until a ship comes or goes there: the same hex is
        # asked about many times in a step (every move into a star, every combat round).
        self._sorted_at: dict[str, list[str]] = {}
        self._everyone = tuple(sorted(p.id for p in state.players))
        # Whose player-turn it is, read hundreds of times a step; only ``pass_turn`` changes it.
        self.active_id: str = state.players[state.active].id
        # Hexes where ships or Bases have come, gone or changed hands since the players'
        # knowledge was last refreshed: within a game-turn only these need looking at again.
        self.touched: set[str] = set()

    def pass_turn(self, index: int, turn: int) -> None:
        """The player-turn passes to ``state.players[index]``, in game-turn ``turn``."""
        self.state.active = index
        self.state.turn = self.turn = turn
        self.active_id = self.state.players[index].id

    # --- who is where ---

    def ships_at(self, hex_: str) -> list[Ship]:
        """Ships in a hex (carried Systemships included), sorted by uid."""
        ships = self.ships
        return [ships[uid] for uid in self.uids_at(hex_)]

    def uids_at(self, hex_: str) -> list[str]:
        """The uids of ``ships_at``, in the same order (do not change the list)."""
        uids = self._sorted_at.get(hex_)
        if uids is None:
            uids = self._sorted_at[hex_] = sorted(self._at.get(hex_, ()))
        return uids

    def ship_owners_at(self, hex_: str) -> dict[str, str]:
        """The owner of each ship in a hex, by uid, in no particular order (do not change it)."""
        return self._at.get(hex_, {})

    def occupied(self) -> Iterable[tuple[str, dict[str, str]]]:
        """Each hex with its ``ship_owners_at`` (some maybe empty), in no particular order."""
        return self._at.items()

    def owners_at(self, hex_: str) -> set[str]:
        """Players with a ship or a Base in the hex."""
        here = self._at.get(hex_)
        owners = set(here.values()) if here else set()
        base = self.bases.get(hex_)
        if base is not None:
            owners.add(base.owner)
        return owners

    def enemy_ships_at(self, hex_: str, player: str) -> list[Ship]:
        here, ships = self._at.get(hex_, {}), self.ships
        return [ships[uid] for uid in self.uids_at(hex_) if here[uid] != player]

    def has_enemy_ships_at(self, hex_: str, player: str) -> bool:
        """Whether ``enemy_ships_at`` would find any, without listing them."""
        here = self._at.get(hex_)
        if here:
            for owner in here.values():
                if owner != player:
                    return True
        return False

    def place(self, ship: Ship, hex_: str) -> None:
        """Move a ship (and everything it carries) to a hex."""
        self._move(ship, hex_)
        for uid in ship.carrying:
            self._move(self.ships[uid], hex_)

    def _move(self, ship: Ship, hex_: str) -> None:
        # What _left and _came do, spelt out: every step of every move comes here.
        uid, old = ship.uid, ship.location
        at, sorted_at, touched = self._at, self._sorted_at, self.touched
        owner = at[old].pop(uid)
        sorted_at.pop(old, None)
        touched.add(old)
        # Straight into the fields, past pydantic's ``__setattr__`` (two calls and three look-ups
        # on every hex entered): ``location`` is a required field, so it is always among the
        # fields set, and Ship does not validate assignments.
        ship.__dict__["location"] = hex_
        at[hex_][uid] = owner
        sorted_at.pop(hex_, None)
        touched.add(hex_)

    def _came(self, hex_: str, uid: str, owner: str) -> None:
        self._at[hex_][uid] = owner
        self._sorted_at.pop(hex_, None)
        self.touched.add(hex_)

    def _left(self, hex_: str, uid: str) -> None:
        self._at[hex_].pop(uid, None)
        self._sorted_at.pop(hex_, None)
        self.touched.add(hex_)

    def add(self, ship: Ship) -> None:
        self.ships[ship.uid] = ship
        self._came(ship.location, ship.uid, ship.owner)

    def remove(self, ship: Ship) -> None:
        """Take a ship out of the game (destroyed or scrapped) with everything it carries."""
        for uid in (ship.uid, *ship.carrying):
            gone = self.ships.pop(uid)
            self._left(gone.location, uid)
        if ship.carried_by is not None and ship.carried_by in self.ships:
            self.ships[ship.carried_by].carrying.remove(ship.uid)

    # --- who may see what ---

    def everyone(self) -> tuple[str, ...]:
        return self._everyone

    def observers(self, hex_: str, actor: str) -> tuple[str, ...]:
        """Who sees something happen in a hex: everyone in open games; in blind games the actor
        and the players with a ship or Base there."""
        if self.open_game:
            return self.everyone()
        return tuple(sorted(self.owners_at(hex_) | {actor}))

    def event(self, kind: type[E], visible_to: Collection[str], **fields: Any) -> E:
        """A new event of this step, seen by ``visible_to``, validated as ``kind(...)`` would be.
        Not built by calling ``kind``: ``BaseModel.__init__`` (its keywords gathered into a dict,
        then its look-ups) costs a fifth as much again as validating, on some 150 events a
        game-turn."""
        if visible_to is not self._everyone:
            visible_to = tuple(sorted(set(visible_to))) if len(visible_to) > 1 else tuple(visible_to)
        fields["turn"] = self.turn
        fields["player_turn"] = self.active_id
        fields["visible_to"] = visible_to
        made: E = _validator(kind).validate_python(fields)
        return made

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
        # One frozen sighting shared by every viewer, as state copies share them.
        seen = Sighting(ship=ship.uid, owner=ship.owner, hex=hex_, turn=self.turn)
        for viewer in others:
            self.knowledge(viewer).sightings[seen.ship] = seen
        self.emit(self.event(ShipSighted, others, ship=ship.uid, owner=ship.owner, hex=hex_))
