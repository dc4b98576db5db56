"""The audit trail's vocabulary: the actions the app records, and the Payload
each action's event keeps as JSON (its ``before`` and ``after`` columns)."""

from __future__ import annotations

import enum
from typing import ClassVar, NamedTuple, Self

from ..stored_json import JSON


class Action(enum.StrEnum):
    """What an audit event records: its ``action`` column."""

    PLAYER_ADD = "player.add"
    PLAYER_RENAME = "player.rename"
    PLAYER_PAYTO = "player.payto"
    GROUP_PASSPHRASE = "group.passphrase"
    GROUP_TIMEZONE = "group.timezone"
    GROUP_IMPORT = "group.import"
    GROUP_INVITE = "group.invite"
    GROUP_INVITE_REVOKE = "group.invite_revoke"
    GROUP_INVITE_USE = "group.invite_use"
    GROUP_PAID = "group.paid"  # across sessions
    GROUP_UNPAID = "group.unpaid"
    SESSION_START = "session.start"
    SESSION_RULES = "session.rules"
    SESSION_END = "session.end"
    SESSION_REOPEN = "session.reopen"
    SEAT_JOIN = "seat.join"
    SEAT_LEAVE = "seat.leave"
    ROUND_ADD = "round.add"
    ROUND_EDIT = "round.edit"
    ROUND_DELETE = "round.delete"
    ROUND_RESTORE = "round.restore"
    HANDS_CLEAR = "hands.clear"
    PAYMENT_PAID = "payment.paid"
    PAYMENT_UNPAID = "payment.unpaid"
    SHARE_CREATE = "share.create"
    SHARE_REVOKE = "share.revoke"

    @property
    def is_round(self) -> bool:
        """A round's change: its payload holds round snapshots, and it belongs to a session."""
        return self.value.startswith("round.")

    @property
    def of_group(self) -> bool:
        """The group's own change (its players, passphrase, time zone, an
        import): its events belong to no session."""
        return self.value.startswith(("player.", "group."))


class Stored(NamedTuple):
    """A payload's JSON form: the event's ``before`` and ``after`` columns."""

    before: JSON | None
    after: JSON | None

    @classmethod
    def one(cls, column: str, kept: JSON) -> Stored:
        """A payload kept in one column, "before" or "after"."""
        return cls(None, kept) if column == "after" else cls(kept, None)


class Payload:
    """What an event of ``action`` records. ``to_json`` gives its JSON form;
    ``from_json`` reads one back (keys it does not know are let be), raising
    PayloadError if it is not of this shape."""

    action: ClassVar[Action]
    # The event's ``subject`` column, a few words naming what changed: filled
    # in with the payload's fields ("Round {round.number}").
    subject_template: ClassVar[str] = ""

    @property
    def subject(self) -> str:
        return self.subject_template.format_map(vars(self))

    def to_json(self) -> Stored:
        return Stored(None, None)

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls()
