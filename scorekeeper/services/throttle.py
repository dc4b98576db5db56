"""Limits on attempts (passphrase guesses, groups created, backups imported),
counted in the app's own database.

Every worker and every app server reads and writes the same rows, and the
counts outlive restarts, so "10 per 15 minutes" means just that however the
app is served. An attempt is counted before it is made, and the count is read
only after it is committed: attempts racing in on several workers see each
other, so no more than the limit is ever made. Each row is kept until its
window ends; every count first deletes the rows whose window has ended.
"""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from ..extensions import db
from ..models import Attempt, utcnow

_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_LIMIT = re.compile(r"\s*(\d+)\s*(?:per|/)\s*(\d+)?\s*(second|minute|hour|day)s?\s*$")


@dataclass(frozen=True)
class Limit:
    attempts: int
    window: timedelta

    @classmethod
    def parse(cls, text: str, setting: str = "SIGN_IN_LIMIT") -> "Limit":
        """``"10 per 15 minutes"``, as the limits' settings are written."""
        match = _LIMIT.match(text)
        if match is None:
            raise ValueError(f"{setting}: {text!r} is not like '10 per 15 minutes'")
        count, length, unit = match.groups()
        return cls(int(count), timedelta(seconds=int(length or 1) * _UNITS[unit]))


class LimitReached(Exception):
    """The limit is reached for one of the keys; ``retry_after`` in seconds."""

    def __init__(self, retry_after: int):
        super().__init__(f"limit reached: retry in {retry_after} s")
        self.retry_after = retry_after


class TooManyGuesses(LimitReached):
    """Past the sign-in limit: no passphrase is checked."""


class Counted:
    """One attempt, counted against every key it names."""

    def __init__(self, ids: list[int]):
        self._ids = ids

    def take_back(self) -> None:
        """The attempt no longer counts (a right passphrase)."""
        _forget(self._ids)
        self._ids = []


def count(*limits: tuple[str, Limit]) -> Counted:
    """Count an attempt against each key, under that key's limit; LimitReached
    (with nothing counted) when one of them has had its limit already.
    Commits the database session: call it before anything else is written.
    A key is always to be counted under the same limit."""
    now = utcnow()
    db.session.execute(sa.delete(Attempt).where(Attempt.until <= now))
    ids = [db.session.execute(sa.insert(Attempt).values(key=key, until=now + limit.window)
                              .returning(Attempt.id)).scalar_one() for key, limit in limits]
    db.session.commit()  # before counting, so that attempts racing in see this one
    counts = db.session.execute(
        sa.select(Attempt.key, sa.func.count(), sa.func.min(Attempt.until))
        .where(Attempt.key.in_([key for key, _ in limits]), Attempt.until > now)
        .group_by(Attempt.key)).all()
    allowed = dict(limits)
    full = [first_free for key, made, first_free in counts if made > allowed[key].attempts]
    if full:
        _forget(ids)
        raise LimitReached(_seconds_until(max(full), now))
    return Counted(ids)


@contextmanager
def guessing(limit: Limit, *keys: str) -> Iterator[Counted]:
    """A passphrase check, counted against each key under the sign-in limit
    (TooManyGuesses if one is past it); a right passphrase takes its guess
    back. With no key, nothing is counted."""
    if not keys:
        yield Counted([])
        return
    try:
        guess = count(*((key, limit) for key in keys))
    except LimitReached as full:
        raise TooManyGuesses(full.retry_after) from None
    yield guess


def _forget(ids: list[int]) -> None:
    if ids:
        db.session.execute(sa.delete(Attempt).where(Attempt.id.in_(ids)))
        db.session.commit()


def _seconds_until(moment: datetime, now: datetime) -> int:
    return max(1, int((moment - now).total_seconds()) + 1)
