"""Builders for the order-language tests: what a writer knows, and mails around order lines."""

from __future__ import annotations

from engine.warpwar.lang.context import LangContext

OWN_SHIPS = ("W3", "W4", "W7", "S20", "S21", "S22")
ENEMY_SHIPS = ("P2.S25", "P2.W7", "P2.W8", "P3.W9", "P3.S25")
STARS = {"2223": "Babylon", "0307": "Mosul", "0606": "Ur", "1719": "Umma", "0908": "Al Tarf"}
HEXES = frozenset({"1421", "1522", "1523", "2224", *STARS})


def context(
    player: str = "P1", own: tuple[str, ...] = OWN_SHIPS, enemies: tuple[str, ...] = ENEMY_SHIPS
) -> LangContext:
    """A writer, P1, on a small map with five stars (one of two words) and a few known enemies."""
    return LangContext(
        player=player,
        places={name.lower(): hex_ for hex_, name in STARS.items()},
        hexes=HEXES,
        own_ships=frozenset(own),
        enemy_ships=frozenset(enemies),
        players={"p1": "P1", "one": "P1", "p2": "P2", "two": "P2", "p3": "P3", "three": "P3"},
        star_names=dict(STARS),
    )


def mail(*orders: str, header: str = "GAME g1\nPLAYER P1\nTURN 3\nCODE secret") -> str:
    """An order mail holding ``orders``, one per line."""
    return "\n".join([header, *orders, "END"]) + "\n"
