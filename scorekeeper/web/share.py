"""Read-only share links to a session: making and revoking them, and the
pages they open for people who are not signed in.

A link's token carries its id, signed with the secret key and the group's
passphrase hash: a new passphrase revokes every link, ``revoked_at`` one.
"""

import hashlib

import qrcode
import qrcode.image.svg
import sqlalchemy as sa
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    redirect,
    render_template,
    url_for,
)
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy.orm import joinedload

from .. import queries, services
from ..extensions import db
from ..forms.groups import ButtonForm
from ..limits import ID_MAX
from ..models import GameSession, Group, ShareLink
from .access import device_label
from .loading import add_session_id, load_game_session

bp = Blueprint("share", __name__)

# Opened with a token instead of a signed-in phone.
PUBLIC = frozenset({"share.board", "share.settle"})
SALT = "share-link"
# Our tokens are about 50 characters; anything much longer is not ours.
TOKEN_MAX = 100


@bp.url_value_preprocessor
def load_for_members(endpoint, values):
    """The members' pages check the group and load g.game like every session page."""
    if endpoint not in PUBLIC:
        load_game_session(endpoint, values)


@bp.url_defaults
def session_id_for_members(endpoint, values):
    if endpoint not in PUBLIC:
        add_session_id(endpoint, values)


# Tokens


def _serializer(group: Group) -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"] + group.passphrase_hash, salt=SALT,
                             signer_kwargs={"digest_method": hashlib.sha256})


def share_url(link: ShareLink, group: Group) -> str:
    return url_for("share.board", token=_serializer(group).dumps(link.id), _external=True)


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


def _public(html: str) -> Response:
    response = Response(html)
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


# Members' pages


def _link_of_session(link_id: int) -> ShareLink:
    link = db.session.get(ShareLink, link_id)
    if link is None or link.session_id != g.game.id:
        abort(404)
    return link


@bp.get("/sessions/<int:session_id>/share")
def manage():
    links = queries.share_links(g.game)
    return render_template(
        "share/manage.html", game=g.game, form=ButtonForm(),
        active=[(link, share_url(link, g.game.group)) for link in links if link.revoked_at is None],
        revoked=[link for link in links if link.revoked_at is not None])


@bp.post("/sessions/<int:session_id>/share")
def create():
    if not ButtonForm().validate():
        abort(400)
    services.create_share_link(g.game, device=device_label())
    return redirect(url_for(".manage"))


@bp.post("/sessions/<int:session_id>/share/<int:link_id>/revoke")
def revoke(link_id):
    if not ButtonForm().validate():
        abort(400)
    try:
        services.revoke_share_link(_link_of_session(link_id), device=device_label())
    except services.ServiceError:
        pass  # revoked already, from another phone: the page shows it so
    return redirect(url_for(".manage"))


@bp.get("/sessions/<int:session_id>/share/<int:link_id>/qr.svg")
def qr(link_id):
    link = _link_of_session(link_id)
    if link.revoked_at is not None:
        abort(404)
    image = qrcode.make(share_url(link, g.game.group),
                        image_factory=qrcode.image.svg.SvgPathFillImage)
    return Response(image.to_string(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, no-store"})


# Public pages


@bp.get("/share/<token>")
def board(token):
    game = queries.load_board(shared_session(token))
    return _public(render_template(
        "share/board.html", game=game, board=queries.scoreboard(game), token=token))


@bp.get("/share/<token>/settle")
def settle(token):
    game = queries.load_board(shared_session(token))
    return _public(render_template(
        "share/settle.html", game=game, standings=queries.standings(game),
        plan=services.settlement(game), token=token))
