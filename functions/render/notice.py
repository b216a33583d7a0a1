"""Short host messages (notices, HELP, STATUS, relayed MESSAGEs): plain text at most 78 columns wide,
and HTML, from the templates in templates/host/."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

from functions.render.jinja import environment

WIDTH = 78


def render_host(name: str, context: Mapping[str, object]) -> tuple[str, str]:
    """(plain text, HTML) of the host message ``name`` (templates/host/<name>.txt and .html)."""
    templates = environment()
    return (
        templates.get_template(f"host/{name}.txt").render(context),
        templates.get_template(f"host/{name}.html").render(context),
    )


def render_notice(
    title: str,
    paragraphs: Sequence[str],
    block: str | None = None,
    gm_of: str | None = None,
    gm_address: str = "",
) -> tuple[str, str]:
    """(plain text, HTML) of a short host message: paragraphs, and a preformatted block. With
    ``gm_of`` (a game id) it is the GM's message to a player of that game, marked as such."""
    footer = FOOTER_HOST
    if gm_of is not None:
        footer = FOOTER_GM.format(game_id=gm_of) + (
            FOOTER_GM_ADDRESS.format(address=gm_address) if gm_address else ""
        )
    return render_host(
        "notice",
        {
            "title": title,
            "rule": "=" * min(WIDTH, len(title)),
            "paragraphs": paragraphs,
            "wrapped": [wrap(p) for p in paragraphs],
            "block": block,
            "gm_of": gm_of,
            "footer": footer,
            "footer_wrapped": wrap(footer),
        },
    )


FOOTER_HOST = "WarpMail. Send HELP for the commands."
FOOTER_GM = "Sent by the GM of game {game_id} through WarpMail."
FOOTER_GM_ADDRESS = " To answer the GM, write to {address}."


def wrap(paragraph: str) -> str:
    return "\n".join(textwrap.wrap(paragraph, width=WIDTH, break_on_hyphens=False)) or ""


def missed_block(paragraphs: Sequence[str]) -> tuple[str, str]:
    """(plain text, HTML) of the notice on top of a results mail that a player-turn of the
    player's was waived (functions/host/missed_notice.py)."""
    context = {"title": MISSED_TITLE, "paragraphs": paragraphs, "wrapped": [wrap(p) for p in paragraphs]}
    return render_host("missed", context | {"width": WIDTH})


MISSED_TITLE = "You missed a turn"
