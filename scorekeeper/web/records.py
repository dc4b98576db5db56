"""The group's records: the leaderboard over any dates, and two players head to head."""

from datetime import date, timedelta

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _

from .. import queries
from ..forms.records import HeadToHeadForm, LeaderboardForm
from ..models import utcnow, wall_clock
from .access import phone_player_id, require_group, signed_in_group
from .filters import player_choices
from .paging import page_number

bp = Blueprint("records", __name__)
bp.url_value_preprocessor(require_group)

DEFAULT_SORT = "money"


def periods(today: date) -> list[tuple[str, dict[str, str]]]:
    """The board's usual dates, as its links give them: (words, query)."""
    month = today.replace(day=1)
    next_month = (month + timedelta(days=32)).replace(day=1)
    return [
        (_("This month"), {"from": month.isoformat(),
                           "to": (next_month - timedelta(days=1)).isoformat()}),
        (_("This year"), {"from": today.replace(month=1, day=1).isoformat(),
                          "to": today.replace(month=12, day=31).isoformat()}),
        (_("All time"), {}),
    ]


@bp.get("/records")
def leaderboard():
    group = signed_in_group()
    form = LeaderboardForm(request.args)
    today = wall_clock(utcnow(), group.timezone).date()
    column = request.args.get("sort", DEFAULT_SORT)
    if column not in queries.SORTS:
        column = DEFAULT_SORT
    first_way = queries.SORTS[column][1]
    order = request.args.get("order")
    descending = first_way if order not in ("asc", "desc") else order == "desc"
    dates = {"from": (form.day_from.data or "").strip() or None,
             "to": (form.day_to.data or "").strip() or None}
    context = {"form": form, "periods": periods(today), "dates": dates, "column": column,
               "descending": descending, "sorts": queries.SORTS, "me": phone_player_id(),
               "board": None}
    if not form.validate():
        return render_template("records/leaderboard.html", **context), 422
    first, last = form.day_from.day, form.day_to.day
    board = queries.leaderboard(
        group.id,
        queries.day_start(first, group.timezone) if first else None,
        queries.day_start(last + timedelta(days=1), group.timezone) if last else None,
        request.args.get("currency"))
    return render_template(
        "records/leaderboard.html", **{**context, "board": board},
        lines=queries.sorted_lines(board.lines, column, descending),
        keep={**dates, "currency": board.currency if len(board.currencies) > 1 else None})


@bp.get("/records/head-to-head")
def head_to_head():
    group = signed_in_group()
    players = queries.players_on_record(group)
    names = {str(p.id): p for p in players}
    form = HeadToHeadForm(request.args)
    for field in (form.a, form.b):
        # A player's id not in the list (another group's, or none): not found.
        if field.data and field.data.isdigit() and field.data not in names:
            abort(404)
        field.choices = player_choices(players, _("Choose a player"))
    me = phone_player_id()
    if not request.args and str(me) in names:
        form.a.data = str(me)
    context = {"form": form, "a": None, "b": None, "record": None, "page": None}
    if not form.validate():
        return render_template("records/head_to_head.html", **context), 422
    if not (form.a.data and form.b.data):
        return render_template("records/head_to_head.html", **context)
    a, b = names[form.a.data], names[form.b.data]
    record = queries.head_to_head(group.id, a.id, b.id)
    page = queries.shared_sessions(group.id, a.id, b.id, page_number(), record.sessions)
    if not page.exists:
        abort(404)
    return render_template("records/head_to_head.html", **{
        **context, "a": a, "b": b, "record": record, "page": page})
