"""Plain typed records of a group's data: what a checked backup holds and
what the demo generator plans, both written by services.bulk."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from .rules import HouseRules


@dataclass(frozen=True)
class EntryData:
    player: str
    seat: int
    turn: int
    outcome: str
    cards: str  # canonical notation
    points: int
    position: int
    tier_cents: int
    hu_cents: int
    joker_ace_cents: int
    net_cents: int


@dataclass(frozen=True)
class RoundData:
    number: int
    dealer: str
    created_at: datetime
    entries: list[EntryData]


@dataclass(frozen=True)
class SeatData:
    player: str
    position: int
    active: bool


@dataclass(frozen=True)
class PaymentData:
    payer: str
    payee: str
    cents: int
    paid_at: datetime


@dataclass(frozen=True)
class AcrossData:
    """A payment across sessions ("Settle everything"), in its currency."""

    payer: str
    payee: str
    cents: int
    currency: str
    paid_at: datetime


@dataclass(frozen=True)
class SessionData:
    started_at: datetime
    ended_at: datetime | None
    version: int
    currency: str
    house_rules: HouseRules
    first_dealer: str
    seats: list[SeatData]  # as the session stands, those who left included
    rounds: list[RoundData]
    payments: list[PaymentData]

    @property
    def first_table(self) -> list[str]:
        """Who sat down at the start, clockwise: the players of the first
        round in their seats' order (those seated now, before any round)."""
        if not self.rounds:
            return [s.player for s in sorted(self.seats, key=lambda s: s.position) if s.active]
        return [e.player for e in sorted(self.rounds[0].entries, key=lambda e: e.seat)]


@dataclass(frozen=True)
class EventData:
    at: datetime
    device: str
    action: str
    subject: str
    session: int | None  # index in Backup.sessions
    version: int | None
    before: dict | None
    after: dict | None  # a restore's "restores" is an index in Backup.events


@dataclass(frozen=True)
class PlayerData:
    name: str
    created_at: datetime
    payto_kind: str = ""  # payment details (payto.Kind's value; "": none)
    payto_value: str = ""


@dataclass(frozen=True)
class Backup:
    group_name: str  # the group it was exported from
    timezone: str  # that group's IANA time zone
    exported_at: datetime
    players: list[PlayerData]
    sessions: list[SessionData]
    events: list[EventData]
    payments: list[AcrossData]  # across sessions: a session's own are its

    @property
    def rounds(self) -> int:
        return sum(len(s.rounds) for s in self.sessions)


@dataclass(frozen=True)
class DemoGroup:
    """Demo play (demo.play_group): the group's players, a moment before its
    first session, and its sessions, oldest first, made as they are read."""

    players: list[str]
    since: datetime
    sessions: Iterable[SessionData]
    # Payment details of some players, by name: (payto.Kind's value, value).
    payto: dict[str, tuple[str, str]] = field(default_factory=dict)
