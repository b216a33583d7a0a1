"""``warpmail demo``: a game's robot demo (engine/games.py ``DEMOS``) played without the mail
pipeline, every player's results after each game-turn written as they would be mailed: the
report as text, HTML and JSON, its map as PNG and SVG (``<out>/turn-NN/<player>.*``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.core.turnhost import Results
from engine.games import DEMOS
from functions.render.report import render_report


def play_demo(
    game: str, scenario: str, seed: int, turn_limit: int, levels: Sequence[str], out: Path | None = None
) -> tuple[bool, list[str]]:
    """Game ``game``'s demo; (whether someone won, the game's log)."""

    def write(turn: int, player: str, results: Results) -> None:
        assert out is not None  # asked for only with a folder
        folder = out / f"turn-{turn:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        rendered = render_report(game, results.report, results.picture)
        stem = folder / results.stem
        stem.with_suffix(".txt").write_text(rendered.text, encoding="utf-8")
        stem.with_suffix(".html").write_text(rendered.html, encoding="utf-8")
        stem.with_suffix(".svg").write_text(rendered.svg, encoding="utf-8")
        stem.with_suffix(".json").write_text(rendered.json, encoding="utf-8")
        stem.with_suffix(".png").write_bytes(rendered.png)

    return DEMOS[game].play(scenario, seed, turn_limit, levels, write if out is not None else None)
