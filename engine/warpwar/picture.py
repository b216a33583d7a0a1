"""The map as one player knows it, as a game-agnostic ``Picture`` (engine/core/picture.py).

Drawn only from the player's view and the events they may see: the stars they know with names
and values, warplines, owners and Bases as last seen, their own fleets, enemy ships where they
were last seen (with the turn), and the moves of this report's events. Never from the state:
an enemy ship the player has not seen cannot appear.

The hex (c, r) is drawn in screen column c - r at height (c + r) / 2, flat-topped, as on the
printed map (see ``hexgrid`` and ``mapgen``): the classic map's top end is at the top.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from math import sqrt

from engine.core.picture import Arrow, Cell, LegendEntry, Line, Marker, Picture, Point, RulerMark
from engine.warpwar.events import AnyEvent, ShipMoved
from engine.warpwar.hexgrid import coords
from engine.warpwar.ships import Ship
from engine.warpwar.state import Sighting
from engine.warpwar.views import PlayerView, StarView, events_for

HALF_HEIGHT = sqrt(3) / 2
OWN_COLOUR = "#1565c0"
OTHER_COLOURS = ("#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#ad1457", "#5d4037")
UNOWNED_STAR = "#f2c94c"
STAR_OUTLINE = "#5c4a12"
WARPLINE_COLOUR = "#7a86b8"
MAX_NAMES = 3
"""Ship names written beside a fleet marker; more are counted ("W1 W2 W3 +4")."""


def centre(hex_: str) -> Point:
    """Where a hex's centre is drawn, in cell radii."""
    col, row = coords(hex_)
    return (1.5 * (col - row), HALF_HEIGHT * (col + row))


def player_colours(view: PlayerView) -> dict[str, str]:
    """The viewer in blue; the others in a fixed order of distinct colours, by seat."""
    others = [p.id for p in view.players if p.id != view.player]
    colours = {pid: OTHER_COLOURS[i % len(OTHER_COLOURS)] for i, pid in enumerate(others)}
    colours[view.player] = OWN_COLOUR
    return colours


def map_picture(view: PlayerView, events: Sequence[AnyEvent] = ()) -> Picture:
    """The player's map: what ``view`` knows, and the moves among ``events`` they may see."""
    colours = player_colours(view)
    seen = events_for(list(events), view.player)
    stars = {s.hex: s for s in view.stars}
    return Picture(
        title=f"{view.game_id}: {_name(view, view.player)}, turn {view.turn}",
        subtitle=f"{view.map_name} map; {_name(view, view.active_player)}'s player-turn",
        cells=tuple(_cell(h, stars.get(h), colours) for h in view.hexes),
        lines=tuple(_warpline(a, b) for a, b in view.warplines),
        arrows=tuple(_moves(seen, colours)),
        markers=(
            *_base_markers(view, colours),
            *(_star_marker(s, colours) for s in view.stars),
            *_own_fleets(view),
            *_sighted_fleets(view.enemy_ships, stars, colours),
        ),
        ruler=_ruler(view.hexes),
        legend=_legend(view, colours),
    )


def _ruler(hexes: Sequence[str]) -> tuple[RulerMark, ...]:
    """The id of the top hex of each screen column, above it, and of the left hex of each
    screen row, left of it: on a map too large to print every hex's id, a player reads a hex's
    id off the edges (one screen column across is (c+1, r-1) or (c, r-1) ..., see ``centre``)."""
    top: dict[float, Point] = {}
    left: dict[float, Point] = {}
    ids: dict[Point, str] = {}
    for hex_ in hexes:
        x, y = point = centre(hex_)
        ids[point] = hex_
        if x not in top or y < top[x][1]:
            top[x] = point
        row = round(y / HALF_HEIGHT)
        if row not in left or x < left[row][0]:
            left[row] = point
    return (
        *(RulerMark(x=p[0], y=p[1], text=ids[p], side="above") for _, p in sorted(top.items())),
        *(RulerMark(x=p[0], y=p[1], text=ids[p], side="left") for _, p in sorted(left.items())),
    )


def _name(view: PlayerView, player: str) -> str:
    return next((p.name for p in view.players if p.id == player), player)


