"""How we play: a session's house rules in plain words, for the new player
at the table; for the group's phones, and read-only from the session's share
link (share_links.py) for a guest."""

from flask import Blueprint, g, render_template

from .. import queries
from ..models import GameSession
from .loading import session_pages
from .presenters.how_we_play import how_we_play
from .presenters.rules import preset_words, rules_summary
from .share_links import PUBLIC, shared_session

bp = Blueprint("how_we_play", __name__)
session_pages(bp, PUBLIC)


def _page(game: GameSession, token: str | None = None) -> str:
    names = [seat.player.name for seat in game.seats if seat.active]
    return render_template(
        "how_we_play/index.html", game=game, token=token, preset=preset_words(game.rules),
        summary=rules_summary(game.rules, game.currency),
        parts=how_we_play(game.rules, game.currency, names))


@bp.get("/sessions/<int:session_id>/how-we-play")
def index():
    return _page(g.game)


@bp.get("/share/<token>/how-we-play")
def shared(token):
    game = queries.load_board(shared_session(token))
    return _page(game, token)
