"""Nothing a player sends can raise or corrupt the state: arbitrary orders, at any point of a
real game, give a result for every order and leave every invariant standing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.warpwar.components import Attr, Attributes
from engine.warpwar.invariants import violations
from engine.warpwar.orders import (
    BuildBase,
    BuildShip,
    CombatOrder,
    DropStep,
    EcmPolicy,
    HexStep,
    LoadHold,
    MissileShot,
    Move,
    PickUpStep,
    Rearrange,
    Repair,
    Resupply,
    RoundOrders,
    Scrap,
    SetDamagePriority,
    SetEcmPolicy,
    SetStandingCombatOrder,
    Tactic,
    TurnOrder,
    TurnOrders,
    UnloadHold,
    WarplineStep,
)
from engine.warpwar.state import GameState, Stage, Visibility
from engine.warpwar.turn import submit_round, submit_turn
from tests.engine.builders import robot_game_states


def states() -> tuple[GameState, ...]:
    return robot_game_states(Visibility.OPEN, seed=2, limit=30)


names = st.one_of(st.sampled_from([f"W{i}" for i in range(1, 12)] + [f"S{i}" for i in range(1, 4)]))
hexes = st.sampled_from(["0606", "0307", "0804", "0710", "1011", "2223", "1719", "0505", "0101", "2828"])
small = st.integers(0, 12)
attributes = st.builds(Attributes, **{a.value: small for a in Attr})
targets = st.sampled_from(["Blue.W1", "Red.W1", "Blue.W2", "Red.W3", "W1", "nobody"])
combat_orders = st.builds(
    CombatOrder,
    tactic=st.sampled_from(list(Tactic)),
    drive=small,
    beam=small,
    beam_target=st.none() | targets,
    screen=small,
    ecm=small,
    missiles=st.lists(st.builds(MissileShot, target=targets, drive=st.integers(1, 9)), max_size=4).map(tuple),
    cannons=st.lists(st.integers(1, 3), max_size=3).map(tuple),
    cannon_target=st.none() | targets,
    pick_up=st.lists(names, max_size=2).map(tuple),
    drop=st.lists(names, max_size=2).map(tuple),
    retreat_to=st.none() | hexes,
    damage_priority=st.none() | st.lists(st.sampled_from(list(Attr)), max_size=6).map(tuple),
)
steps = st.one_of(
    st.builds(HexStep, to=hexes),
    st.builds(WarplineStep, to=hexes),
    st.builds(DropStep, systemship=names),
    st.builds(PickUpStep, systemship=names),
)
turn_order = st.one_of(
    st.builds(LoadHold, ship=names, amount=st.integers(1, 40)),
    st.builds(UnloadHold, ship=names, amount=st.integers(1, 40)),
    st.builds(Scrap, ship=names),
    st.builds(BuildShip, at=hexes, warp=st.booleans(), design=attributes, repair_bay=st.booleans()),
    st.builds(BuildBase, at=hexes, amount=st.integers(1, 40)),
    st.builds(Repair, ship=names, amounts=attributes, repair_bay=st.none() | names),
    st.builds(Resupply, ship=names, missiles=small, shells=small),
    st.builds(Move, ship=names, steps=st.lists(steps, min_size=1, max_size=8).map(tuple)),
    st.builds(
        SetDamagePriority, ship=names, priority=st.lists(st.sampled_from(list(Attr)), max_size=12).map(tuple)
    ),
    st.builds(SetEcmPolicy, ship=names, policy=st.sampled_from(list(EcmPolicy))),
    st.builds(SetStandingCombatOrder, ship=names, order=st.none() | combat_orders),
    st.builds(Rearrange, systemship=names, to=st.none() | names),
)


@settings(max_examples=150, deadline=None)
@given(
    index=st.integers(0, 29),
    orders=st.lists(turn_order, max_size=12),
    rounds=st.lists(combat_orders, max_size=6),
)
def test_arbitrary_orders_never_raise_and_never_corrupt_the_state(
    index: int, orders: list[TurnOrder], rounds: list[CombatOrder]
) -> None:
    candidates = states()
    state = candidates[index % len(candidates)]
    if state.stage is Stage.OVER:
        return
    submitted = TurnOrders(player=state.active_player.id, orders=tuple(orders))
    outcome = submit_turn(state, submitted)
    results = list(outcome.results)
    assert violations(outcome.state) == []
    state = outcome.state
    for round_number in range(1, 12):
        if state.stage is not Stage.COMBAT:
            break
        fight = state.combats[0]
        sides = sorted({s.owner for s in state.ships.values() if s.location == fight.star})
        own = {p: [s.name for s in state.own_ships(p) if s.location == fight.star] for p in sides}
        sent = [
            RoundOrders(
                player=p,
                star=fight.star,
                round=fight.round,
                ships={name: rounds[(i + round_number) % len(rounds)] for i, name in enumerate(own[p])}
                if rounds
                else {},
            )
            for p in sides
        ]
        fought = submit_round(state, fight.star, sent)
        results += fought.results
        state = fought.state
        assert violations(state) == []
    # Every order has its answer; rearrangements only once the combats are over
    answered = sorted(r.index for r in results)
    pending = (
        {i for i, o in enumerate(orders) if isinstance(o, Rearrange)}
        if state.stage is Stage.COMBAT
        else set()
    )
    assert answered == [i for i in range(len(orders)) if i not in pending]
    assert GameState.model_validate_json(state.model_dump_json()) == state
