"""The limit on passphrase guesses, counted in the app's own database.

Every worker and every app server reads and writes the same rows, and the
counts outlive restarts, so "10 per 15 minutes" means just that however the
app is served. A guess is counted before its passphrase is checked, and the
count is read only after it is committed: guesses racing in on several
workers see each other, so no more than the limit is ever checked. A right
passphrase takes its guess back; a wrong one stays counted for the window.
"""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from ..extensions import db
from ..models import PassphraseGuess, utcnow

_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_LIMIT = re.compile(r"\s*(\d+)\s*(?:per|/)\s*(\d+)?\s*(second|minute|hour|day)s?\s*$")


@dataclass(frozen=True)
class Limit:
    guesses: int
    window: timedelta

    @classmethod
    def parse(cls, text: str) -> "Limit":
        """``"10 per 15 minutes"``, as SIGN_IN_LIMIT is written."""
        match = _LIMIT.match(text)
        if match is None:
            raise ValueError(f"SIGN_IN_LIMIT: {text!r} is not like '10 per 15 minutes'")
        count, length, unit = match.groups()
        return cls(int(count), timedelta(seconds=int(length or 1) * _UNITS[unit]))


class TooManyGuesses(Exception):
    """The limit is reached for one of the keys; ``retry_after`` in seconds."""

    def __init__(self, retry_after: int):
        super().__init__(f"too many passphrase guesses: retry in {retry_after} s")
        self.retry_after = retry_after


class Guess:
    """One passphrase check under way, counted against every key it names."""

    def __init__(self, ids: list[int]):
        self._ids = ids

    def was_right(self) -> None:
        """The passphrase was right: the guess no longer counts."""
        _forget(self._ids)
        self._ids = []


@contextmanager
def guessing(limit: Limit, *keys: str) -> Iterator[Guess]:
    """Count a guess against each key, then let it be checked; TooManyGuesses
    (with nothing counted) when one of the keys has had its limit already.
    Commits the database session: call it before anything else is written.
    With no key, nothing is counted."""
    if not keys:
        yield Guess([])
        return
    now = utcnow()
    since = now - limit.window
    db.session.execute(sa.delete(PassphraseGuess).where(PassphraseGuess.at <= since))
    ids = [db.session.execute(sa.insert(PassphraseGuess).values(key=key, at=now)
                              .returning(PassphraseGuess.id)).scalar_one() for key in keys]
    db.session.commit()  # before counting, so that guesses racing in see this one
    counts = db.session.execute(
        sa.select(PassphraseGuess.key, sa.func.count(), sa.func.min(PassphraseGuess.at))
        .where(PassphraseGuess.key.in_(keys), PassphraseGuess.at > since)
        .group_by(PassphraseGuess.key)).all()
    full = [oldest for _, count, oldest in counts if count > limit.guesses]
    if full:
        _forget(ids)
        raise TooManyGuesses(_seconds_until(max(full) + limit.window, now))
    yield Guess(ids)


def _forget(ids: list[int]) -> None:
    if ids:
        db.session.execute(sa.delete(PassphraseGuess).where(PassphraseGuess.id.in_(ids)))
        db.session.commit()


def _seconds_until(moment: datetime, now: datetime) -> int:
    return max(1, int((moment - now).total_seconds()) + 1)
