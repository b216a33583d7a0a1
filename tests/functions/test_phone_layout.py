"""The HTML mails read on a phone: a results mail with a combat, an acknowledgement and a notice,
laid out by headless Chromium at 375 px (a phone) and 1200 px (a desktop), must not scroll
sideways.

Headless Chromium will not make its window narrower than 500 px, so each mail is laid out in an
iframe of the width measured (its document gets a viewport of exactly that width), and a script
in the page around it writes each mail's ``scrollWidth`` into the DOM that ``--dump-dom`` prints.
All three mails are measured in one Chromium run per width.

Chromium is Debian's ``chromium`` package (``apt-get install -y chromium``); without it the test
is skipped, with that reason. ``UPDATE_GOLDEN=1`` also rewrites the screenshots in
docs/screenshots/ (looked at, not compared: they differ with the Chromium version and its fonts).
"""

from __future__ import annotations

import base64
import html
import os
import re
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import pytest

from engine.warpwar.lang.ack import acknowledge
from functions.render.acks import render_game_ack
from functions.render.notice import render_notice
from tests.engine.lang.test_ack import MAIL, fleet
from tests.engine.lang.test_check import view_of
from tests.functions.test_report_render import sample

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="headless Chromium lays the mails out: install it with apt-get install -y chromium",
)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
PHONE, DESKTOP = 375, 1200
SCREEN_TIMEOUT = 90


@cache
def mails() -> dict[str, str]:
    """The HTML of each kind of mail the host sends, with content in every part."""
    _, ack = render_game_ack(
        "warpwar", acknowledge(MAIL, view_of(fleet()), deadline="Friday 14 March, 18:00 UTC")
    )
    _, notice = render_notice(
        "Game demo: turn 3 is waiting for your orders",
        [
            "The deadline is Friday 14 March, 18:00 UTC (in 20 hours). Red and Blue have sent "
            "orders; you have not. Reply to your results mail with the orders sheet filled in.",
            "A mail with nothing but the header and END says you have nothing to order.",
        ],
        block="GAME demo\nPLAYER Red\nTURN 3\nCODE <your secret code>\nEND",
    )
    # The map is attached by Content-ID in a mail; inline here, so that it is laid out (and shown).
    results = sample().html.replace(
        "cid:map", "data:image/png;base64," + base64.b64encode(sample().png).decode()
    )
    return {"results": results, "ack": ack, "notice": notice}


def framed(pages: dict[str, str], width: int) -> str:
    """A page with each mail in an iframe ``width`` px wide and as tall as the mail; once all
    have loaded, each iframe's scroll width goes into a ``data-`` attribute of the body."""
    frames = "".join(
        f'<iframe id="{name}" srcdoc="{html.escape(page, quote=True)}" '
        f'style="display:block;border:0;width:{width}px;height:100px"></iframe>'
        for name, page in pages.items()
    )
    script = (
        "<script>window.addEventListener('load', () => {"
        "for (const f of document.querySelectorAll('iframe')) {"
        " const root = f.contentDocument.documentElement;"
        " document.body.setAttribute('data-' + f.id, String(root.scrollWidth));"
        " f.style.height = root.scrollHeight + 'px'; }});</script>"
    )
    return f'<!DOCTYPE html><html><body style="margin:0;background:#d0d4d9">{frames}{script}</body></html>'


def chromium(page: str, *args: str) -> str:
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.html"
        path.write_text(page, encoding="utf-8")
        done = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                *args,
                path.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=SCREEN_TIMEOUT,
            check=False,
            cwd=folder,
        )
    return done.stdout


def scroll_widths(width: int) -> dict[str, int]:
    dom = chromium(
        framed(mails(), width), "--window-size=1300,3000", "--virtual-time-budget=3000", "--dump-dom"
    )
    found = {name: re.search(rf'data-{name}="(\d+)"', dom) for name in mails()}
    assert all(found.values()), dom[:500]
    return {name: int(match.group(1)) for name, match in found.items() if match is not None}


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_no_mail_scrolls_sideways(width: int) -> None:
    widths = scroll_widths(width)
    assert widths == {name: min(seen, width) for name, seen in widths.items()}
    assert all(seen > width * 0.9 for seen in widths.values())  # the mail was laid out at that width
    if UPDATE:
        save_screenshots(width)


def save_screenshots(width: int) -> None:
    """docs/screenshots/<mail>-<width>.png: each mail alone in a frame of that width (the page
    around it is 500 px wide at least, grey beside a phone's column)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    for name, page in mails().items():
        shot = SCREENSHOTS / f"{name}-{width}.png"
        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / "shot.png"
            chromium(
                framed({name: page}, width),
                f"--window-size={max(width, 500)},{4400 if name == 'results' else 1200}",
                "--virtual-time-budget=3000",
                f"--screenshot={target}",
            )
            shutil.copyfile(target, shot)
