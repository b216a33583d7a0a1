"""Every message the order language gives a player, in one place.

Templates use ``str.format`` fields; docs/players.md lists each with ``<field>`` in place of
``{field}`` (see :func:`as_listed`), and the tests check that every one is listed there and
produced by at least one case. The order block's own messages live with the game-agnostic
block reader and are listed here too.
"""

from __future__ import annotations

import re

from engine.core import orderblock

# The order block's messages (written with the game-agnostic block reader), by name here too.
NO_BLOCK = orderblock.NO_BLOCK
NO_END = orderblock.NO_END
GAME_WITHOUT_ID = orderblock.GAME_WITHOUT_ID
PLAYER_WITHOUT_ID = orderblock.PLAYER_WITHOUT_ID
TURN_NOT_A_NUMBER = orderblock.TURN_NOT_A_NUMBER
HEADER_TWICE = orderblock.HEADER_TWICE
HEADER_AFTER_ORDERS = orderblock.HEADER_AFTER_ORDERS
HEADER_WITH_VALUE = orderblock.HEADER_WITH_VALUE
WRITTEN_BELOW_END = orderblock.WRITTEN_BELOW_END
BLOCK_MESSAGES = orderblock.BLOCK_MESSAGES

UNKNOWN_ORDER = (
    '"{word}" is not an order: each line starts with BUILD, BASE, LOAD, UNLOAD, SCRAP, REPAIR, RESUPPLY, '
    "MOVE, PRIORITY, ECM, STANDING or REARRANGE, with COMBAT, or (under a COMBAT line) with your ship's name"
)
NO_SUCH_SHIP = "you have no ship {ship}: use the name of one of your ships, as on your orders sheet"
SHIP_EXPECTED = "{keyword} needs one of your ships next, e.g. {example}"
NOT_A_SHIP_NAME = '"{word}" is not a ship name: ships are named W or S and a number, e.g. W3 or S20'
NAME_TAKEN = "you already have a ship {ship}: give the new ship a free name, or leave out AS {ship}"
NUMBER_EXPECTED = "{what} is missing: write it in digits, e.g. {example}"
NOT_A_NUMBER = '"{word}" is not a number: write {what} in digits, e.g. {example}'
OUT_OF_RANGE = "{what} must be from {low} to {high}, not {value}"
PLACE_EXPECTED = "{keyword} needs a place next: a star name or a hex number, e.g. {example}"
UNKNOWN_STAR = (
    'there is no star "{word}" on your map: write a star name as on your map, or a hex number like 2223'
)
HEX_NOT_ON_MAP = "hex {hex} is not on the map: hex numbers are column then row, as printed on the map"
NOT_A_HEX = '"{word}" is not a hex number: hex numbers have 4 digits, column then row, e.g. 1421'
UNKNOWN_ATTRIBUTE = (
    '"{attr}" is not a ship attribute: use PD, B, S, T, M, C, SH, E, A, H and SR '
    "(R=1 adds a Repair Bay; a WARPSHIP has its Warp Generator already)"
)
ATTRIBUTE_FORM = '"{word}" is not an attribute amount: write each as NAME=number, e.g. PD=6 B=3'
GIVEN_TWICE = "{item} is given twice: give it once"
DESIGN_EXPECTED = "{keyword} needs amounts in the rules' notation, e.g. {example}"
SHIP_KIND_EXPECTED = "BUILD needs WARPSHIP or SYSTEMSHIP next, e.g. BUILD WARPSHIP AT Babylon PD=6 B=3 S=2"
NOT_FOR_RESUPPLY = "RESUPPLY buys Missiles and Shells only (M= and SH=): {attr} is restored with REPAIR"
NOT_FOR_REPAIR = "REPAIR does not restore {attr}: Missiles and Shells are bought with RESUPPLY"
ROUTE_EXPECTED = (
    "MOVE needs the route after the ship: hexes or stars in order, WARP <star> for a warpline jump, "
    "DROP <ship> and PICKUP <ship>, e.g. MOVE W3 1421 1522 WARP Babylon"
)
PRIORITY_EXPECTED = (
    "PRIORITY needs the attributes in the order hits should take them, e.g. PRIORITY W3 A H SH M"
)
ECM_POLICY_EXPECTED = (
    "ECM needs a policy after the ship: MINIMISE-DAMAGE, FIRST-COME or EVEN, e.g. ECM W3 EVEN"
)
REARRANGE_FORM = "REARRANGE needs ONTO <Warpship> or OFF after the Systemship, e.g. REARRANGE S20 ONTO W3"
UNEXPECTED_WORDS = 'the order should end before "{words}": remove it, or write the order as e.g. {example}'
TACTIC_EXPECTED = "{ship} needs a combat tactic after its name: ATTACK, DODGE or RETREAT, e.g. {example}"
NO_SUCH_ENEMY = (
    "there is no enemy ship {ship} that you know of: name enemy ships as your results do, e.g. P2.W7"
)
AMBIGUOUS_ENEMY = "more than one enemy ship is called {ship}: write which one in full ({choices})"
COMBAT_LINE_FORM = "write a COMBAT line as COMBAT <star> ROUND <n>, e.g. COMBAT Babylon ROUND 1"
OUTSIDE_COMBAT = (
    "this looks like a combat round order, but there is no COMBAT line above it: put COMBAT <star> ROUND <n> "
    "on the line before the ships' orders for that battle"
)
TURN_ORDER_IN_COMBAT = (
    "{keyword} is a turn order inside a COMBAT section: it is read as an order for the player-turn, "
    "not for the combat round"
)
MISSILE_LINE_ALONE = (
    "this Missile line has no ship line above it: put it right under the order of the ship that fires it"
)
MISSILE_LINE_FORM = (
    "write a Missile line as M ATTACKS <target>: D=<drive>, under the order of the ship that fires it"
)
MISSILE_FORM = (
    '"{word}" is not a Missile list: write M=<target>@<drive> for each Missile, comma-separated, '
    "e.g. M=P2.S25@3,P2.W7@2"
)
MISSILE_WITHOUT_TARGET = (
    "a Missile has no target: give it one (M=P2.S25@3) or put a target after the tactic (W3 ATTACK "
    "P2.S25: M=@3)"
)
CANNON_FORM = (
    '"{word}" is not a Cannon list: write the Shells each Cannon fires, comma-separated, e.g. C=2,1 '
    "or C=3@P2.W8"
)
TUBES_DISAGREE = (
    "{ship} powers T={tubes} but fires {missiles} Missile(s): each Missile needs one Tube, "
    "so T must equal the number of Missiles"
)
UNKNOWN_COMBAT_WORD = (
    '"{word}" is not part of a combat order: use D=, B=, S=, E=, M=, C=, PICKUP, DROP, RETREAT-TO, '
    "PRIORITY and ECM"
)
REPLACES = (
    "this order replaces line {line} ({earlier}): only the later order for the same ship or Base counts"
)
REPLACES_EARLIER_MAIL = (
    "this order replaces {earlier} from your earlier mail for this turn: only the later order for the same "
    "ship or Base counts"
)
SIGN_OFF = (
    "this and what follows is not orders (a sign-off, a name, quoted mail), so it was not read: end your "
    "orders with a line END"
)
NOT_UNDERSTOOD = (
    "this order could not be read ({reason}): check it against the examples in the players' guide"
)