def _tint(colour: str) -> str:
    """A pale version of a colour, for the cell of a star it owns."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{(c + 3 * 255) // 4:02x}" for c in (red, green, blue))


def _cell(hex_: str, star: StarView | None, colours: dict[str, str]) -> Cell:
    x, y = centre(hex_)
    owner = star.owner if star is not None else None
    fill = _tint(colours.get(owner, "#888888")) if owner else None
    return Cell(id=hex_, x=x, y=y, fill=fill, label=hex_, key=star is not None)


def _warpline(a: str, b: str) -> Line:
    return Line(a=centre(a), b=centre(b), colour=WARPLINE_COLOUR, width=0.1, classes=("warpline",))


def _star_marker(star: StarView, colours: dict[str, str]) -> Marker:
    x, y = centre(star.hex)
    owner = f", owned by {star.owner}" if star.owner else ""
    return Marker(
        x=x,
        y=y,
        shape="star",
        colour=colours.get(star.owner, UNOWNED_STAR) if star.owner else UNOWNED_STAR,
        outline=STAR_OUTLINE,
        size=0.36,
        label=f"{star.name} {star.value}",
        label_gap=0.62,
        classes=("star",),
        title=f"{star.name} {star.hex}: {star.value} BP{owner}",
    )


def _base_markers(view: PlayerView, colours: dict[str, str]) -> Iterable[Marker]:
    """Own Bases (complete: a square; being built: a diamond) and enemy Bases seen."""
    building = {b.star for b in view.own_bases if not b.complete}
    for star in view.stars:
        if star.base_owner is None:
            continue
        x, y = centre(star.hex)
        under_way = star.hex in building
        yield Marker(
            x=x,
            y=y,
            shape="diamond" if under_way else "square",
            colour=colours.get(star.base_owner, "#444444"),
            hollow=True,
            size=0.6,
            classes=("base", "building") if under_way else ("base",),
            title=f"{star.base_owner}'s Base at {star.name}" + (" (being built)" if under_way else ""),
        )


def _names(names: Sequence[str]) -> str:
    shown = " ".join(names[:MAX_NAMES])
    return shown + (f" +{len(names) - MAX_NAMES}" if len(names) > MAX_NAMES else "")


def _ship_order(ship: Ship) -> tuple[bool, int]:
    return (not ship.warp_generator, int(ship.name[1:]))


def _own_fleets(view: PlayerView) -> Iterable[Marker]:
    at: dict[str, list[Ship]] = defaultdict(list)
    for ship in view.own_ships:
        at[ship.location].append(ship)
    for hex_ in sorted(at):
        ships = sorted(at[hex_], key=_ship_order)
        x, y = centre(hex_)
        names = [s.name for s in ships]
        yield Marker(
            x=x - 0.45,
            y=y - 0.4,
            shape="triangle",
            colour=OWN_COLOUR,
            outline="#ffffff",
            size=0.3,
            label=_names(names),
            label_at="above",
            detail=True,
            classes=("fleet", "own"),
            title=f"{hex_}: " + ", ".join(s.record() for s in ships),
        )


def _sighted_fleets(
    sightings: Sequence[Sighting], stars: dict[str, StarView], colours: dict[str, str]
) -> Iterable[Marker]:
    groups: dict[tuple[str, str], list[Sighting]] = defaultdict(list)
    for sighting in sightings:
        groups[(sighting.hex, sighting.owner)].append(sighting)
    for index, (hex_, owner) in enumerate(sorted(groups)):
        seen = sorted(groups[(hex_, owner)], key=lambda s: s.ship)
        x, y = centre(hex_)
        last = max(s.turn for s in seen)
        names = [s.ship.split(".", 1)[-1] for s in seen]
        # Several players' ships in one hex: step each group down so they do not overlap.
        shift = 0.3 * sum(1 for h, _ in sorted(groups)[:index] if h == hex_)
        place = stars[hex_].name if hex_ in stars else hex_
        yield Marker(
            x=x + 0.45,
            y=y - 0.4 + shift,
            shape="diamond",
            colour=colours.get(owner, "#444444"),
            outline="#ffffff",
            size=0.3,
            label=f"{_names(names)} T{last}",
            label_at="above",
            detail=True,
            classes=("fleet", "enemy"),
            title=f"{owner} at {place}, last seen turn {last}: " + ", ".join(s.ship for s in seen),
        )


def _moves(events: Sequence[AnyEvent], colours: dict[str, str]) -> Iterable[Arrow]:
    for event in events:
        if isinstance(event, ShipMoved) and len(event.path) >= 2:
            owner, _, name = event.ship.partition(".")
            yield Arrow(
                points=tuple(centre(h) for h in event.path),
                colour=colours.get(owner, "#444444"),
                label=name,
                classes=("move",),
            )


def _legend(view: PlayerView, colours: dict[str, str]) -> tuple[LegendEntry, ...]:
    others = [p for p in view.players if p.id != view.player]
    return (
        LegendEntry(symbol="star", colour=UNOWNED_STAR, label="Star (name, BP value)"),
        LegendEntry(symbol="triangle", colour=OWN_COLOUR, label=f"Your ships ({view.player})"),
        *(
            LegendEntry(symbol="diamond", colour=colours[p.id], label=f"{p.name} ({p.id}), T = turn seen")
            for p in others
        ),
        LegendEntry(symbol="square", colour=OWN_COLOUR, hollow=True, label="Base"),
        LegendEntry(symbol="diamond", colour=OWN_COLOUR, hollow=True, label="Base being built"),
        LegendEntry(symbol="line", colour=WARPLINE_COLOUR, label="Warpline"),
        LegendEntry(symbol="arrow", colour=OWN_COLOUR, label="Move this turn"),
    )
