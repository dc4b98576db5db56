"""Read-only share links to a session."""

from __future__ import annotations

from ..audit import ShareCreated, ShareRevoked
from ..extensions import db
from ..models import (
    GameSession,
    ShareLink,
    utcnow,
)
from .versioning import ServiceError, _audit


def create_share_link(session: GameSession, *, device: str = "") -> ShareLink:
    """A new read-only link to the session; its token is made by the web layer."""
    link = ShareLink(session_id=session.id)
    db.session.add(link)
    db.session.flush()
    _audit(session.group_id, ShareCreated(link.id), session=session, device=device)
    db.session.commit()
    return link


def revoke_share_link(link: ShareLink, *, device: str = "") -> None:
    """The link opens nothing from now on; the others keep working."""
    if link.revoked_at is not None:
        raise ServiceError("That link is revoked already")
    link.revoked_at = utcnow()
    session = link.session
    _audit(session.group_id, ShareRevoked(link.id), session=session, device=device)
    db.session.commit()
