"""The rows that guard the site rather than hold the game: the once-only
keys of changes, sign-ins, invite links, counted attempts and live streams."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Base
from ..limits import (
    DEVICE_MAX,
    KEY_MAX,
    TOKEN_HASH_LENGTH,
)
from .columns import utcnow


class ChangeKey(Base):
    """A change a phone made, by the key its form carried: unique in the
    group, so a change is applied at most once however often it is sent.
    ``answer`` is what the change answered ({"redirect": path}, or {"status":
    code, "json": body}), told again to every repeat. ``made_at`` is when the
    key's form was made, as the key itself says: past KEY_LIFE the key is
    refused, and its row is deleted. Written in the change's transaction
    (services.protocol)."""

    __tablename__ = "change_key"
    __table_args__ = (sa.UniqueConstraint("group_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player_group.id", ondelete="CASCADE"))
    # Sessions are never deleted but with their group: no index for the cascade.
    session_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("game_session.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(sa.String(KEY_MAX))
    answer: Mapped[dict] = mapped_column(sa.JSON)
    made_at: Mapped[datetime] = mapped_column(index=True)  # for deleting the old ones


class SignIn(Base):
    """A phone signed in to a group. Its cookie holds a random token of 256
    bits that no other sign-in is ever given; the row keeps only the token's
    SHA-256, so a copy of the database opens no group. Signing out, signing
    in again on the same phone and a new passphrase delete the row, so a copy
    of the cookie taken before stops working too, for good. ``used_at`` moves
    on the phone's first group page of a day, as its cookie is renewed: a row
    unused for longer than a cookie lives is deleted."""

    __tablename__ = "sign_in"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player_group.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(sa.String(TOKEN_HASH_LENGTH), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    used_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class Invite(Base):
    """A link that signs phones in to a group without its passphrase
    (services/invites.py): until ``expires_at``, for ``phones`` phones at
    most, unless revoked (from the group page, or by a new passphrase). The
    link holds a token of 256 bits (services/invites.py), shown once as it
    is made; the row keeps only its SHA-256, so a copy of the database opens
    no group."""

    __tablename__ = "invite"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player_group.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(sa.String(TOKEN_HASH_LENGTH), unique=True)
    device: Mapped[str] = mapped_column(sa.String(DEVICE_MAX), default="")  # made from
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)  # also: old ones deleted
    phones: Mapped[int]  # how many phones it may sign in
    used: Mapped[int] = mapped_column(default=0, server_default="0")  # how many it did
    revoked_at: Mapped[datetime | None]


class Attempt(Base):
    """One attempt counted against a limit (services.throttle): a passphrase
    checked, a group created, a backup imported. ``key`` says what it counts
    for (a group name, an address, a device cookie, the whole site); the row
    is kept ``until`` it stops counting, in the database so that every worker
    and every app server counts the same attempts."""

    __tablename__ = "attempt"
    __table_args__ = (sa.Index("ix_attempt_key_until", "key", "until"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(sa.String(200))
    until: Mapped[datetime] = mapped_column(index=True)


class LiveStream(Base):
    """A live page's stream open on some worker of some app server, counted
    against the caps on streams per holder (a sign-in or a share link) and
    per address (services/streams.py). Written before it is counted, deleted
    when the stream ends; the worker holding it pushes ``expires_at`` on while
    it is open, so the rows of a worker that was killed lapse by themselves."""

    __tablename__ = "live_stream"
    __table_args__ = (
        sa.Index("ix_live_stream_holder_expires_at", "holder", "expires_at"),
        sa.Index("ix_live_stream_address_expires_at", "address", "expires_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    holder: Mapped[str] = mapped_column(sa.String(100))
    address: Mapped[str] = mapped_column(sa.String(64))
    expires_at: Mapped[datetime] = mapped_column(index=True)
