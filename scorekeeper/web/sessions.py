"""The sessions pages: start a session, the sessions still open, a session's
scoreboard, players joining and leaving, and settling up."""

import json

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from wtforms.fields.choices import SelectChoice

from .. import queries, services
from ..forms.money import PayForm
from ..forms.sessions import (
    LAST,
    EditRulesForm,
    JoinForm,
    NewSessionForm,
    PhoneForm,
    rule_data,
    rule_texts,
)
from ..limits import CURRENCY_MAX, MAX_PLAYERS, MIN_PLAYERS
from ..rules import PRESETS, RulesError
from .access import phone_player_id, set_phone_player, signed_in_group
from .filters import isolated
from .loading import add_session_id, load_game_session
from .once import answered, changing, fresh_token, new_key, once
from .paging import page_number
from .payments import mark_paid, take_back
from .presenters.charts import chart_switch, game_chart, points_asked
from .presenters.message import chat_message
from .presenters.picture import picture_response
from .presenters.refusals import refusal
from .presenters.rules import last_time_summary, pays_lines

bp = Blueprint("sessions", __name__)
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)
# A new key for each form that changes a session (web/once.py).
bp.add_app_template_global(new_key, "change_key")


# The pages a phone is kept awake on while their session is open (wake.js).
AWAKE_PAGES = frozenset({"sessions.board", "sessions.settle", "rounds.new", "rounds.show",
                         "rounds.edit"})


@bp.app_context_processor
def phone_at_the_table() -> dict:
    """For every page of a session: this phone's player if they sit (or sat)
    at it, to mark their rows; and whether to keep the screen awake. Pages
    outside a session, and shared pages, have neither."""
    game = g.get("game")
    if game is None or g.get("database_failed"):  # (a failed database: ask it nothing)
        return {"phone_player": None, "keep_awake": False}
    return {"phone_player": phone_player(),
            "keep_awake": request.endpoint in AWAKE_PAGES and not game.is_finished}


def phone_player() -> int | None:
    """This phone's player if they sit (or sat) at the session of the page, else None."""
    return queries.seated_player(g.game, phone_player_id())


def _to_board(_=None) -> str:
    return url_for("sessions.board")


def _to_transfers(_=None) -> str:
    return url_for("sessions.settle", _anchor="transfers")


def _to_new_board(session) -> str:
    return url_for("sessions.board", session_id=session.id)


@bp.route("/sessions/new", methods=["GET", "POST"])
@once(redirect_to=_to_new_board)
def new():
    last = queries.last_time(signed_in_group())
    last_rules = None if last is None else (last.rules, last.currency)
    if request.method == "GET":
        form = NewSessionForm.first(last_rules, [] if last is None else last.players)
    else:
        form = NewSessionForm(last=last_rules)
    start_error, busy = None, None
    if form.is_submitted() and "use_preset" in request.form:
        form = NewSessionForm.with_preset(form)
    elif form.validate_on_submit():
        try:
            session = services.start_session(changing(), form.names(), form.house_rules(),
                                             form.dealer_name(), form.currency.data,
                                             alongside=form.alongside_ids())
        except services.AlreadyPlaying as playing:
            busy = playing
        except services.ServiceError as error:
            start_error = refusal(error)
        else:
            return answered(session)
    presets = {key: rule_texts(make()) for key, make in PRESETS.items()}
    if last is not None:
        presets[LAST] = {**rule_texts(last.rules), "currency": last.currency}
    return render_template(
        "sessions/new.html", form=form, start_error=start_error, busy=busy, last=last,
        last_summary=None if last is None else last_time_summary(last),
        known=queries.known_players(signed_in_group()), presets=json.dumps(presets),
        pays=pays_preview(form))


PREVIEW_PLAYERS = 4  # the table the preview pays at until two to six names are typed


def pays_preview(form: NewSessionForm) -> list[str] | None:
    """What the form's rules pay at its table, in sentences (the engine's
    figures); None while a rule can't be read or is past the limits."""
    try:
        rules = form.house_rules()
        rules.check_limits()
    except (RulesError, TypeError, ValueError):
        return None
    names = form.names()
    players = len(names) if MIN_PLAYERS <= len(names) <= MAX_PLAYERS else PREVIEW_PLAYERS
    currency = form.currency.data if 1 <= len(form.currency.data) <= CURRENCY_MAX else "RM"
    return pays_lines(rules, currency, players)


@bp.get("/sessions/new/pays")
def pays():
    """The new session's "what these rules pay" for the form as typed (its
    fields as the query): the box alone, which sessions.js puts in place."""
    form = NewSessionForm(formdata=request.args, meta={"csrf": False})
    return render_template("sessions/_pays.html", pays=pays_preview(form))


@bp.get("/sessions/open")
def still_open():
    page = queries.open_sessions(signed_in_group(), page_number())
    if not page.exists:
        abort(404)
    return render_template("sessions/open.html", page=page)


@bp.get("/sessions/<int:session_id>")
def board():
    return render_board()