PARSER_MESSAGES: tuple[str, ...] = (
    UNKNOWN_ORDER,
    NO_SUCH_SHIP,
    SHIP_EXPECTED,
    NOT_A_SHIP_NAME,
    NAME_TAKEN,
    NUMBER_EXPECTED,
    NOT_A_NUMBER,
    OUT_OF_RANGE,
    PLACE_EXPECTED,
    UNKNOWN_STAR,
    HEX_NOT_ON_MAP,
    NOT_A_HEX,
    UNKNOWN_ATTRIBUTE,
    ATTRIBUTE_FORM,
    GIVEN_TWICE,
    DESIGN_EXPECTED,
    SHIP_KIND_EXPECTED,
    NOT_FOR_RESUPPLY,
    NOT_FOR_REPAIR,
    ROUTE_EXPECTED,
    PRIORITY_EXPECTED,
    ECM_POLICY_EXPECTED,
    REARRANGE_FORM,
    UNEXPECTED_WORDS,
    TACTIC_EXPECTED,
    NO_SUCH_ENEMY,
    AMBIGUOUS_ENEMY,
    COMBAT_LINE_FORM,
    OUTSIDE_COMBAT,
    TURN_ORDER_IN_COMBAT,
    MISSILE_LINE_ALONE,
    MISSILE_LINE_FORM,
    MISSILE_FORM,
    MISSILE_WITHOUT_TARGET,
    CANNON_FORM,
    TUBES_DISAGREE,
    UNKNOWN_COMBAT_WORD,
    REPLACES,
    REPLACES_EARLIER_MAIL,
    SIGN_OFF,
    NOT_UNDERSTOOD,
)

ALL_MESSAGES: tuple[str, ...] = BLOCK_MESSAGES + PARSER_MESSAGES
"""Every message a player can get from reading an order mail (the checker's are elsewhere)."""

_FIELD = re.compile(r"\{(\w+)\}")


def as_listed(template: str) -> str:
    """A template as docs/players.md shows it: ``{ship}`` becomes ``<ship>``."""
    return _FIELD.sub(r"<\1>", template)


def pattern(template: str) -> re.Pattern[str]:
    """A regular expression matching every message made from ``template``."""
    pieces = _FIELD.split(template)
    parts = [re.escape(piece) if index % 2 == 0 else ".*" for index, piece in enumerate(pieces)]
    return re.compile("^" + "".join(parts) + "$", re.DOTALL)
