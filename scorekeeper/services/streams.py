"""The caps on open live streams, counted in the app's own database.

Each open stream is a row naming what holds it (a sign-in or a share link)
and the client's address, so every worker of every app server counts the
same streams. A stream's row is committed before the counts are read: streams
opening at once on several workers see each other, and no more than a cap are
ever held (one over takes its row back). A row lapses at ``expires_at``
unless the process holding the stream renews it, which its watch's reader does
while the stream is open: the streams of a worker killed without closing them
stop counting by themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from ..extensions import db
from ..models import LiveStream, utcnow

# Rows renewed in one statement (SQLite's older builds take 999 parameters).
RENEW_BATCH = 500


@dataclass(frozen=True)
class StreamCaps:
    per_holder: int
    per_address: int


def open_stream(holder: str, address: str, caps: StreamCaps, until: datetime) -> int | None:
    """The row of a new stream, lasting until ``until`` unless renewed; None
    (and nothing kept) when the holder or the address has its cap of streams
    open already. Commits."""
    now = utcnow()
    if _over(holder, address, caps, now, counting_own=False):
        return None  # full already: refused with nothing written
    db.session.execute(sa.delete(LiveStream).where(LiveStream.expires_at <= now))
    stream_id = db.session.execute(
        sa.insert(LiveStream).values(holder=holder, address=address, expires_at=until)
        .returning(LiveStream.id)).scalar_one()
    db.session.commit()  # before counting, so that streams opening at once see this one
    if _over(holder, address, caps, now, counting_own=True):
        close_stream(stream_id)
        return None
    return stream_id


def close_stream(stream_id: int) -> None:
    db.session.execute(sa.delete(LiveStream).where(LiveStream.id == stream_id))
    db.session.commit()


def renew_streams(stream_ids: list[int], until: datetime) -> None:
    """The streams are still open: they count until ``until``."""
    for start in range(0, len(stream_ids), RENEW_BATCH):
        db.session.execute(sa.update(LiveStream)
                           .where(LiveStream.id.in_(stream_ids[start:start + RENEW_BATCH]))
                           .values(expires_at=until))
    db.session.commit()


def _over(holder: str, address: str, caps: StreamCaps, now: datetime, *,
          counting_own: bool) -> bool:
    """Whether the holder's or the address's open streams pass their caps:
    with this stream's row among them, or, before it is written, reach them."""
    allowed = 0 if counting_own else 1
    for column, value, cap in ((LiveStream.holder, holder, caps.per_holder),
                               (LiveStream.address, address, caps.per_address)):
        count = db.session.execute(
            sa.select(sa.func.count()).select_from(LiveStream)
            .where(column == value, LiveStream.expires_at > now)).scalar_one()
        if count + allowed > cap:
            return True
    return False
