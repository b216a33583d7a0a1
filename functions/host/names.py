"""Players' names: what a name may hold, wherever it is given (JOIN by mail, the GM's console,
a seat given to a newcomer).

A name is shown in mail headers (``Message from <name>``), in the HTML and text of every report,
on the map, and in other players' mail. So it may hold letters, digits, spaces and punctuation
of any script, but nothing that could change how a header or a page is read: no control
characters (C0, C1, line breaks), no invisible formatting (bidirectional overrides and
isolates, zero-width characters, the byte-order mark), no encoded-word (``=?...?=``, which a
mail client would decode in a header), and none of ``<``, ``>``, ``@`` and ``"`` (which delimit
addresses and quoted names). Apostrophes stay: O'Brien is a name.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 40
FORBIDDEN = frozenset('<>@"')
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories refused: controls (C0, C1), format characters (bidi overrides U+202A-202E,
isolates U+2066-2069, marks, zero-width U+200B-200D and U+2060, U+FEFF), surrogates, private
use, unassigned, line and paragraph separators."""

NAME_RULE = (
    f"A player's name has 1 to {MAX_NAME} characters: letters, digits, spaces and punctuation, "
    'but not < > @ or ", no "=?", and no control or invisible characters.'
)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (``NAME_RULE``, in the player's words), or None."""
    if not name or len(name) > MAX_NAME or name != name.strip():
        return NAME_RULE
    if any(char in FORBIDDEN or unicodedata.category(char) in INVISIBLE for char in name):
        return NAME_RULE
    if "=?" in name or "?=" in name:
        return NAME_RULE
    return None
