"""The classic WarpWar map as transcribed from the 2nd-edition rules' ASCII map."""

from __future__ import annotations

from collections import deque
from itertools import pairwise

import pytest

from engine.warpwar.classic_map import NOTES, classic_hexes, classic_map
from engine.warpwar.hexgrid import adjacent, coords, distance, hex_id
from engine.warpwar.starmap import Star, StarMap, Warpline

PRINTED_STARS: dict[str, tuple[str, int]] = {
    "0307": ("Mosul", 2),
    "0606": ("Ur", 4),
    "0804": ("Larsu", 2),
    "0611": ("Sippur", 1),
    "0710": ("Erech", 3),
    "0908": ("Calah", 1),
    "1207": ("Susa", 0),
    "0813": ("Byblos", 3),
    "1011": ("Adab", 0),
    "1310": ("Nippur", 1),
    "1014": ("Ubaid", 5),
    "1313": ("Khafa", 2),
    "1415": ("Mari", 1),
    "1712": ("Assur", 2),
    "1614": ("Lagash", 1),
    "1616": ("Elam", 5),
    "1814": ("Jarmo", 3),
    "1419": ("Sumarra", 2),
    "1817": ("Girsu", 1),
    "1719": ("Umma", 2),
    "1622": ("Isin", 1),
    "2118": ("Kish", 0),
    "2020": ("Akkad", 3),
    "1922": ("Sumer", 0),
    "2318": ("Eridu", 1),
    "2223": ("Babylon", 4),
    "2125": ("Nineveh", 2),
    "2622": ("Ugarit", 2),
}

PRINTED_WARPLINES: set[frozenset[str]] = {
    frozenset(pair)
    for pair in [
        ("Mosul", "Sippur"),
        ("Ur", "Erech"),
        ("Erech", "Adab"),
        ("Byblos", "Adab"),
        ("Adab", "Khafa"),
        ("Larsu", "Susa"),
        ("Calah", "Nippur"),
        ("Susa", "Nippur"),
        ("Nippur", "Assur"),
        ("Nippur", "Lagash"),
        ("Ubaid", "Mari"),
        ("Ubaid", "Sumarra"),
        ("Lagash", "Assur"),
        ("Lagash", "Elam"),
        ("Mari", "Umma"),
        ("Sumarra", "Umma"),
        ("Umma", "Girsu"),
        ("Umma", "Sumer"),
        ("Jarmo", "Kish"),
        ("Akkad", "Kish"),
        ("Kish", "Eridu"),
        ("Eridu", "Ugarit"),
        ("Isin", "Nineveh"),
        ("Sumer", "Babylon"),
    ]
}


def _hex_of(m: StarMap, name: str) -> str:
    return m.star_named[name.lower()].hex


def _lies_between(hex_: str, a: str, b: str) -> bool:
    return distance(a, hex_) + distance(hex_, b) == distance(a, b)


def _top_row(m: StarMap) -> list[str]:
    least = min(sum(coords(h)) for h in m.hexes)
    return [h for h in m.hexes if sum(coords(h)) == least]


def _bottom_row(m: StarMap) -> list[str]:
    most = max(sum(coords(h)) for h in m.hexes)
    return [h for h in m.hexes if sum(coords(h)) == most]


def _hexes_from(edge: list[str], hex_: str) -> int:
    return min(distance(hex_, e) for e in edge)


def _across(hex_: str) -> int:
    """Left-to-right position on the printed map (col - row)."""
    col, row = coords(hex_)
    return col - row


def test_w8_moves_from_1919_to_1717_in_two_hexes_through_space_hex_1818() -> None:
    # Given the classic map and W8's move (V: "W8 starts on hex 1919 and moves two hexes to 1717")
    m = classic_map()
    # When W8 steps hex to hex through 1818
    path = ["1919", "1818", "1717"]
    # Then every hex is on the map, each step is to an adjacent hex, and it costs 2 MP
    assert all(h in m.hex_set for h in path)
    assert adjacent("1919", "1818") and adjacent("1818", "1717")
    assert "1818" in m.adjacency["1919"] and "1717" in m.adjacency["1818"]
    assert distance("1919", "1717") == 2
    # And 1818 is a space hex "even though a warpline passes through 1818"
    assert not m.is_star("1818")
    assert any(_lies_between("1818", line.a, line.b) for line in m.warplines)
    assert not m.is_star("1919") and not m.is_star("1717")


