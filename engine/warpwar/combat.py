"""Combat at a star (rules VI): orders checked, fire read on the CRT, damage, retreats, the end.

A combat round, as the rules' sequence has it: every ship's order is written (a player's round
order, else the ship's standing order, else ``default_order``), checked against the ship's
current attributes (``check_order``), revealed, and all weapons fire simultaneously. Damage is
marked off, destroyed ships are removed, ships that escaped move to an adjacent hex, and the
combat goes on until one player is left or three quiet rounds force a withdrawal.

Who takes part: the ships at the star that are not carried. A carried Systemship is in its
carrier's rack: it neither fires nor can be fired on (a Systemship dropped this round was carried
when the round began, so "Systemships dropped during a combat round may NOT fire weapons (or be
fired on) that combat round" follows). With more than two players each player is a side and
every other player an enemy.

An illegal order is never refused outright, since a round must always resolve: ``check_order``
adjusts it in this fixed order, noting every change in the owner's words.

1. A Systemship, or a Warpship whose PD is 0, that chose RETREAT DODGEs instead.
2. Beam, Screen and ECM are cut to what the ship has left.
3. Weapons aimed at anything but an enemy ship in the fight are not fired; a Beam or Cannons
   without a target are not fired.
4. Missiles and Cannons are not fired in a round when Beams or Screens are powered.
5. Missiles beyond the Tubes or the Missiles carried, Cannons beyond the Cannons left and Shells
   beyond the Shells carried (taken from the last Cannons first) are not fired.
6. Power over the current PD is cut: ECM first, then Screen, Beam, Cannons (last first), Missiles
   (last first), and Drive last, because the drive setting is the heart of the tactic.
7. Pick-ups and drops that break the rules are cancelled (only a Warpship, Drive 0, Screen 0,
   DODGE or RETREAT, no Missiles or Cannons fired; no more than its undamaged racks allow).
8. A retreat hex that is not adjacent to the star (or off the map) is forgotten.

Across orders: a Systemship wanted by two Warpships goes to the first (by uid); a Systemship
being picked up fires no weapons that round.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from engine.warpwar import crt, damage, ecm, ownership
from engine.warpwar.components import Attributes
from engine.warpwar.context import Step
from engine.warpwar.copying import updated
from engine.warpwar.crt import Result
from engine.warpwar.events import (
    CombatBegan,
    CombatEnded,
    CombatRoundResolved,
    DamageTaken,
    Event,
    ShipDestroyed,
    ShipRetreated,
    Shot,
    SystemshipTransferred,
)
from engine.warpwar.hexgrid import distance
from engine.warpwar.orders import CombatOrder, MissileShot, Tactic
from engine.warpwar.ships import Ship, ship_uid
from engine.warpwar.state import Combat

QUIET_ROUNDS_TO_END = 3
""""Three consecutive combat rounds pass in which no ships take any damage not absorbed by Screens"."""

PICKUP_RULE = "rules VI, Systemship pickup and drop in combat"

EndReason = Literal["destroyed", "retreated", "withdrawal", "mutual"]

NO_LOSSES = Attributes()
"""What another player's round report shows of a ship's losses (frozen, so one serves all)."""


# --- Starting a combat ---


def start_combat(step: Step, star: str) -> Combat:
    """Open the combat at ``star`` (once) and tell the players whose ships are there."""
    existing = next((c for c in step.state.combats if c.star == star), None)
    if existing is not None:
        return existing
    fight = Combat(star=star)
    step.state.combats.append(fight)
    sides: dict[str, list[str]] = defaultdict(list)
    for ship in fighters(step, star):
        sides[ship.owner].append(ship.uid)
    step.emit(
        step.event(
            CombatBegan,
            tuple(sides),
            star=star,
            sides={player: tuple(uids) for player, uids in sorted(sides.items())},
        )
    )
    return fight


def fighters(step: Step, star: str) -> list[Ship]:
    """The ships taking part in a round at ``star``: those not carried, sorted by uid."""
    return [s for s in step.ships_at(star) if s.carried_by is None]


# --- Orders ---


def default_order(ship: Ship) -> CombatOrder:
    """The order of a ship whose owner sent none and set no standing order: DODGE with Screens
    at full, then ECM at full, the rest of PD in Drive. It fires nothing: it has no target its
    owner chose, and holding fire lets the three-quiet-rounds rule end a fight nobody directs."""
    power = ship.current.PD
    screen = min(ship.current.S, power)
    ecm_points = min(ship.current.E, power - screen)
    return CombatOrder(tactic=Tactic.DODGE, drive=power - screen - ecm_points, screen=screen, ecm=ecm_points)


def check_order(step: Step, combat: Combat, ship: Ship, order: CombatOrder) -> tuple[CombatOrder, str | None]:
    """The order ``ship`` actually carries out this round, and a note when it had to be changed
    (module docstring: the fixed order of adjustments). Never raises."""
    taking_part = [(s.uid, s) for s in fighters(step, combat.star)]
    enemies = _enemies(taking_part, step.ship_owners_at(combat.star), ship.owner)
    return _check_order(step, combat.star, enemies, ship, order)


def _enemies(taking_part: list[tuple[str, Ship]], owners: dict[str, str], player: str) -> dict[str, Ship]:
    """The ships taking part (uid, ship) that are not ``player``'s, by uid in the same order."""
    return {uid: ship for uid, ship in taking_part if owners[uid] != player}


