"""Sign-ins: the row a phone's cookie names while it is signed in to a group.

The cookie holds a random token (256 bits from ``secrets``), never issued
twice; the row holds its SHA-256 only (a token that random needs no slow
hash), under a unique index. Whatever ends a sign-in deletes its row, and no
later sign-in can be named by the same cookie: a copy of a signed-out phone's
cookie stays dead on every database, whatever ids the database hands out.
"""

import hashlib
import secrets
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import current_app

from ..extensions import db
from ..models import Group, SignIn, utcnow

TOKEN_BYTES = 32
TOKEN_MAX = 64  # a cookie's token is 43 characters; anything much longer is not ours
# Sign-ins unused for longer than a cookie lives, deleted at each new sign-in:
# at most this many at a time, so that no sign-in waits on a long DELETE.
STALE_DELETED = 100


def token_hash(token: str) -> str:
    """What the row keeps of a cookie's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def sign_in_phone(group: Group, *, replacing: str | None = None) -> str:
    """A phone's new sign-in to ``group``: the token its cookie is to hold.
    The phone's sign-in before it (``replacing``: its token), whichever
    group it was for, ends; so do a few sign-ins unused for longer than a
    cookie lives."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    now = utcnow()
    try:
        if replacing is not None:
            db.session.execute(sa.delete(SignIn).where(SignIn.token_hash == token_hash(replacing)))
        _delete_stale(now)
        db.session.add(SignIn(group_id=group.id, token_hash=token_hash(token),
                              created_at=now, used_at=now))
        db.session.commit()
    except sa.exc.SQLAlchemyError:
        db.session.rollback()
        raise
    return token


def _delete_stale(now: datetime) -> None:
    """Sign-ins whose cookie has expired. A cookie is renewed for its full
    lifetime when the row's ``used_at`` moves, and perhaps again later that
    day (the session cookie is sent again whenever it changes): a day more."""
    cutoff = now - current_app.config["PERMANENT_SESSION_LIFETIME"] - timedelta(days=1)
    stale = (sa.select(SignIn.id).where(SignIn.used_at < cutoff)
             .order_by(SignIn.used_at).limit(STALE_DELETED))
    db.session.execute(sa.delete(SignIn).where(SignIn.id.in_(stale)))


def sign_in_used(token: str) -> None:
    """The phone opened a group page on a new day, and its cookie is renewed:
    the sign-in lives as long from now."""
    db.session.execute(sa.update(SignIn).where(SignIn.token_hash == token_hash(token))
                       .values(used_at=utcnow()))
    db.session.commit()


def sign_out_phone(token: str) -> None:
    """The sign-in ends for good: a copy of its cookie opens nothing either."""
    db.session.execute(sa.delete(SignIn).where(SignIn.token_hash == token_hash(token)))
    db.session.commit()