def render_board(phone_error=None):
    """The scoreboard; after a refused choice of this phone's player, with why."""
    # The rounds' links differ in their number only: one url_for rather than
    # one a row (6% of the page's work).
    round_href = url_for("rounds.show", number=0).removesuffix("0")
    board = queries.scoreboard(g.game)
    own = queries.own_standing(board.standings, phone_player(), queries.by_points(g.game))
    # The round being entered together, if any hand is in (no statement
    # before the session's first hand).
    draft = services.read_draft(g.game, board.upcoming) if board.upcoming else None
    # An ended session opens on the night's summary.
    night = services.night(g.game) if g.game.is_finished else None
    message = night and chat_message(g.game, night.places, night.settlement)
    return render_template("sessions/board.html", game=g.game, board=board, draft=draft,
                           round_href=round_href, own=own, phone_error=phone_error,
                           night=night, message=message,
                           chart=game_chart(g.game, [s.player for s in board.standings],
                                            board.rounds, points_asked(g.game, request.args),
                                            phone_player(), f"{round_href}{{}}".format),
                           chart_switch=chart_switch(g.game, request.args, "sessions.board"),
                           # What is owed across the group's sessions, in its currency.
                           owed=next((line for line in queries.still_owed(
                               g.game.group, phone_player())
                               if line.currency == g.game.currency), None)), \
        422 if phone_error else 200


@bp.get("/sessions/<int:session_id>/result.png")
def result():
    """ "Share the result": the session as a picture for the group chat."""
    return picture_response(g.game)


@bp.post("/sessions/<int:session_id>/phone")
def phone():
    """ "This is Ann's phone": kept in the phone's cookie, for every session
    she plays. Only a player of this session can be chosen."""
    form = PhoneForm()
    if not form.validate():
        abort(400)
    try:
        player_id = form.player_id()
        if player_id is not None and queries.seated_player(g.game, player_id) is None:
            raise ValueError(player_id)  # another table's player, or another group's
    except ValueError:
        return render_board(phone_error=_("Only a player of this session can be this "
                                          "phone's: choose one of the names below."))
    set_phone_player(player_id)
    return redirect(url_for("sessions.board"))


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
    return [SelectChoice(i + 1, _("Between %(left)s and %(right)s", left=isolated(player.name),
                                  right=isolated(seated[(i + 1) % len(seated)].name)))
            for i, player in enumerate(seated)]


@bp.post("/sessions/<int:session_id>/players")
@once(redirect_to=_to_board)
def join():
    form = JoinForm()
    form.position.choices = seat_choices(services.active_players(g.game))
    if form.validate():
        try:
            player = services.join_session(changing(), form.name.data, form.position.data)
        except services.ServiceError as error:
            form.name.errors.append(refusal(error))
        else:
            return answered(player)
    return render_players(join_form=form)


@bp.post("/sessions/<int:session_id>/players/<int:player_id>/leave")
@once(redirect_to=_to_board)
def leave(player_id):
    try:
        services.leave_session(changing(), player_id)
    except services.ServiceError as error:
        return render_players(leave_error=refusal(error), leaving=player_id)
    return answered(None)


@bp.get("/sessions/<int:session_id>/settle")
def settle():
    return fresh_token() or render_settle()


def render_settle(error=None, paying=None):
    """The settle-up page; ``error`` says why a change was refused, and
    ``paying`` is the form of a part payment to show back as it was typed."""
    game = g.game
    debts = services.debts_of(game)
    plan = services.settlement(game, debts)
    me = phone_player()
    table = queries.standings(game)
    # This phone's player's own transfers first, the others in their order.
    mine = [s for s in plan if me in (s.transfer.payer.id, s.transfer.payee.id)]
    return render_template(
        "sessions/settle.html", game=game, standings=table,
        plan=mine + [s for s in plan if s not in mine], mine=mine,
        # Other sessions' debts too: a link to Who owes whom.
        owed_elsewhere=debts.owed_beside(game.id),
        message=chat_message(game, queries.places(table, queries.by_points(game)), plan),
        codes=services.payment_codes(game, plan), error=error, paying=paying)


@bp.post("/sessions/<int:session_id>/settle/paid")
@once(redirect_to=_to_transfers)
def paid():
    return mark_paid(PayForm(), render_settle)


@bp.post("/sessions/<int:session_id>/settle/undo")
@once(redirect_to=_to_transfers)
def undo_payment():
    return take_back(render_settle)


@bp.post("/sessions/<int:session_id>/reopen")
@once(redirect_to=_to_board)
def reopen():
    try:
        services.reopen_session(changing())
    except services.KeyTooOld:
        raise  # web/once.py says so
    except services.ServiceError:
        pass  # already open: the scoreboard shows it as it is
    return answered(None)


@bp.post("/sessions/<int:session_id>/end")
@once(redirect_to=_to_board)
def end():
    try:
        services.end_session(changing())
    except services.ServiceError as error:
        return render_settle(error=refusal(error))
    return answered(None)


@bp.route("/sessions/<int:session_id>/rules", methods=["GET", "POST"])
@once(redirect_to=_to_board)
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
        version = form.parsed_version()
        try:
            services.check_version(game, version)  # before every round is scored again
            services.change_house_rules(changing(version), form.house_rules(),
                                        form.currency.data)
        except services.Conflict as conflict:
            error, status = refusal(conflict), 409
            form.version.data = str(game.version)  # saving again applies these rules
        except services.ServiceError as refused:
            error, status = refusal(refused), 422
        else:
            return answered(None)
    elif form.errors:
        status = 422
    return render_template("sessions/rules.html", game=game, form=form, error=error), status

