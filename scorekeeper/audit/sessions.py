"""A session's changes other than its rounds: started, rules changed, ended
and reopened, players joining and leaving, payments marked, share links."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from ..stored_json import JSON, Side
from .base import Action, Payload, Stored


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
class _Transfer(Payload):
    """Money marked paid, or taken back: ``owed``, what was owed of the
    transfer as it was marked (None: all of it, as before part payments)."""

    subject_template = "{payer} pays {payee}"
    kept_as: ClassVar[str]  # the column it is kept in: "after" when paid, "before" when undone
    payer: str
    payee: str
    cents: int
    owed: int | None = None

    def _json(self) -> JSON:
        kept: JSON = {"payer": self.payer, "payee": self.payee, "cents": self.cents}
        return kept if self.owed is None else {**kept, "owed": self.owed}

    @classmethod
    def _read(cls, side: Side) -> tuple:
        return (side.text("payer"), side.text("payee"), side.whole("cents"),
                side.whole_or_none("owed"))

    def to_json(self) -> Stored:
        return Stored.one(self.kept_as, self._json())

    @classmethod
    def from_json(cls, before: object, after: object) -> Self:
        return cls(*cls._read(Side.of(cls.kept_as, before, after)))


@dataclass(frozen=True)
class PaymentPaid(_Transfer):
    action = Action.PAYMENT_PAID
    kept_as = "after"


@dataclass(frozen=True)
class PaymentUnpaid(_Transfer):
    action = Action.PAYMENT_UNPAID
    kept_as = "before"


@dataclass(frozen=True)
class _Across(_Transfer):
    """A payment across sessions ("Settle everything"), in ``currency``."""

    currency: str = ""

    def _json(self) -> JSON:
        return {**super()._json(), "currency": self.currency}

    @classmethod
    def _read(cls, side: Side) -> tuple:
        return (*super()._read(side), side.text("currency"))


@dataclass(frozen=True)
class GroupPaid(_Across):
    action = Action.GROUP_PAID
    kept_as = "after"


@dataclass(frozen=True)
class GroupUnpaid(_Across):
    action = Action.GROUP_UNPAID
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
