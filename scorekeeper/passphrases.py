"""Passphrase hashes: Argon2id for new ones, werkzeug's for those made before.

Argon2id with OWASP's first recommended setting (19 MiB of memory, 2 passes,
1 lane) costs about 27 ms of CPU here and resists guessing from a stolen
database at least as well as werkzeug's scrypt default (N=2^15, r=8, p=1:
32 MiB, about 110 ms), which is a quarter of OWASP's minimum for scrypt.
Hashes made earlier stay as they are and still verify: rehashing one would
change it, and the hash is part of every phone's cookie and every share link.
"""

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from werkzeug.security import check_password_hash, generate_password_hash

ARGON2ID = "argon2id"
_ARGON2 = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


def hash_passphrase(passphrase: str, method: str = ARGON2ID) -> str:
    """A new hash; ``method`` is "argon2id" or one of werkzeug's (tests use a
    quick one)."""
    if method == ARGON2ID:
        return _ARGON2.hash(passphrase)
    return generate_password_hash(passphrase, method=method)


def passphrase_matches(stored: str, passphrase: str) -> bool:
    """Whether ``passphrase`` is the one ``stored`` was made from, whichever
    method made it."""
    if stored.startswith("$argon2"):
        try:
            return _ARGON2.verify(stored, passphrase)
        except (VerificationError, InvalidHashError):
            return False
    return check_password_hash(stored, passphrase)
