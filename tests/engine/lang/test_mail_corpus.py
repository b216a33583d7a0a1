"""Order mails as real mail clients send them (after MIME decoding): replies in several styles,
top-posting, signatures, phones, CRLF, tabs, NBSP, Windows-1252. Each reads to the same orders."""

from __future__ import annotations

import pytest

from engine.warpwar.lang.parser import parse_mail
from engine.warpwar.lang.printer import order_text
from tests.engine.lang.contexts import context

SHEET = """# WarpWar orders for game g1, turn 4, player One
# One order per line; # starts a comment.
GAME g1
PLAYER P1
TURN 4
CODE ________
## W3: TL0 PD=6 B=4 S=4 A=2 -- at Babylon (2223), 3 MP
# MOVE W3 WARP 0606
END"""

EXPECTED = ["MOVE W3 1421 1522", "LOAD W4 10"]


def quoted(text: str, marker: str = "> ") -> str:
    return "\n".join(marker + line if line else marker.rstrip() for line in text.split("\n"))


def in_place(marker: str = "> ") -> str:
    """The sheet quoted, with the player's code and orders written between its lines."""
    lines = quoted(SHEET, marker).split("\n")
    return "\n".join([*lines[:6], "CODE k3y", *lines[6:8], "MOVE W3 1421 1522", "LOAD W4 10", *lines[8:]])


CORPUS = {
    "gmail reply in place": (
        "Here are my orders.\n\nOn Mon, 3 Mar 2025 at 10:00, WarpMail <host@warpmail.example> wrote:\n"
        + in_place()
        + "\n> \n> Good luck!\n"
    ),
    "thunderbird reply in place with signature": (
        "Hi,\n\nOn 03/03/2025 10:00, WarpMail wrote:\n" + in_place() + "\n\n-- \nAnn Smith\n"
    ),
    "apple mail nested quote without spaces": "Orders below\n\n" + in_place(">") + "\n\nSent from my iPhone",
    "outlook top-posting with the old sheet below": (
        "GAME g1\r\nPLAYER P1\r\nTURN 4\r\nCODE k3y\r\nMOVE W3 1421 1522\r\nLOAD W4 10\r\nEND\r\n\r\n"
        "________________________________\r\nFrom: WarpMail <host@warpmail.example>\r\n"
        "Sent: Monday, March 3, 2025 10:00 AM\r\nSubject: g1 turn 4\r\n\r\n" + SHEET.replace("\n", "\r\n")
    ),
    "outlook top-posting without END": (
        "GAME g1\r\nTURN 4\r\nCODE k3y\r\nMOVE W3 1421 1522\r\nLOAD W4 10\r\n\r\n"
        "-----Original Message-----\r\nFrom: WarpMail\r\n" + SHEET.replace("\n", "\r\n")
    ),
    "html-only mail converted to text": (
        "\u00a0\nGAME\u00a0g1\nTURN\u00a04\nCODE\u00a0k3y\nMOVE\u00a0W3\u00a01421\u00a01522\n"
        "LOAD\u00a0W4\u00a010\nEND\n\u00a0\n"
    ),
    "phone with tabs, smart dashes and lower case": (
        "game g1\nturn 4\ncode k3y\n\tmove  w3\t1421 \u2014 1522\nload w4: 10\nend.\nSent from my phone\n"
    ),
    "windows-1252 with smart quotes": (
        "\x93Orders\x94 \x96 as promised\r\nGAME g1\r\nTURN 4\r\nCODE k3y\r\nMOVE W3 1421\xa01522\r\n"
        "LOAD W4 10 # \x93all of it\x94\r\nEND\r\n"
    )
    .encode("latin-1")
    .decode("cp1252"),
}


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_real_world_mail_bodies_read_to_the_same_orders(name: str) -> None:
    # Given a mail as a client sends it, When it is read
    parsed = parse_mail(CORPUS[name], context())
    # Then the orders, the turn and the code are understood
    assert [order_text(order) for order in parsed.turn.orders] == EXPECTED
    assert (parsed.header.game, parsed.header.turn, parsed.header.code) == ("g1", 4, "k3y")
    assert [p.message for p in parsed.problems if p.severity == "error"] == []