def _check_order(
    step: Step, star: str, enemies: dict[str, Ship], ship: Ship, order: CombatOrder
) -> tuple[CombatOrder, str | None]:
    """``check_order`` with the enemy ships in the fight found once for all of a side's ships."""
    carried_by = ship.carried_by
    if carried_by is not None:
        carrier = carried_by.split(".", 1)[-1]
        note = f"{ship.name} is carried by {carrier} and takes no part in the round (rules IV, Systemships)"
        return CombatOrder(tactic=Tactic.DODGE), note
    notes: list[str] = []
    fixed = _tactic(ship, order, notes)
    fixed = _capacities(ship, fixed, notes)
    fixed = _targets(ship, fixed, enemies, notes)
    fixed = _weapon_mix(ship, fixed, notes)
    fixed = _ammunition(ship, fixed, notes)
    fixed = _power(ship, fixed, notes)
    fixed = _transfers(step, star, ship, fixed, notes)
    fixed = _retreat_to(step, star, ship, fixed, notes)
    return fixed, "; ".join(notes) or None


def _tactic(ship: Ship, order: CombatOrder, notes: list[str]) -> CombatOrder:
    """Only a ship that can move may RETREAT. The PD that counts is the one the round began with
    (this runs before any fire): hits taken this round do not undo a retreat already ordered."""
    if order.tactic is not Tactic.RETREAT:
        return order
    if not ship.is_warpship:
        notes.append(
            f"{ship.name} DODGEs instead of RETREATing: a Systemship may never select the RETREAT "
            "tactic (rules IV, Systemships)"
        )
    elif ship.current.PD == 0:
        notes.append(
            f"{ship.name} DODGEs instead of RETREATing: its PD is 0, and a Warpship whose PD is "
            "reduced to zero may not move (rules V, Movement)"
        )
    else:
        return order
    return order.model_copy(update={"tactic": Tactic.DODGE})


def _capacities(ship: Ship, order: CombatOrder, notes: list[str]) -> CombatOrder:
    """ "Beams and Screens and ECM cannot be powered past their capacity"."""
    now = ship.current
    changes: dict[str, int] = {}
    for label, key, wanted, have in (
        ("Beam", "beam", order.beam, now.B),
        ("Screen", "screen", order.screen, now.S),
        ("ECM", "ecm", order.ecm, now.E),
    ):
        if wanted > have:
            changes[key] = have
            notes.append(
                f"{ship.name}'s {label} powered at {have}, not {wanted}: that is all it has "
                "(rules VI: cannot be powered past their capacity)"
            )
    return order.model_copy(update=changes) if changes else order


def _resolve_target(ref: str | None, enemies: dict[str, Ship]) -> str | None:
    """An enemy ship in the fight, by uid ("P2.W3") or by a name only one enemy ship has."""
    if ref is None:
        return None
    if ref in enemies:
        return ref
    named = [uid for uid, s in enemies.items() if s.name == ref]
    return named[0] if len(named) == 1 else None


def _target_problem(ref: str | None) -> str:
    if ref is None:
        return "no target was given"
    return f"{ref} is not an enemy ship in this fight (rules VI: a target enemy ship at that star)"


def _targets(ship: Ship, order: CombatOrder, enemies: dict[str, Ship], notes: list[str]) -> CombatOrder:
    # Each field of the order is read once: this runs for every ship in every round.
    beam, beam_ref, cannons, cannon_ref = order.beam, order.beam_target, order.cannons, order.cannon_target
    changes: dict[str, object] = {}
    beam_target = _resolve_target(beam_ref, enemies)
    if beam and beam_target is None:
        notes.append(f"{ship.name}'s Beam is not fired: {_target_problem(beam_ref)}")
        changes["beam"] = 0
    changes["beam_target"] = beam_target if beam and beam_target else None
    cannon_target = _resolve_target(cannon_ref, enemies)
    if cannons and cannon_target is None:
        notes.append(f"{ship.name}'s Cannons are not fired: {_target_problem(cannon_ref)}")
        changes["cannons"] = ()
    changes["cannon_target"] = cannon_target if cannons and cannon_target else None
    wanted = order.missiles
    missiles: list[MissileShot] = []
    for number, shot in enumerate(wanted, start=1):
        ref = shot.target
        target = _resolve_target(ref, enemies)
        if target is None:
            notes.append(f"{ship.name}'s Missile {number} is not fired: {_target_problem(ref)}")
        else:
            missiles.append(shot if ref == target else shot.model_copy(update={"target": target}))
    changes["missiles"] = tuple(missiles)
    unchanged = (
        len(changes) == 3  # neither the Beam nor the Cannons were stood down
        and changes["beam_target"] == beam_ref
        and changes["cannon_target"] == cannon_ref
        and changes["missiles"] == wanted
    )
    return order if unchanged else order.model_copy(update=changes)


