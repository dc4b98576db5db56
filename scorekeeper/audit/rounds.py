"""What the trail keeps of rounds: snapshots of a round, enough to show and
restore it, and the payloads of rounds added, edited, deleted, restored and
of a round's hands cleared."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Self

from ..stored_json import JSON, Side
from .base import Action, Payload, Stored


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
