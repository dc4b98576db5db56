"""Read-only share links to a session: making and revoking them, and the
pages they open for people who are not signed in (share_links.py: tokens)."""

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, abort, g, redirect, render_template, url_for

from .. import queries, services
from ..extensions import db
from ..forms.groups import ButtonForm
from ..models import ShareLink
from .loading import session_pages
from .once import answered, changing, once
from .presenters.charts import game_chart
from .presenters.message import chat_message
from .presenters.picture import picture_response
from .share_links import PUBLIC, share_url, shared_session

bp = Blueprint("share", __name__)
session_pages(bp, PUBLIC)


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
        active=[(link, share_url(link, g.game.group), share_url(link, g.game.group, "share.table"))
                for link in links if link.revoked_at is None],
        revoked=[link for link in links if link.revoked_at is not None])


def _to_manage(_=None) -> str:
    return url_for("share.manage")


@bp.post("/sessions/<int:session_id>/share")
@once(redirect_to=_to_manage)
def create():
    """A double tap makes one link: the repeat is answered as the first."""
    if not ButtonForm().validate():
        abort(400)
    return answered(services.create_share_link(changing()))


@bp.post("/sessions/<int:session_id>/share/<int:link_id>/revoke")
def revoke(link_id):
    if not ButtonForm().validate():
        abort(400)
    try:
        services.revoke_share_link(changing(), _link_of_session(link_id))
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
    # An ended session opens on the night's summary, as the members' scoreboard does.
    night = services.night(game) if game.is_finished else None
    board = queries.scoreboard(game)
    chart = game_chart(game, [s.player for s in board.standings], board.rounds,
                       queries.by_points(game))
    return render_template(
        "share/board.html", game=game, board=board, token=token, chart=chart,
        night=night, message=night and chat_message(game, night.places, night.settlement))


@bp.get("/share/<token>/result.png")
def result(token):
    """The session as a picture, as its members' scoreboard gives it."""
    return picture_response(queries.load_board(shared_session(token)))


@bp.get("/share/<token>/settle")
def settle(token):
    game = queries.load_board(shared_session(token))
    return render_template(
        "share/settle.html", game=game, standings=queries.standings(game),
        plan=services.settlement(game), token=token)


@bp.get("/share/<token>/table")
def table(token):
    """The table screen: for a tablet propped in the middle of the table, in
    large type and kept awake: who deals and plays first, the totals by
    place, the last round, and the money chart (share/_table_chart.html).
    Live as the share board; like it, no payment details."""
    game = queries.load_board(shared_session(token))
    board = queries.scoreboard(game)
    # The last round: each player at it and their entry, its winner first.
    last = sorted(((s, e) for s, e in zip(board.standings, board.rows[-1].cells, strict=True) if e),
                  key=lambda pair: pair[1].position) if board.rows else []
    chart = game_chart(game, [s.player for s in board.standings], board.rounds,
                       queries.by_points(game))
    return render_template(
        "share/table.html", game=game, board=board, token=token, last=last, chart=chart,
        places=queries.places(board.standings, queries.by_points(game)),
        keep_awake=not game.is_finished)
