"""What the live pages watch: the versions of the sessions being watched."""

import sqlalchemy as sa

from ..extensions import db
from ..models import GameSession

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
