"""What each player knows (rules VII, PBEM): the only source views draw enemy facts from.

Open (non-refereed) games: "All moves and builds are 'seen' (but BP and ship attributes are
still secret)": every player knows where every ship and Base is and who owns each star.
Blind (refereed) games: a player knows what is in the hexes where they have a ship or a Base,
and keeps the last sighting of ships seen elsewhere before. Carried Systemships are never seen
("the Systemship's counter does NOT appear on the map").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence

from engine.warpwar.context import Step
from engine.warpwar.copying import updated
from engine.warpwar.events import AnyEvent, ShipMoved
from engine.warpwar.state import Knowledge, MapKnowledge, Sighting, Visibility


def refresh_knowledge(step: Step) -> None:
    """Bring every player's knowledge up to date with what they can see now."""
    _refresh(step, None, step.events)


def refresh_knowledge_at(step: Step, hexes: Collection[str], events: Sequence[AnyEvent]) -> None:
    """What ``refresh_knowledge`` does, for knowledge that was up to date before a change that
    touched only ``hexes`` and produced ``events`` (a combat round: its star and the hexes its
    ships escaped to). Everywhere else a refresh would change nothing, so only ``hexes`` are
    looked at again: the cost follows the change, not the size of the game."""
    _refresh(step, set(hexes), events)


def _refresh(step: Step, scope: set[str] | None, events: Sequence[AnyEvent]) -> None:
    """``scope``: the only hexes that can have changed since the last refresh (None: any)."""
    state = step.state
    open_game = state.config.visibility is Visibility.OPEN
    explored = state.config.map_knowledge is MapKnowledge.EXPLORED
    presence = _presence(step, scope)
    present_at = _present_at(presence) if explored or not open_game else {}
    # Everyone looks everywhere only in open games; in blind ones a player looks where he is.
    on_map = _OnMap(step, everywhere=scope is None and open_game)
    for player in state.players:
        if player.eliminated:
            continue
        player_id = player.id
        known = step.knowledge(player_id)
        # With nothing in scope (a combat round that moved no ship) no sighting needs reading.
        sighted = _sighted_in(known, scope) if scope is None or scope else []
        own = present_at.get(player_id, set())
        visible = _seen_in_open_game(known, sighted, presence, scope) if open_game else own
        if visible:
            _forget_ships_gone(step, known, sighted, visible)
            _look_at(step, on_map, presence, known, player_id, sorted(visible))
        if explored:
            _explore(step, known, player_id, own, events, refresh_all=scope is None)
    step.touched.clear()


def _sighted_in(known: Knowledge, scope: set[str] | None) -> list[tuple[str, str]]:
    """The player's sightings (uid, hex) in ``scope``: each one's hex read once per refresh."""
    if scope is None:
        return [(uid, seen.hex) for uid, seen in known.sightings.items()]
    return [(uid, hex_) for uid, seen in known.sightings.items() if (hex_ := seen.hex) in scope]


def _presence(step: Step, scope: set[str] | None) -> dict[str, set[str]]:
    """For each hex with a ship or a Base (in ``scope``, if given), the players there."""
    if scope is not None:
        return {h: owners for h in scope if (owners := step.owners_at(h))}
    presence: dict[str, set[str]] = defaultdict(set)
    for hex_, ship_owners in step.occupied():
        if ship_owners:
            presence[hex_].update(ship_owners.values())
    for star, base in step.bases.items():
        presence[star].add(base.owner)
    return presence


def _present_at(presence: dict[str, set[str]]) -> dict[str, set[str]]:
    """For each player, the hexes where he has a ship or a Base."""
    present_at: dict[str, set[str]] = defaultdict(set)
    for hex_, owners in presence.items():
        for owner in owners:
            present_at[owner].add(hex_)
    return present_at


