"""The rows of the game: groups and their players, sessions with their
seats, rounds and entries, hands being entered together, payments, share
links and the audit trail.

Money columns are integer cents. A round's results (points, positions, money)
are stored so that pages and history read them without re-scoring; services
rewrite them whenever a round before them changes.
"""

from __future__ import annotations

import secrets
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from ..extensions import Base
from ..limits import (
    ACTION_MAX,
    CURRENCY_MAX,
    DEFAULT_TIMEZONE,
    DEVICE_MAX,
    FOLDED,
    GROUP_NAME_MAX,
    NAME_MAX,
    OUTCOME_MAX,
    PAYTO_KIND_MAX,
    PAYTO_MAX,
    PHONE_ID_LENGTH,
    SUBJECT_MAX,
    TYPING_LAPSE,
    ZONE_MAX,
)
from ..rules import HouseRules
from .columns import Cents, HouseRulesType, utcnow

LEDGER_STAMP_LENGTH = 32


def new_ledger_stamp() -> str:
    return secrets.token_hex(LEDGER_STAMP_LENGTH // 2)


def _folded_name(context) -> str:
    """A new player's name_key, for rows inserted without the ORM."""
    return context.get_current_parameters()["name"].casefold()


class Group(Base):
    """A regular table of friends: everything else belongs to one.

    There are no user accounts: a phone signs in with the group's name and
    passphrase. ``name_key`` is the name case-folded and unique, so that a
    sign-in checks one passphrase hash whatever the letter case typed.
    """

    __tablename__ = "player_group"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(GROUP_NAME_MAX))
    name_key: Mapped[str] = mapped_column(sa.String(FOLDED * GROUP_NAME_MAX), unique=True)
    passphrase_hash: Mapped[str] = mapped_column(sa.String(255))
    # An IANA zone name: times are stored in UTC and shown in the group's zone.
    timezone: Mapped[str] = mapped_column(sa.String(ZONE_MAX), default=DEFAULT_TIMEZONE,
                                          server_default=DEFAULT_TIMEZONE)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # How many of its sessions have ended, kept by the services: the history's
    # first page shows it without counting thousands of sessions.
    finished_sessions: Mapped[int] = mapped_column(default=0, server_default="0")
    # A house setting: the last hand entered of a round filled in together
    # saves the round at once, if nothing in it needs a look (services.drafts).
    autosave_rounds: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    # What the group's money pages read (queries/debts.py) as it now stands:
    # a fresh random value with every change to a session or a payment
    # (services/protocol.py), so each app server keeps what it worked out
    # under it and never reads it stale, and a change rolled back leaves no
    # value that another could take.
    ledger_stamp: Mapped[str] = mapped_column(sa.String(LEDGER_STAMP_LENGTH),
                                              default=new_ledger_stamp)

    @validates("name")
    def _fold(self, key: str, name: str) -> str:
        self.name_key = name.casefold()
        return name

    def __repr__(self) -> str:
        return f"<Group {self.name}>"


