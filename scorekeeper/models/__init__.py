"""Database rows, typed with Mapped[...]; no request or g access here: the
game's rows (play.py), the rows that guard the site (access.py) and what
they share (columns.py). Import them from here."""

from .access import Attempt, ChangeKey, Invite, LiveStream, SignIn
from .columns import Cents, HouseRulesType, table, utcnow, wall_clock
from .play import (
    AuditEvent,
    DraftEntry,
    GameSession,
    Group,
    Payment,
    Player,
    Round,
    RoundEntry,
    Seat,
    ShareLink,
    being_typed,
    new_ledger_stamp,
)

__all__ = [
    "Attempt", "AuditEvent", "Cents", "ChangeKey", "DraftEntry", "GameSession", "Group",
    "HouseRulesType", "Invite", "LiveStream", "Payment", "Player", "Round", "RoundEntry", "Seat",
    "ShareLink", "SignIn", "being_typed", "new_ledger_stamp", "table", "utcnow", "wall_clock",
]
