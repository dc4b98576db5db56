"""Read-only share links to a session."""

from __future__ import annotations

from ..audit import ShareCreated, ShareRevoked
from ..extensions import db
from ..models import ShareLink, utcnow
from ._common import session_of
from .protocol import N_, Change, ServiceError, applying


def create_share_link(change: Change) -> ShareLink:
    """A new read-only link to the session; its token is made by the web layer."""
    session = session_of(change)
    with applying(change, claim=False) as done:  # no page of the session shows its links
        link = ShareLink(session_id=session.id)
        db.session.add(link)
        db.session.flush()
        done.audit(ShareCreated(link.id))
    return link


def revoke_share_link(change: Change, link: ShareLink) -> None:
    """The link opens nothing from now on; the others keep working."""
    if link.session_id != session_of(change).id:
        raise ServiceError(N_("That link is another session's"))
    if link.revoked_at is not None:
        raise ServiceError(N_("That link is revoked already"))
    with applying(change, claim=False) as done:
        link.revoked_at = utcnow()
        done.audit(ShareRevoked(link.id))
