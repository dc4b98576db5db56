"""The audit trail's schema: every action the app records, and for each the
typed payload that an AuditEvent keeps as JSON in its ``before`` and
``after`` columns, with the event's subject.

The services write events from these payloads, the backup check reads a
file's events with them, and the history of changes puts them into words.
Action names and JSON keys are as stored since the trail began, so old rows
and backups read as they were written. Players are named by name, so a
history reads the same after an export and an import. Below the models:
stored_json reads the payloads' sides.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, Self

from .stored_json import JSON, Side
from .stored_json import PayloadError as PayloadError  # what from_json raises


class Action(enum.StrEnum):
    """What an audit event records: its ``action`` column."""

    PLAYER_ADD = "player.add"
    PLAYER_RENAME = "player.rename"
    GROUP_PASSPHRASE = "group.passphrase"
    GROUP_TIMEZONE = "group.timezone"
    GROUP_IMPORT = "group.import"
    GROUP_INVITE = "group.invite"
    GROUP_INVITE_REVOKE = "group.invite_revoke"
    GROUP_INVITE_USE = "group.invite_use"
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


# Round snapshots: a round as the trail keeps it, enough to show and restore it


@dataclass(frozen=True)
class SnapshotEntry:
    """One player's part of a round snapshot."""

    player: str
    seat: int
    turn: int
    outcome: str  # dead, hu, tien_hu, no_passport
    cards: str  # as RoundEntry.cards keeps them
    points: int
    position: int
    net_cents: int

    def to_json(self) -> JSON:  # not dataclasses.asdict, which deep-copies: every save
        return {"player": self.player, "seat": self.seat, "turn": self.turn,
                "outcome": self.outcome, "cards": self.cards, "points": self.points,
                "position": self.position, "net_cents": self.net_cents}

    @classmethod
    def read(cls, side: Side) -> SnapshotEntry:
        return cls(side.text("player"), side.whole("seat"), side.whole("turn"),
                   side.text("outcome"), side.text("cards"), side.whole("points"),
                   side.whole("position"), side.whole("net_cents"))


# What a snapshot keeps of an entry besides the player, in the order it is written.
SNAPSHOT_FIELDS = tuple(f.name for f in dataclasses.fields(SnapshotEntry))[1:]


@dataclass(frozen=True)
class RoundSnapshot:
    number: int
    dealer: str
    entries: tuple[SnapshotEntry, ...]  # in playing order as written

    def to_json(self) -> JSON:
        return {"number": self.number, "dealer": self.dealer,
                "entries": [entry.to_json() for entry in self.entries]}

    @classmethod
    def read(cls, side: Side) -> RoundSnapshot:
        return cls(side.whole("number"), side.text("dealer"),
                   tuple(SnapshotEntry.read(entry) for entry in side.objects("entries")))


# The payloads, one for each action


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
class SessionStarted(Payload):
    action = Action.SESSION_START
    subject_template = "Session started"
    players: tuple[str, ...]  # clockwise
    first_dealer: str
    currency: str
    house_rules: JSON  # as HouseRules.to_json writes them

    def to_json(self) -> Stored:
        return Stored(None, {"players": list(self.players), "first_dealer": self.first_dealer,
                             "currency": self.currency, "house_rules": self.house_rules})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        side = Side("after", after)
        return cls(side.texts("players"), side.text("first_dealer"), side.text("currency"),
                   side.json_object("house_rules"))


@dataclass(frozen=True)
class RulesChanged(Payload):
    action = Action.SESSION_RULES
    subject_template = "House rules"
    old_rules: JSON  # as HouseRules.to_json writes them
    old_currency: str
    new_rules: JSON
    new_currency: str

    def to_json(self) -> Stored:
        return Stored({"house_rules": self.old_rules, "currency": self.old_currency},
                      {"house_rules": self.new_rules, "currency": self.new_currency})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        was, now = Side("before", before), Side("after", after)
        return cls(was.json_object("house_rules"), was.text("currency"),
                   now.json_object("house_rules"), now.text("currency"))


@dataclass(frozen=True)
class SessionEnded(Payload):
    action = Action.SESSION_END
    subject_template = "Session ended"


@dataclass(frozen=True)
class SessionReopened(Payload):
    action = Action.SESSION_REOPEN
    subject_template = "Session reopened"


@dataclass(frozen=True)
class SeatJoined(Payload):
    action = Action.SEAT_JOIN
    subject_template = "{player}"
    player: str
    seats: tuple[str, ...]  # who is seated now, clockwise

    def to_json(self) -> Stored:
        return Stored(None, {"player": self.player, "seats": list(self.seats)})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        side = Side("after", after)
        return cls(side.text("player"), side.texts("seats"))


@dataclass(frozen=True)
class SeatLeft(Payload):
    action = Action.SEAT_LEAVE
    subject_template = "{player}"
    player: str

    def to_json(self) -> Stored:
        return Stored({"player": self.player}, None)

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(Side("before", before).text("player"))


@dataclass(frozen=True)
class RoundAdded(Payload):
    action = Action.ROUND_ADD
    subject_template = "Round {round.number}"
    round: RoundSnapshot
    # The phone that entered each player's hand, (player, phone) in playing
    # order, for a round filled in together; none for one entered on one phone.
    entered_by: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> Stored:
        after = self.round.to_json()
        if self.entered_by:  # optional: rounds saved before it read as they were
            after["entered_by"] = dict(self.entered_by)
        return Stored(None, after)

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        side = Side("after", after)
        return cls(RoundSnapshot.read(side), _entered_by(side))


