"""What the live pages watch: the versions of the sessions being watched."""

import sqlalchemy as sa

from ..extensions import db
from ..models import GameSession

# A session's (version, draft_version): what a page that shows it was built on.
State = tuple[int, int]


def live_states(session_ids: list[int]) -> dict[int, State]:
    """The sessions' states, in one statement; a deleted session is missing."""
    rows = db.session.execute(
        sa.select(GameSession.id, GameSession.version, GameSession.draft_version)
        .where(GameSession.id.in_(session_ids)))
    return {row.id: (row.version, row.draft_version) for row in rows}


def live_state(session_id: int) -> State | None:
    row = db.session.execute(
        sa.select(GameSession.version, GameSession.draft_version)
        .where(GameSession.id == session_id)).one_or_none()
    return (row.version, row.draft_version) if row else None
