"""Players' secret codes (functions/mail/codes.py): readable, stored hashed, retyped forgivingly."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from functions.mail.codes import ALPHABET, code_matches, hash_code, new_code, normalise

CODE_FORM = re.compile(rf"[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}-[{ALPHABET}]{{2}}")
LOOK_ALIKES = set("01ILO")


def test_a_new_code_is_grouped_from_the_unambiguous_alphabet() -> None:
    codes = [new_code() for _ in range(200)]

    assert all(CODE_FORM.fullmatch(code) for code in codes)
    assert not LOOK_ALIKES & set(ALPHABET)
    assert len(set(codes)) == len(codes)


def test_the_hash_carries_its_parameters_and_not_the_code() -> None:
    code = "K7QM-9XDA-2P"

    hashed = hash_code(code)

    assert hashed.split("$")[:4] == ["scrypt", "1024", "8", "1"]
    assert "K7QM" not in hashed
    assert hash_code(code) != hashed  # a fresh salt each time


@pytest.mark.parametrize(
    "typed",
    [
        "K7QM-9XDA-2P",
        "k7qm-9xda-2p",
        "K7QM9XDA2P",
        " k7qm 9xda 2p ",
        "K7QM\u20139XDA\u20142P",
        "K7QM\xa09XDA 2P",
    ],
    ids=["as-given", "lower", "no-dashes", "spaces", "smart-dashes", "nbsp"],
)
def test_a_code_retyped_as_players_do_matches(typed: str) -> None:
    assert code_matches(typed, hash_code("K7QM-9XDA-2P"))


def test_a_hash_made_with_the_earlier_work_factor_still_matches() -> None:
    # Given a code hashed with n = 2**12, the work factor before it was lowered
    stored = "scrypt$4096$8$1$AAECAwQFBgcICQoLDA0ODw==$" + _b64(
        hashlib.scrypt(b"K7QM9XDA2P", salt=bytes(range(16)), n=4096, r=8, p=1, dklen=32)
    )

    # Then the parameters it carries verify it, and only its own code
    assert code_matches("k7qm-9xda-2p", stored)
    assert not code_matches("K7QM-9XDA-2Q", stored)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@pytest.mark.parametrize(
    "typed",
    [
        "K7QM-9XDA-2Q", "K7QM-9XDA", "K7QM-9XDA-2P2", "", "K7QM.9XDA.2P",
        # control characters, even those normalising would drop as white space
        "K7QM-9XDA-2P\x00", "K7QM\x1c-9XDA-2P", "K7QM-9XDA\x1f-2P", "K7QM-\x0b9XDA-2P", "\x85K7QM-9XDA-2P",
        "K7QM\u2028-9XDA-2P", "K7QM-9XDA\u2029-2P",
    ],
)  # fmt: skip
def test_another_code_does_not_match(typed: str) -> None:
    assert not code_matches(typed, hash_code("K7QM-9XDA-2P"))


@pytest.mark.parametrize(
    "hashed",
    [
        "",
        "plain-text-code",
        "bcrypt$4096$8$1$c2FsdA==$aGFzaA==",
        "scrypt$4095$8$1$c2FsdA==$aGFzaA==",
        "scrypt$1073741824$8$1$c2FsdA==$aGFzaA==",
        "scrypt$4096$8$1$not base64!$aGFzaA==",
        "scrypt$4096$8$1$c2FsdA==",
        "scrypt$x$8$1$c2FsdA==$aGFzaA==",
        "scrypt$4096$64$64$c2FsdA==$aGFzaA==",
    ],
)
def test_a_malformed_or_hostile_hash_matches_nothing_and_never_raises(hashed: str) -> None:
    assert not code_matches("K7QM-9XDA-2P", hashed)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_every_new_code_matches_its_hash_however_it_is_retyped(data: st.DataObject) -> None:
    code = new_code()
    retyped = "".join(
        data.draw(st.sampled_from([char, char.lower(), f" {char}", f"{char}-"]))
        for char in code.replace("-", "")
    )

    assert code_matches(retyped, hash_code(code))


@settings(max_examples=25, deadline=None)
@given(st.text(alphabet=ALPHABET + ALPHABET.lower() + "- ", max_size=14))
@example("k7qm 9xda-2p")
def test_a_typed_code_matches_exactly_when_it_normalises_to_the_code(typed: str) -> None:
    code = "K7QM-9XDA-2P"

    assert code_matches(typed, hash_code(code)) == (normalise(typed) == normalise(code))
