"""The protocol every change follows: it claims the session's next version
(so of two phones saving on the same version only one succeeds; the other
gets Conflict), is written to the audit trail with the phone that made it,
and commits once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from sqlalchemy.orm.attributes import set_committed_value

from ..extensions import db
from ..limits import DEVICE_MAX
from ..models import AuditEvent, GameSession, Round


class ServiceError(ValueError):
    """A request that the current state does not allow; the message says why."""


class Conflict(ServiceError):
    """Another phone changed the session after the page this change came from
    was made; ``since`` is the version that page was built on."""

    def __init__(self, since: int | None) -> None:
        super().__init__("This session was changed from another phone while you were on "
                         "this page: nothing was saved. Check what changed, then save again.")
        self.since = since


def _check_version(session: GameSession, version: int | None) -> None:
    """Conflict if the page a change comes from was built on an older version
    of the session than this request read (None: the caller saw the latest)."""
    if version is not None and version != session.version:
        raise Conflict(version)


def _claim(session: GameSession, version: int | None) -> None:
    """Take the session's next version for this change, or raise Conflict if
    another phone changed it since ``version``.

    The guarded UPDATE is the transaction's first write: on PostgreSQL it waits
    for a concurrent change to commit and then matches no row; on SQLite it
    takes the database's write lock.
    """
    _check_version(session, version)
    claimed = db.session.execute(
        sa.update(GameSession)
        .where(GameSession.id == session.id, GameSession.version == session.version)
        .values(version=GameSession.version + 1)
        .execution_options(synchronize_session=False)
    ).rowcount
    if claimed != 1:
        seen = session.version
        db.session.rollback()
        raise Conflict(version if version is not None else seen)
    set_committed_value(session, "version", session.version + 1)


def _audit(group_id: int, action: str, subject: str, *, session: GameSession | None = None,
           before: dict | None = None, after: dict | None = None, device: str = "") -> None:
    db.session.add(AuditEvent(
        group_id=group_id, session_id=session.id if session else None,
        version=session.version if session else None, device=device[:DEVICE_MAX],
        action=action, subject=subject[:80], before=before, after=after))


SNAPSHOT_FIELDS = ("seat", "turn", "outcome", "cards", "points", "position", "net_cents")


def round_snapshot(round_: Round) -> dict:
    """A round as the audit trail keeps it: enough to show it and to restore it."""
    entries = sorted(round_.entries, key=lambda e: e.turn)
    return _snapshot(round_.number, round_.dealer.name,
                     [(e.player.name, {name: getattr(e, name) for name in SNAPSHOT_FIELDS})
                      for e in entries])


def _snapshot(number: int, dealer: str, entries: list[tuple[str, dict]]) -> dict:
    """round_snapshot of a round's number, dealer and (player, values) entries
    in playing order."""
    return {"number": number, "dealer": dealer,
            "entries": [{"player": player, **{name: values[name] for name in SNAPSHOT_FIELDS}}
                        for player, values in entries]}


@contextmanager
def _saving(version: int | None) -> Iterator[None]:
    """Commit what the block writes. A unique constraint broken by a concurrent
    change, when the block flushes or at the commit, is a Conflict."""
    try:
        yield
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        raise Conflict(version) from None
