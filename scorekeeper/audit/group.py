"""The group's own changes: players added and renamed, a new passphrase or
time zone, an import, and its invite links."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from ..stored_json import Side
from .base import Action, Payload, Stored


@dataclass(frozen=True)
class PlayerAdded(Payload):
    action = Action.PLAYER_ADD
    subject_template = "{name}"
    name: str

    def to_json(self) -> Stored:
        return Stored(None, {"name": self.name})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(Side("after", after).text("name"))


@dataclass(frozen=True)
class PlayerRenamed(Payload):
    action = Action.PLAYER_RENAME
    subject_template = "{new}"
    old: str
    new: str

    def to_json(self) -> Stored:
        return Stored({"name": self.old}, {"name": self.new})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(Side("before", before).text("name"), Side("after", after).text("name"))


@dataclass(frozen=True)
class PaytoChanged(Payload):
    """A player's payment details set, changed or taken away: their kinds
    (payto.Kind's values, "" for none), never the numbers themselves, which
    only the player's row keeps."""

    action = Action.PLAYER_PAYTO
    subject_template = "{name}"
    name: str
    old: str
    new: str

    def to_json(self) -> Stored:
        return Stored({"name": self.name, "kind": self.old}, {"name": self.name, "kind": self.new})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(Side("after", after).text("name"), Side("before", before).text("kind"),
                   Side("after", after).text("kind"))


@dataclass(frozen=True)
class PassphraseChanged(Payload):
    action = Action.GROUP_PASSPHRASE
    subject_template = "New passphrase"


@dataclass(frozen=True)
class TimezoneChanged(Payload):
    action = Action.GROUP_TIMEZONE
    subject_template = "Time zone {new}"
    old: str
    new: str

    def to_json(self) -> Stored:
        return Stored({"timezone": self.old}, {"timezone": self.new})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(Side("before", before).text("timezone"),
                   Side("after", after).text("timezone"))


@dataclass(frozen=True)
class GroupImported(Payload):
    action = Action.GROUP_IMPORT
    subject_template = "Imported from a backup"
    source: str  # the name of the group the backup was exported from
    exported_at: str  # ISO 8601, UTC: "2025-05-01T20:15:00Z"
    sessions: int
    rounds: int

    def to_json(self) -> Stored:
        return Stored(None, {"from": self.source, "exported_at": self.exported_at,
                             "sessions": self.sessions, "rounds": self.rounds})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        side = Side("after", after)
        return cls(side.text("from"), side.text("exported_at"), side.whole("sessions"),
                   side.whole("rounds"))


@dataclass(frozen=True)
class InviteMade(Payload):
    """An invite link made: for how many phones, and how many hours."""

    action = Action.GROUP_INVITE
    subject_template = "Invite link {invite}"
    invite: int  # the Invite's id
    phones: int
    hours: int

    def to_json(self) -> Stored:
        return Stored(None, {"invite": self.invite, "phones": self.phones, "hours": self.hours})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        side = Side("after", after)
        return cls(side.whole("invite"), side.whole("phones"), side.whole("hours"))


@dataclass(frozen=True)
class _InviteLink(Payload):
    subject_template = "Invite link {invite}"
    kept_as: ClassVar[str]
    invite: int  # the Invite's id

    def to_json(self) -> Stored:
        return Stored.one(self.kept_as, {"invite": self.invite})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(Side.of(cls.kept_as, before, after).whole("invite"))


@dataclass(frozen=True)
class InviteRevoked(_InviteLink):
    action = Action.GROUP_INVITE_REVOKE
    kept_as = "before"


@dataclass(frozen=True)
class InviteUsed(_InviteLink):
    """A phone signed in with the link (the event's phone is the one that did)."""

    action = Action.GROUP_INVITE_USE
    kept_as = "after"