def _weapon_mix(ship: Ship, order: CombatOrder, notes: list[str]) -> CombatOrder:
    """Beams and Screens: "NEITHER may be used on the same round that Missiles or Shells are
    fired"; Cannons "may not be used with Beams or Screens"."""
    if (order.beam or order.screen) and (order.missiles or order.cannons):
        notes.append(
            f"{ship.name} fires no Missiles or Shells: neither may be fired in a round when Beams or "
            "Screens are powered (rules IV, Screens and Cannons)"
        )
        return order.model_copy(update={"missiles": (), "cannons": (), "cannon_target": None})
    return order


def _ammunition(ship: Ship, order: CombatOrder, notes: list[str]) -> CombatOrder:
    """ "Each Tube may launch one Missile per combat round"; Missiles and Shells fired come out of
    the ship's stock; one Cannon fires one burst."""
    missiles, wanted = order.missiles, order.cannons
    if not missiles and not wanted:
        return order
    now = ship.current
    tubes, stock, guns, shells = now.T, now.M, now.C, now.SH
    changes: dict[str, object] = {}
    can_launch = min(tubes, stock)
    if len(missiles) > can_launch:
        notes.append(
            f"{ship.name} launches {can_launch} Missile(s), not {len(missiles)}: it has T={tubes} "
            f"and M={stock} (rules IV, Tubes and Missiles)"
        )
        changes["missiles"] = missiles[:can_launch]
    cannons = list(wanted[:guns])
    if len(wanted) > guns:
        notes.append(f"{ship.name} fires {guns} Cannon(s), not {len(wanted)}: it has C={guns}")
    while sum(cannons) > shells:
        excess = sum(cannons) - shells
        cannons[-1] -= min(excess, cannons[-1])
        if cannons[-1] == 0:
            cannons.pop()
    if sum(cannons) < sum(wanted[:guns]):
        notes.append(f"{ship.name} fires {sum(cannons)} Shell(s): it has SH={shells}")
    if tuple(cannons) != wanted:
        changes["cannons"] = tuple(cannons)
        changes["cannon_target"] = order.cannon_target if cannons else None
    return order.model_copy(update=changes) if changes else order


def _power(ship: Ship, order: CombatOrder, notes: list[str]) -> CombatOrder:
    """ "The sum of these allocations may not exceed the ship's total current PD"."""
    available = ship.current.PD
    over = order.power() - available
    if over <= 0:
        return order
    cuts: list[str] = []

    def cut(label: str, amount: int) -> int:
        nonlocal over
        taken = min(over, amount)
        over -= taken
        if taken:
            cuts.append(f"{label} by {taken}")
        return taken

    ecm_points = order.ecm - cut("ECM", order.ecm)
    screen = order.screen - cut("Screen", order.screen)
    beam = order.beam - cut("Beam", order.beam)
    cannons = order.cannons[: len(order.cannons) - cut("Cannons", len(order.cannons))]
    missiles = order.missiles[: len(order.missiles) - cut("Missiles", len(order.missiles))]
    drive = order.drive - cut("Drive", order.drive)
    notes.append(
        f"{ship.name} has PD={available} but its order needs {order.power()}: cut {', '.join(cuts)} "
        "(rules VI: the allocations may not exceed the ship's total current PD)"
    )
    return order.model_copy(
        update={
            "ecm": ecm_points,
            "screen": screen,
            "beam": beam,
            "beam_target": order.beam_target if beam else None,
            "cannons": cannons,
            "cannon_target": order.cannon_target if cannons else None,
            "missiles": missiles,
            "drive": drive,
        }
    )


