"""Seeded generation of new star maps (rules VII, "Creating new maps").

The rule: "Get a large sheet of hex paper with at least 400 hexes. Each hex has a 1 in 12
chance of containing a star [...] However, do not roll for a hex adjacent to an existing star.
Stars are never adjacent. Give each star a 1 in 4 chance of having a warpline to each of the 4
nearest stars. No star will ever have more than 4 warplines. Players' home worlds should be
assigned in one of two ways. Either spread them more or less evenly throughout the map, or
distribute them around the periphery of the map with none in the center. Give each star on the
map a basic BP value. [...] Rolling 2d6 and dividing the result by 3 is a quick method of
assigning BP values. Overall the map should be as fair as possible to all starting positions.
If the rolls give bad results, change them to produce a playable map."

:func:`generate_map` follows it step by step, every roll drawn from :class:`engine.core.rng.Rng`
so that a ``(spec, seed)`` pair always gives the same map:

1. **The sheet.** A board that looks rectangular when drawn: ``width`` screen columns of
   ``height`` hexes each (see :func:`board_hexes`), rolled over row by row, left to right.
2. **Stars.** Each hex not next to an already placed star gets a star with ``star_chance``
   (1 in 12). Its value is 2d6 divided by 3, rounded down (0-4 BP).
3. **Warplines.** Star by star in the same order, each of its 4 nearest stars (ties: the one
   reached first in that order) gets a line with ``warpline_chance`` (1 in 4), unless the pair
   is already joined or either end already has ``max_warplines`` (4).
4. **Homes.** One group of three stars per player: a principal star (the Basic scenario's
   Base "in the middle of his/her end of the map") and its two nearest stars. Principals are
   spread by a greedy packing ("even") or along the border ("periphery").
5. **Making it playable.** Home principals must be :func:`home_spacing` hexes apart, or the
   whole map is re-rolled from a derived seed. A principal that rolled no warpline is given one
   to its nearest star with room. Home stars are raised to a floor value, then star values
   around the homes are nudged until the BP within :func:`home_radius` of every home are within
   :func:`economic_tolerance`. Every change is written to :attr:`StarMap.notes`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from math import isqrt
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.rng import Rng
from engine.warpwar.hexgrid import NEIGHBOUR_OFFSETS, distance, hex_id
from engine.warpwar.starmap import HomeStars, Star, StarMap, Warpline

MIN_HEXES = 400
"""The rule's "large sheet of hex paper with at least 400 hexes"."""

MIN_HEXES_PER_PLAYER = 100
"""Each player needs room for three home stars and some stars to fight over; with stars on
about one hex in fifteen, 100 hexes per player leaves roughly three neutral stars per player."""

DEFAULT_HEXES_PER_PLAYER = 200
MAX_HEXES = 40_000
MAX_SIDE = 300
"""Hex numbers have at most three digits per axis; a 300 by 300 board stays below 1000."""

NEAREST_STARS = 4
"""The rule's "warpline to each of the 4 nearest stars"."""

MAX_STAR_VALUE = 5
"""Top of the rule's "good range for BP values is 0-5"; fairness repairs never go above it."""

PRINCIPAL_FLOOR = 3
"""A player's principal home star (the Basic Base) is worth at least this many BP."""

HOME_FLOOR = 1
"""The other two home stars are worth at least 1 BP, so no starting Base is worthless."""

MAX_ATTEMPTS = 25
"""Whole-map re-rolls allowed before giving up with :class:`MapGenerationError`."""

_SPREAD_ROUNDS = 8
_FAIRNESS_STEPS = 2_000
_BUCKET = 8
_FAR = 1 << 30

Coord = tuple[int, int]


class MapGenerationError(ValueError):
    """No playable map came out of :data:`MAX_ATTEMPTS` re-rolls of this spec and seed."""


