"""The order language's keywords, with the other spellings players use for them."""

from __future__ import annotations

from engine.warpwar.components import Attr
from engine.warpwar.orders import EcmPolicy, Tactic

TURN_KEYWORDS: dict[str, str] = {
    "BUILD": "BUILD",
    "BASE": "BASE",
    "LOAD": "LOAD",
    "UNLOAD": "UNLOAD",
    "SCRAP": "SCRAP",
    "REPAIR": "REPAIR",
    "RESUPPLY": "RESUPPLY",
    "MOVE": "MOVE",
    "PRIORITY": "PRIORITY",
    "PRIORITIES": "PRIORITY",
    "ECM": "ECM",
    "STANDING": "STANDING",
    "REARRANGE": "REARRANGE",
}
COMBAT = "COMBAT"
ROUND = "ROUND"
CONFIRM: tuple[str, ...] = ("DONE", "READY")
"""A line of its own saying the orders are final even though some lines were refused."""
LINE_STARTS: tuple[str, ...] = (*dict.fromkeys(TURN_KEYWORDS.values()), COMBAT, *CONFIRM)
"""What a line may start with (besides a ship's name in a COMBAT section): for suggestions."""

SHIP_KINDS: dict[str, bool] = {"WARPSHIP": True, "WARP": True, "SYSTEMSHIP": False, "SYSTEM": False}
"""BUILD's second word: True for a Warpship (with a Warp Generator)."""

TACTICS: dict[str, Tactic] = {
    "ATTACK": Tactic.ATTACK,
    "ATTACKS": Tactic.ATTACK,
    "DODGE": Tactic.DODGE,
    "DODGES": Tactic.DODGE,
    "RETREAT": Tactic.RETREAT,
    "RETREATS": Tactic.RETREAT,
}

ECM_POLICIES: dict[str, EcmPolicy] = {
    "MINIMISE-DAMAGE": EcmPolicy.MINIMISE_DAMAGE,
    "MINIMIZE-DAMAGE": EcmPolicy.MINIMISE_DAMAGE,
    "MINIMISE": EcmPolicy.MINIMISE_DAMAGE,
    "MINIMIZE": EcmPolicy.MINIMISE_DAMAGE,
    "FIRST-COME": EcmPolicy.FIRST_COME,
    "FIRST": EcmPolicy.FIRST_COME,
    "EVEN": EcmPolicy.EVEN,
}

ATTRIBUTES: dict[str, Attr] = {attr.value: attr for attr in Attr}
REPAIR_BAY = "R"
DESIGN_WORDS: tuple[str, ...] = (*ATTRIBUTES, REPAIR_BAY)

AT = "AT"
AS = "AS"
FROM = "FROM"
WARP = "WARP"
DROP = "DROP"
PICKUP = ("PICKUP", "PICK-UP")
ONTO = ("ONTO", "TO")
OFF = "OFF"
NONE = "NONE"
RETREAT_TO = ("RETREAT-TO", "RETREATTO")
COMBAT_ITEMS: tuple[str, ...] = (
    "D=",
    "B=",
    "S=",
    "E=",
    "T=",
    "M=",
    "C=",
    "PICKUP",
    "DROP",
    "RETREAT-TO",
    "PRIORITY",
    "ECM",
)
COMBAT_WORDS: frozenset[str] = frozenset({*PICKUP, DROP, *RETREAT_TO, "PRIORITY", "ECM"})
"""Words that start a part of a combat order (so they are never read as a target)."""
MISSILE = "M"