def _unique(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


def transfer_needs(order: CombatOrder) -> list[str]:
    """What an order must change before its Warpship may pick up or drop Systemships this round:
    "if it allocates Drive = 0 and Screen = 0 and selects the Dodge or Retreat tactic ... but may
    NOT fire Missiles or Cannons"."""
    needs = []
    if order.drive:
        needs.append("Drive = 0")
    if order.screen:
        needs.append("Screen = 0")
    if order.tactic is Tactic.ATTACK:
        needs.append("the DODGE or RETREAT tactic")
    if order.missiles or order.cannons:
        needs.append("no Missiles or Cannons fired")
    return needs


def _transfers(step: Step, star: str, ship: Ship, order: CombatOrder, notes: list[str]) -> CombatOrder:
    """ "A Warpship may pick up or drop Systemships during a combat round if it allocates Drive = 0
    and Screen = 0 and selects the Dodge or Retreat tactic ... but may NOT fire Missiles or
    Cannons. A Warpship may pick up or drop during one combat round as many Systemships as it has
    undamaged Systemship Racks"."""
    if not order.pick_up and not order.drop:
        return order
    cancel = order.model_copy(update={"pick_up": (), "drop": ()})
    if not ship.is_warpship:
        notes.append(f"{ship.name} cannot pick up or drop Systemships: only Warpships carry them")
        return cancel
    needs = transfer_needs(order)
    if needs:
        notes.append(f"{ship.name} picks up and drops nothing: that needs {', '.join(needs)} ({PICKUP_RULE})")
        return cancel
    drops = _valid_drops(ship, order.drop, notes)
    pick_ups = _valid_pick_ups(step, star, ship, order.pick_up, notes)
    racks = ship.current.SR
    kept_drops = drops[:racks]
    room = max(0, min(racks - len(kept_drops), racks - (len(ship.carrying) - len(kept_drops))))
    kept_pick_ups = pick_ups[:room]
    if len(kept_drops) + len(kept_pick_ups) < len(drops) + len(pick_ups):
        notes.append(
            f"{ship.name} has {racks} undamaged Systemship Rack(s) carrying {len(ship.carrying)}: it drops "
            f"{len(kept_drops)} and picks up {len(kept_pick_ups)} ({PICKUP_RULE})"
        )
    return order.model_copy(update={"pick_up": tuple(kept_pick_ups), "drop": tuple(kept_drops)})


def _valid_drops(ship: Ship, names: Iterable[str], notes: list[str]) -> list[str]:
    valid = []
    for name in _unique(names):
        if ship_uid(ship.owner, name) in ship.carrying:
            valid.append(name)
        else:
            notes.append(f"{ship.name} cannot drop {name}: it is not carrying it")
    return valid


def _valid_pick_ups(step: Step, star: str, ship: Ship, names: Iterable[str], notes: list[str]) -> list[str]:
    valid = []
    for name in _unique(names):
        other = step.state.ships.get(ship_uid(ship.owner, name))
        if other is None or other.location != star:
            notes.append(f"{ship.name} cannot pick up {name}: it is not at {star}")
        elif other.is_warpship:
            notes.append(f"{ship.name} cannot pick up {name}: a Warpship may NOT be carried in a rack")
        elif other.carried_by is not None:
            notes.append(f"{ship.name} cannot pick up {name}: it is already carried")
        else:
            valid.append(name)
    return valid


def _retreat_to(step: Step, star: str, ship: Ship, order: CombatOrder, notes: list[str]) -> CombatOrder:
    wanted = order.retreat_to
    if wanted is None or wanted in step.adjacency.get(star, ()):
        return order
    notes.append(
        f"{ship.name} cannot retreat to {wanted}: it is not a hex adjacent to {star} "
        "(rules VI: ships that retreat are moved to any hex adjacent to the star hex)"
    )
    return order.model_copy(update={"retreat_to": None})


def retreat_hex(step: Step, star: str, ship: Ship, wanted: str | None) -> str | None:
    """Where a ship that escapes or withdraws goes: the hex its order named, if adjacent and on
    the map; else the adjacent hex nearest its owner's nearest complete Base (ties: lowest hex
    number); None if the star has no neighbour on the map."""
    options = step.adjacency.get(star, ())
    if wanted in options:
        return wanted
    owner = ship.owner
    bases = tuple(b.star for b in step.bases.values() if b.owner == owner and b.complete)
    return _nearest_to_bases(options, bases)


@lru_cache(maxsize=4096)
def _nearest_to_bases(options: tuple[str, ...], bases: tuple[str, ...]) -> str | None:
    """Of ``options``, the hex nearest any of ``bases`` (ties: lowest hex number). Remembered:
    every ship escaping a star asks the same question, and its answer depends only on these."""

    def nearness(hex_: str) -> tuple[int, str]:
        return min((distance(hex_, base) for base in bases), default=0), hex_

    return min(options, key=nearness, default=None)


# --- A round ---


@dataclass
class _Round:
    """Everything one round produces before it is told to the players."""

    star: str
    players: list[str]
    owners: dict[str, str]
    executed: dict[str, CombatOrder] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    shots: list[Shot] = field(default_factory=list)
    hits: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    # CRT results of Beam and Cannon fire against each ship, by firing ship (for ESCAPES).
    results_against: dict[str, dict[str, Result]] = field(default_factory=lambda: defaultdict(dict))
    damage: list[DamageTaken] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)
    escaped: list[str] = field(default_factory=list)
    aftermath: list[Event] = field(default_factory=list)

    def note(self, uid: str, text: str) -> None:
        self.notes[uid] = f"{self.notes[uid]}; {text}" if uid in self.notes else text

    def flush(self, step: Step) -> None:
        """Emit the transfers, losses and retreats gathered so far, in the order they happened."""
        for event in self.aftermath:
            step.emit(event)
        self.aftermath.clear()


