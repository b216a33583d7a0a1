"""The economics (rules II, scenarios; IV, Ship building and Bases).

"During the Build event of a player's turn, he collects BPs on all owned systems ... If a
friendly Base is present, the player collects double the BP value of that system and may
stockpile the BPs on that Base; if no Base is present, one half the basic BP value is collected
and the BPs must be immediately stored in a ship's Hold or they are lost."

BP mined at a Baseless star wait in ``state.star_pools`` for the rest of the Build event, where
a Repair Bay ship may spend them ("BPs mined from Baseless Stars may be used immediately to
repair by ships with Repair Bays"); what is left goes into Holds at the end of the event.
"""

from __future__ import annotations

from typing import Literal

from engine.warpwar.context import Step
from engine.warpwar.events import BaseDestroyed, BPCollected
from engine.warpwar.ownership import claim, produces_for
from engine.warpwar.starmap import Star
from engine.warpwar.state import Base, Player, Scenario

BASIC_FIRST_INCOME = 40
BASIC_INCOME = 8
ADVANCED_FIRST_INCOME = 20
BASE_PRODUCTION_FACTOR = 2
BASELESS_PRODUCTION_DIVISOR = 2
BASE_RECOVERY_DIVISOR = 2

Where = Literal["base", "holds", "lost", "star"]


def collect_income(step: Step) -> None:
    """Step (a) of the Build event: the active player's income for this player-turn.

    Basic: "Each player starts the game with 40 Build Points and receives 8 Build Points at the
    start of each turn thereafter" (star values are not used). Advanced: "Players get 20 Build
    Points at the start of the first turn and receive Build Points at the start of every turn
    thereafter in accordance with the economics rules."
    """
    state = step.state
    player = state.player(step.active_id)
    if state.config.scenario is Scenario.BASIC:
        _fixed_income(step, player, BASIC_FIRST_INCOME if state.turn == 1 else BASIC_INCOME)
    elif state.turn == 1:
        _fixed_income(step, player, ADVANCED_FIRST_INCOME)
    else:
        # Only the stars the player owns can produce for him (``produces_for``), in hex order.
        player_id, star_at = player.id, step.star_at
        owned = sorted(hex_ for hex_, control in state.control.items() if control.owner == player_id)
        for hex_ in owned:
            star = star_at.get(hex_)
            if star is not None:
                _star_income(step, player_id, star)


def home_base(step: Step, player: Player) -> Base | None:
    """The Base that receives fixed income: the middle home Base (the Basic scenario's only
    Base), else the player's first complete Base, home stars first."""
    bases = step.state.bases
    for star in (*player.home, *sorted(bases)):
        base = bases.get(star)
        if base is not None and base.owner == player.id and base.complete:
            return base
    return None


def _fixed_income(step: Step, player: Player, amount: int) -> None:
    base = home_base(step, player)
    if base is None:
        _collected(step, player.home[0], amount, "lost")
        return
    base.stockpile += amount
    _collected(step, base.star, amount, "base")


def _star_income(step: Step, player: str, star: Star) -> None:
    """Double the value to a complete Base of the player's; half of it (rounded down, as BP are
    whole) to the star's pool when there is no Base or only one under construction."""
    hex_ = star.hex
    if not produces_for(step, hex_, player):
        return
    base = step.bases.get(hex_)
    if base is not None and base.owner == player and base.complete:
        amount = star.value * BASE_PRODUCTION_FACTOR
        if amount:
            base.stockpile += amount
            _collected(step, hex_, amount, "base")
        return
    amount = star.value // BASELESS_PRODUCTION_DIVISOR
    if amount:
        pools = step.state.star_pools
        pools[hex_] = pools.get(hex_, 0) + amount
        _collected(step, hex_, amount, "star")


def _collected(step: Step, star: str, amount: int, where: Where) -> None:
    """BP are secret: only their owner hears of them."""
    step.emit(step.event(BPCollected, (step.active_id,), star=star, amount=amount, where=where))


def stow_in_holds(step: Step, star: str, player: str, amount: int) -> int:
    """Put up to ``amount`` BP into the Holds of ``player``'s Warpships at ``star``, the ship
    with the most free space first (ties by uid); returns how many BP found room."""
    holders = sorted(
        (s for s in step.ships_at(star) if s.owner == player and s.free_hold > 0),
        key=lambda s: (-s.free_hold, s.uid),
    )
    left = amount
    for ship in holders:
        taken = min(left, ship.free_hold)
        ship.cargo += taken
        left -= taken
    return amount - left


def bank_star_pools(step: Step) -> None:
    """End of the Build event: BP mined at Baseless stars "must be immediately stored in a ship's
    Hold or they are lost"."""
    state = step.state
    player = step.active_id
    for star in sorted(state.star_pools):
        amount = state.star_pools[star]
        stowed = stow_in_holds(step, star, player, amount)
        if stowed:
            _collected(step, star, stowed, "holds")
        if amount > stowed:
            _collected(step, star, amount - stowed, "lost")
    state.star_pools.clear()


def settle_bases(step: Step) -> None:
    """End of the active player's player-turn: "A Base is destroyed automatically when enemy ships
    are present unopposed on the Star hex at the end of the enemy's turn." The same holds for a
    Base under construction, whose BP "are lost"."""
    active = step.active_id
    for star in sorted(step.state.bases):
        base = step.state.bases[star]
        if base.owner == active:
            continue
        if {ship.owner for ship in step.ships_at(star)} == {active}:
            _destroy_base(step, base, active)


def _destroy_base(step: Step, base: Base, by: str) -> None:
    """ "One half of all BPs present on the destroyed Base can be immediately picked up by ships in
    the system if they have sufficient Hold space. Any BPs not immediately picked up are lost."
    The half is rounded down; an incomplete Base holds no stockpile."""
    star = base.star
    recovered = stow_in_holds(step, star, by, base.stockpile // BASE_RECOVERY_DIVISOR)
    viewers = tuple(sorted({base.owner, by, *step.observers(star, by)}))
    del step.state.bases[star]
    step.touched.add(star)
    step.emit(
        step.event(
            BaseDestroyed,
            viewers,
            star=star,
            owner=base.owner,
            by=by,
            stockpile=base.stockpile,
            recovered=recovered,
        )
    )
    claim(step, star, by)
