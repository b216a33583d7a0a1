"""The map picture shows what the player knows, and nothing else (rules VII: blind games)."""

from __future__ import annotations

import pytest

from engine.core.picture import Marker, Picture
from engine.warpwar.context import Step
from engine.warpwar.events import ShipMoved
from engine.warpwar.knowledge import refresh_knowledge
from engine.warpwar.orders import HexStep, Move, TurnOrders
from engine.warpwar.picture import OWN_COLOUR, centre, map_picture
from engine.warpwar.state import GameState, Knowledge, Visibility
from engine.warpwar.turn import submit_turn
from engine.warpwar.views import player_view
from tests.engine.builders import add_ship, block_map, make_state


def blind_state() -> GameState:
    """P1's W1 at Delta 0505, P2's W1 far away at Zeta 1010 (a blind game: P1 cannot see it)."""
    state = make_state(visibility=Visibility.BLIND)
    for player in ("P1", "P2"):
        state.knowledge[player] = Knowledge(stars=sorted(s.hex for s in state.map.stars))
    add_ship(state, "W1: TL0 PD=6 B=2 S=1", owner="P1", location="0505")
    add_ship(state, "W1: TL0 PD=4 B=2", owner="P2", location="1010")
    refresh_knowledge(Step(state))
    return state


def fleets(picture: Picture, kind: str) -> list[Marker]:
    return [m for m in picture.markers if "fleet" in m.classes and kind in m.classes]


def test_every_known_star_is_drawn_with_its_name_and_value() -> None:
    # Given a player's view of the block map
    view = player_view(blind_state(), "P1")
    # When the map picture is made
    picture = map_picture(view)
    # Then each star is a star marker at its hex's centre, labelled with name and value
    stars = {m.label: (m.x, m.y) for m in picture.markers if m.shape == "star"}
    assert stars == {f"{s.name} {s.value}": centre(s.hex) for s in block_map().stars}
    # And every hex of the map is a cell, and every warpline a line between its stars
    assert [c.id for c in picture.cells] == list(block_map().hexes)
    assert {(line.a, line.b) for line in picture.lines} == {
        (centre(w.a), centre(w.b)) for w in block_map().warplines
    }


def test_neighbouring_hexes_are_drawn_one_and_a_half_across_or_one_hex_down() -> None:
    # Given the hex 0505 and its neighbours (c+1, r) and (c+1, r+1)
    x, y = centre("0505")
    # Then (c+1, r) is the next screen column, half a hex lower, and (c+1, r+1) straight below
    assert centre("0605") == pytest.approx((x + 1.5, y + 3**0.5 / 2))
    assert centre("0606") == pytest.approx((x, y + 3**0.5))


def test_own_fleets_are_drawn_and_an_unseen_enemy_ship_is_not() -> None:
    # Given a blind game where P2's ship is nowhere P1 has a presence
    view = player_view(blind_state(), "P1")
    # When P1's map is drawn
    picture = map_picture(view)
    # Then P1's own ship is there, in P1's colour, and no enemy fleet at all
    (own,) = fleets(picture, "own")
    assert own.label == "W1"
    assert own.colour == OWN_COLOUR
    assert fleets(picture, "enemy") == []
    assert all("P2.W1" not in m.title for m in picture.markers)


def test_a_sighted_enemy_ship_is_drawn_where_and_when_last_seen() -> None:
    # Given P2's ship has come to Delta, where P1's ship is, and been seen there on turn 2
    state = blind_state()
    state.ships["P2.W1"].location = "0505"
    refresh_knowledge(Step(state))
    # When P1's map is drawn
    picture = map_picture(player_view(state, "P1"))
    # Then the enemy fleet is at Delta, labelled with its name and the turn it was seen
    (enemy,) = fleets(picture, "enemy")
    assert enemy.label == "W1 T2"
    assert abs(enemy.x - centre("0505")[0]) < 1 and abs(enemy.y - centre("0505")[1]) < 1
    # And P2's picture shows P1's ship likewise: each sees the other
    assert [m.label for m in fleets(map_picture(player_view(state, "P2")), "enemy")] == ["W1 T2"]


def test_own_moves_this_turn_are_arrows_and_unseen_enemy_moves_are_not() -> None:
    # Given P1 moves W1 from Delta two hexes, in a blind game
    state = blind_state()
    outcome = submit_turn(
        state,
        TurnOrders(player="P1", orders=(Move(ship="W1", steps=(HexStep(to="0605"), HexStep(to="0606"))),)),
    )
    moves = [e for e in outcome.events if isinstance(e, ShipMoved)]
    # When P1's and P2's maps are drawn with the turn's events
    mine = map_picture(player_view(outcome.state, "P1"), outcome.events)
    theirs = map_picture(player_view(outcome.state, "P2"), outcome.events)
    # Then P1 sees the move as an arrow through the hexes walked; P2, who saw nothing, does not
    assert moves
    assert [a.points for a in mine.arrows] == [tuple(centre(h) for h in ("0505", "0605", "0606"))]
    assert theirs.arrows == ()


def test_bases_are_drawn_at_their_stars_in_their_owners_colours() -> None:
    # Given the block map's home Bases (P1 at the top left)
    picture = map_picture(player_view(blind_state(), "P1"))
    # Then P1's three Bases are hollow squares in P1's colour at its home stars
    bases = [m for m in picture.markers if "base" in m.classes]
    own = sorted((m.x, m.y) for m in bases if m.colour == OWN_COLOUR)
    assert own == sorted(centre(h) for h in ("0101", "0103", "0301"))
    assert all(m.hollow and m.shape == "square" for m in bases)