def resolve_round(step: Step, combat: Combat, orders: dict[str, CombatOrder]) -> bool:
    """Fight one round at ``combat.star`` with ``orders`` (by ship uid; ships without one follow
    their standing order, else ``default_order``). Returns True when the combat is over."""
    star = combat.star
    ships = fighters(step, star)
    here = step.ship_owners_at(star)
    players = sorted({here[s.uid] for s in ships})
    if len(players) < 2:
        _end(step, combat, players, players, "mutual" if not players else "retreated")
        return True
    fight = _Round(star=star, players=players, owners={uid: here[uid] for uid in step.uids_at(star)})
    _settle_orders(step, combat, ships, orders, fight)
    _fire(ships, fight)
    _expend_ammunition(ships, fight)
    _drop(step, ships, fight)
    _take_damage(ships, fight)
    _remove_destroyed(step, ships, fight)
    # Nothing after this removes a ship: the survivors are found once.
    survivors = _survivors(step, ships)
    _release_unracked(step, survivors, fight)
    _pick_up(step, survivors, fight)
    _escape(step, survivors, fight)
    _tell_round(step, combat, fight)
    fight.flush(step)
    combat.quiet_rounds = 0 if any(d.effective > 0 for d in fight.damage) else combat.quiet_rounds + 1
    combat.round += 1
    return _after_round(step, combat, fight)


def _settle_orders(
    step: Step, combat: Combat, ships: list[Ship], orders: dict[str, CombatOrder], fight: _Round
) -> None:
    taking_part = [(s.uid, s) for s in ships]
    owners = fight.owners
    enemies = {player: _enemies(taking_part, owners, player) for player in fight.players}
    for uid, ship in taking_part:
        wanted = orders.get(uid)
        if wanted is None:
            standing = ship.standing_order
            wanted = standing if standing is not None else default_order(ship)
        fight.executed[uid], note = _check_order(step, fight.star, enemies[owners[uid]], ship, wanted)
        if note:
            fight.note(uid, note)
    for uid in sorted(orders):
        carried = step.ships.get(uid)
        if uid not in fight.executed and carried is not None and carried.location == fight.star:
            # A carried Systemship takes no part: it has no enemies to check targets against.
            _, note = _check_order(step, fight.star, {}, carried, orders[uid])
            fight.note(uid, note or "")
    _share_pick_ups(fight)


def _share_pick_ups(fight: _Round) -> None:
    """A Systemship wanted by two Warpships goes to the first; one being picked up "may not fire
    any weapons during that round, but may power Screens and ECM"."""
    claimed: dict[str, str] = {}
    for uid in sorted(fight.executed):
        order = fight.executed[uid]
        kept = []
        for name in order.pick_up:
            wanted = ship_uid(fight.owners[uid], name)
            if wanted in claimed:
                fight.note(uid, f"{name} is being picked up by {claimed[wanted].split('.', 1)[-1]} instead")
            else:
                claimed[wanted] = uid
                kept.append(name)
        if len(kept) < len(order.pick_up):
            fight.executed[uid] = order.model_copy(update={"pick_up": tuple(kept)})
    for systemship in sorted(claimed):
        order = fight.executed[systemship]
        if order.beam or order.missiles or order.cannons:
            fight.executed[systemship] = order.model_copy(
                update={"beam": 0, "beam_target": None, "missiles": (), "cannons": (), "cannon_target": None}
            )
            fight.note(
                systemship,
                f"{systemship.split('.', 1)[-1]} fires no weapons: it is being picked up this round "
                f"({PICKUP_RULE})",
            )


# --- Fire ---