def test_w6_example_umma_warpline_to_girsu_then_three_hexes_to_kish_costs_five_mp() -> None:
    # Given W6 on space hex 1720 (V, "WARPSHIP MOVEMENT EXAMPLE")
    m = classic_map()
    umma, girsu, kish = (_hex_of(m, n) for n in ("Umma", "Girsu", "Kish"))
    assert (umma, girsu, kish) == ("1719", "1817", "2118")
    assert "1720" in m.hex_set and not m.is_star("1720")
    # When it moves onto Umma (1 MP), along the warpline to Girsu (1 MP), then 3 hexes to Kish
    onto_umma = distance("1720", umma)
    along_warpline = 1 if girsu in m.warpline_ends[umma] else None
    to_kish = distance(girsu, kish)
    # Then each leg is as the example says and the move expends 5 movement points
    assert onto_umma == 1
    assert along_warpline == 1
    assert to_kish == 3
    assert onto_umma + along_warpline + to_kish == 5
    # And the hexes between Girsu and Kish can be space hexes on the map ("3 space hexes")
    between = [h for h in m.hexes if _lies_between(h, girsu, kish) and h not in (girsu, kish)]
    assert between and not any(m.is_star(h) for h in between)


def test_stars_are_never_adjacent() -> None:
    # Given the classic map (VII: "Stars are never adjacent.")
    m = classic_map()
    # When every pair of stars is compared
    close = [(a.name, b.name) for a in m.stars for b in m.stars if a.hex < b.hex and adjacent(a.hex, b.hex)]
    # Then no two are adjacent
    assert close == []


def test_no_star_has_more_than_four_warplines() -> None:
    # Given the classic map (VII: "No star will ever have more than 4 warplines.")
    m = classic_map()
    # When warplines are counted per star
    most = max(len(ends) for ends in m.warpline_ends.values())
    # Then none has more than 4 (Nippur and Umma have exactly 4)
    assert most <= 4
    assert {m.star_at[h].name for h, ends in m.warpline_ends.items() if len(ends) == 4} == {"Nippur", "Umma"}


def test_the_map_has_the_28_printed_stars_with_their_values() -> None:
    # Given the classic map
    m = classic_map()
    # When its stars are listed
    found = {s.hex: (s.name, s.value) for s in m.stars}
    # Then they are exactly the printed ones, each name once
    assert len(m.stars) == 28
    assert found == PRINTED_STARS
    assert len(m.star_named) == 28


def test_every_warpline_joins_two_distinct_stars_and_all_printed_warplines_are_there() -> None:
    # Given the classic map ("A warpline never ends in a space hex")
    m = classic_map()
    # When each warpline's ends are looked up
    pairs = [frozenset({m.star_at[line.a].name, m.star_at[line.b].name}) for line in m.warplines]
    # Then both ends are stars, distinct, no warpline is listed twice, and the set is as printed
    assert all(m.is_star(line.a) and m.is_star(line.b) and line.a != line.b for line in m.warplines)
    assert len(pairs) == len(set(pairs)) == 24
    assert set(pairs) == PRINTED_WARPLINES
    # And every printed star has at least one warpline
    assert all(m.warpline_ends[s.hex] for s in m.stars)


def test_each_end_of_the_map_has_three_stars_nearest_its_edge() -> None:
    # Given the classic map, top end first (II: "The three stars at a player's end of the map")
    m = classic_map()
    top, bottom = m.homes
    for home, edge in ((top, _top_row(m)), (bottom, _bottom_row(m))):
        # When stars are ranked by hexes from that edge
        inside = {_hexes_from(edge, h) for h in home.stars}
        outside = {_hexes_from(edge, s.hex) for s in m.stars if s.hex not in home.stars}
        # Then the end's three stars are all nearer the edge than any other star
        assert len(set(home.stars)) == 3
        assert max(inside) < min(outside)
    assert {m.star_at[h].name for h in top.stars} == {"Ur", "Mosul", "Larsu"}
    assert {m.star_at[h].name for h in bottom.stars} == {"Babylon", "Nineveh", "Ugarit"}


