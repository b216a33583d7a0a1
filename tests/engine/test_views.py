"""A player's view never contains a fact the player may not know.

Tested as non-interference: change any secret of another player (attributes, damage, cargo,
stockpiles, standing orders; in blind games also where unseen ships are) and the view must not
change by a single byte.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.warpwar import robot
from engine.warpwar.components import Attr
from engine.warpwar.events import (
    AnyEvent,
    BPCollected,
    CombatRoundResolved,
    HoldLoaded,
    ShipBuilt,
    ShipRepaired,
    ShipScrapped,
)
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.orders import CombatOrder, Tactic
from engine.warpwar.state import Combat, GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.views import events_for, player_view
from tests.engine.builders import robot_game_states

PLAYERS = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))


def snapshots(visibility: Visibility) -> tuple[GameState, ...]:
    return robot_game_states(visibility, seed=11, limit=40)


def perturb_secrets(state: GameState, viewer: str, seed: int) -> GameState:
    """A copy of ``state`` in which everything ``viewer`` may not know is different."""
    changed = state.clone()
    for ship in changed.ships.values():
        if ship.owner == viewer:
            continue
        attrs = [a for a in Attr if ship.built.get(a) > 0]
        attr = attrs[seed % len(attrs)]
        ship.current = ship.current.replace(
            **{attr.value: (ship.current.get(attr) + seed) % (ship.built.get(attr) + 1)}
        )
        if ship.current.total() == 0:
            ship.current = ship.built
        ship.cargo = min(ship.hold_capacity, seed % 7)
        ship.damage_priority = tuple(reversed(ship.damage_priority))
        ship.standing_order = CombatOrder(tactic=Tactic.DODGE, drive=seed % 3)
    for base in changed.bases.values():
        if base.owner != viewer:
            base.stockpile = (base.stockpile + seed) % 97
    return changed


def hide_unseen_moves(state: GameState, viewer: str) -> GameState:
    """In a blind game, move each enemy ship the viewer cannot see to another unseen hex."""
    changed = state.clone()
    watched = {s.location for s in changed.ships.values() if s.owner == viewer} | {
        b.star for b in changed.bases.values() if b.owner == viewer
    }
    seen_before = {s.hex for s in changed.knowledge[viewer].sightings.values()}
    hidden = [
        h
        for h in changed.map.hexes
        if h not in watched and h not in seen_before and not changed.map.is_star(h)
    ]
    for ship in sorted(changed.ships.values(), key=lambda s: s.uid):
        if (
            ship.owner != viewer
            and ship.location not in watched
            and ship.carried_by is None
            and ship.warp_generator
        ):
            if ship.location in seen_before:
                continue
            destination = hidden[sum(map(ord, ship.uid)) % len(hidden)]
            for uid in (ship.uid, *ship.carrying):
                changed.ships[uid].location = destination
    return changed


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 39), viewer=st.sampled_from(["Red", "Blue"]), seed=st.integers(1, 1000))
def test_open_game_view_ignores_every_secret_of_other_players(index: int, viewer: str, seed: int) -> None:
    states = snapshots(Visibility.OPEN)
    state = states[index % len(states)]
    assert player_view(perturb_secrets(state, viewer, seed), viewer) == player_view(state, viewer)


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 39), viewer=st.sampled_from(["Red", "Blue"]), seed=st.integers(1, 1000))
def test_blind_game_view_ignores_secrets_and_unseen_movements(index: int, viewer: str, seed: int) -> None:
    states = snapshots(Visibility.BLIND)
    state = states[index % len(states)]
    changed = hide_unseen_moves(perturb_secrets(state, viewer, seed), viewer)
    assert player_view(changed, viewer) == player_view(state, viewer)


def test_a_blind_player_outside_every_combat_cannot_tell_one_is_fought() -> None:
    # Given blind game-states taking a player-turn's orders, and a combat made up at a star
    # where the waiting player has nothing
    waiting = [s for s in snapshots(Visibility.BLIND) if s.stage is Stage.ORDERS]
    assert waiting
    for state in waiting:
        viewer = next(p.id for p in state.players if p.id != state.active_player.id)
        own = {s.location for s in state.own_ships(viewer)} | {
            b.star for b in state.bases.values() if b.owner == viewer
        }
        fought = state.clone()
        fought.stage = Stage.COMBAT
        fought.combats = [Combat(star=next(s.hex for s in state.map.stars if s.hex not in own))]
        # Then the waiting player's view (and so their reports and acknowledgements) is the same
        assert player_view(fought, viewer) == player_view(state, viewer)
        # while the player whose player-turn it is knows the combat stage their moves began
        assert player_view(fought, state.active_player.id).stage is Stage.COMBAT


def test_a_view_holds_only_the_viewers_own_ships_in_full() -> None:
    for state in snapshots(Visibility.BLIND):
        for viewer in ("Red", "Blue"):
            view = player_view(state, viewer)
            assert all(ship.owner == viewer for ship in view.own_ships)
            assert all(base.owner == viewer for base in view.own_bases)
            assert all(sighting.owner != viewer for sighting in view.enemy_ships)


def test_blind_players_see_enemies_only_where_they_have_been() -> None:
    states = snapshots(Visibility.BLIND)
    opening = player_view(states[1], "Blue")
    assert opening.enemy_ships == ()
    assert any(player_view(s, "Red").enemy_ships for s in states)


def test_open_game_players_see_every_ship_base_and_star_owner_as_they_are_now() -> None:
    checked = 0
    for state in snapshots(Visibility.OPEN)[::4]:
        for viewer in ("Red", "Blue"):
            view = player_view(state, viewer)
            # Every enemy ship on the map, where it is, seen this game-turn; none carried
            on_map = {
                s.uid: s.location for s in state.ships.values() if s.owner != viewer and s.carried_by is None
            }
            assert {seen.ship: seen.hex for seen in view.enemy_ships} == on_map
            assert {seen.turn for seen in view.enemy_ships} <= {state.turn}
            # Every star's owner and every Base, whoever holds it
            for star in view.stars:
                control = state.control.get(star.hex)
                assert star.owner == (control.owner if control else None)
                base = state.bases.get(star.hex)
                assert star.base_owner == (base.owner if base else None)
            checked += bool(on_map)
        # None of it is copied into the stored knowledge: only the map known is kept there
        for known in state.knowledge.values():
            assert (known.sightings, known.bases, known.owners) == ({}, {}, {})
    assert checked > 5


def test_open_basic_game_players_know_who_owns_every_home_star_from_the_start() -> None:
    # Given a Basic open game: one Base per player, on the first of its three home stars
    config = GameConfig(game_id="b", scenario=Scenario.BASIC, visibility=Visibility.OPEN, players=PLAYERS)
    state = WarpWar().new_game(Setup(config=config), 1).state
    blue_home = state.player("Blue").home
    # When Red looks at the map before anyone has moved
    owners = {star.hex: star.owner for star in player_view(state, "Red").stars}
    # Then Blue's home stars without a Base are known to be Blue's too (rules VII: "All moves and
    # builds are 'seen'"; setting up is no secret)
    assert [owners[star] for star in blue_home] == ["Blue"] * 3
    assert blue_home[1] not in state.bases


@cache
def game_events(visibility: Visibility) -> tuple[AnyEvent, ...]:
    config = GameConfig(game_id="e", scenario=Scenario.ADVANCED, visibility=visibility, players=PLAYERS)
    state = WarpWar().new_game(Setup(config=config), 1).state
    events: list[AnyEvent] = []
    while state.stage is not Stage.OVER:
        outcome = robot.play_turn(state)
        events += outcome.events
        state = outcome.state
    return tuple(events)


def secrets_shown(event: AnyEvent, viewer: str) -> list[str]:
    """Another player's ship record, BP, losses or damage settings in an event shown to ``viewer``."""
    leaks: list[str] = []
    if isinstance(event, ShipBuilt | ShipScrapped) and not event.ship.startswith(f"{viewer}."):
        if isinstance(event, ShipBuilt) and (event.record or event.cost):
            leaks.append(f"record of {event.ship}")
        if isinstance(event, ShipScrapped) and event.bp:
            leaks.append(f"scrap value of {event.ship}")
    if isinstance(event, BPCollected | HoldLoaded | ShipRepaired) and event.visible_to != (viewer,):
        leaks.append(f"{event.kind} shown to others")
    if isinstance(event, CombatRoundResolved):
        for hurt in event.damage:
            if not hurt.ship.startswith(f"{viewer}.") and (
                hurt.record or hurt.losses.total() or hurt.cargo_lost
            ):
                leaks.append(f"losses of {hurt.ship}")
        for ship, order in event.orders.items():
            if not ship.startswith(f"{viewer}.") and (order.damage_priority or order.ecm_policy):
                leaks.append(f"damage settings of {ship}")
        leaks += [f"order note of {s}" for s in event.order_notes if not s.startswith(f"{viewer}.")]
    return leaks


@pytest.mark.parametrize("visibility", [Visibility.OPEN, Visibility.BLIND])
def test_events_shown_to_a_player_never_carry_another_players_secrets(visibility: Visibility) -> None:
    events = game_events(visibility)
    assert any(isinstance(e, CombatRoundResolved) for e in events)
    for viewer in ("Red", "Blue"):
        shown = events_for(list(events), viewer)
        assert [leak for e in shown for leak in secrets_shown(e, viewer)] == []


def test_the_referees_record_keeps_every_round_in_full() -> None:
    full = [e for e in game_events(Visibility.OPEN) if isinstance(e, CombatRoundResolved) and not e.redacted]
    assert full and all(e.visible_to == () for e in full)
    assert any(d.record for e in full for d in e.damage)