def _fire(ships: list[Ship], fight: _Round) -> None:
    """Every Beam, Cannon burst and Missile, read on the CRT at once (rules VI, step 2)."""
    by_uid = {s.uid: s for s in ships}
    missiles = _missile_outcomes(by_uid, fight)
    for firer in ships:
        order = fight.executed[firer.uid]
        if order.beam and order.beam_target:
            _gun_shot(firer, "beam", order.beam, order.beam_target, fight)
        if order.cannon_target:
            for shells in order.cannons:
                _gun_shot(firer, "cannon", shells, order.cannon_target, fight)
        for index, shot in enumerate(order.missiles):
            outcome = missiles[(firer.uid, index)]
            target = fight.executed[shot.target]
            difference = outcome.drive - target.drive
            fight.hits[shot.target] += outcome.hits
            fight.shots.append(
                Shot(
                    firer=firer.uid,
                    weapon="missile",
                    target=shot.target,
                    row=crt.row_label(Tactic.ATTACK, difference),
                    column=target.tactic.value,
                    difference=difference,
                    ecm=outcome.effective,
                    result=outcome.result.value,
                    hits=outcome.hits,
                )
            )


def _gun_shot(
    firer: Ship, weapon: Literal["beam", "cannon"], power: int, target_uid: str, fight: _Round
) -> None:
    """A Beam or a burst of Shells: the firer's tactic row at its drive minus the target's. "A
    Beam which hits does damage equivalent to the power of the Beam, plus tech level. ... Shellfire
    which hits does 1 hit of damage per Shell, plus tech level per burst", plus the CRT's bonus."""
    uid = firer.uid
    order, target = fight.executed[uid], fight.executed[target_uid]
    tactic, target_tactic = order.tactic, target.tactic
    difference = order.drive - target.drive
    result = crt.read(tactic, difference, target_tactic)
    hits = power + firer.tech_level + result.bonus if result.hits else 0
    fight.hits[target_uid] += hits
    fight.results_against[target_uid][uid] = result
    fight.shots.append(
        Shot(
            firer=uid,
            weapon=weapon,
            target=target_uid,
            row=crt.row_label(tactic, difference),
            column=target_tactic.value,
            difference=difference,
            result=result.value,
            hits=hits,
        )
    )


def _missile_outcomes(by_uid: dict[str, Ship], fight: _Round) -> dict[tuple[str, int], ecm.MissileOutcome]:
    """Each target's ECM against the Missiles attacking it, in order of launch (firers by uid)."""
    incoming: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for uid in sorted(fight.executed):
        for index, shot in enumerate(fight.executed[uid].missiles):
            incoming[shot.target].append((uid, index))
    outcomes: dict[tuple[str, int], ecm.MissileOutcome] = {}
    for target_uid in sorted(incoming):
        target, order = by_uid[target_uid], fight.executed[target_uid]
        defender = ecm.Defender(
            tech_level=target.tech_level, drive=order.drive, tactic=order.tactic, ecm=order.ecm
        )
        missiles = [
            ecm.IncomingMissile(
                drive=fight.executed[uid].missiles[i].drive, tech_level=by_uid[uid].tech_level
            )
            for uid, i in incoming[target_uid]
        ]
        policy = order.ecm_policy if order.ecm_policy is not None else target.ecm_policy
        for key, outcome in zip(incoming[target_uid], ecm.defend(missiles, defender, policy), strict=True):
            outcomes[key] = outcome
    return outcomes


def _expend_ammunition(ships: list[Ship], fight: _Round) -> None:
    """ "As Missiles are fired, they must be subtracted from the ship's Missile stock"; Shells too."""
    for ship in ships:
        order = fight.executed[ship.uid]
        if order.missiles or order.cannons:
            ship.current = ship.current.replace(
                M=ship.current.M - len(order.missiles), SH=ship.current.SH - sum(order.cannons)
            )


# --- Damage, destruction, Systemships, escapes ---


def _take_damage(ships: list[Ship], fight: _Round) -> None:
    """ "The amount of power allocated to a ship's Screens, PLUS that ship's technological level,
    is subtracted from all hits a ship receives. (If the Screen is not powered, no tech level is
    added to the S=0.)" What is left is taken in the attributes by the damage priority."""
    for ship in ships:
        total = fight.hits.get(ship.uid, 0)
        if total == 0:
            continue
        order = fight.executed[ship.uid]
        absorbed = min(total, order.screen + ship.tech_level) if order.screen else 0
        effective = total - absorbed
        priority = order.damage_priority if order.damage_priority is not None else ship.damage_priority
        taken = damage.apply_hits(ship, effective, priority)
        fight.damage.append(
            DamageTaken(
                ship=ship.uid,
                hits=total,
                absorbed=absorbed,
                effective=effective,
                losses=taken.losses,
                cargo_lost=taken.cargo_lost,
                record=ship.record(),
            )
        )


def _viewers(step: Step, fight: _Round, actor: str) -> Collection[str]:
    if step.open_game:
        # Everyone, the players in the fight among them: the tuple events need, made once a step.
        return step.everyone()
    return set(step.observers(fight.star, actor)).union(fight.players)


