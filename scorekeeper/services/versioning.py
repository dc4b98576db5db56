"""The protocol every change follows: it claims the session's next version
(so of two phones saving on the same version only one succeeds; the other
gets Conflict), is written to the audit trail with the phone that made it,
records its key if its form carried one (so that it is applied at most
once), and commits once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm.attributes import set_committed_value

from ..audit import SNAPSHOT_FIELDS, Payload, RoundSnapshot, SnapshotEntry
from ..extensions import db
from ..limits import CLOCK_SLACK, DEVICE_MAX, KEY_DAYS, KEY_LIFE, SUBJECT_MAX
from ..models import AuditEvent, ChangeKey, GameSession, Round, utcnow

# Keys deleted at most with each key written: more than one, so that they go
# faster than they come, and few, so that no change waits on a long delete.
FORGET_AT_ONCE = 20


class ServiceError(ValueError):
    """A request that the current state does not allow; the message says why."""


class Conflict(ServiceError):
    """Another phone changed the session after the page this change came from
    was made; ``since`` is the version that page was built on."""

    def __init__(self, since: int) -> None:
        super().__init__("This session was changed from another phone while you were on "
                         "this page: nothing was saved. Check what changed, then save again.")
        self.since = since


class KeyTooOld(ServiceError):
    """The change's form was made longer ago than keys are kept: it may have
    been applied then, and its key deleted since, so it is not applied now."""

    def __init__(self) -> None:
        super().__init__(f"This page was opened more than {KEY_DAYS} days ago: so that no "
                         "change is ever made twice, a form that old is not used, and nothing "
                         "was saved. Check the page as it is now, and make the change again "
                         "if it is still needed.")


@dataclass(frozen=True)
class Once:
    """The key a change's form carried, when that form was made (None: a key
    from before keys told it), and ``answer``: given what the change returns,
    what it answers (ChangeKey.answer), told again to its repeats. A key past
    KEY_LIFE is KeyTooOld as the change is set out, before anything is written."""

    key: str
    made_at: datetime | None
    answer: Callable[[Any], dict]

    def __post_init__(self) -> None:
        if self.made_at is None or self.made_at < utcnow() - KEY_LIFE:
            raise KeyTooOld


class Repeated(Exception):
    """The change was applied already under this key (a double tap, a retry):
    nothing more was written; ``answer`` is what the first one answered."""

    def __init__(self, answer: dict) -> None:
        super().__init__("This change was made already")
        self.answer = answer


def applied(group_id: int, key: str) -> dict | None:
    """What the group's change with this key answered, if it was applied."""
    return db.session.scalar(sa.select(ChangeKey.answer).where(
        ChangeKey.group_id == group_id, ChangeKey.key == key))


def _remember(group_id: int, once: Once | None, result: Any = None, *,
              session: GameSession | None = None) -> None:
    """Record the change's key with its answer, last in its transaction. A
    key taken already (by a repeat, which on PostgreSQL waits here for the
    first to commit) rolls the change back: Repeated, with the first's answer."""
    if once is None:
        return
    db.session.flush()  # the change's own rows first: their errors are not the key's
    try:
        db.session.execute(sa.insert(ChangeKey).values(
            group_id=group_id, session_id=session.id if session else None, key=once.key,
            answer=once.answer(result), made_at=once.made_at))
    except sa.exc.IntegrityError:
        db.session.rollback()
        first = applied(group_id, once.key)
        if first is None:  # a key that is no longer there: not this change's to answer
            raise
        raise Repeated(first) from None
    _forget_old_keys()


def _forget_old_keys() -> None:
    """Delete a few keys that no form can carry any more (of any group), with
    each key written: at most FORGET_AT_ONCE, found by the index on made_at,
    so the table stays at about KEY_LIFE of changes. Only keys refused by
    every app server (CLOCK_SLACK later): a key's row lives as long as the key
    is taken. On PostgreSQL, rows another change is deleting are skipped, not
    waited for."""
    cutoff = utcnow() - KEY_LIFE - CLOCK_SLACK
    old = (sa.select(ChangeKey.id).where(ChangeKey.made_at < cutoff).limit(FORGET_AT_ONCE)
           .with_for_update(skip_locked=True))
    db.session.execute(sa.delete(ChangeKey).where(ChangeKey.id.in_(old.scalar_subquery()))
                       .execution_options(synchronize_session=False))


