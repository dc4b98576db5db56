"""Invite links: a QR code at the table signs the friends' phones in to the
group without its passphrase.

An invite is a token of 256 bits, shown once as it is made; the row keeps
only its SHA-256, as a sign-in does (sign_ins.py). The token is the HMAC of
the form's once-only key under the secret key (random for a POST without a
key): a double tap's second request, a repeat of the change, names the same
link, so the phone is shown the link it made rather than none (the first
answer, and the cookie carrying the token, may never have reached it). It
signs in at most INVITE_PHONES phones, within INVITE_HOURS of being made,
unless revoked: from the group page, or by a new passphrase (groups.py).
One link for a table of friends rather than one per phone: a single QR code
on the table is what makes it quicker than reading out the passphrase; the
cap and the two hours bound what a photo of it could do elsewhere, and the
group page shows how many phones it has signed in. Opening a link counts
per address under a limit of its own, the sign-in limit's tries and two for
each of a link's places more (invite_limit): a whole table opening the link
and answering at once, on a café's one address, is never refused, however its
tries race, and no passphrase guess is spent on it. A link that opens takes
its try back: only links that never were, or no longer work, stay counted,
and guessing a 256-bit token gains nothing. A phone signing in is counted in the
same UPDATE that checks the link, so phones racing in on several workers
never get past the cap.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import cast

import sqlalchemy as sa
from flask import current_app

from ..audit import InviteMade, InviteRevoked, InviteUsed
from ..extensions import db
from ..limits import DEVICE_MAX, INVITE_HOURS, INVITE_LIFE, INVITE_PHONES
from ..models import Group, Invite, Player, utcnow
from . import throttle
from .protocol import N_, Change, ServiceError, applying
from .sessions import player_named
from .sign_ins import TOKEN_BYTES, TOKEN_MAX, token_hash

# Links expired this long ago are deleted as new ones are made (a few at a
# time); until then, opening one says it has expired rather than "unknown".
KEPT_EXPIRED = timedelta(days=7)
DELETED_AT_ONCE = 20


class InviteState(enum.Enum):
    OPEN = "open"
    EXPIRED = "expired"
    USED_UP = "used up"
    REVOKED = "revoked"
    UNKNOWN = "unknown"  # no such link: mistyped, or deleted long after it expired


class InviteClosed(ServiceError):
    """The link no longer signs phones in; ``state`` says why."""

    def __init__(self, state: InviteState, invite: Invite | None = None) -> None:
        super().__init__(f"This invite link is {state.value}")
        self.state = state
        self.invite = invite


@dataclass(frozen=True)
class Opened:
    """What a link's token names: its invite (None if unknown) and its state."""

    invite: Invite | None
    state: InviteState


def state_of(invite: Invite) -> InviteState:
    if invite.revoked_at is not None:
        return InviteState.REVOKED
    if invite.used >= invite.phones:
        return InviteState.USED_UP
    if invite.expires_at <= utcnow():
        return InviteState.EXPIRED
    return InviteState.OPEN


