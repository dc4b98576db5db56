"""Passphrase hashes: Argon2id for new ones, werkzeug's for those made before.

Argon2id with OWASP's first recommended setting (19 MiB of memory, 2 passes,
1 lane) costs about 27 ms of CPU here and resists guessing from a stolen
database at least as well as werkzeug's scrypt default (N=2^15, r=8, p=1:
32 MiB, about 110 ms), which is a quarter of OWASP's minimum for scrypt.
Hashes made earlier stay as they are and still verify: rehashing one would
change it, and the hash is part of every phone's cookie and every share link.

The phones at a table sign in with the same passphrase within seconds of each
other, so a process remembers the passphrases it has verified, as a keyed
digest under a key that never leaves its memory (as Apache's
mod_authn_socache does): the same passphrase again is checked against that
digest in microseconds. A wrong passphrase is never remembered, so each wrong
guess still costs a full hash.
"""

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from werkzeug.security import check_password_hash, generate_password_hash

ARGON2ID = "argon2id"
_ARGON2 = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)

VERIFIED_KEPT = 1024  # hashes whose passphrase a process remembers, least recent dropped
_verified_key = secrets.token_bytes(32)
_verified: OrderedDict[str, bytes] = OrderedDict()  # stored hash -> digest of its passphrase
_verified_lock = threading.Lock()


def hash_passphrase(passphrase: str, method: str = ARGON2ID) -> str:
    """A new hash; ``method`` is "argon2id" or one of werkzeug's (tests use a
    quick one)."""
    if method == ARGON2ID:
        return _ARGON2.hash(passphrase)
    return generate_password_hash(passphrase, method=method)


def passphrase_matches(stored: str, passphrase: str) -> bool:
    """Whether ``passphrase`` is the one ``stored`` was made from, whichever
    method made it."""
    digest = hmac.new(_verified_key, passphrase.encode(), hashlib.sha256).digest()
    with _verified_lock:
        known = _verified.get(stored)
        if known is not None and hmac.compare_digest(known, digest):
            _verified.move_to_end(stored)
            return True
    if not _hash_matches(stored, passphrase):
        return False
    with _verified_lock:
        _verified[stored] = digest
        _verified.move_to_end(stored)
        while len(_verified) > VERIFIED_KEPT:
            _verified.popitem(last=False)
    return True


def _hash_matches(stored: str, passphrase: str) -> bool:
    if stored.startswith("$argon2"):
        try:
            return _ARGON2.verify(stored, passphrase)
        except (VerificationError, InvalidHashError):
            return False
    return check_password_hash(stored, passphrase)
