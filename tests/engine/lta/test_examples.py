"""The text's example Zeppelins: their listed Resource Points recomputed, and their slots."""

from __future__ import annotations

import pytest

from engine.lta.examples import EXAMPLES, PrintedShip
from engine.lta.fleet import cost, problems, slots_used
from engine.lta.tables import CARGO, CLASSES, Cargo


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.design.name)
def test_each_example_ships_cost_recomputed_equals_the_texts(example: PrintedShip) -> None:
    assert cost(example.design) == example.listed_cost


def test_the_texts_four_examples_and_totals() -> None:
    assert [(e.design.name, e.listed_cost) for e in EXAMPLES] == [
        ("Blitzkrieger", 70),
        ("Bismark", 139),
        ("Victoria", 132),
        ("Liverpool", 90),
    ]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.design.name)
def test_interpretation_6_each_example_is_exactly_one_slot_over_and_cannot_be_built(
    example: PrintedShip,
) -> None:
    """Interpretation 6: the examples show costs; the Unit Types Table's slots govern a build."""
    assert slots_used(example.design) == CLASSES[example.design.cls].slots + 1
    assert any("cargo slots" in p for p in problems(example.design))


def test_interpretation_7_the_repeated_first_lines_are_reprints_not_second_weapons() -> None:
    """Interpretation 7: read as second weapons, the Liverpool alone would cost 104 > 90."""
    liverpool = next(e for e in EXAMPLES if e.design.name == "Liverpool")
    doubled = liverpool.design.model_copy(
        update={"fittings": (*liverpool.design.fittings, liverpool.design.fittings[0])}
    )
    assert cost(doubled) > liverpool.listed_cost
    assert cost(liverpool.design) == liverpool.listed_cost


def test_interpretation_3_the_example_totals_fix_ammo_patch_engine_and_bombs() -> None:
    """Interpretation 3: with Patch Crew 10, the three examples with unpriced cargo force the rest."""
    patch, engine, bombs, ammo = (
        CARGO[c].cost for c in (Cargo.PATCH_CREW, Cargo.ENGINE, Cargo.BOMBS, Cargo.AMMO)
    )
    assert patch + engine + bombs == 139 - 69 - 6 - 14 - 14 - 18
    assert ammo + 2 * patch == 132 - 59 - 18 - 11 - 14
    assert ammo + engine == 90 - 38 - 14 - 14 - 11
