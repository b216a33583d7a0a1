"""The rendered results report: golden files of a fixed scripted game, the map images, and
free text that must never break out of the templates.

The golden files in tests/golden/ are the text, HTML and JSON of Red's report in the sample
game (engine/warpwar/sample.py). After a deliberate change to the report or its templates,
regenerate them and review the diff:

    UPDATE_GOLDEN=1 python -m pytest tests/functions/test_report_render.py

The rendered sample in docs/ (report-sample.png, report-sample.txt) is rewritten the same way.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

import pytest

from engine.warpwar.picture import map_picture
from engine.warpwar.report import SCHEMA, build_report
from engine.warpwar.sample import SAMPLE_DEADLINE, SAMPLE_SHEET, sample_game
from functions.render.mapimage import WIDTH
from functions.render.report import RenderedReport, render_report, row, wrap
from tests.functions import pngfile

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
DOCS = ROOT / "docs"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
PNG_BUDGET = 300_000
MAIL_COLUMN = 650
HOSTILE = '<b>{{x}}</b> & "Q"'


def rendered(red_name: str = "Ann", game_id: str = "demo") -> RenderedReport:
    game = sample_game(red_name=red_name, game_id=game_id)
    view = game.view("Red")
    report = build_report(view, game.events, game.results, SAMPLE_SHEET, SAMPLE_DEADLINE, game.order_texts)
    return render_report("warpwar", report, map_picture(view, game.events))


@cache
def sample() -> RenderedReport:
    return rendered()


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8"), f"{name} differs from the golden file"


@pytest.mark.parametrize(
    ("name", "part"), [("report.txt", "text"), ("report.html", "html"), ("report.json", "json")]
)
def test_the_sample_report_matches_its_golden_file(name: str, part: str) -> None:
    # When Red's report of the scripted game is rendered
    actual = getattr(sample(), part)
    # Then it is exactly the reviewed golden file
    check_golden(name, actual)


def test_the_rendered_sample_in_docs_is_up_to_date() -> None:
    # The sample shown in docs/ is the same report (rewritten with UPDATE_GOLDEN=1)
    if UPDATE:
        (DOCS / "report-sample.txt").write_text(sample().text, encoding="utf-8")
        (DOCS / "report-sample.png").write_bytes(sample().png)
    assert (DOCS / "report-sample.txt").read_text(encoding="utf-8") == sample().text
    assert (DOCS / "report-sample.png").read_bytes() == sample().png


def test_the_text_report_fits_78_columns() -> None:
    # Every line but the orders sheet's (the player's own text, verbatim) fits a plain-text mail
    text = sample().text.split("ORDERS FOR TURN")[0]
    assert max(len(line) for line in text.splitlines()) <= 78


def test_the_text_report_has_every_section_and_ends_with_the_sheet() -> None:
    text = sample().text
    for heading in ("WHAT HAPPENED", "YOUR ORDERS", "COMBAT AT LARSU 0804", "YOUR SHIPS", "YOUR BASES",
                    "INCOME", "WHAT CHANGED", "KNOWN ENEMY SHIPS", "STARS (the map is attached"):  # fmt: skip
        assert heading in text
    assert text.rstrip().endswith(SAMPLE_SHEET.rstrip())


def test_the_html_shows_the_map_inline_by_content_id_and_the_sheet_in_a_pre() -> None:
    html = sample().html
    assert '<img src="cid:map"' in html
    assert sample().map_content_id == "map"
    assert "<pre" in html and "GAME demo\nPLAYER Red\nTURN 3" in html


def test_the_json_is_the_report_with_its_schema() -> None:
    data = json.loads(sample().json)
    assert data["schema"] == SCHEMA
    assert data["header"]["player"] == "Red"
    assert [r["round"] for r in data["combats"][1]["rounds"]] == [1, 2, 3]


def test_the_png_map_fits_a_mail_column_within_budget_and_not_blank() -> None:
    # When the map is rendered as a PNG
    png = sample().png
    image = pngfile.read(png)
    # Then it is as wide as a mail's column (600-650 pixels: no client scales it down), taller
    # than wide (the classic map), and the HTML shows it at that width
    assert image.width == WIDTH <= MAIL_COLUMN
    assert WIDTH < image.height < 2 * WIDTH
    assert f'width="{image.width}"' in sample().html
    # And small enough to inline in a mail
    assert len(png) < PNG_BUDGET
    # And not blank, and opaque: many colours drawn, and dark ink (labels, outlines) somewhere
    colours = set(pngfile.pixels(png))
    assert len(colours) > 10
    assert min(sum(c[:3]) for c in colours) < 200
    assert {c[3] for c in colours} == {255}


def test_the_svg_map_is_zoomable_and_matches_the_png_size() -> None:
    svg = sample().svg
    image = pngfile.read(sample().png)
    assert svg.startswith("<svg ")
    assert f'viewBox="0 0 {image.width} {image.height}"' in svg
    assert "Larsu 2" in svg and "S1 W1 T2" in svg


def test_free_text_is_escaped_in_html_and_literal_in_text() -> None:
    # Given a player and a game named with markup, template syntax, an ampersand and quotes
    out = rendered(red_name=HOSTILE, game_id="g<1>&{{y}}")
    # Then the HTML shows them escaped, never as markup or template output
    assert "&lt;b&gt;{{x}}&lt;/b&gt; &amp; &#34;Q&#34;" in out.html
    assert "g&lt;1&gt;&amp;{{y}}" in out.html
    assert "<b>{{x}}" not in out.html
    # And the text report and the JSON carry them literally
    assert HOSTILE in out.text
    assert "g<1>&{{y}}" in out.text
    assert json.loads(out.json)["header"]["player_name"] == HOSTILE
    # And the SVG escapes them too (the title names the player)
    assert "&lt;b&gt;{{x}}&lt;/b&gt; &amp; &quot;Q&quot;" in out.svg


def test_text_rows_pad_text_left_and_numbers_right() -> None:
    assert row((5, -4, 3), "W1", 12, "x") == "W1      12 x"


def test_wrapping_keeps_the_indent_and_hangs_the_rest() -> None:
    assert wrap("  one two three four", indent=2, width=12) == "  one two\n    three\n    four"
