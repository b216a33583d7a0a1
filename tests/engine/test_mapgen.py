"""New star maps per rules VII, "Creating new maps"."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from collections import Counter, deque
from functools import lru_cache
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.warpwar.hexgrid import coords, distance, neighbours
from engine.warpwar.mapgen import (
    HOME_FLOOR,
    MAX_STAR_VALUE,
    PRINCIPAL_FLOOR,
    MapGenerationError,
    MapSpec,
    Odds,
    board_hexes,
    economic_tolerance,
    generate_map,
    home_radius,
    home_spacing,
    home_values,
)
from engine.warpwar.starmap import StarMap

Placement = Literal["even", "periphery"]

seeds = st.integers(min_value=0, max_value=2**64 - 1)
player_counts = st.integers(min_value=2, max_value=8)
placements: st.SearchStrategy[Placement] = st.sampled_from(["even", "periphery"])
few = settings(max_examples=12, deadline=None)


@lru_cache(maxsize=256)
def make(players: int, placement: Placement, seed: int, hexes: int | None = None) -> StarMap:
    return generate_map(MapSpec(players=players, placement=placement, hexes=hexes), seed)


def nearest_distance(star_map: StarMap, hex_: str, k: int) -> int:
    """The distance of the k-th nearest other star (ties counted, so any order of them fits)."""
    return sorted(distance(hex_, s.hex) for s in star_map.stars if s.hex != hex_)[k - 1]


def edge_depths(star_map: StarMap) -> dict[str, int]:
    """Hex steps from each hex to the edge of the board, found independently of mapgen."""
    depth = {h: 0 for h in star_map.hexes if len(star_map.adjacency[h]) < 6}
    queue = deque(depth)
    while queue:
        h = queue.popleft()
        for n in star_map.adjacency[h]:
            if n not in depth:
                depth[n] = depth[h] + 1
                queue.append(n)
    return depth


# --- Determinism --------------------------------------------------------------------------------


def test_the_same_seed_gives_the_identical_map() -> None:
    # Given one spec and seed
    # When the map is generated twice
    # Then the two maps serialise to the same JSON
    spec = MapSpec(players=4, placement="periphery", hexes=1200, name="Twice")
    assert generate_map(spec, 99).model_dump_json() == generate_map(spec, 99).model_dump_json()


def test_different_seeds_give_different_maps() -> None:
    # Given one spec and two seeds
    # When both maps are generated
    # Then their stars differ
    spec = MapSpec(players=2)
    assert generate_map(spec, 1).stars != generate_map(spec, 2).stars


def test_maps_do_not_depend_on_the_process_hash_seed() -> None:
    # Given two Python processes with different string-hash randomisation
    # When each generates the same maps
    # Then the results are byte for byte the same (no set or dict order leaks into the map)
    code = (
        "import hashlib\n"
        "from engine.warpwar.mapgen import MapSpec, generate_map\n"
        "maps = [generate_map(MapSpec(players=p, placement=pl), 3)\n"
        "        for p in (2, 7) for pl in ('even', 'periphery')]\n"
        "print(hashlib.sha256(''.join(m.model_dump_json() for m in maps).encode()).hexdigest())\n"
    )
    root = Path(__file__).resolve().parents[2]
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2")
    }
    maps = [make(p, pl, 3) for p in (2, 7) for pl in ("even", "periphery")]
    here = hashlib.sha256("".join(m.model_dump_json() for m in maps).encode()).hexdigest()
    assert digests == {here + "\n"}


# --- The sheet of hex paper ---------------------------------------------------------------------


def test_a_new_map_has_at_least_400_hexes() -> None:
    # Given the rule "a large sheet of hex paper with at least 400 hexes"
    # When specs ask for too few hexes, or too few for the number of players
    # Then they are refused; a default spec gets at least 400
    with pytest.raises(ValidationError):
        MapSpec(players=2, hexes=399)
    with pytest.raises(ValidationError):
        MapSpec(players=2, width=19, height=20)
    with pytest.raises(ValidationError):
        MapSpec(players=8, hexes=400)
    assert MapSpec(players=2).hex_count >= 400
    assert len(generate_map(MapSpec(players=2), 0).hexes) >= 400


def test_specs_refuse_nonsense() -> None:
    # Given player counts outside 2..8, half a board size, or impossible odds
    # When a spec is built
    # Then it is refused
    for bad in (
        {"players": 1},
        {"players": 9},
        {"players": 2, "width": 30},
        {"players": 2, "hexes": 500, "width": 30, "height": 20},
        {"players": 2, "star_chance": Odds(numerator=0, denominator=12)},
    ):
        with pytest.raises(ValidationError):
            MapSpec(**bad)
    with pytest.raises(ValidationError):
        Odds(numerator=5, denominator=4)


def test_the_board_is_a_rectangle_when_drawn() -> None:
    # Given a 20-column, 25-hex-high board
    # When its hexes are listed in rolling order (row by row, left to right)
    # Then rows run (col+1, row-1) across, columns (col+1, row+1) down, odd columns half a hex down
    spec = MapSpec(players=2, width=20, height=25)
    order = [coords(h) for h in board_hexes(spec)]
    assert len(order) == len(set(order)) == 500
    for k in range(25):
        for x in range(20):
            c, r = order[k * 20 + x]
            if x + 2 < 20:
                assert order[k * 20 + x + 2] == (c + 1, r - 1)
            if k + 1 < 25:
                assert order[(k + 1) * 20 + x] == (c + 1, r + 1)
            if x % 2 == 0 and x + 1 < 20:
                assert order[k * 20 + x + 1] == (c + 1, r)
    star_map = generate_map(spec, 4)
    assert star_map.hexes == tuple(sorted(board_hexes(spec)))


def test_a_hex_target_gives_at_least_that_many_hexes() -> None:
    # Given hex targets from 400 to 10,000
    # When the board is sized
    # Then it has at least the target, and not much more
    for target in (400, 777, 2000, 10_000):
        width, height = MapSpec(players=2, hexes=target).dimensions()
        assert target <= width * height < target + height


# --- Stars --------------------------------------------------------------------------------------


@few
@given(seed=seeds, players=player_counts, placement=placements)
def test_stars_are_never_adjacent(seed: int, players: int, placement: Placement) -> None:
    # Given any seed, 2-8 players and either placement
    # When a map is generated
    # Then no star is next to another ("Stars are never adjacent")
    star_map = make(players, placement, seed)
    for star in star_map.stars:
        assert not any(star_map.is_star(n) for n in neighbours(star.hex))


def test_each_hex_rolled_for_has_a_1_in_12_chance_of_a_star() -> None:
    # Given big maps, and the rule "do not roll for a hex adjacent to an existing star"
    # When we count the hexes that were rolled for (no star next to them earlier in the order)
    # Then about 1 in 12 of them got a star
    stars = rolled = 0
    for seed in (1, 2):
        spec = MapSpec(players=2, hexes=10_000)
        star_map = generate_map(spec, seed)
        seen: set[str] = set()
        for hex_ in board_hexes(spec):
            if not any(n in seen and star_map.is_star(n) for n in neighbours(hex_)):
                rolled += 1
                stars += star_map.is_star(hex_)
            seen.add(hex_)
        assert len(seen) == len(star_map.hexes)
    assert 0.9 / 12 < stars / rolled < 1.1 / 12


def test_star_values_are_2d6_over_3_with_higher_values_rarer() -> None:
    # Given "Rolling 2d6 and dividing the result by 3" (rounded down: 0-4) and the 0-5 range
    # When the values of many stars are counted
    # Then all lie in 0-5, and above the commonest value (2) each is rarer than the one below
    counts = Counter(s.value for seed in range(4) for s in make(3, "even", seed, 10_000).stars)
    total = sum(counts.values())
    assert set(counts) <= set(range(MAX_STAR_VALUE + 1))
    assert counts[2] > counts[3] > counts[4] >= counts[5]
    assert abs(counts[2] / total - 16 / 36) < 0.05
    assert counts[4] / total < 0.06


def test_star_names_are_unique_and_pronounceable() -> None:
    # Given a large map
    # When its star names are read
    # Then they are distinct (ignoring case, as orders are typed), capitalised and all letters
    names = [s.name for s in make(2, "even", 5, 10_000).stars]
    assert len({n.lower() for n in names}) == len(names)
    assert all(re.fullmatch(r"[A-Z][a-z]{2,15}", n) for n in names)


# --- Warplines ----------------------------------------------------------------------------------


@few
@given(seed=seeds, players=player_counts, placement=placements)
def test_no_star_has_more_than_4_warplines(seed: int, players: int, placement: Placement) -> None:
    # Given any map
    # When warplines are counted per star
    # Then none has more than 4 ("No star will ever have more than 4 warplines")
    star_map = make(players, placement, seed)
    assert all(len(ends) <= 4 for ends in star_map.warpline_ends.values())


@few
@given(seed=seeds, players=player_counts, placement=placements)
def test_each_warpline_joins_a_star_to_one_of_its_4_nearest_stars(
    seed: int, players: int, placement: Placement
) -> None:
    # Given "a warpline to each of the 4 nearest stars"
    # When each warpline is checked
    # Then it joins two different stars, once, and one end is among the other's 4 nearest
    star_map = make(players, placement, seed)
    pairs = [(line.a, line.b) for line in star_map.warplines]
    assert len(set(pairs)) == len(pairs)
    for a, b in pairs:
        assert a != b
        assert star_map.is_star(a)
        assert star_map.is_star(b)
        assert distance(a, b) <= max(nearest_distance(star_map, a, 4), nearest_distance(star_map, b, 4))


def test_certain_warplines_still_stop_at_the_cap() -> None:
    # Given warplines on every roll and a cap of 2
    # When the map is generated
    # Then every star has at most 2 lines, and most have some
    spec = MapSpec(players=2, warpline_chance=Odds(numerator=1, denominator=1), max_warplines=2)
    star_map = generate_map(spec, 8)
    ends = star_map.warpline_ends
    assert all(len(e) <= 2 for e in ends.values())
    assert sum(bool(e) for e in ends.values()) > len(ends) * 0.8


def test_about_1_in_4_of_the_nearest_pairs_get_a_warpline() -> None:
    # Given big maps
    # When warplines per star are averaged
    # Then each star has around 2 (4 nearest x 1/4, rolled from both ends, less the cap)
    star_map = make(2, "even", 3, 10_000)
    mean = 2 * len(star_map.warplines) / len(star_map.stars)
    assert 1.3 < mean < 2.5


# --- Homes --------------------------------------------------------------------------------------


@few
@given(seed=seeds, players=player_counts, placement=placements)
def test_each_player_gets_three_home_stars_sharing_none(
    seed: int, players: int, placement: Placement
) -> None:
    # Given "The three stars at a player's end of the map are his/her starting Base stars"
    # When homes are assigned
    # Then there is one home per player, three distinct stars each, no star in two homes, and
    # the two stars after the principal are its nearest stars
    star_map = make(players, placement, seed)
    assert len(star_map.homes) == players
    home_stars = [h for home in star_map.homes for h in home.stars]
    assert len(set(home_stars)) == 3 * players
    for home in star_map.homes:
        principal, *others = home.stars
        assert sorted(distance(principal, o) for o in others) == [
            nearest_distance(star_map, principal, 1),
            nearest_distance(star_map, principal, 2),
        ]


@few
@given(seed=seeds, players=player_counts, placement=placements)
def test_home_worlds_are_spread_apart(seed: int, players: int, placement: Placement) -> None:
    # Given "spread them more or less evenly throughout the map"
    # When the distances between principal home stars are measured
    # Then every pair is at least the documented home spacing apart
    star_map = make(players, placement, seed)
    spacing = home_spacing(MapSpec(players=players, placement=placement))
    principals = [home.middle for home in star_map.homes]
    assert all(distance(a, b) >= spacing for i, a in enumerate(principals) for b in principals[i + 1 :])


@few
@given(seed=seeds, players=player_counts)
def test_periphery_homes_lie_nearer_the_edge_than_the_centre(seed: int, players: int) -> None:
    # Given "distribute them around the periphery of the map with none in the center"
    # When each principal home star's distance from the edge is measured
    # Then it is less than half the depth of the board's centre
    star_map = make(players, "periphery", seed)
    depth = edge_depths(star_map)
    deepest = max(depth.values())
    assert all(2 * depth[home.middle] < deepest for home in star_map.homes)


def test_even_homes_are_further_from_the_edge_than_periphery_homes() -> None:
    # Given the same maps with both placements
    # When the principal stars' distances from the edge are averaged
    # Then the even placement sits deeper into the map
    def mean_depth(placement: Placement) -> float:
        maps = [make(4, placement, seed, 2000) for seed in range(6)]
        depths = [edge_depths(m)[home.middle] for m in maps for home in m.homes]
        return sum(depths) / len(depths)

    assert mean_depth("even") > mean_depth("periphery") + 1


@few
@given(seed=seeds, players=player_counts, placement=placements)
def test_every_home_is_reachable_and_has_a_warpline(seed: int, players: int, placement: Placement) -> None:
    # Given "change them to produce a playable map"
    # When the board and homes are checked
    # Then every hex connects to every home moving hex to hex, and each principal has a warpline
    star_map = make(players, placement, seed)
    start = star_map.homes[0].middle
    seen = {start}
    queue = deque([start])
    while queue:
        for n in star_map.adjacency[queue.popleft()]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    assert seen == star_map.hex_set
    assert all(star_map.warpline_ends[home.middle] for home in star_map.homes)


# --- Fairness -----------------------------------------------------------------------------------


@few
@given(seed=seeds, players=player_counts, placement=placements)
def test_home_economies_are_fair_within_the_tolerance(seed: int, players: int, placement: Placement) -> None:
    # Given "Overall the map should be as fair as possible to all starting positions"
    # When the BP of each home's stars and every star near its principal are summed
    # Then richest and poorest differ by at most 2 BP or a tenth of the average, and home stars
    # have reasonable values
    star_map = make(players, placement, seed)
    radius = home_radius(MapSpec(players=players, placement=placement))
    economies = []
    for home in star_map.homes:
        counted = {s.hex for s in star_map.stars if distance(s.hex, home.middle) <= radius} | set(home.stars)
        economies.append(sum(star_map.star_at[h].value for h in counted))
    assert economies == home_values(star_map, radius)
    assert max(economies) - min(economies) <= max(2, sum(economies) // (10 * players))
    assert economic_tolerance(economies) == max(2, sum(economies) // (10 * players))
    for home in star_map.homes:
        principal, *others = (star_map.star_at[h].value for h in home.stars)
        assert PRINCIPAL_FLOOR <= principal <= MAX_STAR_VALUE
        assert all(HOME_FLOOR <= v <= MAX_STAR_VALUE for v in others)


def test_repairs_are_recorded_in_the_notes() -> None:
    # Given maps whose rolls needed repairs
    # When their notes are read
    # Then they start with the generation summary, and each value note matches the final map
    kinds: Counter[str] = Counter()
    for seed in range(10):
        star_map = make(6, "even", seed)
        assert star_map.notes[0].startswith(f"Generated from seed {seed}:")
        for note in star_map.notes[1:]:
            if match := re.fullmatch(r"(\w+) \((\d+)\) set to (\d) BP \(rolled (\d)\): (.*)\.", note):
                name, hex_, value, rolled, why = match.groups()
                star = star_map.star_at[hex_]
                assert (star.name, star.value) == (name, int(value))
                assert value != rolled
                kinds["floor" if "worth at least" in why else "fair"] += 1
            elif note.startswith("Added a warpline"):
                kinds["warpline"] += 1
            else:
                assert note.startswith("Re-rolled the whole map")
    assert kinds["floor"] and kinds["fair"] and kinds["warpline"]


def test_rolls_that_cannot_be_made_playable_are_refused_clearly() -> None:
    # Given odds so low that 8 players cannot get three stars each
    # When the map is generated
    # Then every re-roll fails and MapGenerationError says why
    spec = MapSpec(players=8, hexes=800, star_chance=Odds(numerator=1, denominator=200))
    with pytest.raises(MapGenerationError, match="stars were rolled"):
        generate_map(spec, 1)


# --- Large maps ---------------------------------------------------------------------------------


@pytest.mark.parametrize("placement", ["even", "periphery"])
def test_a_2000_hex_map_for_8_players_generates(placement: Placement) -> None:
    # Given "a larger galaxy in which to fight": 2,000 hexes and 8 players
    # When the map is generated
    # Then it has the hexes, plenty of stars and 8 homes
    star_map = make(8, placement, 2024, 2000)
    assert len(star_map.hexes) >= 2000
    assert len(star_map.stars) > 80
    assert len(star_map.homes) == 8