class Player(Base):
    """One of a group's players. ``name_key`` is the name case-folded: unique
    in the group, so "Casey" and "casey" are one player even when two phones
    add them at the same moment."""

    __tablename__ = "player"
    __table_args__ = (sa.UniqueConstraint("group_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player_group.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(sa.String(NAME_MAX))
    name_key: Mapped[str] = mapped_column(sa.String(FOLDED * NAME_MAX), default=_folded_name)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # How the player is paid by QR (payto.Kind's value; "": no details) and
    # the DuitNow ID, PayNow proxy or bank QR text. Shown only to the group's
    # signed-in phones: never on share pages, in logs or in the CSV.
    payto_kind: Mapped[str] = mapped_column(sa.String(PAYTO_KIND_MAX), default="",
                                            server_default="")
    payto_value: Mapped[str] = mapped_column(sa.String(PAYTO_MAX), default="",
                                             server_default="")

    @validates("name")
    def _fold(self, key: str, name: str) -> str:
        self.name_key = name.casefold()
        return name

    def __repr__(self) -> str:
        return f"<Player {self.name}>"


class GameSession(Base):
    """An evening at the table: its players, its house rules and its rounds."""

    __tablename__ = "game_session"
    __table_args__ = (
        # A group's sessions in play, those ended last, and how many have ended.
        sa.Index("ix_game_session_group_id_ended_at", "group_id", "ended_at", "started_at"),
        # A group's sessions newest first, a page at a time.
        sa.Index("ix_game_session_group_id_started_at", "group_id", "started_at"),
        # The few in play, newest first, without passing over the thousands ended
        # (PostgreSQL; SQLite reads them from the index above, IS NULL being
        # an equality to it).
        sa.Index("ix_game_session_open", "group_id", "started_at",
                 sqlite_where=sa.text("ended_at IS NULL"),
                 postgresql_where=sa.text("ended_at IS NULL")),
        # A player's record sums their seats by currency: on PostgreSQL the join
        # reads the currencies from this index instead of every session's row.
        sa.Index("ix_game_session_id_currency", "id", "currency"),
        # The sessions whose money is still open, for what the group owes
        # (queries/debts.py), without passing over the years of those settled.
        sa.Index("ix_game_session_unsettled", "group_id", "currency",
                 sqlite_where=sa.text("NOT settled"), postgresql_where=sa.text("NOT settled")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player_group.id", ondelete="CASCADE"))
    # Raised by every change, so a form built on an older version is refused.
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    # Raised by every change to the round being filled in together (not a
    # change to the session: open forms stay valid). Phones watch both.
    draft_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # The phone whose change took the current version (its sign-in's public id,
    # web/access.py); empty for a change from no phone (an import, the demo).
    # A live page tells its own phone's changes from another's by it.
    changed_by: Mapped[str] = mapped_column(sa.String(PHONE_ID_LENGTH), default="",
                                            server_default="")
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]
    currency: Mapped[str] = mapped_column(sa.String(CURRENCY_MAX), default="RM")
    # Its own payments pay its transfers exactly (services/money.py): it owes
    # nothing, and what the group owes leaves it out. A change of its rounds
    # sets it back (services.protocol: a change that moves money).
    settled: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    # Built from its JSON once, as the row loads (the column keeps its name).
    rules: Mapped[HouseRules] = mapped_column("house_rules", HouseRulesType)
    first_dealer_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"))

    group: Mapped[Group] = relationship()
    first_dealer: Mapped[Player] = relationship()
    seats: Mapped[list[Seat]] = relationship(
        back_populates="session", order_by="Seat.position", cascade="all, delete-orphan")
    rounds: Mapped[list[Round]] = relationship(
        back_populates="session", order_by="Round.number", cascade="all, delete-orphan")
    payments: Mapped[list[Payment]] = relationship(
        back_populates="session", cascade="all, delete-orphan")

    @property
    def is_finished(self) -> bool:
        return self.ended_at is not None


class Seat(Base):
    """A player's place at a session's table, clockwise by position.

    A player who leaves keeps the row (inactive) so their rounds and balance stay.
    The player's totals over the session's rounds are stored here, kept by the
    services whenever a round changes, so that the history and player pages
    read one row per session rather than every round.
    """

    __tablename__ = "seat"
    __table_args__ = (
        sa.UniqueConstraint("session_id", "player_id"),
        # The sessions a player sat at, with the totals that make up their
        # record: a player's page sums them from the index alone.
        sa.Index("ix_seat_player_id_totals", "player_id", "session_id", "net_cents",
                 "rounds_played", "wins", "hu", "tien_hu", "counted_rounds", "counted_points"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        sa.ForeignKey("game_session.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"))
    position: Mapped[int]
    active: Mapped[bool] = mapped_column(default=True)
    rounds_played: Mapped[int] = mapped_column(default=0, server_default="0")
    points: Mapped[int] = mapped_column(default=0, server_default="0")
    net_cents: Mapped[int] = mapped_column(Cents, default=0, server_default="0")
    wins: Mapped[int] = mapped_column(default=0, server_default="0")  # first place, ties too
    hu: Mapped[int] = mapped_column(default=0, server_default="0")
    tien_hu: Mapped[int] = mapped_column(default=0, server_default="0")
    # Rounds (and their points) that count for the player's average: all but
    # those someone else won with a Tien Hu, where the others' cards may be missing.
    counted_rounds: Mapped[int] = mapped_column(default=0, server_default="0")
    counted_points: Mapped[int] = mapped_column(default=0, server_default="0")

    session: Mapped[GameSession] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()


class Round(Base):
    __tablename__ = "round"
    __table_args__ = (sa.UniqueConstraint("session_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        sa.ForeignKey("game_session.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    dealer_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    session: Mapped[GameSession] = relationship(back_populates="rounds")
    dealer: Mapped[Player] = relationship()
    entries: Mapped[list[RoundEntry]] = relationship(
        back_populates="round", order_by="RoundEntry.turn", cascade="all, delete-orphan")


class RoundEntry(Base):
    """One player's part in a round: what the table entered and what it scored."""

    __tablename__ = "round_entry"
    __table_args__ = (
        sa.UniqueConstraint("round_id", "player_id"),
        # Whether a round was won with a Tien Hu, for a player's record.
        sa.Index("ix_round_entry_round_id_outcome", "round_id", "outcome"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(sa.ForeignKey("round.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"), index=True)
    seat: Mapped[int]  # clockwise place at the table in this round
    turn: Mapped[int]  # place in this round's playing order, from 0
    outcome: Mapped[str] = mapped_column(sa.String(OUTCOME_MAX))
    cards: Mapped[str] = mapped_column(sa.Text, default="")  # canonical notation
    points: Mapped[int]
    position: Mapped[int]
    tier_cents: Mapped[int] = mapped_column(Cents)
    hu_cents: Mapped[int] = mapped_column(Cents)
    joker_ace_cents: Mapped[int] = mapped_column(Cents)
    net_cents: Mapped[int] = mapped_column(Cents)

    round: Mapped[Round] = relationship(back_populates="entries")
    player: Mapped[Player] = relationship()


class DraftEntry(Base):
    """One player's hand in the session's coming round, filled in together from
    several phones (services.drafts): as typed, kept until the round is saved.
    Nothing counts until then."""

    __tablename__ = "draft_entry"
    __table_args__ = (sa.UniqueConstraint("session_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        sa.ForeignKey("game_session.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"), index=True)
    outcome: Mapped[str] = mapped_column(sa.String(OUTCOME_MAX))
    cards: Mapped[str] = mapped_column(sa.Text, default="")  # as typed
    version: Mapped[int]  # the entry's own, from 1: a save based on an older one is refused
    draft_version: Mapped[int]  # the session's draft_version that its last save made
    device: Mapped[str] = mapped_column(sa.String(DEVICE_MAX), default="")  # the phone's name
    # The player whose phone saved it, if that phone says and they play this round.
    phone_player_id: Mapped[int | None] = mapped_column(sa.ForeignKey("player.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    # The sign-in that saved it (its public id: web.access.sign_in_public_id).
    phone: Mapped[str] = mapped_column(sa.String(PHONE_ID_LENGTH), default="",
                                       server_default="")
    # Saved as it is typed, its field not yet left: not in while it is typed on
    # that phone (until TYPING_LAPSE after ``at``).
    typing: Mapped[bool] = mapped_column(default=False, server_default=sa.false())

    @classmethod
    def in_sql(cls) -> sa.ColumnElement[bool]:
        """A hand in, as SQL: saved, and not still being typed (being_typed)."""
        return sa.or_(cls.typing.is_(False), cls.at <= utcnow() - TYPING_LAPSE)


def being_typed(typing: bool, at: datetime) -> bool:
    """Whether a hand of a round filled in together, saved as it was typed
    at ``at``, is still being typed: its phone changed it within
    TYPING_LAPSE (a phone that went quiet does not hold the round up).
    DraftEntry.in_sql is the same rule for a query."""
    return typing and at > utcnow() - TYPING_LAPSE


class Payment(Base):
    """Money marked as paid from one player to another: for one session's
    transfer, in whole or in part; or across sessions (``session_id`` None),
    as "Settle everything" pays (rules/ledger.py says what each pays for).
    ``currency`` is the session's, or for a payment across sessions the
    currency of the debts it pays."""

    __tablename__ = "payment"
    __table_args__ = (sa.CheckConstraint("cents > 0", name="payment_cents_positive"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player_group.id", ondelete="CASCADE"), index=True)
    session_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("game_session.id", ondelete="CASCADE"), index=True)
    payer_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"))
    payee_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"))
    cents: Mapped[int] = mapped_column(Cents)
    currency: Mapped[str] = mapped_column(sa.String(CURRENCY_MAX))
    paid_at: Mapped[datetime] = mapped_column(default=utcnow)

    session: Mapped[GameSession | None] = relationship(back_populates="payments")


class ShareLink(Base):
    """A read-only link to a session for people who are not signed in.

    The URL's token is signed with the secret key and the group's passphrase
    hash, so a new passphrase revokes every link; ``revoked_at`` revokes one.
    """

    __tablename__ = "share_link"

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(
        sa.ForeignKey("game_session.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]

    session: Mapped[GameSession] = relationship()


class AuditEvent(Base):
    """One change, with what it changed from and to and which phone made it.

    ``before`` and ``after`` name players by name, so a group's history reads
    the same after an export and import. ``version`` is the session's version
    after the change.
    """

    __tablename__ = "audit_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player_group.id", ondelete="CASCADE"), index=True)
    session_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("game_session.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    device: Mapped[str] = mapped_column(sa.String(DEVICE_MAX), default="")
    action: Mapped[str] = mapped_column(sa.String(ACTION_MAX))
    subject: Mapped[str] = mapped_column(sa.String(SUBJECT_MAX), default="")
    before: Mapped[dict | None] = mapped_column(sa.JSON)
    after: Mapped[dict | None] = mapped_column(sa.JSON)
    version: Mapped[int | None]
