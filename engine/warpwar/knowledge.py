"""What each player knows (rules VII, PBEM): the only source views draw enemy facts from.

Open (non-refereed) games: "All moves and builds are 'seen' (but BP and ship attributes are
still secret)": every player knows where every ship and Base is and who owns each star.
Blind (refereed) games: a player knows what is in the hexes where they have a ship or a Base,
and keeps the last sighting of ships seen elsewhere before. Carried Systemships are never seen
("the Systemship's counter does NOT appear on the map").
"""

from __future__ import annotations

from collections import defaultdict

from engine.warpwar.context import Step
from engine.warpwar.events import ShipMoved
from engine.warpwar.state import Knowledge, MapKnowledge, Sighting, Visibility


def refresh_knowledge(step: Step) -> None:
    """Bring every player's knowledge up to date with what they can see now."""
    state = step.state
    presence = _presence(step)
    every_hex = set(presence)
    for player in state.players:
        if player.eliminated:
            continue
        known = step.knowledge(player.id)
        own = {h for h, owners in presence.items() if player.id in owners}
        if state.config.visibility is Visibility.OPEN:
            # Everything is seen: look wherever anything is now or was last known to be.
            remembered = {s.hex for s in known.sightings.values()}
            visible = every_hex | set(known.bases) | remembered
        else:
            visible = own
        _sight_ships(step, known, player.id, visible)
        _see_bases_and_owners(step, known, player.id, visible)
        if state.config.map_knowledge is MapKnowledge.EXPLORED:
            _explore(step, known, player.id, own)


def _presence(step: Step) -> dict[str, set[str]]:
    """For each hex with a ship or a Base, the players there."""
    presence: dict[str, set[str]] = defaultdict(set)
    for hex_ in step.occupied():
        presence[hex_] |= {s.owner for s in step.ships_at(hex_)}
    for star, base in step.state.bases.items():
        presence[star].add(base.owner)
    return presence


def _sight_ships(step: Step, known: Knowledge, player: str, visible: set[str]) -> None:
    ships = step.state.ships
    for uid, sighting in list(known.sightings.items()):
        # A sighting stands until the player looks at that hex again and the ship is not there.
        ship = ships.get(uid)
        still_there = ship is not None and ship.carried_by is None and ship.location == sighting.hex
        if sighting.hex in visible and not still_there:
            del known.sightings[uid]
    for hex_ in sorted(visible):
        for ship in step.ships_at(hex_):
            if ship.owner != player and ship.carried_by is None:
                known.sightings[ship.uid] = Sighting(
                    ship=ship.uid, owner=ship.owner, hex=hex_, turn=step.state.turn
                )


def _see_bases_and_owners(step: Step, known: Knowledge, player: str, visible: set[str]) -> None:
    state = step.state
    for hex_ in sorted(visible):
        base = state.bases.get(hex_)
        if base is not None and base.owner != player:
            known.bases[hex_] = base.owner
        else:
            known.bases.pop(hex_, None)
        control = state.control.get(hex_)
        if control is not None:
            known.owners[hex_] = control.owner


def _explore(step: Step, known: Knowledge, player: str, own: set[str]) -> None:
    seen = set(known.stars) | {h for h in own if step.state.map.is_star(h)}
    for event in step.events:
        if isinstance(event, ShipMoved) and event.ship.startswith(f"{player}."):
            seen |= {h for h in event.path if step.state.map.is_star(h)}
    known.stars = sorted(seen)
