"""The sessions pages: start a session, the sessions still open, a session's
scoreboard, players joining and leaving, and settling up."""

import json

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from wtforms.fields.choices import SelectChoice

from .. import queries, services
from ..forms.sessions import (
    EditRulesForm,
    JoinForm,
    NewSessionForm,
    PaidForm,
    rule_data,
    rule_texts,
)
from ..rules import PRESETS, HouseRules
from .access import device_label, signed_in_group
from .filters import isolated, local_time, money
from .loading import add_session_id, load_game_session
from .paging import page_number

bp = Blueprint("sessions", __name__)
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)


@bp.route("/sessions/new", methods=["GET", "POST"])
def new():
    if request.method == "GET":
        form = NewSessionForm(data=rule_data(HouseRules.penang()))
    else:
        form = NewSessionForm()
    start_error = None
    if form.is_submitted() and "use_preset" in request.form:
        form = NewSessionForm.with_preset(form)
    elif form.validate_on_submit():
        try:
            session = services.start_session(
                signed_in_group(), form.names(), form.house_rules(), form.dealer_name(),
                form.currency.data, device=device_label())
        except services.ServiceError as error:
            start_error = str(error)
        else:
            return redirect(url_for("sessions.board", session_id=session.id))
    return render_template(
        "sessions/new.html", form=form, start_error=start_error,
        known=queries.known_players(signed_in_group()),
        presets=json.dumps({key: rule_texts(make()) for key, (_, make) in PRESETS.items()}))


@bp.get("/sessions/open")
def still_open():
    page = queries.open_sessions(signed_in_group(), page_number())
    if not page.exists:
        abort(404)
    return render_template("sessions/open.html", page=page)


@bp.get("/sessions/<int:session_id>")
def board():
    # The rounds' links differ in their number only: one url_for rather than
    # one a row (6% of the page's work).
    round_href = url_for("rounds.show", number=0).removesuffix("0")
    return render_template("sessions/board.html", game=g.game,
                           board=queries.scoreboard(g.game), round_href=round_href)


@bp.get("/sessions/<int:session_id>/players")
def players():
    return render_players()


def render_players(join_form=None, leave_error=None, leaving=None):
    """Who sits where, a leave button each and the join form; after a refused
    POST, with the join form as typed or why player ``leaving`` could not leave."""
    game = g.game
    seated = services.active_players(game)
    if join_form is None:
        join_form = JoinForm(formdata=None, position=len(seated))
    join_form.position.choices = seat_choices(seated)
    return render_template(
        "sessions/players.html", game=game, seated=seated,
        join_form=join_form, leave_error=leave_error, leaving=leaving,
        known=[] if game.is_finished else queries.known_players(signed_in_group()))


def seat_choices(seated):
    """Where a newcomer can sit: value p puts them before the p-th seated player
    (the last value: after the last one, next to the first)."""
    return [SelectChoice(i + 1, f"Between {isolated(player.name)} and "
                                f"{isolated(seated[(i + 1) % len(seated)].name)}")
            for i, player in enumerate(seated)]


@bp.post("/sessions/<int:session_id>/players")
def join():
    form = JoinForm()
    form.position.choices = seat_choices(services.active_players(g.game))
    if form.validate():
        try:
            services.join_session(g.game, form.name.data, form.position.data,
                                  device=device_label())
        except services.ServiceError as error:
            form.name.errors.append(str(error))
        else:
            return redirect(url_for("sessions.board"))
    return render_players(join_form=form)


@bp.post("/sessions/<int:session_id>/players/<int:player_id>/leave")
def leave(player_id):
    try:
        services.leave_session(g.game, player_id, device=device_label())
    except services.ServiceError as error:
        return render_players(leave_error=str(error), leaving=player_id)
    return redirect(url_for("sessions.board"))


@bp.get("/sessions/<int:session_id>/settle")
def settle():
    return render_settle()


def render_settle(error=None):
    game = g.game
    plan = services.settlement(game)
    return render_template(
        "sessions/settle.html", game=game, standings=queries.standings(game), plan=plan,
        message=share_text(game, plan), error=error)


def share_text(game, plan) -> str:
    """The settlement as a chat message; a name that could reorder the text
    after it (U+202E) is isolated."""
    day = local_time(game.started_at)
    lines = [f"Rummy {day.day} {day:%b %Y} \u2014 settle up:"]
    lines += [f"{isolated(s.transfer.payer.name)} pays {isolated(s.transfer.payee.name)} "
              f"{game.currency} {money(s.transfer.cents)}" + (" (paid)" if s.paid else "")
              for s in plan]
    if not plan:
        lines.append("Nobody owes anything.")
    return "\n".join(lines)


@bp.post("/sessions/<int:session_id>/settle/paid")
def paid():
    form = PaidForm()
    if not form.validate():
        abort(400)
    try:
        services.set_paid(g.game, form.payer_id.data, form.payee_id.data, form.cents.data,
                          form.paid.data, device=device_label())
    except services.ServiceError as error:
        return render_settle(error=str(error))
    return redirect(url_for("sessions.settle", _anchor="transfers"))


@bp.post("/sessions/<int:session_id>/reopen")
def reopen():
    try:
        services.reopen_session(g.game, device=device_label())
    except services.ServiceError:
        pass  # already open: the scoreboard shows it as it is
    return redirect(url_for("sessions.board"))


@bp.post("/sessions/<int:session_id>/end")
def end():
    try:
        services.end_session(g.game, device=device_label())
    except services.ServiceError as error:
        return render_settle(error=str(error))
    return redirect(url_for("sessions.board"))


@bp.route("/sessions/<int:session_id>/rules", methods=["GET", "POST"])
def rules():
    """Correct the house rules or currency: every round is scored again."""
    game = g.game
    if game.is_finished:
        return render_template("sessions/rules.html", game=game, form=None, error=None), 409
    if request.method == "GET":
        form = EditRulesForm(data={**rule_data(game.rules), "currency": game.currency,
                                   "version": str(game.version)})
    else:
        form = EditRulesForm()
    error, status = None, 200
    if form.validate_on_submit():
        try:
            services.change_house_rules(game, form.house_rules(), form.currency.data,
                                        device=device_label(),
                                        version=form.parsed_version())
        except services.Conflict as conflict:
            error, status = str(conflict), 409
            form.version.data = str(game.version)  # saving again applies these rules
        except services.ServiceError as refused:
            error, status = str(refused), 422
        else:
            return redirect(url_for("sessions.board"))
    elif form.errors:
        status = 422
    return render_template("sessions/rules.html", game=game, form=form, error=error), status