def _transfer(step: Step, fight: _Round, systemship: Ship, carrier: Ship | None) -> None:
    """Put a Systemship in ``carrier``'s rack, or (None) leave it at the star."""
    # A Systemship leaving or entering a rack leaves or enters the map: what is seen there changes.
    step.touched.add(fight.star)
    previous = systemship.carried_by
    if previous is not None:
        step.state.ships[previous].carrying.remove(systemship.uid)
    if carrier is not None:
        carrier.carrying.append(systemship.uid)
    systemship.carried_by = carrier.uid if carrier is not None else None
    fight.aftermath.append(
        step.event(
            SystemshipTransferred,
            _viewers(step, fight, systemship.owner),
            systemship=systemship.uid,
            star=fight.star,
            from_ship=previous,
            to_ship=systemship.carried_by,
        )
    )


def _drop(step: Step, ships: list[Ship], fight: _Round) -> None:
    """Drops happen as the round is fought: "If the Warpship dropping Systemships is destroyed on
    the round it drops the Systemships, the Systemships are NOT destroyed. If the Warpship
    successfully retreats on the round it drops Systemships, the Systemships stay"."""
    for carrier in ships:
        for name in fight.executed[carrier.uid].drop:
            _transfer(step, fight, step.state.ships[ship_uid(carrier.owner, name)], None)


def _remove_destroyed(step: Step, ships: list[Ship], fight: _Round) -> None:
    """ "Any ship that has received enough hits to reduce all its attributes to zero ... is
    destroyed", and "If a Warpship is destroyed, all Systemships and cargo it was carrying when
    destroyed are also destroyed"."""
    for ship in ships:
        if not ship.destroyed:
            continue
        viewers = _viewers(step, fight, ship.owner)
        for uid in [ship.uid, *ship.carrying]:
            cause = (
                "destroyed in combat" if uid == ship.uid else f"carried by {ship.uid} when it was destroyed"
            )
            fight.destroyed.append(uid)
            fight.aftermath.append(step.event(ShipDestroyed, viewers, ship=uid, hex=fight.star, cause=cause))
        step.remove(ship)


def _survivors(step: Step, ships: list[Ship]) -> list[Ship]:
    alive = step.ships
    return [s for s in ships if s.uid in alive]


def _release_unracked(step: Step, survivors: list[Ship], fight: _Round) -> None:
    """A Systemship whose rack was destroyed is left at the star, unharmed (see ``damage``)."""
    for carrier in survivors:
        for uid in damage.unracked(carrier):
            _transfer(step, fight, step.state.ships[uid], None)
            fight.note(
                uid,
                f"{uid.split('.', 1)[-1]} is left at {fight.star}: its rack on {carrier.name} was destroyed",
            )


def _pick_up(step: Step, survivors: list[Ship], fight: _Round) -> None:
    """ "If a Systemship was to be picked up by a Warpship on a given combat round, but the
    Warpship is destroyed during that round, the Systemship ... remains on the star hex." Nor is
    a destroyed Systemship picked up, nor one for which no undamaged rack is left."""
    for carrier in survivors:
        for name in fight.executed[carrier.uid].pick_up:
            systemship = step.state.ships.get(ship_uid(carrier.owner, name))
            if systemship is None:
                continue
            if carrier.free_racks <= 0:
                fight.note(
                    carrier.uid, f"{carrier.name} could not pick up {name}: no undamaged rack was left"
                )
                continue
            _transfer(step, fight, systemship, carrier)


def _escape(step: Step, survivors: list[Ship], fight: _Round) -> None:
    """ "In order to ESCAPE, a retreating ship must simultaneously obtain the ESCAPE result against
    EACH enemy ship (not Missile) that fired on it." It must also survive the round. It moves to
    an adjacent hex with the Systemships it carries; those it dropped this round stay."""
    for ship in survivors:
        order = fight.executed[ship.uid]
        if order.tactic is not Tactic.RETREAT:
            continue
        if any(result is not Result.ESCAPES for result in fight.results_against.get(ship.uid, {}).values()):
            continue
        destination = retreat_hex(step, fight.star, ship, order.retreat_to)
        if destination is None:
            continue
        _leave(step, fight, ship, destination)
        fight.escaped.append(ship.uid)


def _leave(step: Step, fight: _Round, ship: Ship, destination: str) -> None:
    step.place(ship, destination)
    fight.aftermath.append(
        step.event(
            ShipRetreated,
            _viewers(step, fight, ship.owner),
            ship=ship.uid,
            star=fight.star,
            to=destination,
        )
    )


# --- Telling the players ---


