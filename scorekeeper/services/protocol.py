"""The protocol every change follows, run by one construct, ``applying``.

A request hands the service a Change: the group, the session it changes
(None: the group's own change), the session's version the phone's page was
built on, the key its form carried, and the phone. The service writes its
rows inside ``with applying(change) as done``: entering claims the
session's next version (so of two phones saving on the same version only
one succeeds; the other gets Conflict); the block says what the change did
(``done.audit``, the audit trail with the phone that made it) and what it
returns (``done.result``); leaving writes the key with the answer its
repeats get (so the change is applied at most once) and commits, once. A
block that audits nothing is refused, and an error anywhere rolls the
whole change back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm.attributes import set_committed_value

from ..audit import Payload
from ..extensions import db
from ..limits import CLOCK_SLACK, DEVICE_MAX, KEY_DAYS, KEY_LIFE, SUBJECT_MAX
from ..models import AuditEvent, ChangeKey, GameSession, Group, new_ledger_stamp, table, utcnow

# Keys deleted at most with each key written: more than one, so that they go
# faster than they come, and few, so that no change waits on a long delete.
FORGET_AT_ONCE = 20


def N_(message: str) -> str:
    """Marks a service's message for the catalog (pybabel's default keyword):
    services have no language, the web layer translates it when it shows it
    (web/presenters/refusals.py), in the reader's language."""
    return message


class ServiceError(ValueError):
    """A request that the current state does not allow; ``message`` (English,
    marked with N_, ``%(name)s`` placeholders) with its ``values`` says why."""

    def __init__(self, message: str, /, **values: object) -> None:
        super().__init__(message % values if values else message)
        self.message = message
        self.values = values


class Conflict(ServiceError):
    """Another phone changed the session after the page this change came from
    was made; ``since`` is the version that page was built on."""

    def __init__(self, since: int) -> None:
        super().__init__(N_("This session was changed from another phone while you were on "
                            "this page: nothing was saved. Check what changed, then save "
                            "again."))
        self.since = since


class KeyTooOld(ServiceError):
    """The change's form was made longer ago than keys are kept: it may have
    been applied then, and its key deleted since, so it is not applied now."""

    def __init__(self) -> None:
        super().__init__(N_("This page was opened more than %(days)s days ago: so that no "
                            "change is ever made twice, a form that old is not used, and "
                            "nothing was saved. Check the page as it is now, and make the "
                            "change again if it is still needed."), days=KEY_DAYS)


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


@dataclass(frozen=True)
class Change:
    """What a request brings to a change, made once from it (web/once.py):
    the group; the session it changes, if it changes one; ``seen``, the
    session's version the phone's page was built on (None: the latest);
    ``once``, the key its form carried (None: it carried none); and the
    phone: its name, its player if it said whose it is, and its sign-in's
    public id (``phone``, kept on the session as the one that changed it last)."""

    group: Group
    session: GameSession | None = None
    seen: int | None = None
    once: Once | None = None
    device: str = ""
    player_id: int | None = None
    phone: str = ""

    @classmethod
    def to(cls, session: GameSession, *, seen: int | None = None, once: Once | None = None,
           device: str = "", player_id: int | None = None, phone: str = "") -> Change:
        """A change of ``session``."""
        return cls(session.group, session, seen, once, device, player_id, phone)


class Applying:
    """A change being written (see ``applying``): ``session`` is the one its
    events and key belong to (a session started sets its own), ``result``
    what it returns, from which its key's answer is made."""

    def __init__(self, change: Change, *, claim: bool, audited: bool,
                 moves_money: bool = False) -> None:
        self.change = change
        self.session = change.session
        self.result: Any = None
        self._group_id = change.group.id
        self._claiming = claim and change.session is not None
        self._since: int | None = None  # the version claimed from
        self._audited = not audited  # True once audited, or if nothing is to be
        self._moves_money = moves_money

    def __enter__(self) -> Applying:
        if self._claiming:
            assert self.session is not None
            self._since = _claim(self.session, self.change.seen, self.change.phone,
                                 self._moves_money)
        if self._claiming or self._moves_money:
            _restamp(self.change.group)
        return self

    def audit(self, payload: Payload) -> None:
        """Write ``payload`` (what the change did) to the audit trail with the
        phone's name; a session's action with the session and its version."""
        db.session.add(AuditEvent(group_id=self._group_id, **self._columns(payload)))
        self._audited = True

    def event_row(self, payload: Payload) -> dict:
        """``payload`` as the change's event, a row for ``audit_rows``."""
        return {"at": utcnow(), **self._columns(payload)}

    def _columns(self, payload: Payload) -> dict:
        session = None if payload.action.of_group else self.session
        if not payload.action.of_group and session is None:
            raise RuntimeError(f"{payload.action} is a session's change: which session?")
        return {"session_id": session.id if session else None,
                "version": session.version if session else None,
                "device": self.change.device[:DEVICE_MAX], **event_columns(payload)}

    def audit_rows(self, rows: list[dict]) -> None:
        """Write events in one statement: events made already (a backup's,
        demo play's) and the change's own (``event_row``); each row
        AuditEvent's columns but the group's."""
        if rows:
            db.session.execute(sa.insert(table(AuditEvent)),
                               [{**row, "group_id": self._group_id} for row in rows])
            self._audited = True

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            if not self._audited:
                db.session.rollback()
                raise RuntimeError("A change is written to the audit trail: nothing was saved")
            try:
                _remember(self._group_id, self.change.once, self.result, self.session)
                db.session.commit()
            except sa.exc.IntegrityError:
                db.session.rollback()
                if self._since is None:
                    raise
                raise Conflict(self._since) from None
            return
        db.session.rollback()
        if issubclass(kind, sa.exc.IntegrityError):
            # A unique constraint broken by a concurrent change: this one's
            # repeat, applied meanwhile (a row made from its key, say: an
            # invite's token), or another phone's.
            first = applied(self._group_id, self.change.once.key) if self.change.once else None
            if first is not None:
                raise Repeated(first) from None
            if self._since is not None:
                raise Conflict(self._since) from None


