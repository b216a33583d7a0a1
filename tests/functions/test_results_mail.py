"""Every player's results mail (engine/warpwar/host.py, functions/render/results.py,
functions/host/results.py): what it holds and how it is built into MIME
(functions/mail/compose.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel

from engine.core.turnhost import Deadlines, Page, Results
from engine.warpwar import robot
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.host import WarpWarTurns, pending
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.views import player_view
from functions.host.deadlines import deadline_text
from functions.host.results import results_mail
from functions.mail.compose import compose
from functions.render.results import render_results
from functions.store import GameRecord, PlayerRecord

GAME = GameRecord(game_id="g1", title="Test", status="running")
ONE = PlayerRecord(game_id="g1", player_id="P1", name="One", address="one@example.org", code_hash="x")
DEADLINES = Deadlines(turn="2025-03-02 12:00 UTC", round="2025-03-01 14:00 UTC")


def opening() -> GameState:
    config = GameConfig(
        game_id="g1",
        scenario=Scenario.BASIC,
        visibility=Visibility.OPEN,
        players=(PlayerSpec(id="P1", name="One"), PlayerSpec(id="P2", name="Two")),
    )
    return WarpWar().new_game(Setup(config=config), 7).state


def in_combat() -> GameState:
    """Seed 7's first combat (turn 6 at Umma), reached by cadets on both sides."""
    state = opening()
    while True:
        turn = robot.turn_orders(
            player_view(state, state.active_player.id), robot.stream_for(state, state.active_player.id)
        )
        outcome = WarpWar().process(state, [turn])
        if outcome.state.stage is Stage.COMBAT:
            return outcome.state
        state = outcome.state


def test_the_results_mail_has_text_html_an_inline_map_and_the_files() -> None:
    # Given a new game's opening, rendered for player P1
    rendered = render_results(
        "warpwar", WarpWarTurns().opening(opening().model_dump_json()).results("P1", DEADLINES)
    )
    # When it is built into a mail
    message = compose(results_mail(GAME, ONE, rendered), "warpmail@warpmail.test", "warpmail.test")
    # Then it is text and HTML showing the map inline, with the SVG map and the JSON report attached
    parts = {part.get_content_type(): part for part in message.walk()}
    assert message["To"] == "one@example.org"
    assert message["Subject"] == "[WarpWar g1] Turn 1: P1's player-turn"
    assert {"text/plain", "text/html", "image/png", "image/svg+xml", "application/json"} <= set(parts)
    assert parts["image/png"]["Content-ID"] == "<map>"
    assert 'src="cid:map"' in parts["text/html"].get_content()
    assert json.loads(parts["application/json"].get_content())["header"]
    text = parts["text/plain"].get_content()
    assert "GAME g1" in text and "PLAYER P1" in text and "END" in text  # the orders sheet to fill in
    assert "2025-03-02 12:00 UTC" in text


def test_a_player_in_combat_gets_the_combat_sheet_with_the_round_deadline() -> None:
    state = in_combat()
    sides = sorted({s.owner for s in state.ships.values() if s.location == state.combats[0].star})
    rendered = render_results(
        "warpwar", WarpWarTurns().opening(state.model_dump_json()).results(sides[0], DEADLINES)
    )
    assert rendered.kind == "combat"
    assert "combat at" in rendered.subject
    assert "COMBAT" in rendered.text and "ROUND 1" in rendered.text.upper()
    assert "2025-03-01 14:00 UTC" in rendered.text


def test_combat_rounds_wait_for_both_sides_unless_fought_from_standing_orders() -> None:
    state = in_combat()
    star = state.combats[0].star
    by_mail = pending(state, "sequential", "mail")
    standing = pending(state, "sequential", "standing")
    assert by_mail is not None and by_mail.clock == "round"
    assert {w.scope for w in by_mail.wants} == {f"combat:{state.turn}/{state.active_player.id}:{star}:1"}
    assert len(by_mail.wants) == 2
    assert standing is not None and standing.wants == ()


def test_deadlines_are_told_in_the_players_time_zone() -> None:
    moment = datetime(2025, 3, 1, 12, tzinfo=UTC)
    assert deadline_text(moment, "Europe/Paris") == "Sat 1 Mar 2025, 13:00 CET"
    assert deadline_text(moment, "Nowhere/Special") == "Sat 1 Mar 2025, 12:00 UTC"
    assert deadline_text(None, "UTC") is None


class Plain(BaseModel):
    """A second game's report, as small as a report can be."""

    title: str


def test_any_game_renders_with_its_own_templates_its_pages_attached(tmp_path: Path) -> None:
    # Given a game "second" with its templates, and a player's results without a map, with a page
    (tmp_path / "second").mkdir()
    (tmp_path / "second" / "report.txt").write_text("{{ report.title }} {{ width }}\n")
    (tmp_path / "second" / "report.html").write_text("<p>{{ report.title }}</p>{{ map_src is none }}")
    (tmp_path / "second" / "board.html").write_text("<b>{{ page.title }}</b>")
    page = Page(
        filename="g2-board.html", content_type="text/html", template="board.html", model=Plain(title="B")
    )
    results = Results(
        subject="Turn 2", report=Plain(title="A & B"), picture=None, game_name="Second", stem="g2-2"
    )
    # When the host renders them
    rendered = render_results("second", replace(results, pages=(page,)), tmp_path)
    # Then the game's templates wrote both bodies, the report is attached as JSON, the page
    # rendered from its template, and there is no map
    assert rendered.text == "A & B 78\n"
    assert rendered.html == "<p>A &amp; B</p>True"
    assert [(f.filename, f.content_type) for f in rendered.files] == [
        ("g2-2.json", "application/json"),
        ("g2-board.html", "text/html"),
    ]
    assert json.loads(rendered.files[0].data) == {"title": "A & B"}
    assert rendered.files[1].data == b"<b>B</b>"
    assert (rendered.subject, rendered.game_name, rendered.kind) == ("Turn 2", "Second", "results")
