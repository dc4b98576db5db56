"""Share links' tokens: a link's token carries its id, signed with the secret
key and the group's passphrase hash, so a new passphrase revokes every link
(``revoked_at`` one); and the pages a token opens, for people who are not
signed in."""

import hashlib

import sqlalchemy as sa
from flask import abort, current_app, url_for
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy.orm import joinedload

from ..extensions import db
from ..limits import ID_MAX
from ..models import GameSession, Group, ShareLink

# Opened with a token instead of a signed-in phone.
PUBLIC = frozenset({"share.board", "share.settle", "share.result", "share.table",
                    "how_we_play.shared"})
SALT = "share-link"
# Our tokens are about 50 characters; anything much longer is not ours.
TOKEN_MAX = 100


def _serializer(group: Group) -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"] + group.passphrase_hash, salt=SALT,
                             signer_kwargs={"digest_method": hashlib.sha256})


def share_url(link: ShareLink, group: Group, page: str = "share.board") -> str:
    """The address of the link's ``page`` (its scoreboard, or another of PUBLIC)."""
    return url_for(page, token=_serializer(group).dumps(link.id), _external=True)


def shared_session(token: str) -> GameSession:
    """The session a token opens, or a 404 whether the token is forged, revoked
    or from before a passphrase change."""
    return shared_link(token).session


def shared_link(token: str) -> ShareLink:
    """The link a token names, or a 404 (as shared_session)."""
    link = _open_link(token)
    if link is None:
        abort(404)
    return link


def link_still_open(token: str) -> bool:
    """Whether the token still opens its link: not revoked, no new passphrase."""
    return _open_link(token) is not None


def _open_link(token: str) -> ShareLink | None:
    if len(token) > TOKEN_MAX or token.startswith("."):  # "." would mean compressed
        return None
    _, link_id = URLSafeSerializer("unverified", salt=SALT).loads_unsafe(token)
    if type(link_id) is not int or not 1 <= link_id <= ID_MAX:
        return None
    link = db.session.scalar(
        sa.select(ShareLink).where(ShareLink.id == link_id)
        .options(joinedload(ShareLink.session).joinedload(GameSession.group)))
    if link is None or link.revoked_at is not None:
        return None
    try:
        signed_id = _serializer(link.session.group).loads(token)
    except BadSignature:
        return None
    return link if signed_id == link.id else None