def _seen_in_open_game(
    known: Knowledge, sighted: list[tuple[str, str]], presence: dict[str, set[str]], scope: set[str] | None
) -> set[str]:
    """Everything is seen: look wherever anything is now or was last known to be (in ``scope``)."""
    remembered = {hex_ for _, hex_ in sighted}
    if scope is None:
        return remembered.union(presence, known.bases)
    bases = known.bases
    return {h for h in scope if h in presence or h in bases or h in remembered}


class _OnMap:
    """The ships on the map (not carried) in each hex, as (uid, owner) by uid: found once per
    refresh, however many players look at the hex. ``everywhere``: index every ship in one
    pass, for when every hex will be looked at; else look only at the hexes asked about."""

    def __init__(self, step: Step, everywhere: bool) -> None:
        self._step = step
        self._at: dict[str, list[tuple[str, str]]] = {}
        if everywhere:
            ships = step.ships
            for hex_, owners in step.occupied():
                found = [(uid, owners[uid]) for uid in sorted(owners) if ships[uid].carried_by is None]
                if found:
                    self._at[hex_] = found
        self._everywhere = everywhere

    def at(self, hex_: str) -> list[tuple[str, str]]:
        found = self._at.get(hex_)
        if found is None:
            if self._everywhere:
                return []
            step = self._step
            ships, owners = step.ships, step.ship_owners_at(hex_)
            found = [(uid, owners[uid]) for uid in step.uids_at(hex_) if ships[uid].carried_by is None]
            self._at[hex_] = found
        return found


def _forget_ships_gone(
    step: Step, known: Knowledge, sighted: list[tuple[str, str]], visible: set[str]
) -> None:
    """A sighting stands until the player looks at that hex again and the ship is not there."""
    ships = step.ships
    for uid, hex_ in sighted:
        if hex_ not in visible:
            continue
        ship = ships.get(uid)
        if ship is None or ship.carried_by is not None or ship.location != hex_:
            del known.sightings[uid]


def _look_at(
    step: Step, on_map: _OnMap, presence: dict[str, set[str]], known: Knowledge, player: str, hexes: list[str]
) -> None:
    """What ``player`` sees in ``hexes`` (in order, so a new sighting goes last): the other
    players' ships on the map, the Bases of others and the owner of each star. One loop for the
    three, as every step of the game runs it for every player and the hexes it changed."""
    turn, bases, control_of = step.turn, step.bases, step.control
    sightings, known_bases, known_owners = known.sightings, known.bases, known.owners
    for hex_ in hexes:
        owners = presence.get(hex_)
        # Ships are sighted only where another player has a ship or a Base.
        if owners is not None and (len(owners) > 1 or player not in owners):
            for uid, owner in on_map.at(hex_):
                if owner == player:
                    continue
                seen = sightings.get(uid)
                if seen is None:
                    sightings[uid] = Sighting(ship=uid, owner=owner, hex=hex_, turn=turn)
                elif seen.hex != hex_ or seen.turn != turn:
                    # The same ship and owner: a copy with the new place and turn costs half a
                    # validated Sighting, and every sighting is renewed once a game-turn.
                    sightings[uid] = updated(seen, {"hex": hex_, "turn": turn})
        base = bases.get(hex_)
        if base is not None and base.owner != player:
            known_bases[hex_] = base.owner
        else:
            known_bases.pop(hex_, None)
        control = control_of.get(hex_)
        if control is not None:
            known_owners[hex_] = control.owner


def _explore(
    step: Step, known: Knowledge, player: str, own: set[str], events: Sequence[AnyEvent], refresh_all: bool
) -> None:
    is_star = step.state.map.is_star
    seen = {h for h in own if is_star(h)}
    mover = f"{player}."
    for event in events:
        if isinstance(event, ShipMoved) and event.ship.startswith(mover):
            seen |= {h for h in event.path if is_star(h)}
    if refresh_all or not seen.issubset(known.stars):
        known.stars = sorted(seen.union(known.stars))
