"""The group's last session, as a new session offers it again: its house rules,
its currency and its table ("as last time")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import GameSession, Group, Seat
from ..rules import HouseRules


@dataclass(frozen=True)
class LastTime:
    started_at: datetime
    rules: HouseRules
    currency: str
    players: list[str]  # at the table when it ended (or now), clockwise


def last_time(group: Group) -> LastTime | None:
    """The group's latest session, ended or not; None before its first. Two
    statements: the session from its group's index, then its seats."""
    session = db.session.scalar(
        sa.select(GameSession).where(GameSession.group_id == group.id)
        .order_by(GameSession.started_at.desc(), GameSession.id.desc()).limit(1)
        .options(selectinload(GameSession.seats).joinedload(Seat.player)))
    if session is None:
        return None
    return LastTime(session.started_at, session.rules, session.currency,
                    [seat.player.name for seat in session.seats if seat.active])
