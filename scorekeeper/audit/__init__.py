"""The audit trail's schema: every action the app records, and for each the
typed payload that an AuditEvent keeps as JSON in its ``before`` and
``after`` columns, with the event's subject.

The services write events from these payloads, the backup check reads a
file's events with them, and the history of changes puts them into words.
Action names and JSON keys are as stored since the trail began, so old rows
and backups read as they were written. Players are named by name, so a
history reads the same after an export and an import. Below the models:
stored_json reads the payloads' sides.

base.py holds the actions and the Payload base; group.py, sessions.py and
rounds.py the payloads of each kind of change; here, which payload each
action records.
"""

from __future__ import annotations

from ..stored_json import PayloadError as PayloadError  # what from_json raises
from .base import Action, Payload, Stored
from .group import (
    GroupImported,
    InviteMade,
    InviteRevoked,
    InviteUsed,
    PassphraseChanged,
    PaytoChanged,
    PlayerAdded,
    PlayerRenamed,
    TimezoneChanged,
)
from .rounds import (
    SNAPSHOT_FIELDS,
    ClearedHand,
    HandsCleared,
    RoundAdded,
    RoundDeleted,
    RoundEdited,
    RoundRestored,
    RoundSnapshot,
    SnapshotEntry,
)
from .sessions import (
    GroupPaid,
    GroupUnpaid,
    PaymentPaid,
    PaymentUnpaid,
    RulesChanged,
    SeatJoined,
    SeatLeft,
    SessionEnded,
    SessionReopened,
    SessionStarted,
    ShareCreated,
    ShareRevoked,
)

__all__ = [
    "PAYLOADS",
    "SNAPSHOT_FIELDS",
    "Action",
    "ClearedHand",
    "GroupImported",
    "GroupPaid",
    "GroupUnpaid",
    "HandsCleared",
    "InviteMade",
    "InviteRevoked",
    "InviteUsed",
    "PassphraseChanged",
    "Payload",
    "PayloadError",
    "PaymentPaid",
    "PaymentUnpaid",
    "PaytoChanged",
    "PlayerAdded",
    "PlayerRenamed",
    "RoundAdded",
    "RoundDeleted",
    "RoundEdited",
    "RoundRestored",
    "RoundSnapshot",
    "RulesChanged",
    "SeatJoined",
    "SeatLeft",
    "SessionEnded",
    "SessionReopened",
    "SessionStarted",
    "ShareCreated",
    "ShareRevoked",
    "SnapshotEntry",
    "Stored",
    "TimezoneChanged",
    "payload_type",
    "read_payload",
]

PAYLOADS: dict[Action, type[Payload]] = {kind.action: kind for kind in (
    PlayerAdded, PlayerRenamed, PaytoChanged, PassphraseChanged, TimezoneChanged, GroupImported,
    InviteMade, InviteRevoked, InviteUsed,
    SessionStarted, RulesChanged, SessionEnded, SessionReopened, SeatJoined, SeatLeft,
    RoundAdded, RoundEdited, RoundDeleted, RoundRestored, HandsCleared, PaymentPaid,
    PaymentUnpaid, GroupPaid, GroupUnpaid, ShareCreated, ShareRevoked)}
assert set(PAYLOADS) == set(Action), "every action has its payload"


def payload_type(action: str) -> type[Payload] | None:
    """The payload an action records; None for an action this app never wrote."""
    try:
        return PAYLOADS[Action(action)]
    except ValueError:
        return None


def read_payload(action: str, before: object, after: object) -> Payload | None:
    """An event's payload from its stored columns; None for an action this app
    never wrote; PayloadError if it is not of its action's shape."""
    kind = payload_type(action)
    return None if kind is None else kind.from_json(before, after)
