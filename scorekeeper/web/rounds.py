"""The rounds pages: enter a round, see its result, edit or delete it."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, abort, g, redirect, render_template, url_for

from .. import queries, services
from ..forms.rounds import OUTCOMES, DeleteRoundForm, RoundForm
from ..models import Player
from ..rules import Entry, RoundError, parse_cards
from .loading import add_session_id, load_game_session

bp = Blueprint("rounds", __name__, url_prefix="/sessions/<int:session_id>/rounds")
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)

OUTCOME_LABELS = {choice.value: choice.label for choice in OUTCOMES}


@dataclass
class Row:
    """One player's part of the round form, with what the save said about it."""

    player: Player
    entry: object  # the bound EntryForm
    dealer: bool
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class Notice:
    """A problem or warning for the summary at the top, linked to its players."""

    message: str
    players: list[Player]


@dataclass
class Outcome:
    """What a save attempt left to show: problems, or warnings to confirm."""

    problems: list[Notice] = field(default_factory=list)
    warnings: list[Notice] = field(default_factory=list)
    digest: str | None = None


@bp.route("/new", methods=["GET", "POST"])
def new():
    if g.game.is_finished:
        return _closed()
    queries.load_round_pages(g.game)  # loads what upcoming() reads
    coming = services.upcoming(g.game)
    form = RoundForm()
    blank = [{"player": p.id, "outcome": "dead", "cards": ""} for p in coming.order]
    rows, outcome = _handle(form, coming.number, coming.order, coming.dealer, blank,
                            lambda entries, confirmed: services.record_round(
                                g.game, entries, confirmed=confirmed))
    if rows is None:
        return redirect(url_for(".show", number=coming.number))
    return render_template("rounds/new.html", form=form, rows=rows, outcome=outcome,
                           coming=coming)


@bp.get("/<int:number>")
def show(number):
    round_ = _round_or_404(number)
    rounds = g.game.rounds
    latest = number == len(rounds)
    next_dealer = services.upcoming(g.game).dealer if latest else rounds[number].dealer
    entries = sorted(round_.entries, key=lambda e: (e.position, e.turn))
    cards = {e.player_id: parse_cards(e.cards) for e in entries}
    parts = _money_parts(entries, g.game.rules.scheme)
    return render_template("rounds/show.html", round=round_, latest=latest, entries=entries,
                           cards=cards, parts=parts, next_dealer=next_dealer,
                           outcome_labels=OUTCOME_LABELS, delete_form=DeleteRoundForm())


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def edit(number):
    round_ = _round_or_404(number)
    if g.game.is_finished:
        return _closed()
    stored = sorted(round_.entries, key=lambda e: e.turn)
    order = [e.player for e in stored]
    form = RoundForm()
    prefill = [{"player": e.player_id, "outcome": e.outcome, "cards": e.cards} for e in stored]
    rows, outcome = _handle(form, number, order, round_.dealer, prefill,
                            lambda entries, confirmed: services.edit_round(
                                round_, entries, confirmed=confirmed))
    if rows is None:
        return redirect(url_for(".show", number=number))
    return render_template("rounds/edit.html", form=form, rows=rows, outcome=outcome,
                           round=round_)


@bp.post("/<int:number>/delete")
def delete(number):
    round_ = _round_or_404(number)
    if g.game.is_finished:
        return _closed()
    if not DeleteRoundForm().validate_on_submit():
        abort(400)
    services.delete_round(round_)
    return redirect(url_for("sessions.board", session_id=g.game.id))


def _round_or_404(number: int):
    """Round ``number`` of ``g.game``, loaded with what its pages read."""
    round_ = queries.load_round_pages(g.game, number)
    if round_ is None:
        abort(404)
    return round_


def _closed():
    """Rounds of a session that has ended can't be entered or changed."""
    return render_template("rounds/closed.html"), 409


def _handle(form: RoundForm, number: int, order: list[Player], dealer: Player,
            prefill: list[dict], save):
    """Show, or validate and save, a round form.

    Returns (None, None) once saved, else the rows to show and what went wrong.
    ``prefill`` fills a new page (one dict per player in ``order``);
    ``save(entries, confirmed)`` calls the service.
    """
    outcome = Outcome()
    if not form.is_submitted():
        form.number.data = number
        for item in prefill:
            form.entries.append_entry(item)
    elif _matches(form, number, order):
        if form.validate():
            entries = {player.name: Entry(sub.outcome.data, sub.cards.data or "")
                       for player, sub in zip(order, form.entries)}
            try:
                save(entries, form.confirmed.data or None)
            except RoundError as error:
                outcome.problems = _notices(error.problems, order)
            except services.NeedsConfirmation as exc:
                outcome.warnings = _notices(exc.warnings, order)
                outcome.digest = exc.digest
            except services.ServiceError as error:
                outcome.problems = [Notice(str(error), [])]
            else:
                return None, None
    else:
        _rebuild(form, number, order)
        outcome.problems = [Notice(
            "The table changed while this page was open (a round was saved from another "
            "phone, or a player joined or left). Check the entries below and save again.", [])]
    rows = [Row(player, sub, player.id == dealer.id) for player, sub in zip(order, form.entries)]
    _attach(rows, outcome)
    return rows, outcome


def _matches(form: RoundForm, number: int, order: list[Player]) -> bool:
    """Whether the posted form was made for this round and these players, in order."""
    posted = [_int(sub.player.raw_data) for sub in form.entries]
    return _int(form.number.raw_data) == number and posted == [p.id for p in order]


def _int(raw_data) -> int | None:
    try:
        return int(raw_data[0])
    except (TypeError, ValueError, IndexError):
        return None


def _rebuild(form: RoundForm, number: int, order: list[Player]) -> None:
    """Lay the form out for ``order``, keeping what was typed for each player."""
    typed = {_int(sub.player.raw_data): sub for sub in form.entries}
    data = []
    for player in order:
        sub = typed.get(player.id)
        outcome = sub.outcome.data if sub is not None else "dead"
        data.append({"player": player.id,
                     "outcome": outcome if outcome in OUTCOME_LABELS else "dead",
                     "cards": (sub.cards.data or "") if sub is not None else ""})
    while form.entries.entries:
        form.entries.pop_entry()
    for item in data:
        form.entries.append_entry(item)
    form.number.data = number
    form.number.raw_data = [str(number)]


def _notices(problems, order: list[Player]) -> list[Notice]:
    by_name = {p.name: p for p in order}
    return [Notice(p.message, [by_name[name] for name in p.players if name in by_name])
            for p in problems]


def _attach(rows: list[Row], outcome: Outcome) -> None:
    """Each problem and warning also goes next to the players it concerns."""
    by_id = {row.player.id: row for row in rows}
    for notices, attr in ((outcome.problems, "errors"), (outcome.warnings, "warnings")):
        for notice in notices:
            for player in notice.players:
                getattr(by_id[player.id], attr).append(notice.message)


@dataclass(frozen=True)
class Part:
    """A column of the money breakdown: its label and the RoundEntry attribute."""

    label: str
    attr: str


def _money_parts(entries, scheme: str) -> list[Part]:
    """The parts of the money that this round used."""
    hu = "Tien Hu" if any(e.outcome == "tien_hu" for e in entries) else "Hu"
    parts = [Part("Points" if scheme == "per_point" else "Tiers", "tier_cents"),
             Part(hu, "hu_cents"), Part("Jokers & aces", "joker_ace_cents")]
    return [part for part in parts if any(getattr(e, part.attr) for e in entries)]
