"""The history pages: finished sessions, one session's full record, a player's record."""

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import queries, services
from ..forms.history import HistoryFilterForm, RenameForm
from ..models import Player
from ..rules import parse_cards
from .access import require_group, signed_in_group
from .filters import player_choices
from .loading import group_row_or_404
from .once import changing
from .paging import page_number
from .presenters.charts import (
    chart_switch,
    game_chart,
    month_name,
    months_chart,
    points_asked,
    points_bins,
    points_chart,
)
from .presenters.refusals import refusal
from .presenters.rules import preset_words, rules_summary

bp = Blueprint("history", __name__)
bp.url_value_preprocessor(require_group)


@bp.get("/history")
def index():
    form = HistoryFilterForm(request.args)
    players = queries.players_on_record(signed_in_group())
    form.player.choices = player_choices(players, _("All players"))
    chosen = None
    if form.validate() and form.player.data:
        chosen = next(p for p in players if str(p.id) == form.player.data)
    page = queries.finished_sessions(signed_in_group(), page_number(),
                                     chosen.id if chosen else None)
    if not page.exists:
        abort(404)
    # A page names each player in many sessions: build each one's link once.
    player_links = {p.id: url_for("history.player", player_id=p.id) for p in players}
    return render_template("history/index.html", form=form, chosen=chosen, page=page,
                           player_links=player_links)


@bp.get("/history/sessions/<int:session_id>")
def session(session_id: int):
    game = queries.session_record(signed_in_group(), session_id)
    if game is None:
        abort(404)
    rounds = queries.session_rounds(session_id, page_number())
    if not rounds.exists:
        abort(404)
    chart = game_chart(
        game, [seat.player for seat in game.seats], rounds.total,
        points_asked(game, request.args),
        href=(url_for("rounds.show", session_id=game.id, number=0).removesuffix("0") + "{}").format)
    return render_template(
        "history/session.html", game=game, rounds=rounds, chart=chart,
        chart_switch=chart_switch(game, request.args, "history.session", session_id=game.id),
        balances=services.balances(game),
        settlement=services.settlement(game),
        preset=preset_words(game.rules),
        house_rules=rules_summary(game.rules, game.currency),
        parse_cards=parse_cards)


@bp.get("/players/<int:player_id>")
def player(player_id: int):
    return render_player(group_row_or_404(Player, player_id))


def render_player(person: Player, rename_form: RenameForm | None = None):
    record = queries.player_record(person)
    page = queries.played_sessions(person, page_number(), record.sessions)
    if not page.exists:
        abort(404)
    if rename_form is None:
        rename_form = RenameForm(formdata=None, data={"name": person.name})
    # The charts of the currency the player played in most (the record's first).
    currency = record.money[0].currency if record.money else None
    months = (queries.money_by_month(person, currency, signed_in_group().timezone)
              if currency else [])
    best, worst = queries.best_and_worst(person, currency) if currency else (None, None)
    bins = (points_bins(queries.points_spread(person, queries.SPREAD_ROUNDS))
            if record.rounds else [])
    return render_template("history/player.html", person=person, record=record, page=page,
                           rename_form=rename_form, currency=currency, months=months,
                           months_chart=months_chart(months, currency or ""), best=best,
                           worst=worst, bins=bins, points_chart=points_chart(bins),
                           spread_last=queries.SPREAD_ROUNDS
                           if record.rounds > queries.SPREAD_ROUNDS else None,
                           month_name=month_name), \
        200 if not rename_form.errors else 422


@bp.post("/players/<int:player_id>/name")
def rename(player_id: int):
    person = group_row_or_404(Player, player_id)
    form = RenameForm()
    if form.validate():
        try:
            services.rename_player(changing(), person, form.name.data)
        except services.ServiceError as error:
            form.name.errors.append(refusal(error))
        else:
            return redirect(url_for(".player", player_id=person.id))
    return render_player(person, form)
