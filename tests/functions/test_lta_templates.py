"""Lighter Than Air's templates (functions/templates/lta/) rendered with the host's Jinja2
environment against a real robot game (no AWS): what each says, that a player's name reaches
the HTML only escaped, and that the HTML mails read on a phone's 375 px without scrolling
sideways (as tests/functions/test_phone_layout.py measures WarpWar's)."""

from __future__ import annotations

import base64
import re
import shutil
from functools import cache

import pytest

from engine.core.turnhost import Played, Seat
from engine.lta.mailgame import LtaMail
from engine.lta.results import LtaReport
from engine.lta.state import GameState
from functions.render.jinja import render
from functions.render.mapimage import canvas, png_bytes, svg_text
from functions.render.report import row, wrap
from tests.engine.lta.test_host import DEADLINES, GAME, robot_game
from tests.functions.test_phone_layout import PHONE, framed
from tests.functions.test_phone_layout import chromium as run_chromium

EVIL = '<b>Ann & "Co"</b>'
"""A player's name as a hostile GM or player might set it."""


@cache
def game() -> tuple[Played, ...]:
    return tuple(robot_game(names=[Seat(player_id="P1", name=EVIL), Seat(player_id="P2", name="Bob")]))


def text_of(step: Played, player: str = "P2") -> str:
    report = step.results(player, DEADLINES).report
    return render("lta/report.txt", report=report, row=row, wrap=wrap, width=78)


def html_of(step: Played, player: str = "P2", map_src: str = "cid:map") -> str:
    report = step.results(player, DEADLINES).report
    return render("lta/report.html", report=report, map_src=map_src, map_width=600, map_height=420)


def test_text_report_names_every_zeppelin_with_its_hex_and_altitude_within_78_columns() -> None:
    step = game()[1]
    state = GameState.model_validate_json(step.state_json)
    text = text_of(step)
    assert all(len(line) <= 78 for line in text.splitlines())
    for ship in state.ships:
        place = f"{ship.col:02d}{ship.row:02d}"
        assert re.search(
            rf"^{ship.id} +{ship.name} .* {place} +{ship.facing.name} +{ship.altitude}\b", text, re.M
        )
    assert f"Orders due: {DEADLINES.round}" in text and "Combat orders for turn 1" in text
    assert EVIL in text  # plain text takes names as written


def test_html_report_escapes_player_names_and_shows_the_map() -> None:
    html = html_of(game()[1])
    assert EVIL not in html and "&lt;b&gt;Ann &amp; &#34;Co&#34;&lt;/b&gt;" in html
    assert 'src="cid:map"' in html and "Combat orders for turn 1" in html
    state = GameState.model_validate_json(game()[1].state_json)
    for ship in state.ships:
        assert (
            f'<td style="padding:3px 6px;border-bottom:1px solid #e3e6ea">{ship.col:02d}{ship.row:02d}</td>'
            in html
            or (
                f"At {ship.col:02d}{ship.row:02d} facing {ship.facing.name}, altitude {ship.altitude}" in html
            )
        )


def test_final_report_and_rolls_page_list_every_seed_and_roll() -> None:
    final = game()[-1]
    state = GameState.model_validate_json(final.state_json)
    text = text_of(final)
    assert "GAME OVER:" in text and "ORDERS SHEET" not in text
    [page] = final.results("P1", DEADLINES).pages
    rolls = render(f"lta/{page.template}", page=page.model)
    for player in state.players:
        assert f"({player.id}): seed {player.seed}\nSHA-256 {player.commitment}" in rolls
        first = player.rolls[0]
        assert re.search(rf"^ +1  1 +initiative +d6 +{first.value}  initiative$", rolls, re.M)
    assert rolls.count("\n") > sum(len(p.rolls) for p in state.players)
    assert EVIL in rolls  # text/plain: nothing is markup


def test_replay_page_escapes_names_and_draws_every_frame() -> None:
    page = GAME.replay(list(game()), "P1")
    html = render(f"lta/{page.template}", page=page.model)
    assert EVIL not in html and "&lt;b&gt;Ann" in html
    assert html.count('<section class="turn"') == len(game())
    assert html.count('<use href="#hexes"/>') == len(game())
    assert "Turn 1, after wind and combat" in html


def test_ack_templates_render_lta_acknowledgements() -> None:
    state_json = game()[0].state_json
    body = "GAME g1\nPLAYER P1\nTURN 1\nMOVE A1 FFX\nMOVE A2 <script>\nMOVE A3 UF\nEND\n"
    ack = LtaMail().read_orders(state_json, "P1", body).ack
    text = render("lta/ack.txt", ack=ack)
    html = render("lta/ack.html", ack=ack)
    assert "Game g1, turn 1: your movement orders" in text and "MOVE A3 UF" in text
    assert 'Line 4: "MOVE A1 FFX"' in text and "count as in only once" in text
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "MOVE A3 UF" in html and "ROLLS" in html
    forecast = text.split("FORECAST (before the wind)\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert forecast[0].startswith("  A3 ") and "ends in" in forecast[0]
    assert all(len(line) <= 78 for line in forecast) and len(forecast) > 1
    assert "Forecast <span" in html and ack.forecast[0] in html


@pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
    reason="headless Chromium lays the mails out: install it with apt-get install -y chromium",
)
def test_html_mails_do_not_scroll_sideways_on_a_phone() -> None:
    step = game()[1]
    results = step.results("P1", DEADLINES)
    assert results.picture is not None and isinstance(results.report, LtaReport)
    png = png_bytes(svg_text(canvas(results.picture)))
    mails = {
        "results": html_of(step, "P1", "data:image/png;base64," + base64.b64encode(png).decode()),
        "final": html_of(game()[-1], "P1"),
        "ack": render(
            "lta/ack.html",
            ack=LtaMail()
            .read_orders(step.state_json, "P1", "GAME g1\nFIRE A1 1 AT B1\nFIRE A1 9 AT B1\nEND\n")
            .ack,
        ),
    }
    assert "in range and arc now" in mails["ack"]
    dom = run_chromium(
        framed(mails, PHONE), "--window-size=1300,3000", "--virtual-time-budget=3000", "--dump-dom"
    )
    for name in mails:
        found = re.search(rf'data-{name}="(\d+)"', dom)
        assert found is not None, dom[:300]
        assert int(found.group(1)) <= PHONE, name
