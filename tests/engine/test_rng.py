"""The engine's dice: a pinned SplitMix64 stream, unbiased bounded draws, derived streams."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.rng import Rng

seeds = st.integers(min_value=-(2**70), max_value=2**70)


def test_stream_is_pinned_to_the_splitmix64_reference_outputs() -> None:
    # Given the published SplitMix64 reference values (Vigna's splitmix64.c, Rosetta Code)
    # When the generator is seeded with 1234567 and with 0
    # Then its first outputs are exactly those, so replays can never drift
    rng = Rng(1234567)
    assert [rng.next_u64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_dice_and_derived_streams_are_pinned() -> None:
    # Given seed 42 and seed 1234567
    # When dice are rolled and a child stream is derived
    # Then the results are the recorded ones (the die and derivation methods cannot drift)
    rng = Rng(42)
    assert [rng.d(6) for _ in range(12)] == [2, 2, 1, 1, 5, 1, 2, 3, 2, 3, 6, 5]
    child = Rng(1234567).derive("stars")
    assert child.seed == 17283469968415563940
    assert [child.next_u64() for _ in range(2)] == [17750437084381699231, 908124666807477296]


def test_randint_rejects_raw_draws_past_the_last_whole_span() -> None:
    # Given a span of 3 * 2**62 + 1, which leaves a quarter of the raw outputs as a biased tail
    # When randint draws from it
    # Then it returns exactly the raw outputs below the span, skipping the others
    span = 3 * 2**62 + 1
    raw = Rng(42)
    expected = [x for x in (raw.next_u64() for _ in range(40)) if x < span][:10]
    rng = Rng(42)
    assert [rng.randint(0, span - 1) for _ in range(10)] == expected


@settings(max_examples=50)
@given(seed=seeds, lo=st.integers(-1000, 1000), width=st.integers(0, 50))
def test_randint_stays_within_its_inclusive_bounds(seed: int, lo: int, width: int) -> None:
    # Given any seed and bounds lo..hi
    # When randint is drawn repeatedly
    # Then every result lies in lo..hi inclusive
    rng = Rng(seed)
    assert all(lo <= rng.randint(lo, lo + width) <= lo + width for _ in range(20))


def test_a_die_shows_every_face_about_equally_often() -> None:
    # Given 60,000 rolls of 1d6
    # When the faces are counted
    # Then all six appear within 5% of the expected 10,000 each
    rng = Rng(7)
    counts = Counter(rng.d(6) for _ in range(60_000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert all(9_500 <= n <= 10_500 for n in counts.values())


@settings(max_examples=30)
@given(seed=seeds)
def test_2d6_sums_two_dice(seed: int) -> None:
    # Given any seed
    # When 2d6 is rolled
    # Then the total lies in 2..12 and no dice total 0
    rng = Rng(seed)
    assert all(2 <= rng.roll(2, 6) <= 12 for _ in range(20))
    assert rng.roll(0, 6) == 0


def test_a_1_in_12_chance_comes_up_about_once_in_12() -> None:
    # Given 24,000 tries of a 1 in 12 chance, and of certain and impossible odds
    # When they are counted
    # Then about 2,000 succeed, certainty always does and impossibility never
    rng = Rng(12)
    hits = sum(rng.chance(1, 12) for _ in range(24_000))
    assert 1_800 <= hits <= 2_200
    assert all(rng.chance(3, 3) for _ in range(50))
    assert not any(rng.chance(0, 3) for _ in range(50))


@settings(max_examples=30)
@given(seed=seeds, items=st.lists(st.integers(), min_size=1, max_size=20))
def test_choice_and_shuffle_use_the_given_items(seed: int, items: list[int]) -> None:
    # Given any seed and a list
    # When choosing from it and shuffling it
    # Then the choice is one of the items, the shuffle a new permutation, the list untouched
    before = list(items)
    rng = Rng(seed)
    assert rng.choice(items) in items
    shuffled = rng.shuffle(items)
    assert shuffled is not items
    assert sorted(shuffled) == sorted(items)
    assert items == before


def test_shuffle_is_deterministic_for_a_seed() -> None:
    # Given the same seed twice
    # When the same list is shuffled
    # Then the orders agree (and differ from another seed's)
    assert Rng(5).shuffle(range(30)) == Rng(5).shuffle(range(30))
    assert Rng(5).shuffle(range(30)) != Rng(6).shuffle(range(30))


@settings(max_examples=30)
@given(seed=seeds, draws=st.integers(0, 10))
def test_a_derived_stream_depends_on_the_seed_and_label_only(seed: int, draws: int) -> None:
    # Given a parent stream that has made some draws
    # When a child is derived by label
    # Then it equals the child derived before any draw, and differs from other labels' children
    parent = Rng(seed)
    fresh = parent.derive("warplines")
    for _ in range(draws):
        parent.next_u64()
    later = parent.derive("warplines")
    assert [fresh.next_u64() for _ in range(3)] == [later.next_u64() for _ in range(3)]
    assert Rng(seed).derive("names").next_u64() != Rng(seed).derive("warplines").next_u64()


def test_seeds_are_taken_modulo_2_to_the_64() -> None:
    # Given seeds -1 and 2**64 - 1
    # When each seeds a stream
    # Then the streams are the same
    a, b = Rng(-1), Rng(2**64 - 1)
    assert a.seed == b.seed
    assert [a.next_u64() for _ in range(3)] == [b.next_u64() for _ in range(3)]


def test_impossible_requests_are_refused() -> None:
    # Given bad arguments
    # When they are passed
    # Then ValueError is raised rather than a quietly wrong draw
    rng = Rng(1)
    requests: list[Callable[[], object]] = [
        lambda: rng.randint(3, 2),
        lambda: rng.randint(0, 2**64),
        lambda: rng.d(0),
        lambda: rng.roll(-1, 6),
        lambda: rng.chance(5, 4),
        lambda: rng.chance(1, 0),
        lambda: rng.choice([]),
    ]
    for bad in requests:
        with pytest.raises(ValueError):
            bad()