def _tell_round(step: Step, combat: Combat, fight: _Round) -> None:
    """The whole round for the referee's record, and a copy for each player in the fight. Orders
    are shown to both sides ("they show them to each other"), but without another player's
    standing damage priority and ECM policy; the hits each ship took are public (they follow from
    the revealed orders and the CRT), its losses and new record only to its owner ("ship
    attributes are still secret", rules VII). Notes on adjusted orders go to the owner only, since
    they tell what the ship has left."""
    full = step.event(
        CombatRoundResolved,
        (),
        star=fight.star,
        round=combat.round,
        orders=dict(sorted(fight.executed.items())),
        shots=tuple(fight.shots),
        damage=tuple(fight.damage),
        destroyed=tuple(fight.destroyed),
        escaped=tuple(fight.escaped),
        order_notes=dict(sorted(fight.notes.items())),
    )
    step.emit(full)
    for player in fight.players:
        orders = {
            uid: order
            if fight.owners[uid] == player or (order.damage_priority is None and order.ecm_policy is None)
            else updated(order, {"damage_priority": None, "ecm_policy": None})
            for uid, order in full.orders.items()
        }
        damage_shown = tuple(
            d
            if fight.owners[d.ship] == player
            else updated(d, {"losses": NO_LOSSES, "cargo_lost": 0, "record": ""})
            for d in fight.damage
        )
        notes = {uid: n for uid, n in full.order_notes.items() if fight.owners[uid] == player}
        step.emit_redacted(full, (player,), orders=orders, damage=damage_shown, order_notes=notes)


# --- The end of a combat ---


def _players_at(step: Step, star: str) -> list[str]:
    return sorted(set(step.ship_owners_at(star).values()))


def _after_round(step: Step, combat: Combat, fight: _Round) -> bool:
    """Combat ends when one player is left, or after three quiet rounds, when "the player whose
    turn it is must withdraw all his ships from that star hex"."""
    present = _players_at(step, fight.star)
    withdrew = False
    if len(present) > 1 and combat.quiet_rounds >= QUIET_ROUNDS_TO_END:
        _withdraw(step, fight, _withdrawing_player(step, present))
        fight.flush(step)
        combat.quiet_rounds = 0
        withdrew = True
        present = _players_at(step, fight.star)
    if len(present) > 1:
        return False
    reason: EndReason
    if withdrew:
        reason = "withdrawal"
    elif not present:
        reason = "mutual"
    elif fight.escaped and any(fight.owners[uid] not in present for uid in fight.escaped):
        reason = "retreated"
    else:
        reason = "destroyed"
    _end(step, combat, fight.players, present, reason)
    return True


def _withdrawing_player(step: Step, present: list[str]) -> str:
    """The player whose turn it is; should he have no ship there (a fight among others), the
    first player after him in turn order who has."""
    order = [p.id for p in step.state.players]
    start = order.index(step.active_id)
    return next(p for p in order[start:] + order[:start] if p in present)


def _withdraw(step: Step, fight: _Round, player: str) -> None:
    """All his ships go to hexes adjacent to the star. "Systemships are assumed picked up by any
    Warpship the retreating player wishes. If there are no Warpships capable of carrying a
    Systemship, the Systemship is destroyed." The most valuable Systemships get the free racks
    first (Warpships by uid); each Warpship goes where an escape would take it."""
    ships = [s for s in step.ships_at(fight.star) if s.owner == player]
    warpships = [s for s in ships if s.is_warpship]
    loose = sorted(
        (s for s in ships if not s.is_warpship and s.carried_by is None), key=lambda s: (-s.value(), s.uid)
    )
    for systemship in loose:
        carrier = next((w for w in warpships if w.free_racks > 0), None)
        if carrier is not None:
            _transfer(step, fight, systemship, carrier)
            continue
        fight.aftermath.append(
            step.event(
                ShipDestroyed,
                _viewers(step, fight, player),
                ship=systemship.uid,
                hex=fight.star,
                cause="left behind in the withdrawal: no Warpship had a free Systemship Rack",
            )
        )
        step.remove(systemship)
    for warpship in warpships:
        order = fight.executed.get(warpship.uid)
        destination = retreat_hex(step, fight.star, warpship, order.retreat_to if order else None)
        if destination is not None:
            _leave(step, fight, warpship, destination)


def _end(step: Step, combat: Combat, players: list[str], present: list[str], reason: EndReason) -> None:
    """The combat is over: it leaves the list, and the player left holds the star."""
    holder = present[0] if present else None
    step.state.combats = [c for c in step.state.combats if c.star != combat.star]
    viewers = set(players) | set(step.observers(combat.star, holder or step.active_id))
    step.emit(
        step.event(
            CombatEnded,
            tuple(viewers),
            star=combat.star,
            rounds=combat.round - 1,
            reason=reason,
            holder=holder,
        )
    )
    if holder is not None:
        ownership.claim(step, combat.star, holder)
