"""What the live pages watch: the versions of the sessions being watched,
and of a group's sessions in play (the home page); and which sessions have a
round being entered together."""

from collections.abc import Iterable
from dataclasses import dataclass

import sqlalchemy as sa

from ..extensions import db
from ..models import DraftEntry, GameSession, Payment

# A session's (version, draft_version): what a page that shows it was built
# on; then the phone whose change took that version (GameSession.changed_by).
State = tuple[int, int, str]


def live_states(session_ids: list[int]) -> dict[int, State]:
    """The sessions' states, in one statement; a deleted session is missing."""
    rows = db.session.execute(
        sa.select(GameSession.id, GameSession.version, GameSession.draft_version,
                  GameSession.changed_by)
        .where(GameSession.id.in_(session_ids)))
    return {row.id: (row.version, row.draft_version, row.changed_by) for row in rows}


def live_state(session_id: int) -> State | None:
    row = db.session.execute(
        sa.select(GameSession.version, GameSession.draft_version, GameSession.changed_by)
        .where(GameSession.id == session_id)).one_or_none()
    return (row.version, row.draft_version, row.changed_by) if row else None


@dataclass(frozen=True)
class Playing:
    """A group's sessions in play, as its home page follows them: ``state``,
    what its stream compares (group_states), and, for each session with a
    round being entered, how many hands of it are in (services.drafts: saved,
    and not still being typed on a phone)."""

    state: str
    hands: dict[int, int]


def playing(group_id: int) -> Playing:
    """The group's sessions in play, and its payments, in two statements."""
    rows = db.session.execute(
        sa.select(GameSession.id, GameSession.version, GameSession.draft_version,
                  sa.func.count(DraftEntry.id))
        .outerjoin(DraftEntry, sa.and_(DraftEntry.session_id == GameSession.id,
                                       DraftEntry.in_sql()))
        .where(GameSession.group_id == group_id, GameSession.ended_at.is_(None))
        .group_by(GameSession.id, GameSession.version, GameSession.draft_version)
        .order_by(GameSession.id)).all()
    return Playing(_group_state(((row[0], row[1], row[2]) for row in rows),
                                _payments([group_id]).get(group_id)),
                   {row[0]: row[3] for row in rows if row[3]})


def group_states(group_ids: list[int]) -> dict[int, str]:
    """The groups' states, in two statements: a word for each session in
    play, "<id>.<version>.<draft version>", so that a session started or
    ended, a round saved, a player joining or a hand saved makes another
    state; and one for its payments, "paid:<count>.<last id>", so that a
    payment marked or taken back, of any session or across sessions, does
    too; "" for a group with neither (or no longer there: its streams'
    sign-ins end)."""
    rows = db.session.execute(
        sa.select(GameSession.group_id, GameSession.id, GameSession.version,
                  GameSession.draft_version)
        .where(GameSession.group_id.in_(group_ids), GameSession.ended_at.is_(None))
        .order_by(GameSession.group_id, GameSession.id)).all()
    paid = _payments(group_ids)
    return {group_id: _group_state((row[1:] for row in rows if row[0] == group_id),
                                   paid.get(group_id))
            for group_id in group_ids}


def _payments(group_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Each group's count of payments and its last payment's id (a group with none is missing)."""
    return {row[0]: (row[1], row[2]) for row in db.session.execute(
        sa.select(Payment.group_id, sa.func.count(Payment.id), sa.func.max(Payment.id))
        .where(Payment.group_id.in_(group_ids)).group_by(Payment.group_id))}


def _group_state(sessions: Iterable[tuple[int, int, int]],
                 payments: tuple[int, int] | None) -> str:
    words = [f"{id_}.{version}.{draft}" for id_, version, draft in sessions]
    if payments:
        words.append("paid:{}.{}".format(*payments))
    return " ".join(words)
