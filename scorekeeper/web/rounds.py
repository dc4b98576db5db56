"""The rounds pages: enter a round, see its result, edit or delete it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import queries, services
from ..audit import Action
from ..forms.rounds import OUTCOME_LABELS, RoundForm, VersionForm
from ..models import Player
from ..rules import Entry, RoundError, format_cards, parse_cards
from ..rules.cards import scan_cards
from .access import phone_player_id
from .loading import add_session_id, load_game_session
from .once import answered, changing, fresh_token, once, refused
from .presenters.changes import Change, describe_all
from .presenters.problems import all_words
from .presenters.refusals import refusal
from .round_form import (
    BLANK_FORM,
    Conflicted,
    Notice,
    Outcome,
    fill,
    form_rows,
    matches,
    notices,
    posted_hands,
    rebuild,
    show_entered,
    take_hands,
    typing_notices,
)

bp = Blueprint("rounds", __name__, url_prefix="/sessions/<int:session_id>/rounds")
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)
# The outcomes' words, for the result page and for the round form's script.
bp.context_processor(lambda: {"outcome_labels": OUTCOME_LABELS})


def _round_page(number: int) -> str:
    return url_for("rounds.show", number=number)


def _board(_=None) -> str:
    return url_for("sessions.board")


@bp.route("/new", methods=["GET", "POST"])
@once(redirect_to=_round_page)
def new():
    if token := fresh_token():
        return token
    if g.game.is_finished:
        return _closed()
    coming = queries.upcoming(g.game)
    form = RoundForm()
    outcome = Outcome()
    draft = None
    blank = not form.is_submitted() and BLANK_FORM in request.args
    if not form.is_submitted():
        draft = services.read_draft(g.game, coming)  # the hands other phones saved
        fill(form, coming.number, [
            {"player": p.player.id, "outcome": p.hand.outcome if p.hand and not blank else "dead",
             "cards": p.hand.cards if p.hand and not blank else ""} for p in draft.places])
        form.draft.data = draft.draft_version
    else:
        version = form.parsed_version()
        try:
            services.check_version(g.game, version)  # before the form is read
            entries = _posted_entries(form, coming.number, coming.order, outcome, version)
            if entries is not None:
                with _refusals(outcome, coming.order):
                    return answered(services.record_round(
                        changing(version), entries, form.confirmed.data or None,
                        coming=coming, draft=form.parsed_draft()))
        except services.Conflict as conflict:
            queries.load_board(g.game)  # afresh: a refused save rolled back
            coming = queries.upcoming(g.game)
            outcome.conflict = _conflicted(conflict.since)
            if g.game.is_finished:
                return _closed(outcome.conflict)
            sent = {player: Entry(*hand) for player, hand in posted_hands(form).items()}
            events = [change.event for change in outcome.conflict.changes]
            same = services.saved_meanwhile(g.game, events, sent)
            if same is not None:  # this very round: shown, not a form for the next
                return refused(redirect(url_for(".show", number=same[0], saved=same[1])))
            outcome.conflict.alike = services.alike_meanwhile(g.game, events, sent)
            rebuild(form, coming.number, coming.order)
            form.draft.data = g.game.draft_version
        except services.DraftChanged as changed:
            queries.load_board(g.game)  # afresh: a refused save rolled back
            outcome.news = take_hands(form, coming.order, changed.hands)
            form.draft.data = g.game.draft_version
    rows = form_rows(form, coming.order, coming.dealer, outcome, phone_player_id())
    draft = draft or services.read_draft(g.game, coming)
    if not outcome.conflict:  # a form refused for another round holds that round's hands
        show_entered(rows, draft)
    return render_template("rounds/new.html", form=form, rows=rows, outcome=outcome,
                           coming=coming, saved_round=_saved_round(outcome.conflict),
                           draft=draft, round_problems=all_words(draft.problems),
                           together=True, blank=blank), \
        409 if outcome.conflict or outcome.news else 200


@bp.post("/drop")
def drop():
    """ "Same game: drop mine", on the form of a round refused because another
    phone saved it first: any of its hands that this phone sent to the round
    filled in together go too (the phone's own copy, queue.js drops first)."""
    services.drop_hands(changing(), posted_hands(RoundForm()))
    flash(_("Your round is dropped: nothing of it was saved."))
    see = request.form.get("see", type=int)
    if see is not None and 1 <= see <= queries.round_count(g.game):
        return redirect(url_for(".show", number=see))
    return redirect(url_for("sessions.board"))


@bp.get("/<int:number>")
def show(number):
    page = queries.round_page(g.game, number)
    if page is None:
        abort(404)
    round_, count = page.round, page.count
    latest = number == count
    next_dealer = (queries.coming_after(g.game, queries.LastRound.of_round(round_)).dealer
                   if latest else page.next_dealer)
    entries = sorted(round_.entries, key=lambda e: (e.position, e.turn))
    cards = {e.player_id: parse_cards(e.cards) for e in entries}
    parts = _money_parts(entries, g.game.rules.scheme)
    return render_template("rounds/show.html", round=round_, latest=latest, count=count,
                           entries=entries, cards=cards, parts=parts, next_dealer=next_dealer,
                           saved_by=_saved_by(number),
                           delete_form=VersionForm(formdata=None, version=g.game.version))


def _saved_by(number: int) -> Change | None:
    """The change that added round ``number``, if the page was asked for with
    it (``?saved=``: shown to a phone that sent the same round too late)."""
    event_id = request.args.get("saved", type=int)
    event = queries.session_event(g.game, event_id) if event_id else None
    if event is None or event.action != Action.ROUND_ADD:
        return None
    change = describe_all([event], g.game.currency)[0]
    return change if change.round_number == number else None


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@once(redirect_to=_round_page)
def edit(number):
    round_ = queries.load_round(g.game, number)
    form = RoundForm()
    version = form.parsed_version()
    if form.is_submitted():
        try:  # before the round is looked for: changes since may have moved it
            services.check_version(g.game, version)
        except services.Conflict as conflict:
            return _edit_conflict(form, number, conflict.since)
    if round_ is None:
        abort(404)
    if g.game.is_finished:
        return _closed()
    stored = sorted(round_.entries, key=lambda e: e.turn)
    order = [e.player for e in stored]
    outcome = Outcome()
    if not form.is_submitted():
        fill(form, number, [{"player": e.player_id, "outcome": e.outcome, "cards": e.cards}
                             for e in stored])
    else:
        try:
            entries = _posted_entries(form, number, order, outcome, version)
            if entries is not None:
                with _refusals(outcome, order):
                    edited = services.edit_round(changing(version), round_, entries,
                                                 form.confirmed.data or None)
                    flash(_("Round %(number)d is saved with your changes.", number=number))
                    return answered(edited)
        except services.Conflict as conflict:
            return _edit_conflict(form, number, conflict.since)
    rows = form_rows(form, order, round_.dealer, outcome)
    return render_template("rounds/edit.html", form=form, rows=rows, outcome=outcome,
                           round=round_)


def _edit_conflict(form: RoundForm, number: int, since: int):
    """The edit page of the round the form was for, wherever the changes made
    since moved it, with what was typed kept; or why it can't be saved."""
    queries.load_board(g.game)  # afresh: a refused save rolled back
    conflict = _conflicted(since)
    if g.game.is_finished:
        return _closed(conflict)
    now = services.where_round_is(number, [c.event for c in conflict.changes])
    round_ = queries.load_round(g.game, now) if now is not None else None
    if now is None or round_ is None:
        return render_template("rounds/conflict.html", conflict=conflict, number=number,
                               now=None, editing=True), 409
    stored = sorted(round_.entries, key=lambda e: e.turn)
    order = [e.player for e in stored]
    rebuild(form, now, order)
    outcome = Outcome(conflict=conflict)
    rows = form_rows(form, order, round_.dealer, outcome)
    for row, entry in zip(rows, stored, strict=False):
        typed = (row.entry.outcome.data, _canonical(row.entry.cards.data))
        if typed != (entry.outcome, entry.cards):
            saved = OUTCOME_LABELS[entry.outcome] + (f", {entry.cards}" if entry.cards else "")
            row.warnings.append(_("Saved now: %(saved)s. Saving replaces it with what is typed "
                                  "here.", saved=saved))
    return render_template("rounds/edit.html", form=form, rows=rows, outcome=outcome,
                           round=round_, moved_from=number if now != number else None), 409


@bp.post("/<int:number>/delete")
@once(redirect_to=_board)
def delete(number):
    round_ = queries.load_round(g.game, number)
    form = VersionForm()
    version = form.parsed_version()
    try:  # before the round is looked for: changes since may have moved it
        services.check_version(g.game, version)
    except services.Conflict as conflict:
        return _delete_conflict(number, conflict.since)
    if round_ is None:
        abort(404)
    if g.game.is_finished:
        return _closed()
    if not form.validate() or version is None:
        abort(400)
    try:
        services.delete_round(changing(version), round_)
    except services.Conflict as conflict:
        return _delete_conflict(number, conflict.since)
    flash(_("Round %(number)d is deleted. The history of changes can restore it.", number=number))
    return answered(None)


def _delete_conflict(number: int, since: int):
    """Nothing deleted: what changed meanwhile, and where the round is now."""
    queries.load_board(g.game)  # afresh: a refused delete rolled back
    conflict = _conflicted(since)
    if g.game.is_finished:
        return _closed(conflict)
    now = services.where_round_is(number, [c.event for c in conflict.changes])
    if now is not None and now > queries.round_count(g.game):
        now = None
    return render_template("rounds/conflict.html", conflict=conflict, number=number, now=now,
                           editing=False), 409


def _canonical(cards: str | None) -> str | None:
    """Typed cards as stored, or None if some are unreadable."""
    readable, errors = scan_cards(cards or "")
    return None if errors else format_cards(readable)


def _conflicted(since: int) -> Conflicted:
    return Conflicted(since, describe_all(queries.changes_since(g.game, since),
                                          g.game.currency))


def _saved_round(conflict: Conflicted | None) -> int | None:
    """The last round saved meanwhile from another phone, if it is still there."""
    if conflict is None or not conflict.added:
        return None
    number = conflict.added[-1].round_number
    if isinstance(number, int) and 1 <= number <= queries.round_count(g.game):
        return number
    return None


def _closed(conflict: Conflicted | None = None):
    """Rounds of a session that has ended can't be entered or changed."""
    return render_template("rounds/closed.html", conflict=conflict), 409


def _posted_entries(form: RoundForm, number: int, order: list[Player], outcome: Outcome,
                    version: int | None) -> dict[str, Entry] | None:
    """The entries of a posted round form (the page checked ``version``, the
    one it was built on, already), by player name; or None, with what is
    wrong put in ``outcome``. Raises services.Conflict if the form missed
    another phone's change."""
    if version is None:
        rebuild(form, number, order)
        outcome.problems = [Notice(
            _("This page was out of date: check the entries below and save again."), [])]
        return None
    if not matches(form, number, order):
        # Saved from another phone between this request's reads of the
        # version and of the rounds?
        services.check_version(g.game, version, fresh=True)
        rebuild(form, number, order)
        outcome.problems = [Notice(
            _("The table changed while this page was open (a round was saved from another "
              "phone, or a player joined or left). Check the entries below and save again."),
            [])]
        return None
    if not form.validate():
        return None
    return {player.name: Entry(sub.outcome.data, sub.cards.data or "")
            for player, sub in zip(order, form.entries, strict=False)}


@contextmanager
def _refusals(outcome: Outcome, order: list[Player]) -> Iterator[None]:
    """Why the round the block saves was refused, put in ``outcome`` (the page
    shows the form again); services.Conflict and services.DraftChanged go
    on, for the page to show what changed."""
    try:
        yield
    except RoundError as error:
        outcome.problems = notices(error.problems, order)
    except services.NeedsConfirmation as exc:
        outcome.warnings = notices(exc.warnings, order) + typing_notices(exc.typing, order)
        outcome.digest = exc.digest
    except (services.Conflict, services.DraftChanged):
        raise
    except services.ServiceError as error:
        outcome.problems = [Notice(refusal(error), [])]


@dataclass(frozen=True)
class Part:
    """A column of the money breakdown: its label, the RoundEntry attribute,
    and the sentence saying what the money was when it is the only part."""

    label: str
    attr: str
    only: str


def _money_parts(entries, scheme: str) -> list[Part]:
    """The parts of the money that this round used."""
    hu = (Part(_("Tien Hu"), "hu_cents", _("All of it the Tien Hu payment."))
          if any(e.outcome == "tien_hu" for e in entries)
          else Part(_("Hu"), "hu_cents", _("All of it the Hu payment.")))
    placed = (Part(_("Points"), "tier_cents", _("All of it paid by points."))
              if scheme == "per_point"
              else Part(_("Tiers"), "tier_cents", _("All of it paid by place (the 1-2-3 tiers).")))
    parts = [placed, hu, Part(_("Jokers & aces"), "joker_ace_cents",
                              _("All of it paid for jokers and aces."))]
    return [part for part in parts if any(getattr(e, part.attr) for e in entries)]