def applying(change: Change, *, claim: bool = True, audited: bool = True,
             moves_money: bool = False) -> Applying:
    """The protocol around a change's writes (``with applying(change) as
    done:``). ``claim=False``: the session's version stays (a share link,
    which no page of the session shows; a hand, which takes the session's
    draft version itself). ``audited=False`` is for a hand alone: its round
    is audited when it is saved. ``moves_money``: the change moves the
    session's balances (its rounds, its rules), so it is settled no more,
    written by the claim itself; or, for the group's change, a payment.
    A change claiming a session, or moving money, gives the group a new
    ledger stamp (Group.ledger_stamp)."""
    return Applying(change, claim=claim, audited=audited, moves_money=moves_money)


def applied(group_id: int, key: str) -> dict | None:
    """What the group's change with this key answered, if it was applied."""
    return db.session.scalar(sa.select(ChangeKey.answer).where(
        ChangeKey.group_id == group_id, ChangeKey.key == key))


def _remember(group_id: int, once: Once | None, result: Any,
              session: GameSession | None) -> None:
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
    # Materialized, so that PostgreSQL picks the keys once: a plan that scans
    # a subquery again (as the statistics change) skips the rows this DELETE
    # has just removed and takes the next ones, deleting more than it should.
    old = (sa.select(ChangeKey.id).where(ChangeKey.made_at < cutoff).limit(FORGET_AT_ONCE)
           .with_for_update(skip_locked=True).cte("old_keys")
           .prefix_with("MATERIALIZED", dialect="postgresql"))
    db.session.execute(sa.delete(ChangeKey).where(ChangeKey.id.in_(sa.select(old.c.id)))
                       .execution_options(synchronize_session=False))


def answer_again(change: Change, result: Any) -> None:
    """Change what the change's key answers, for a change that went on in a
    transaction of its own (a hand whose save then saved the round)."""
    if change.once is not None:
        db.session.execute(sa.update(ChangeKey).where(
            ChangeKey.group_id == change.group.id, ChangeKey.key == change.once.key
        ).values(answer=change.once.answer(result)))
        db.session.commit()


def check_version(session: GameSession, version: int | None, *, fresh: bool = False) -> None:
    """Conflict if the page a change comes from was built on an older version
    of the session than this request read (None: the caller saw the latest),
    for a page that checks before it does the work (the claim checks again).
    ``fresh`` reads the version from the database again, for a page that
    disagrees with what this request loaded a moment ago."""
    current: int | None = session.version
    if fresh:
        current = db.session.scalar(
            sa.select(GameSession.version).where(GameSession.id == session.id))
    if version is not None and version != current:
        raise Conflict(version)


def _claim(session: GameSession, version: int | None, phone: str,
           unsettle: bool = False) -> int:
    """Take the session's next version for this change, in the name of
    ``phone``, or raise Conflict if another phone changed it since
    ``version``; the version claimed from.

    The guarded UPDATE is the transaction's first write: on PostgreSQL it waits
    for a concurrent change to commit and then matches no row; on SQLite it
    takes the database's write lock.
    """
    check_version(session, version)
    seen = session.version
    claimed = cast(sa.CursorResult, db.session.execute(
        sa.update(GameSession)
        .where(GameSession.id == session.id, GameSession.version == seen)
        .values(version=GameSession.version + 1, changed_by=phone,
                **({"settled": False} if unsettle else {}))
        .execution_options(synchronize_session=False)
    )).rowcount
    if claimed != 1:
        db.session.rollback()
        raise Conflict(version if version is not None else seen)
    set_committed_value(session, "version", seen + 1)
    set_committed_value(session, "changed_by", phone)
    if unsettle:
        set_committed_value(session, "settled", False)
    return seen


def _restamp(group: Group) -> None:
    """A new ledger stamp for the group (Group.ledger_stamp): what its money
    pages read may be otherwise after this change. After the session's
    claim, so that on PostgreSQL two changes of a session meet there first."""
    stamp = new_ledger_stamp()
    db.session.execute(sa.update(Group).where(Group.id == group.id)
                       .values(ledger_stamp=stamp)
                       .execution_options(synchronize_session=False))
    set_committed_value(group, "ledger_stamp", stamp)


def event_columns(payload: Payload) -> dict:
    """The action, subject, before and after columns of an AuditEvent that
    records ``payload``, for the ORM or a bulk INSERT."""
    before, after = payload.to_json()
    return {"action": payload.action.value, "subject": payload.subject[:SUBJECT_MAX],
            "before": before, "after": after}
