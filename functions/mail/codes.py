"""Players' secret codes: made, stored hashed, and checked the way players retype them.

A code is 10 characters from an alphabet with no look-alikes (no 0/O, 1/I/L), grouped for
reading aloud and retyping: ``K7QM-9XDA-2P``. That is 31**10, about 2**49.5, codes.

Stored as ``scrypt$<n>$<r>$<p>$<salt>$<hash>`` (salt and hash base64). The parameters travel
with each hash, so they can be changed without invalidating stored codes: hashes made with the
earlier n = 2**12 still verify.

The work factor is small (n = 2**10, r = 8: 1 MiB and about 4 ms per check) because a code is
random, not a password a person chose. Key stretching exists to slow the guessing of secrets
with little entropy, whose likely candidates are few; a code has 2**49.5 equally likely values,
so someone holding a stolen hash needs 2**48.5 scrypt runs on average: at 4 ms each, some 36,000
core-years for one code, and a thousand-fold faster attacker still needs decades. What such a
code would unlock is one player's orders in a game whose table the attacker has already read.
Guessing by mail is bounded by the mail rate, not by the hash. A larger n buys nothing then,
and costs time on the inbound path, whose whole budget is 100 ms at the 95th percentile (n =
2**12 took 15-25 ms there: benchmarks/inbound_mail.py).

Checking forgives what players do when retyping: lower case, dashes of any kind (a mail client
may turn ``-`` into an en dash), spaces and other white space; it compares in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 10
GROUPS = (4, 4, 2)
SCHEME = "scrypt"
N, R, P = 2**10, 8, 1
SALT_BYTES = 16
HASH_BYTES = 32
UNTYPED = frozenset({"Cc", "Zl", "Zp"})
"""Unicode categories no person types into a code (a tab aside)."""
MAX_N = 2**20
"""A stored hash asking for more work than this is refused, not computed (a damaged or hostile
record must not make a check take seconds or exhaust memory)."""


def new_code() -> str:
    """A fresh random code, grouped: ``K7QM-9XDA-2P``."""
    code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    groups, start = [], 0
    for size in GROUPS:
        groups.append(code[start : start + size])
        start += size
    return "-".join(groups)


def normalise(code: str) -> str:
    """``code`` as compared: upper case, without white space or dashes of any kind."""
    folded = unicodedata.normalize("NFKC", code).upper()
    return "".join(char for char in folded if not char.isspace() and unicodedata.category(char) != "Pd")


def hash_code(code: str) -> str:
    """``code`` hashed with a fresh salt, for storing (see the module doc for the format)."""
    salt = secrets.token_bytes(SALT_BYTES)
    digest = _scrypt(normalise(code), salt, N, R, P)
    return "$".join((SCHEME, str(N), str(R), str(P), _b64(salt), _b64(digest)))


def code_matches(code: str, hashed: str) -> bool:
    """Whether ``code``, as a player typed it, is the code ``hashed`` was made from. False
    for a malformed or unknown ``hashed`` (never raises), and for a code holding a control
    character or a line or paragraph separator: nobody types one, and ``normalise`` would drop
    those that count as white space."""
    if any(unicodedata.category(char) in UNTYPED and char != "\t" for char in code):
        return False
    try:
        scheme, n, r, p, salt, digest = hashed.split("$")
        if scheme != SCHEME or not 1 < int(n) <= MAX_N or int(r) * int(p) > 64:
            return False
        expected = base64.b64decode(digest, validate=True)
        computed = _scrypt(normalise(code), base64.b64decode(salt, validate=True), int(n), int(r), int(p))
    except ValueError:
        return False
    return hmac.compare_digest(computed, expected)


def _scrypt(code: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        code.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=HASH_BYTES, maxmem=256 * 1024 * 1024
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
