"""A session's history of changes (the audit trail), and restoring a deleted
round. presenters/changes.py puts the trail into words."""

from __future__ import annotations

from flask import Blueprint, abort, g, render_template, url_for

from .. import queries, services
from ..audit import Action
from ..forms.rounds import VersionForm
from ..models import Round
from .loading import add_session_id, load_game_session
from .once import answered, changing, once
from .paging import page_number
from .presenters.changes import describe_all
from .presenters.refusals import refusal

bp = Blueprint("changes", __name__, url_prefix="/sessions/<int:session_id>/changes")
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)


def _restored_page(round_: Round) -> str:
    return url_for("rounds.show", number=round_.number)


@bp.get("")
def index():
    return render_changes(page_number())


@bp.post("/<int:event_id>/restore")
@once(redirect_to=_restored_page)
def restore(event_id: int):
    deletion = queries.session_event(g.game, event_id)
    if deletion is None or deletion.action != Action.ROUND_DELETE:
        abort(404)
    form = VersionForm()
    if not form.validate():
        abort(400)
    if g.game.is_finished:
        return render_changes(1, error="This session has ended: reopen it from the scoreboard "
                                       "first, then restore the round."), 409
    version = form.parsed_version()
    if version is None:
        return render_changes(1, error="This page was out of date. Here are the changes as they "
                                       "are now: tap Restore again if you still want it."), 400
    try:
        round_ = services.restore_round(changing(version), deletion)
    except services.ServiceError as error:
        return render_changes(1, error=refusal(error)), 409
    return answered(round_)


def render_changes(number: int, error: str | None = None):
    page = queries.session_changes(g.game, number)
    if not page.exists:
        abort(404)
    restored = services.restored_deletions(g.game)
    return render_template(
        "changes/index.html", page=page, changes=describe_all(page.items, g.game.currency),
        restorable={e.id for e in page.items
                    if e.action == Action.ROUND_DELETE and e.id not in restored},
        error=error)
