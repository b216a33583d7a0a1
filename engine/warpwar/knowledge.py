"""What each player knows (rules VII, PBEM): the only source views draw enemy facts from.

Open (non-refereed) games: "All moves and builds are 'seen' (but BP and ship attributes are
still secret)": every player knows where every ship and Base is and who owns each star. That is
a function of the state, so it is read from the state when a view asks (``known_to``) instead of
being copied into every player's knowledge after every step; only the map explored is kept.
Blind (refereed) games: a player knows what is in the hexes where they have a ship or a Base,
and keeps the last sighting of ships seen elsewhere before, so the knowledge is kept step by
step. Carried Systemships are never seen ("the Systemship's counter does NOT appear on the map").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence

from engine.warpwar.context import Step
from engine.warpwar.copying import updated
from engine.warpwar.events import AnyEvent, ShipMoved
from engine.warpwar.state import GameState, Knowledge, MapKnowledge, Sighting, Visibility


def known_to(state: GameState, player: str) -> Knowledge:
    """What ``player`` knows now: in a blind game the knowledge kept; in an open game every
    uncarried enemy ship where it is, seen this game-turn, every enemy Base and every star's
    owner, with the map as far as the player has explored it."""
    known = state.knowledge[player]
    if state.config.visibility is Visibility.BLIND:
        return known
    turn = state.turn
    # Validated as a whole: one call builds every sighting, where each Sighting(...) is a call.
    return Knowledge.model_validate(
        {
            "stars": known.stars,
            "sightings": {
                uid: {"ship": uid, "owner": ship.owner, "hex": ship.location, "turn": turn}
                for uid, ship in sorted(state.ships.items())
                if ship.owner != player and ship.carried_by is None
            },
            "bases": {star: base.owner for star, base in sorted(state.bases.items()) if base.owner != player},
            "owners": {star: control.owner for star, control in sorted(state.control.items())},
        }
    )


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
    explored = state.config.map_knowledge is MapKnowledge.EXPLORED
    # Open games keep only the map explored: the rest is read from the state (``known_to``).
    blind = not step.open_game
    if blind or explored:
        presence = _presence(step, scope)
        present_at = _present_at(presence)
        on_map = _OnMap(step)
        for player in state.players:
            if player.eliminated:
                continue
            player_id = player.id
            known = step.knowledge(player_id)
            own = present_at.get(player_id, set())
            if blind and own:
                # With nothing in scope (a round that moved no ship) no sighting needs reading.
                sighted = _sighted_in(known, scope) if scope is None or scope else []
                _forget_ships_gone(step, known, sighted, own)
                _look_at(step, on_map, presence, known, player_id, sorted(own))
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


class _OnMap:
    """The ships on the map (not carried) in each hex, as (uid, owner) by uid: found once per
    refresh, however many players look at the hex."""

    def __init__(self, step: Step) -> None:
        self._step = step
        self._at: dict[str, list[tuple[str, str]]] = {}

    def at(self, hex_: str) -> list[tuple[str, str]]:
        found = self._at.get(hex_)
        if found is None:
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