def invite_token(change: Change) -> str:
    """The token of the link that ``change`` makes (see above)."""
    if change.once is None:
        return secrets.token_urlsafe(TOKEN_BYTES)
    made = hmac.new(current_app.config["SECRET_KEY"].encode(),
                    f"invite:{change.group.id}:{change.once.key}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(made.digest()).rstrip(b"=").decode()


def invite_named(token: str) -> Invite | None:
    """The invite whose token this is, for the phone that made it (its cookie)."""
    return db.session.scalar(sa.select(Invite).where(Invite.token_hash == token_hash(token)))


def create_invite(change: Change) -> tuple[Invite, str]:
    """A new link to the change's group: the invite and its token, which is
    shown once and kept nowhere. A repeat of the change (its key applied
    already) is Repeated: ``invite_token(change)`` names the first's link."""
    token = invite_token(change)
    now = utcnow()
    with applying(change) as done:
        _delete_long_expired(now)
        invite = Invite(group_id=change.group.id, token_hash=token_hash(token),
                        device=change.device[:DEVICE_MAX], created_at=now,
                        expires_at=now + INVITE_LIFE, phones=INVITE_PHONES)
        db.session.add(invite)
        db.session.flush()
        done.audit(InviteMade(invite.id, INVITE_PHONES, INVITE_HOURS))
    return invite, token


def _delete_long_expired(now) -> None:
    old = (sa.select(Invite.id).where(Invite.expires_at < now - KEPT_EXPIRED)
           .limit(DELETED_AT_ONCE).scalar_subquery())
    db.session.execute(sa.delete(Invite).where(Invite.id.in_(old))
                       .execution_options(synchronize_session=False))


def open_invite(token: str, *, address: str | None) -> Opened:
    """The invite a link's token names, and whether it signs phones in now.
    Counts against invite_limit for ``address`` (TooManyGuesses past it,
    before the token is looked at); a link that opens takes its try back."""
    keys = [f"invite-address:{address}"] if address is not None else []
    with throttle.guessing(invite_limit(), *keys) as guess:
        invite = None
        if 0 < len(token) <= TOKEN_MAX:
            invite = db.session.scalar(
                sa.select(Invite).where(Invite.token_hash == token_hash(token)))
        state = InviteState.UNKNOWN if invite is None else state_of(invite)
        if state is InviteState.OPEN:
            guess.take_back()
    return Opened(invite, state)


def use_invite(change: Change, invite: Invite, new_player: str | None = None) -> Player | None:
    """A phone signs in with the link (the web layer makes its sign-in): it
    takes one of the link's places, in one guarded UPDATE, or InviteClosed
    if the link closed meanwhile. ``new_player``: the name of the player the
    phone says it is, added to the group if it has nobody of that name."""
    with applying(change) as done:
        took = cast(sa.CursorResult, db.session.execute(
            sa.update(Invite)
            .where(Invite.id == invite.id, Invite.group_id == change.group.id,
                   Invite.revoked_at.is_(None), Invite.used < Invite.phones,
                   Invite.expires_at > utcnow())
            .values(used=Invite.used + 1)
            .execution_options(synchronize_session=False))).rowcount
        if took != 1:
            db.session.rollback()
            db.session.refresh(invite)
            raise InviteClosed(state_of(invite), invite)
        player = player_named(done, new_player) if new_player is not None else None
        done.audit(InviteUsed(invite.id))
    db.session.refresh(invite)
    return player


def revoke_invite(change: Change, invite: Invite) -> None:
    """The link signs no phone in from now on (phones signed in stay so)."""
    if invite.group_id != change.group.id:
        raise ServiceError(N_("That link is another group's"))
    if invite.revoked_at is not None:
        raise ServiceError(N_("That link is revoked already"))
    with applying(change) as done:
        invite.revoked_at = utcnow()
        done.audit(InviteRevoked(invite.id))


def revoke_every_invite(group: Group) -> None:
    """Inside a change of the group (a new passphrase): every link that
    could still sign a phone in is revoked."""
    db.session.execute(
        sa.update(Invite).where(Invite.group_id == group.id, Invite.revoked_at.is_(None),
                                Invite.expires_at > utcnow())
        .values(revoked_at=utcnow()).execution_options(synchronize_session=False))


def invite_limit() -> throttle.Limit:
    """Links opened from one address: the sign-in limit (SIGN_IN_LIMIT) and,
    in the same window, room for a full table whose phones race in at once,
    each opening the link and posting its answer (both count until the link
    is seen to work)."""
    sign_ins = throttle.Limit.parse(current_app.config["SIGN_IN_LIMIT"], "SIGN_IN_LIMIT")
    return throttle.Limit(sign_ins.attempts + 2 * INVITE_PHONES, sign_ins.window)
