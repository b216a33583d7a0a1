"""The classic WarpWar star map (the ASCII "MAP" at the end of the 2nd-edition rules), as data.

How it was transcribed
----------------------
The map was read by a throwaway script, not by eye: it computed where every hex label must
sit (``\\LLLL/`` on the hex's lower row; on one text line the labels of one column set start
at characters 7, 17, ... 67, two lines further down the other set's at 2, 12, ... 72; ten
characters right on the same line is ``(c+1, r-1)``, four lines down is ``(c+1, r+1)``), then
placed every ``*`` in the hex whose middle row (``<      >``, the line above the label) holds
it. Names, values and warplines were then read off around those positions, and every warpline
character (``|| // \\\\ ====``) that differs from a clean hex outline was checked to lie on one
of the transcribed warplines, and every transcribed warpline to be drawn on each text line it
crosses. The partial map in section V (Movement) is an exact copy of the same part of the map
apart from its ship markers, which disagree with the text: ``#W6#`` (start) is drawn in 1620,
two hexes from Umma, where the text has 1720; W8's ``#`` and ``%`` are drawn in 1717 and 1919,
the reverse of the text's start and end. The text is followed.

* Hexes. Every hex whose whole outline is drawn is on the map: 43 label lines, alternately
  7 and 8 hexes, 322 hexes in all, from 0107/0108 at the top to 2228/2821 at the bottom. In
  hex numbers that is exactly ``8 <= col + row <= 50`` and ``-7 <= col - row <= 7``. The
  half hexes along the top and bottom edges (only a lower or an upper half drawn, no label,
  e.g. 0106 at the top and 2328 at the bottom) are not on the map.
* Obscured labels. Warplines, names and values overwrite part or all of many labels; the
  hidden digits follow from the geometry and every visible digit agrees with it, except for
  the two misprints below. Wholly hidden: 0804 (Larsu), 0908 (Calah), 1310 (Nippur), 1014
  (Ubaid), 1514 (under "Lagash"), 1613 and 1718 (under the ``(1)=====`` / ``(2)=====`` of
  Lagash's and Umma's warplines), 1319 (under "Sumarra").
* Misprints. The bottom full label line reads ``2128 2227 2526 2425 2424 2623 2722 2821``;
  its third and fifth labels break the sequence (the real 2424 is on the line above) and are
  2326 and 2524.
* Lagash. In the HTML edition the line under "Lagash" wraps the star and the start of the
  Lagash-Assur warpline in an HTML comment (``>--<!--/*=====-<      -->--<``), so a browser or
  a tag-stripping converter drops them and that line is 4 characters too long. With the
  comment markers taken out the ``*`` falls in the middle row of 1614, directly under
  "Lagash" and its ``(1)``, where Nippur's ``||``, Elam's ``//`` and the ``=====`` to Assur
  all end - exactly as Umma's ``\\*=====`` / ``(2)=====`` are drawn. Lagash is 1614, value 1.
* Values. Each star's value is the ``(n)`` beside its ``*``; Erech's ``(3)`` is on the line
  above its ``*``. Susa is ``(0)* Susa`` on the map although the hex drawing in section II
  shows ``(1)`` for SUSA 1207; the map's value is kept (the drawing only illustrates a star
  hex).
* Names are kept as printed: Larsu, Sumarra, Khafa (not Larsa, Samarra, Khafajah).
* Warplines run star to star. Where a drawn line goes on through a star (Erech-Adab-Khafa,
  Mari-Umma-Sumer, Calah-Nippur-Assur) it is two warplines, one each side of the star: a
  warpline is walked "from the star hex at one end to the star hex at the other" (V) and is
  entered "at one end of the warpline, NOT in the middle". No warpline ends in a space hex,
  no star has more than 4 warplines and no two stars are adjacent, as section VII requires.

The players' ends
-----------------
The map is tall and narrow, so its two ends are the top and the bottom. "The three stars at a
player's end of the map are his/her starting Base stars" (II): at the top Mosul 0307 (one
hex from the top edge, ``col + row = 10``), Ur 0606 and Larsu 0804 (two hexes, 12); the next
stars are five hexes down (Sippur, Erech, Calah, 17). At the bottom Ugarit 2622 (48, one hex
from the bottom edge at 50), Nineveh 2125 (46, two hexes) and Babylon 2223 (45, three hexes);
the next are Sumer and Eridu (41) and Akkad (40), all five hexes up. The Basic scenario's
single Base goes "in the middle of his/her end of the map": across the map (``col - row``,
-7 at the left edge to 7 at the right) the top three stand at -4, 0, 4, so Ur is the middle
one, in the map's centre column; the bottom three at -4 (Nineveh), -1 (Babylon), 4 (Ugarit),
so Babylon is. Each ``HomeStars`` lists the middle star first, then the other two left to
right.
"""

from __future__ import annotations

from functools import cache

from engine.warpwar.hexgrid import hex_id
from engine.warpwar.starmap import HomeStars, Star, StarMap, Warpline

