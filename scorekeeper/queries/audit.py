"""The history of changes: a session's audit events, newest first."""

from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from ..models import AuditEvent, GameSession
from .paging import Page, page_params, paged

CHANGES_PER_PAGE = 15  # a page lists every card of its rounds: 15 keep it under 60 KB


def session_changes(session: GameSession, number: int) -> Page:
    """Page ``number`` of the session's changes, newest first, in two statements."""
    where = AuditEvent.session_id == session.id
    total = db.session.execute(sa.select(sa.func.count()).where(where)).scalar_one()
    events = list(db.session.scalars(
        paged(sa.select(AuditEvent).where(where).order_by(AuditEvent.id.desc())),
        page_params(number, CHANGES_PER_PAGE)))
    return Page(events, number, total, CHANGES_PER_PAGE)


def changes_since(session: GameSession, version: int) -> list[AuditEvent]:
    """The session's changes made after it was at ``version``, oldest first."""
    return list(db.session.scalars(
        sa.select(AuditEvent)
        .where(AuditEvent.session_id == session.id, AuditEvent.version > version)
        .order_by(AuditEvent.id)))


def session_event(session: GameSession, event_id: int) -> AuditEvent | None:
    """One of the session's changes, or None if it is another session's or unknown."""
    return db.session.scalar(sa.select(AuditEvent).where(
        AuditEvent.id == event_id, AuditEvent.session_id == session.id,
        AuditEvent.group_id == session.group_id))
