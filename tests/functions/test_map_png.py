"""The map's PNG is its SVG rendered by resvg with the bundled fonts: the same bytes every time,
its text really drawn, and laid out with the widths the bundled font really has."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.picture import Picture
from engine.warpwar.mapgen import MapSpec, generate_map
from engine.warpwar.picture import map_picture
from engine.warpwar.sample import sample_game
from engine.warpwar.state import GameConfig, PlayerSpec
from engine.warpwar.turn import new_game
from engine.warpwar.views import player_view
from functions.render import fonts
from functions.render.mapimage import (
    LEGEND_SIZE,
    MAX_WIDTH,
    WIDTH,
    Anchor,
    Canvas,
    Text,
    canvas,
    draw_png,
    png_bytes,
    svg_text,
    text_box,
)
from tests.functions import pngfile

INK = "#1b1f24"
WHITE = (255, 255, 255, 255)
BLACK = (0, 0, 0, 255)
LEFT = 10


def sample_svg() -> str:
    game = sample_game()
    return svg_text(canvas(map_picture(game.view("Red"), game.events)))


def label(text: str, size: int = LEGEND_SIZE, bold: bool = False) -> Canvas:
    """A small white canvas with one label starting at ``LEFT``, as the legend sets them."""
    shape = Text(LEFT, 20, text, size, INK, "left", bold=bold, halo=False)
    return Canvas(width=400, height=40, background="#ffffff", shapes=[shape])


def inked(drawn: Canvas, paper: tuple[int, int, int, int] = WHITE) -> list[tuple[int, int]]:
    """The (x, y) of every pixel of the canvas's PNG that is not the ``paper`` colour."""
    png = png_bytes(svg_text(drawn))
    width = pngfile.read(png).width
    return [(i % width, i // width) for i, pixel in enumerate(pngfile.pixels(png)) if pixel != paper]


def box(points: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def test_rendering_twice_gives_the_same_bytes() -> None:
    svg = sample_svg()
    assert draw_png(svg) == draw_png(svg)


def test_the_svg_names_the_bundled_font_first_and_the_fonts_ship_with_their_licence() -> None:
    assert f'font-family="{fonts.FAMILY}, ' in sample_svg()
    assert all(path.is_file() and path.parent == fonts.FOLDER for path in fonts.FILES)
    assert "Bitstream Vera" in (fonts.FOLDER / "LICENSE").read_text(encoding="utf-8")


def test_the_map_text_is_drawn_into_the_png() -> None:
    # Given the sample map's SVG, and the same SVG without its text elements
    svg = sample_svg()
    without_text = re.sub(r"<text [^>]*>[^<]*</text>\n", "", svg)
    assert without_text.count("<text") == 0 < svg.count("<text")
    # Then the two render differently: the labels are drawn
    assert png_bytes(svg) != png_bytes(without_text)


def test_a_label_is_drawn_in_ink_and_bold_in_more_ink() -> None:
    # Given a label alone on a white canvas, then no label
    regular = inked(label("Larsu 2"))
    blank = Canvas(width=400, height=40, background="#ffffff")
    # Then the label leaves ink (the bundled font was found), the blank canvas none
    assert len(regular) > 50
    assert inked(blank) == []
    # And the bold face is a different, heavier font
    assert len(inked(label("Larsu 2", bold=True))) > len(regular)


def test_a_label_is_as_wide_as_the_layout_measures_it() -> None:
    # Given legend labels drawn from LEFT
    for text in ("Star (name, BP value)", "Your ships (Red)", "Ann (Blue), T = turn seen"):
        columns = [x for x, _ in inked(label(text))]
        drawn = max(columns) + 1 - min(columns)
        # Then the ink spans the measured width, less the first and last glyphs' side bearings
        # and the kerning the measure leaves out: at most a few pixels
        measured = fonts.text_width(text, LEGEND_SIZE)
        assert min(columns) >= LEFT
        assert measured - 5 <= drawn <= measured, text


@pytest.mark.parametrize("anchor", ["top", "bottom", "left", "right"])
def test_a_map_label_sits_on_a_plate_that_holds_all_its_ink(anchor: Anchor) -> None:
    # Given a label with capitals, digits and descenders, placed as the map places names
    text = Text(200, 30, "Jarmo 3 (gyp) W1", 14, INK, anchor)
    # When it is drawn in black on black, where only its plate shows, and without it on white
    on_black = Canvas(width=400, height=60, background="#000000", shapes=[replace(text, colour="#000000")])
    plate = box(inked(on_black, BLACK))
    ink = box(inked(Canvas(width=400, height=60, background="#ffffff", shapes=[replace(text, halo=False)])))
    # Then every glyph's ink lies on the plate, with at most a few pixels of plate to spare
    assert plate[0] <= ink[0] and plate[1] <= ink[1] and ink[2] <= plate[2] and ink[3] <= plate[3]
    assert all(0 <= spare <= 4 for spare in (ink[0] - plate[0], plate[2] - ink[2])), (plate, ink)


def test_the_bundled_fonts_have_the_letters_of_names_in_latin_greek_and_cyrillic_scripts() -> None:
    names = "Zoë Łukasz Şahin Nguyễn Ελένη Жанна Ørjan \u2013 \u201cquoted\u201d \u20ac"
    for path in fonts.FILES:
        assert set(names) <= set(fonts.metrics(path).advances), path.name


def test_a_character_the_font_lacks_measures_as_the_missing_glyph() -> None:
    metrics = fonts.metrics(fonts.REGULAR)
    assert fonts.text_width("\U0001f680", 2048) == metrics.missing > 0


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=20), st.text(max_size=20), st.integers(min_value=1, max_value=64))
def test_a_width_adds_up_by_character_and_grows_with_the_size(a: str, b: str, size: int) -> None:
    assert fonts.text_width(a + b, size) == fonts.text_width(a, size) + fonts.text_width(b, size)
    assert fonts.text_width(a, 2 * size) == 2 * fonts.text_width(a, size)
    assert fonts.text_width(a, size) >= 0


# --- Hex ids: printed on the map, a tooltip per hex, and never a label cut off ---


def picture_of(spec: MapSpec, seed: int = 3) -> Picture:
    star_map = generate_map(spec, seed)
    players = tuple(PlayerSpec(id=f"P{i + 1}", name=f"Player {i + 1}") for i in range(spec.players))
    state = new_game(GameConfig(game_id="g", players=players), star_map, seed).state
    return map_picture(player_view(state, "P1"))


def test_the_classic_map_prints_every_hex_id_and_shows_it_on_hover() -> None:
    svg = sample_svg()
    hexes = sample_game().view("Red").hexes
    printed = set(re.findall(r">(\d{4})</text>", svg))
    titled = re.findall(r"<path d=\"M[^\"]+\"><title>(\d{4})</title></path>", svg)
    assert sorted(titled) == sorted(hexes)
    # Every id is printed, but for those a star's name covers (their tooltip has them)
    assert len(printed) >= 0.9 * len(hexes)
    assert printed <= set(hexes)


@pytest.mark.parametrize(
    "spec",
    [
        MapSpec(players=2),
        MapSpec(players=3, width=40, height=12),
        MapSpec(players=2, width=8, height=50),
        MapSpec(players=4, width=100, height=20),
    ],
    ids=["default", "wide", "tall", "large"],
)
def test_no_label_reaches_outside_the_image_and_large_maps_keep_star_ids(spec: MapSpec) -> None:
    picture = picture_of(spec)
    drawn = canvas(picture)
    texts = [shape for shape in drawn.shapes if isinstance(shape, Text)]
    for text in texts:
        left, top, right, bottom = text_box(text)
        assert left >= 0 and right <= drawn.width and top >= 0 and bottom <= drawn.height, text
    stars = {cell.label for cell in picture.cells if cell.key}
    assert stars <= {t.text for t in texts}
    assert WIDTH <= drawn.width <= MAX_WIDTH
    if drawn.width < MAX_WIDTH:  # a map that fits is drawn large enough to label every hex
        assert {cell.label for cell in picture.cells} <= {t.text for t in texts} | set(
            re.findall(r"<title>(\d{4})</title>", svg_text(drawn))
        )
