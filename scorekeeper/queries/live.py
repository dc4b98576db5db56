"""What the live pages watch: the versions of the sessions being watched; and
which sessions have a round being entered together."""

import sqlalchemy as sa

from ..extensions import db
from ..models import DraftEntry, GameSession

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


def hands_in(session_ids: list[int]) -> dict[int, int]:
    """How many hands of the coming round are saved (services.drafts), for
    each of the sessions that has some: a round being entered; one statement."""
    if not session_ids:
        return {}
    rows = db.session.execute(
        sa.select(DraftEntry.session_id, sa.func.count())
        .where(DraftEntry.session_id.in_(session_ids)).group_by(DraftEntry.session_id))
    return {row[0]: row[1] for row in rows}
