"""The acknowledgement mail rendered (functions/render/acks.py with the templates warpwar/ack.txt
and ack.html): readable anywhere, nothing a player writes can inject into it."""

from __future__ import annotations

from engine.warpwar.lang.ack import acknowledge
from functions.render.acks import WIDTH, render_game_ack
from tests.engine.lang.test_ack import MAIL, fleet
from tests.engine.lang.test_check import view_of


def test_text_and_html_carry_the_verdict_orders_problems_and_forecast() -> None:
    text, html = render_game_ack("warpwar", acknowledge(MAIL, view_of(fleet()), deadline="Friday 18:00 UTC"))
    for part in (text, html):
        assert "2 orders understood and submitted" in part
        assert "BUILD WARPSHIP AT 0101 PD=6 B=3 S=2" in part
        assert "Deadline: " in part
        assert "W2 will be built at Alpha (0101)" in part
    assert "  line 7  BUILD WARPSHIP AT 0101 PD=6 B=3 S=2" in text
    assert 'Line 9: "MOVE W3 0707": W3 cannot move from Delta (0505) to 0707' in text


def test_plain_text_fits_78_columns() -> None:
    long_line = "MOVE W3 " + " ".join(["0707"] * 40)
    body = MAIL.replace("MOVE W3 0707", long_line)
    text, _ = render_game_ack("warpwar", acknowledge(body, view_of(fleet()), deadline="x" * 120))
    assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_player_text_comes_out_escaped_in_html_and_literal_in_text() -> None:
    body = MAIL.replace("MOVE W3 0707", "MOVE W3 <script>alert(1)</script> {{ x }}")
    text, html = render_game_ack("warpwar", acknowledge(body, view_of(fleet())))
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "{{ x }}" in html
    assert "<script>alert(1)</script> {{ x }}" in text


def test_the_answer_says_whether_the_orders_are_in_or_only_kept() -> None:
    # Given a mail with a refused line, then the same mail saying DONE
    kept = render_game_ack("warpwar", acknowledge(MAIL, view_of(fleet())))
    done = render_game_ack("warpwar", acknowledge(MAIL.replace("END", "DONE\nEND"), view_of(fleet())))
    # Then the first is kept but not counted as in, with the way out; the second is in
    for part in kept:
        assert "Kept, but not counted as in until you fix the line with problems" in part
        assert "or send DONE" in part
        assert "Your orders are in." not in part
    for part in done:
        assert "Your orders are in." in part
        assert "Kept" not in part
    assert "#fff4e5" in kept[1]  # the verdict's colour: orange while not in, green once in
    assert "#e6f4ea" in done[1]