def test_the_basic_base_is_the_middle_star_of_each_end() -> None:
    # Given the classic map (Basic scenario: one Base "in the middle of his/her end of the map")
    m = classic_map()
    for home in m.homes:
        # When the end's stars are placed left to right across the map
        left, centre, right = sorted(home.stars, key=_across)
        # Then the middle one is listed first, and the others follow left to right
        assert home.middle == centre
        assert home.stars == (centre, left, right)
    assert [m.star_at[h.middle].name for h in m.homes] == ["Ur", "Babylon"]


def test_printing_errors_in_the_bottom_label_line_are_corrected() -> None:
    # Given the bottom full label line, printed "2128 2227 2526 2425 2424 2623 2722 2821"
    m = classic_map()
    corrected = ["2128", "2227", "2326", "2425", "2524", "2623", "2722", "2821"]
    # When the map's hexes are looked up
    # Then the misprinted labels are read as 2326 and 2524, and "2526" is not a hex
    assert all(h in m.hex_set for h in corrected)
    assert "2526" not in m.hex_set
    assert "2424" in m.hex_set  # the genuine 2424, one label line higher
    assert all(coords(b) == (coords(a)[0] + 1, coords(a)[1] - 1) for a, b in pairwise(corrected))
    # And the notes record both misprints
    assert any("'2526'" in n and "2326" in n for n in NOTES)
    assert any("'2424'" in n and "2524" in n for n in NOTES)
    assert m.notes == NOTES


def test_the_grid_is_every_wholly_drawn_hex() -> None:
    # Given the drawing: 43 label lines, alternately 7 and 8 hexes, top line 0107..0701
    m = classic_map()
    drawn = set()
    for line in range(43):
        total = 8 + line  # col + row is constant along a printed label line
        for across in range(-7, 8):  # col - row, left to right
            if (total + across) % 2 == 0:
                drawn.add(hex_id((total + across) // 2, (total - across) // 2))
    # When the map's hexes are compared with it
    # Then they are exactly the drawn hexes, sorted, without the unlabelled edge half-hexes
    assert len(drawn) == 322
    assert set(m.hexes) == drawn
    assert m.hexes == classic_hexes() == tuple(sorted(drawn))
    assert {"0107", "0701", "0108", "0801", "2128", "2821", "2228", "2822"} <= m.hex_set
    assert not {"0106", "0007", "2328", "2922"} & m.hex_set


def test_the_map_is_connected_by_hex_moves() -> None:
    # Given the classic map
    m = classic_map()
    # When every hex reachable from 0107 by single hex moves is found
    seen = {"0107"}
    todo = deque(seen)
    while todo:
        for n in m.adjacency[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    # Then every hex is reached
    assert seen == m.hex_set


def test_the_star_map_round_trips_through_json() -> None:
    # Given the classic map, with its cached look-ups already used
    m = classic_map()
    assert m.warpline_ends and m.adjacency and m.star_at
    # When it is written to JSON and read back
    back = StarMap.model_validate_json(m.model_dump_json())
    # Then the copy is equal
    assert back == m
    assert back.homes == m.homes and back.notes == m.notes


def test_classic_map_is_built_once() -> None:
    assert classic_map() is classic_map()
    assert classic_map().name == "Classic"


@pytest.mark.parametrize(
    ("stars", "warplines"),
    [
        ((("0101", "A"), ("0101", "B")), ()),
        ((("0101", "A"), ("0103", "a")), ()),
        ((("0101", "A"), ("0103", "B")), (("0101", "0101"),)),
        ((("0101", "A"), ("0103", "B")), (("0101", "0103"), ("0103", "0101"))),
    ],
)
def test_a_map_with_a_duplicate_star_name_or_warpline_is_rejected(
    stars: tuple[tuple[str, str], ...], warplines: tuple[tuple[str, str], ...]
) -> None:
    with pytest.raises(ValueError):
        StarMap(
            name="Bad",
            hexes=("0101", "0102", "0103"),
            stars=tuple(Star(hex=h, name=n, value=1) for h, n in stars),
            warplines=tuple(Warpline(a=a, b=b) for a, b in warplines),
            homes=(),
        )