def _answer_again(group_id: int, once: Once | None, result: Any) -> None:
    """Change what a key answers, for a change that went on in a transaction
    of its own (a hand whose save then saved the round)."""
    if once is not None:
        db.session.execute(sa.update(ChangeKey).where(
            ChangeKey.group_id == group_id, ChangeKey.key == once.key
        ).values(answer=once.answer(result)))
        db.session.commit()


def check_version(session: GameSession, version: int | None, *, fresh: bool = False) -> None:
    """Conflict if the page a change comes from was built on an older version
    of the session than this request read (None: the caller saw the latest).
    ``fresh`` reads the version from the database again, for a page that
    disagrees with what this request loaded a moment ago."""
    current: int | None = session.version
    if fresh:
        current = db.session.scalar(
            sa.select(GameSession.version).where(GameSession.id == session.id))
    if version is not None and version != current:
        raise Conflict(version)


def _claim(session: GameSession, version: int | None) -> None:
    """Take the session's next version for this change, or raise Conflict if
    another phone changed it since ``version``.

    The guarded UPDATE is the transaction's first write: on PostgreSQL it waits
    for a concurrent change to commit and then matches no row; on SQLite it
    takes the database's write lock.
    """
    check_version(session, version)
    claimed = cast(sa.CursorResult, db.session.execute(
        sa.update(GameSession)
        .where(GameSession.id == session.id, GameSession.version == session.version)
        .values(version=GameSession.version + 1)
        .execution_options(synchronize_session=False)
    )).rowcount
    if claimed != 1:
        seen = session.version
        db.session.rollback()
        raise Conflict(version if version is not None else seen)
    set_committed_value(session, "version", session.version + 1)


def _audit(group_id: int, payload: Payload, *, session: GameSession | None = None,
           device: str = "") -> None:
    """Write ``payload`` (an audit.Payload: the action and what it changed) to
    the audit trail, with the session's version and the phone's label."""
    db.session.add(AuditEvent(
        group_id=group_id, session_id=session.id if session else None,
        version=session.version if session else None, device=device[:DEVICE_MAX],
        **event_columns(payload)))


def event_columns(payload: Payload) -> dict:
    """The action, subject, before and after columns of an AuditEvent that
    records ``payload``, for the ORM or a bulk INSERT."""
    before, after = payload.to_json()
    return {"action": payload.action.value, "subject": payload.subject[:SUBJECT_MAX],
            "before": before, "after": after}


def round_snapshot(round_: Round) -> RoundSnapshot:
    """A round as the audit trail keeps it: enough to show it and to restore it."""
    entries = sorted(round_.entries, key=lambda e: e.turn)
    return _snapshot(round_.number, round_.dealer.name,
                     [(e.player.name, {name: getattr(e, name) for name in SNAPSHOT_FIELDS})
                      for e in entries])


def _snapshot(number: int, dealer: str, entries: list[tuple[str, dict]]) -> RoundSnapshot:
    """round_snapshot of a round's number, dealer and (player, values) entries
    in playing order."""
    return RoundSnapshot(number, dealer, tuple(
        SnapshotEntry(player, **{name: values[name] for name in SNAPSHOT_FIELDS})
        for player, values in entries))


@contextmanager
def _saving(session: GameSession, version: int | None) -> Iterator[None]:
    """Commit what the block writes, after _claim. A unique constraint broken
    by a concurrent change, when the block flushes or at the commit, is a
    Conflict."""
    if version is None:
        version = session.version - 1  # the one _claim saw
    try:
        yield
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        raise Conflict(version) from None