def _entered_by(side: Side) -> tuple[tuple[str, str], ...]:
    """A round's optional "entered_by" object: {player: phone}."""
    if "entered_by" not in side.value:
        return ()
    phones = Side(side.side, side.json_object("entered_by"), (*side.path, "entered_by"))
    return tuple((player, phones.text(player)) for player in phones.value)


@dataclass(frozen=True)
class RoundEdited(Payload):
    action = Action.ROUND_EDIT
    subject_template = "Round {new.number}"
    old: RoundSnapshot
    new: RoundSnapshot

    def to_json(self) -> Stored:
        return Stored(self.old.to_json(), self.new.to_json())

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(RoundSnapshot.read(Side("before", before)),
                   RoundSnapshot.read(Side("after", after)))


@dataclass(frozen=True)
class RoundDeleted(Payload):
    action = Action.ROUND_DELETE
    subject_template = "Round {round.number}"
    round: RoundSnapshot  # as it was, to be restored

    def to_json(self) -> Stored:
        return Stored(self.round.to_json(), None)

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(RoundSnapshot.read(Side("before", before)))


@dataclass(frozen=True)
class RoundRestored(Payload):
    action = Action.ROUND_RESTORE
    subject_template = "Round {round.number}"
    round: RoundSnapshot  # as restored, at its number now
    restores: int  # the deletion it undid: its event's id (in a backup, its index)

    def to_json(self) -> Stored:
        return Stored(None, {**self.round.to_json(), "restores": self.restores})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        side = Side("after", after)
        return cls(RoundSnapshot.read(side), side.whole("restores"))

    @staticmethod
    def deletion_of(after: object) -> int:
        """Which deletion a restore's ``after`` undid, read alone: it counts even
        when the rest of the record is damaged (so nothing is restored twice)."""
        return Side("after", after).whole("restores")


@dataclass(frozen=True)
class ClearedHand:
    """A hand of a round filled in together, as it was when cleared."""

    player: str
    outcome: str
    cards: str  # as typed
    phone: str  # the phone that entered it

    def to_json(self) -> JSON:
        return {"player": self.player, "outcome": self.outcome, "cards": self.cards,
                "phone": self.phone}

    @classmethod
    def read(cls, side: Side) -> ClearedHand:
        return cls(side.text("player"), side.text("outcome"), side.text("cards"),
                   side.text("phone"))


@dataclass(frozen=True)
class HandsCleared(Payload):
    """ "Clear this round's hands": the hands of the coming round, filled in
    together and then left, taken away before anything counted."""

    action = Action.HANDS_CLEAR
    subject_template = "Round {number}'s hands"
    number: int
    hands: tuple[ClearedHand, ...]  # in playing order

    def to_json(self) -> Stored:
        return Stored({"number": self.number, "hands": [h.to_json() for h in self.hands]},
                      None)

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        side = Side("before", before)
        return cls(side.whole("number"), tuple(ClearedHand.read(h) for h in side.objects("hands")))


@dataclass(frozen=True)
class _Transfer(Payload):
    subject_template = "{payer} pays {payee}"
    kept_as: ClassVar[str]  # the column it is kept in: "after" when paid, "before" when undone
    payer: str
    payee: str
    cents: int

    def to_json(self) -> Stored:
        return Stored.one(self.kept_as, {"payer": self.payer, "payee": self.payee,
                                         "cents": self.cents})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        side = Side.of(cls.kept_as, before, after)
        return cls(side.text("payer"), side.text("payee"), side.whole("cents"))


@dataclass(frozen=True)
class PaymentPaid(_Transfer):
    action = Action.PAYMENT_PAID
    kept_as = "after"


@dataclass(frozen=True)
class PaymentUnpaid(_Transfer):
    action = Action.PAYMENT_UNPAID
    kept_as = "before"


@dataclass(frozen=True)
class _ShareLink(Payload):
    subject_template = "Share link {link}"
    kept_as: ClassVar[str]  # "after" when made, "before" when revoked
    link: int  # the ShareLink's id

    def to_json(self) -> Stored:
        return Stored.one(self.kept_as, {"link": self.link})

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(Side.of(cls.kept_as, before, after).whole("link"))


@dataclass(frozen=True)
class ShareCreated(_ShareLink):
    action = Action.SHARE_CREATE
    kept_as = "after"


@dataclass(frozen=True)
class ShareRevoked(_ShareLink):
    action = Action.SHARE_REVOKE
    kept_as = "before"


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


PAYLOADS: dict[Action, type[Payload]] = {kind.action: kind for kind in (
    PlayerAdded, PlayerRenamed, PassphraseChanged, TimezoneChanged, GroupImported,
    InviteMade, InviteRevoked, InviteUsed,
    SessionStarted, RulesChanged, SessionEnded, SessionReopened, SeatJoined, SeatLeft,
    RoundAdded, RoundEdited, RoundDeleted, RoundRestored, HandsCleared, PaymentPaid,
    PaymentUnpaid, ShareCreated, ShareRevoked)}
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