HEX_ROWS: tuple[tuple[int, int, int], ...] = (
    # (row, first column, last column): every hex drawn whole on the printed map.
    (1, 7, 8),
    (2, 6, 9),
    (3, 5, 10),
    (4, 4, 11),
    (5, 3, 12),
    (6, 2, 13),
    (7, 1, 14),
    (8, 1, 15),
    (9, 2, 16),
    (10, 3, 17),
    (11, 4, 18),
    (12, 5, 19),
    (13, 6, 20),
    (14, 7, 21),
    (15, 8, 22),
    (16, 9, 23),
    (17, 10, 24),
    (18, 11, 25),
    (19, 12, 26),
    (20, 13, 27),
    (21, 14, 28),
    (22, 15, 28),
    (23, 16, 27),
    (24, 17, 26),
    (25, 18, 25),
    (26, 19, 24),
    (27, 20, 23),
    (28, 21, 22),
)

STARS: tuple[Star, ...] = (
    # In reading order of the printed map, top to bottom.
    Star(hex="0307", name="Mosul", value=2),
    Star(hex="0606", name="Ur", value=4),
    Star(hex="0804", name="Larsu", value=2),
    Star(hex="0611", name="Sippur", value=1),
    Star(hex="0710", name="Erech", value=3),
    Star(hex="0908", name="Calah", value=1),
    Star(hex="1207", name="Susa", value=0),
    Star(hex="0813", name="Byblos", value=3),
    Star(hex="1011", name="Adab", value=0),
    Star(hex="1310", name="Nippur", value=1),
    Star(hex="1014", name="Ubaid", value=5),
    Star(hex="1313", name="Khafa", value=2),
    Star(hex="1415", name="Mari", value=1),
    Star(hex="1712", name="Assur", value=2),
    Star(hex="1614", name="Lagash", value=1),
    Star(hex="1616", name="Elam", value=5),
    Star(hex="1814", name="Jarmo", value=3),
    Star(hex="1419", name="Sumarra", value=2),
    Star(hex="1817", name="Girsu", value=1),
    Star(hex="1719", name="Umma", value=2),
    Star(hex="1622", name="Isin", value=1),
    Star(hex="2118", name="Kish", value=0),
    Star(hex="2020", name="Akkad", value=3),
    Star(hex="1922", name="Sumer", value=0),
    Star(hex="2318", name="Eridu", value=1),
    Star(hex="2223", name="Babylon", value=4),
    Star(hex="2125", name="Nineveh", value=2),
    Star(hex="2622", name="Ugarit", value=2),
)

WARPLINES: tuple[tuple[str, str], ...] = (
    ("0307", "0611"),  # Mosul - Sippur
    ("0606", "0710"),  # Ur - Erech
    ("0710", "1011"),  # Erech - Adab
    ("0813", "1011"),  # Byblos - Adab
    ("1011", "1313"),  # Adab - Khafa
    ("0804", "1207"),  # Larsu - Susa
    ("0908", "1310"),  # Calah - Nippur
    ("1207", "1310"),  # Susa - Nippur
    ("1310", "1712"),  # Nippur - Assur
    ("1310", "1614"),  # Nippur - Lagash
    ("1014", "1415"),  # Ubaid - Mari
    ("1014", "1419"),  # Ubaid - Sumarra
    ("1614", "1712"),  # Lagash - Assur
    ("1614", "1616"),  # Lagash - Elam
    ("1415", "1719"),  # Mari - Umma
    ("1419", "1719"),  # Sumarra - Umma
    ("1719", "1817"),  # Umma - Girsu
    ("1719", "1922"),  # Umma - Sumer
    ("1814", "2118"),  # Jarmo - Kish
    ("2020", "2118"),  # Akkad - Kish
    ("2118", "2318"),  # Kish - Eridu
    ("2318", "2622"),  # Eridu - Ugarit
    ("1622", "2125"),  # Isin - Nineveh
    ("1922", "2223"),  # Sumer - Babylon
)

TOP_END = HomeStars(stars=("0606", "0307", "0804"))  # Ur (middle), Mosul, Larsu
BOTTOM_END = HomeStars(stars=("2223", "2125", "2622"))  # Babylon (middle), Nineveh, Ugarit

NOTES: tuple[str, ...] = (
    "Misprint: the bottom full label line reads 2128 2227 2526 2425 2424 2623 2722 2821; "
    "its third label '2526' is hex 2326.",
    "Misprint: on the same line the fifth label '2424' (the real 2424 is on the line above) is hex 2524.",
    "Source defect: in the HTML edition Lagash's '*' and the start of its warpline to Assur "
    "sit inside an HTML comment ('<!--/*=====-<      -->'), so a browser drops them; "
    "Lagash is restored at 1614, value (1), from its name, value and the three warplines "
    "ending there.",
    "Discrepancy: the map prints '(0)* Susa' at 1207 while the star-hex drawing in section II "
    "shows SUSA 1207 with (1); the map's value 0 is used.",
)


def classic_hexes() -> tuple[str, ...]:
    """Every hex of the classic map, sorted."""
    return tuple(sorted(hex_id(col, row) for row, first, last in HEX_ROWS for col in range(first, last + 1)))


@cache
def classic_map() -> StarMap:
    """The classic map: 322 hexes, 28 stars, 24 warplines; homes are (top end, bottom end)."""
    return StarMap(
        name="Classic",
        hexes=classic_hexes(),
        stars=STARS,
        warplines=tuple(Warpline(a=a, b=b) for a, b in WARPLINES),
        homes=(TOP_END, BOTTOM_END),
        notes=NOTES,
    )