class Odds(BaseModel):
    """A chance of ``numerator`` in ``denominator``, as the rules state odds ("1 in 12")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    numerator: int = Field(ge=0)
    denominator: int = Field(ge=1)

    @model_validator(mode="after")
    def _at_most_certain(self) -> Self:
        if self.numerator > self.denominator:
            raise ValueError(f"odds {self.numerator} in {self.denominator} exceed certainty")
        return self


class MapSpec(BaseModel):
    """What kind of map to generate; together with a seed it fixes the map exactly.

    Give either ``hexes`` (a target; the board gets at least that many) or both ``width`` and
    ``height`` (screen columns, and hexes per column). With neither, the board has
    ``max(400, 200 * players)`` hexes.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(default="New map", min_length=1)
    players: int = Field(ge=2, le=8)
    hexes: int | None = Field(default=None, ge=MIN_HEXES, le=MAX_HEXES)
    width: int | None = Field(default=None, ge=8, le=MAX_SIDE)
    height: int | None = Field(default=None, ge=8, le=MAX_SIDE)
    placement: Literal["even", "periphery"] = "even"
    star_chance: Odds = Odds(numerator=1, denominator=12)
    warpline_chance: Odds = Odds(numerator=1, denominator=4)
    max_warplines: int = Field(default=4, ge=1, le=6)

    @model_validator(mode="after")
    def _playable_size(self) -> Self:
        if (self.width is None) != (self.height is None):
            raise ValueError("give both width and height, or neither")
        if self.width is not None and self.hexes is not None:
            raise ValueError("give either hexes or width and height, not both")
        if self.star_chance.numerator < 1:
            raise ValueError("star_chance must be above zero")
        width, height = self.dimensions()
        total = width * height
        if total < MIN_HEXES:
            raise ValueError(f"the rules ask for at least {MIN_HEXES} hexes, not {total}")
        if self.width is not None and total > MAX_HEXES:
            raise ValueError(f"at most {MAX_HEXES} hexes, not {total}")
        if total < MIN_HEXES_PER_PLAYER * self.players:
            raise ValueError(
                f"{self.players} players need at least {MIN_HEXES_PER_PLAYER * self.players} hexes"
            )
        return self

    def dimensions(self) -> tuple[int, int]:
        """``(width, height)``: screen columns, and hexes in each column.

        From a hex target the height is about two thirds of the width in hexes, which draws
        a little wider than tall, like the printed map.
        """
        if self.width is not None and self.height is not None:
            return self.width, self.height
        target = self.hexes or max(MIN_HEXES, DEFAULT_HEXES_PER_PLAYER * self.players)
        height = min(MAX_SIDE, max(8, isqrt(target * 2 // 3)))
        width = -(-target // height)
        return width, height

    @property
    def hex_count(self) -> int:
        width, height = self.dimensions()
        return width * height


# --- The sheet of hex paper -------------------------------------------------------------------


@dataclass(frozen=True)
class _Board:
    cells: list[Coord]
    """Axial ``(col, row)`` of every hex, in the order the rule's dice visit them."""
    neighbours: list[list[int]]
    depth: list[int]
    """Hex steps to the nearest hex on the edge of the board (0 on the edge itself)."""


def _board_cells(width: int, height: int) -> list[Coord]:
    # Drawn with this grid (flat-topped hexes), the hex (c, r) sits in screen column c - r at
    # height (c + r) / 2. A screen rectangle is therefore columns x = 0..width-1, each holding
    # `height` hexes whose c + r runs 2k + (x mod 2); odd columns sit half a hex lower. Moving
    # (c+1, r-1) goes two columns across and (c+1, r+1) one hex down, as on the printed map.
    row0 = 1 + (width - 1) // 2
    cells: list[Coord] = []
    for k in range(height):
        for x in range(width):
            y = 2 * k + (x & 1)
            cells.append((1 + (x + y) // 2, row0 + (y - x) // 2))
    return cells


def _build_board(width: int, height: int) -> _Board:
    cells = _board_cells(width, height)
    index = {cell: i for i, cell in enumerate(cells)}
    nbrs = [
        [j for dc, dr in NEIGHBOUR_OFFSETS if (j := index.get((c + dc, r + dr), -1)) >= 0] for c, r in cells
    ]
    depth = [-1] * len(cells)
    queue: deque[int] = deque()
    for i, ns in enumerate(nbrs):
        if len(ns) < len(NEIGHBOUR_OFFSETS):
            depth[i] = 0
            queue.append(i)
    while queue:
        i = queue.popleft()
        for j in nbrs[i]:
            if depth[j] < 0:
                depth[j] = depth[i] + 1
                queue.append(j)
    return _Board(cells=cells, neighbours=nbrs, depth=depth)


def _reachable(board: _Board, start: int) -> list[bool]:
    """Hexes a warp ship can reach from ``start`` moving hex to hex (rules V)."""
    seen = [False] * len(board.cells)
    seen[start] = True
    queue = deque([start])
    while queue:
        i = queue.popleft()
        for j in board.neighbours[i]:
            if not seen[j]:
                seen[j] = True
                queue.append(j)
    return seen


def board_hexes(spec: MapSpec) -> tuple[str, ...]:
    """The hexes of the board ``spec`` describes, in the order stars are rolled for.

    The order is reading order on the drawn map: top row first, each row left to right
    (zig-zagging half a hex down on odd screen columns).
    """
    return tuple(hex_id(c, r) for c, r in _board_cells(*spec.dimensions()))


def home_spacing(spec: MapSpec) -> int:
    """Fewest hexes allowed between two players' principal home stars.

    Half the side of each player's share of the board: ``isqrt(hexes / players) // 2``, at
    least 3. An even spread manages about twice that, so only freak star layouts miss it.
    """
    return max(3, isqrt(spec.hex_count // spec.players) // 2)


def home_radius(spec: MapSpec) -> int:
    """How far around a principal home star its economy is counted: half the home spacing,
    between 3 and 6 hexes, i.e. the stars a player can reach in the first turn or two."""
    return min(6, max(3, home_spacing(spec) // 2))


def economic_tolerance(economies: Sequence[int]) -> int:
    """Largest allowed gap between the richest and poorest home economy, in BP.

    2 BP, or a tenth of the average home economy if that is larger.
    """
    if not economies:
        return 2
    return max(2, sum(economies) // (10 * len(economies)))


def home_regions(star_map: StarMap, radius: int) -> list[list[str]]:
    """For each home, the stars counted in its economy: its own three stars and every star
    within ``radius`` hexes of its principal star, sorted by hex."""
    regions: list[list[str]] = []
    for home in star_map.homes:
        near = {s.hex for s in star_map.stars if distance(s.hex, home.middle) <= radius}
        regions.append(sorted(near.union(home.stars)))
    return regions


def home_values(star_map: StarMap, radius: int) -> list[int]:
    """The BP of each home's economy (see :func:`home_regions`)."""
    return [sum(star_map.star_at[h].value for h in region) for region in home_regions(star_map, radius)]


# --- Nearest stars -----------------------------------------------------------------------------


def _dist(a: Coord, b: Coord) -> int:
    dc, dr = b[0] - a[0], b[1] - a[1]
    return max(abs(dc), abs(dr), abs(dc - dr))


class _StarIndex:
    """Stars bucketed by ``_BUCKET``-square blocks of axial coordinates.

    A star ``m`` blocks away differs by more than ``(m - 1) * _BUCKET`` in a coordinate, hence
    is at least that far in hex steps; nearest-star searches stop one ring of blocks past the
    k-th best distance instead of scanning every star.
    """

    def __init__(self, coords: Sequence[Coord]) -> None:
        self.coords = list(coords)
        self.buckets: dict[Coord, list[int]] = {}
        for i, (c, r) in enumerate(self.coords):
            self.buckets.setdefault((c // _BUCKET, r // _BUCKET), []).append(i)
        keys = list(self.buckets) or [(0, 0)]
        xs = [k[0] for k in keys]
        ys = [k[1] for k in keys]
        self.max_ring = max(max(xs) - min(xs), max(ys) - min(ys))

    def _ring(self, centre: Coord, ring: int) -> list[int]:
        bx, by = centre
        found: list[int] = []
        for dx in range(-ring, ring + 1):
            step = 1 if abs(dx) == ring else 2 * ring
            for dy in range(-ring, ring + 1, max(1, step)):
                found.extend(self.buckets.get((bx + dx, by + dy), ()))
        return found

    def nearest(self, i: int, k: int) -> list[int]:
        """The ``k`` stars nearest star ``i``, nearest first, ties to the lower index."""
        here = self.coords[i]
        centre = (here[0] // _BUCKET, here[1] // _BUCKET)
        found: list[tuple[int, int]] = []
        for ring in range(self.max_ring + 1):
            found.extend((_dist(here, self.coords[j]), j) for j in self._ring(centre, ring) if j != i)
            if len(found) >= k:
                found.sort()
                if found[k - 1][0] <= ring * _BUCKET:
                    break
        found.sort()
        return [j for _, j in found[:k]]

    def within(self, here: Coord, radius: int) -> list[int]:
        """Stars at most ``radius`` hexes from ``here``, in index order."""
        found: list[int] = []
        for bx in range((here[0] - radius) // _BUCKET, (here[0] + radius) // _BUCKET + 1):
            for by in range((here[1] - radius) // _BUCKET, (here[1] + radius) // _BUCKET + 1):
                found.extend(
                    j for j in self.buckets.get((bx, by), ()) if _dist(here, self.coords[j]) <= radius
                )
        return sorted(found)


# --- Names -------------------------------------------------------------------------------------

_SINGLE_ONSETS = ("b", "d", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "th", "sh", "kh")
_ONSETS = (*_SINGLE_ONSETS, "br", "dr", "tr", "st")
_VOWELS = ("a", "a", "e", "i", "o", "u", "ai", "au")
_CODAS = ("", "", "", "n", "r", "s", "l", "m", "x", "th", "sh")


def _star_names(count: int, rng: Rng) -> list[str]:
    """``count`` distinct names (case-insensitively, as orders spell them) of 2-3 syllables.

    Only the first syllable may open on a vowel and only the last may close on a consonant,
    so names alternate consonant and vowel sounds and read aloud easily ("Nudobram", "Taupirai", "Khaugutur").
    """
    names: list[str] = []
    taken: set[str] = set()
    while len(names) < count:
        parts = [rng.choice(("", "", *_ONSETS)), rng.choice(_VOWELS)]
        for _ in range(rng.randint(1, 2)):
            parts += [rng.choice(_ONSETS), rng.choice(_VOWELS)]
        parts.append(rng.choice(_CODAS))
        name = "".join(parts).capitalize()
        if name.lower() not in taken:
            taken.add(name.lower())
            names.append(name)
    return names


# --- One attempt at a map ----------------------------------------------------------------------


@dataclass
class _Draft:
    coords: list[Coord]
    names: list[str]
    rolled: list[int]
    values: list[int]
    lines: list[tuple[int, int]]
    homes: list[tuple[int, int, int]]
    notes: list[str]

    def label(self, s: int) -> str:
        return f"{self.names[s]} ({hex_id(*self.coords[s])})"


class _RerollError(Exception):
    """This attempt's dice gave a map that cannot be made playable by small changes."""


def _place_stars(board: _Board, odds: Odds, rng: Rng) -> list[int]:
    is_star = [False] * len(board.cells)
    stars: list[int] = []
    for i in range(len(board.cells)):
        # "do not roll for a hex adjacent to an existing star": skipped hexes draw no dice.
        if any(is_star[j] for j in board.neighbours[i]):
            continue
        if rng.chance(odds.numerator, odds.denominator):
            is_star[i] = True
            stars.append(i)
    return stars


def _roll_warplines(nearest: list[list[int]], odds: Odds, cap: int, rng: Rng) -> list[tuple[int, int]]:
    degree = [0] * len(nearest)
    joined: set[tuple[int, int]] = set()
    lines: list[tuple[int, int]] = []
    for a, near in enumerate(nearest):
        for b in near:
            pair = (min(a, b), max(a, b))
            # A pair that are each among the other's nearest get two chances, one per star, as
            # the rule gives "each star" its own roll; a line already there needs no second.
            if pair in joined or degree[a] >= cap or degree[b] >= cap:
                continue
            if rng.chance(odds.numerator, odds.denominator):
                joined.add(pair)
                lines.append(pair)
                degree[a] += 1
                degree[b] += 1
    return lines


def _spread(
    candidates: Sequence[int],
    groups: Sequence[tuple[int, int, int]],
    coords: Sequence[Coord],
    cap: Sequence[int],
    players: int,
) -> list[int] | None:
    """Principal stars spread apart: greedy farthest-point picks, then rounds in which each
    player in turn moves to the candidate farthest from the others.

    A star's score is its distance to the nearest other principal, capped by ``cap`` (which
    keeps "even" homes off the edge). Candidates come in a shuffled order, which breaks ties.
    """

    def score(s: int, others: Sequence[int]) -> int:
        near = min((_dist(coords[s], coords[o]) for o in others), default=_FAR)
        return min(cap[s], near)

    def best(others: Sequence[int], current: int | None) -> int | None:
        used = {star for o in others for star in groups[o]}
        choice, choice_score = current, -1 if current is None else score(current, others)
        for s in candidates:
            if used.isdisjoint(groups[s]) and (sc := score(s, others)) > choice_score:
                choice, choice_score = s, sc
        return choice

    chosen: list[int] = []
    for _ in range(players):
        pick = best(chosen, None)
        if pick is None:
            return None
        chosen.append(pick)
    for _ in range(_SPREAD_ROUNDS):
        moved = False
        for i in range(players):
            others = chosen[:i] + chosen[i + 1 :]
            pick = best(others, chosen[i])
            if pick is not None and pick != chosen[i]:
                chosen[i] = pick
                moved = True
        if not moved:
            break
    return chosen


def _place_homes(
    spec: MapSpec,
    coords: list[Coord],
    depth: list[int],
    groups: list[tuple[int, int, int]],
    rng: Rng,
) -> list[int]:
    spacing = home_spacing(spec)
    order = rng.shuffle(range(len(coords)))

    def far_enough(chosen: list[int] | None) -> bool:
        return chosen is not None and all(
            _dist(coords[a], coords[b]) >= spacing for i, a in enumerate(chosen) for b in chosen[i + 1 :]
        )

    if spec.placement == "even":
        # Packing discs: homes 2d apart and d from the edge, so none is squeezed against it.
        cap = [2 * (d + 1) for d in depth]
        chosen = _spread(order, groups, coords, cap, spec.players)
        if chosen is None or not far_enough(chosen):
            raise _RerollError(f"home stars could not be spread {spacing} hexes apart")
        return chosen

    # "around the periphery of the map with none in the center": principals come from a band
    # along the edge, widened step by step but always nearer the edge than the centre.
    deepest = max(depth)
    cap = [_FAR] * len(coords)
    narrowest = max(1, deepest // 4)
    for band in range(narrowest, max(narrowest, (deepest - 1) // 2) + 1):
        rim = [s for s in order if depth[s] <= band]
        chosen = _spread(rim, groups, coords, cap, spec.players)
        if chosen is not None and far_enough(chosen):
            return chosen
    raise _RerollError(f"home stars could not be spread {spacing} hexes apart around the edge")


def _even_out(
    draft: _Draft,
    regions: list[list[int]],
    floors: list[int],
    reasons: dict[int, str],
) -> None:
    """Nudge star values by 1 BP at a time until the home economies are within tolerance.

    Only stars counted for a single home are touched, so a change never helps one player at
    another's expense. The richest home loses or the poorest gains, whichever is further from
    the average, so the map's total wealth stays close to what was rolled.
    """
    values = draft.values
    counted = [0] * len(values)
    for region in regions:
        for s in region:
            counted[s] += 1
    principals = [home[0] for home in draft.homes]

    def lower(h: int) -> bool:
        pool = [s for s in regions[h] if counted[s] == 1 and values[s] > floors[s]]
        if not pool:
            return False
        s = min(pool, key=lambda s: (-values[s], -_dist(draft.coords[s], draft.coords[principals[h]]), s))
        values[s] -= 1
        reasons.setdefault(s, f"evening out the economy near home {h + 1}")
        return True

    def raise_(h: int) -> bool:
        pool = [s for s in regions[h] if counted[s] == 1 and values[s] < MAX_STAR_VALUE]
        if not pool:
            return False
        s = min(pool, key=lambda s: (values[s], _dist(draft.coords[s], draft.coords[principals[h]]), s))
        values[s] += 1
        reasons.setdefault(s, f"evening out the economy near home {h + 1}")
        return True

    for _ in range(_FAIRNESS_STEPS):
        economy = [sum(values[s] for s in region) for region in regions]
        if max(economy) - min(economy) <= economic_tolerance(economy):
            return
        rich, poor = economy.index(max(economy)), economy.index(min(economy))
        total, n = sum(economy), len(economy)
        if economy[rich] * n - total > total - economy[poor] * n:
            moved = lower(rich) or raise_(poor)
        else:
            moved = raise_(poor) or lower(rich)
        if not moved:
            break
    raise _RerollError("the star values near the homes could not be evened out")


def _attempt(spec: MapSpec, board: _Board, rng: Rng) -> _Draft:
    cells = _place_stars(board, spec.star_chance, rng.derive("stars"))
    if len(cells) < 4 * spec.players:
        raise _RerollError(f"only {len(cells)} stars were rolled")
    coords = [board.cells[i] for i in cells]
    depth = [board.depth[i] for i in cells]
    value_rng = rng.derive("values")
    # "Rolling 2d6 and dividing the result by 3": rounded down, so 0-4 BP, 2 the commonest.
    rolled = [value_rng.roll(2, 6) // 3 for _ in cells]
    names = _star_names(len(cells), rng.derive("names"))
    index = _StarIndex(coords)
    nearest = [index.nearest(s, NEAREST_STARS) for s in range(len(cells))]
    lines = _roll_warplines(nearest, spec.warpline_chance, spec.max_warplines, rng.derive("warplines"))
    groups = [(s, near[0], near[1]) for s, near in enumerate(nearest)]
    principals = sorted(_place_homes(spec, coords, depth, groups, rng.derive("homes")))
    draft = _Draft(
        coords=coords,
        names=names,
        rolled=rolled,
        values=list(rolled),
        lines=lines,
        homes=[groups[p] for p in principals],
        notes=[],
    )

    reachable = _reachable(board, cells[principals[0]])
    if not all(reachable[cells[s]] for home in draft.homes for s in home):
        raise _RerollError("a home cannot be reached from the others")

    _give_homes_warplines(draft, nearest, spec.max_warplines)
    _repair_values(draft, index, home_radius(spec))
    return draft


def _give_homes_warplines(draft: _Draft, nearest: list[list[int]], cap: int) -> None:
    degree = [0] * len(draft.coords)
    for a, b in draft.lines:
        degree[a] += 1
        degree[b] += 1
    for player, (p, _, _) in enumerate(draft.homes, start=1):
        if degree[p]:
            continue
        # A home with no warpline is a bad roll; one to a nearest star keeps the rule's shape.
        target = next((b for b in nearest[p] if degree[b] < cap), None)
        if target is None:
            raise _RerollError(f"home {player} has no warpline and no nearby star can take one")
        draft.lines.append((min(p, target), max(p, target)))
        degree[p] += 1
        degree[target] += 1
        draft.notes.append(
            f"Added a warpline {draft.label(p)}-{draft.label(target)}: home {player} rolled none."
        )


def _repair_values(draft: _Draft, index: _StarIndex, radius: int) -> None:
    reasons: dict[int, str] = {}
    floors = [0] * len(draft.values)
    for player, (p, a, b) in enumerate(draft.homes, start=1):
        for s, floor, role in (
            (p, PRINCIPAL_FLOOR, "principal star"),
            (a, HOME_FLOOR, "star"),
            (b, HOME_FLOOR, "star"),
        ):
            floors[s] = floor
            if draft.values[s] < floor:
                draft.values[s] = floor
                reasons.setdefault(s, f"{role} of home {player} is worth at least {floor} BP")
    regions = [sorted({*index.within(draft.coords[home[0]], radius), *home}) for home in draft.homes]
    _even_out(draft, regions, floors, reasons)
    for s in sorted(reasons):
        if draft.values[s] != draft.rolled[s]:
            draft.notes.append(
                f"{draft.label(s)} set to {draft.values[s]} BP (rolled {draft.rolled[s]}): {reasons[s]}."
            )


def generate_map(spec: MapSpec, seed: int) -> StarMap:
    """A new star map per rules VII, "Creating new maps"; the same spec and seed always give
    the same map.

    "If the rolls give bad results, change them to produce a playable map": small faults are
    repaired in place (see the module notes); when the homes cannot be placed fairly the whole
    map is re-rolled from a seed derived from ``seed``, up to :data:`MAX_ATTEMPTS` times.

    Raises :class:`MapGenerationError` if no attempt gives a playable map, which with the
    default odds does not happen in practice.
    """
    width, height = spec.dimensions()
    board = _build_board(width, height)
    root = Rng(seed)
    rerolls: list[str] = []
    failure = ""
    for attempt in range(MAX_ATTEMPTS):
        rng = root if attempt == 0 else root.derive(f"attempt {attempt}")
        try:
            draft = _attempt(spec, board, rng)
        except _RerollError as bad:
            failure = str(bad)
            rerolls.append(f"Re-rolled the whole map (attempt {attempt + 1}): {failure}.")
            continue
        return _finish(spec, seed, width, height, draft, rerolls)
    raise MapGenerationError(f"no playable map for seed {seed} in {MAX_ATTEMPTS} attempts; last: {failure}")


def _finish(spec: MapSpec, seed: int, width: int, height: int, draft: _Draft, rerolls: list[str]) -> StarMap:
    hexes = [hex_id(c, r) for c, r in draft.coords]
    stars = sorted(
        (Star(hex=h, name=n, value=v) for h, n, v in zip(hexes, draft.names, draft.values, strict=True)),
        key=lambda star: star.hex,
    )
    lines = sorted(
        (Warpline(a=min(hexes[a], hexes[b]), b=max(hexes[a], hexes[b])) for a, b in draft.lines),
        key=lambda line: (line.a, line.b),
    )
    header = (
        f"Generated from seed {seed}: {width} columns of {height} hexes, {len(stars)} stars, "
        f"{spec.players} players, {spec.placement} placement."
    )
    return StarMap(
        name=spec.name,
        hexes=tuple(sorted(hex_id(c, r) for c, r in _board_cells(width, height))),
        stars=tuple(stars),
        warplines=tuple(lines),
        homes=tuple(HomeStars(stars=(hexes[p], hexes[a], hexes[b])) for p, a, b in draft.homes),
        notes=(header, *rerolls, *draft.notes),
    )
