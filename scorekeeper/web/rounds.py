"""The rounds pages: enter a round, see its result, edit or delete it."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, abort, flash, g, redirect, render_template, url_for

from .. import audit_queries, queries, services
from ..forms.rounds import OUTCOME_LABELS, RoundForm, VersionForm
from ..models import Player
from ..rules import Entry, RoundError, format_cards, parse_cards
from ..rules.cards import scan_cards
from .access import device_label
from .changes import Change, describe_all
from .loading import add_session_id, load_game_session

bp = Blueprint("rounds", __name__, url_prefix="/sessions/<int:session_id>/rounds")
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)



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
class Conflicted:
    """The changes saved from other phones since the page was made (``since``
    is the session version it was built on), oldest first."""

    since: int
    changes: list[Change]

    @property
    def added(self) -> list[Change]:
        """The rounds added meanwhile."""
        return [c for c in self.changes if c.event.action == "round.add"]


@dataclass
class Outcome:
    """What a save attempt left to show: problems, warnings to confirm, or the
    changes made from another phone that stopped it."""

    problems: list[Notice] = field(default_factory=list)
    warnings: list[Notice] = field(default_factory=list)
    digest: str | None = None
    conflict: Conflicted | None = None


@bp.route("/new", methods=["GET", "POST"])
def new():
    if g.game.is_finished:
        return _closed()
    coming = services.upcoming(g.game)
    form = RoundForm()
    outcome = Outcome()
    if not form.is_submitted():
        _fill(form, coming.number, [{"player": p.id, "outcome": "dead", "cards": ""}
                                    for p in coming.order])
    else:
        try:
            saved = _save(form, coming.number, coming.order, outcome,
                          lambda entries, confirmed, version: services.record_round(
                              g.game, entries, confirmed=confirmed, device=device_label(),
                              version=version, coming=coming))
        except services.Conflict as conflict:
            queries.load_board(g.game)  # afresh: a refused save rolled back
            coming = services.upcoming(g.game)
            outcome.conflict = _conflicted(conflict.since)
            if g.game.is_finished:
                return _closed(outcome.conflict)
            _rebuild(form, coming.number, coming.order)
        else:
            if saved is not None:
                return redirect(url_for(".show", number=saved))
    rows = _rows(form, coming.order, coming.dealer, outcome)
    return render_template("rounds/new.html", form=form, rows=rows, outcome=outcome,
                           coming=coming, saved_round=_saved_round(outcome.conflict)), \
        409 if outcome.conflict else 200


@bp.get("/<int:number>")
def show(number):
    page = queries.round_page(g.game, number)
    if page is None:
        abort(404)
    round_, count = page.round, page.count
    latest = number == count
    next_dealer = (services.coming_after(g.game, services.LastRound.of_round(round_)).dealer
                   if latest else page.next_dealer)
    entries = sorted(round_.entries, key=lambda e: (e.position, e.turn))
    cards = {e.player_id: parse_cards(e.cards) for e in entries}
    parts = _money_parts(entries, g.game.rules.scheme)
    return render_template("rounds/show.html", round=round_, latest=latest, count=count,
                           entries=entries, cards=cards, parts=parts, next_dealer=next_dealer,
                           outcome_labels=OUTCOME_LABELS,
                           delete_form=VersionForm(formdata=None, version=g.game.version))


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def edit(number):
    round_ = queries.load_round(g.game, number)
    form = RoundForm()
    if form.is_submitted() and _stale(form.parsed_version()):
        return _edit_conflict(form, number, form.parsed_version())
    if round_ is None:
        abort(404)
    if g.game.is_finished:
        return _closed()
    stored = sorted(round_.entries, key=lambda e: e.turn)
    order = [e.player for e in stored]
    outcome = Outcome()
    if not form.is_submitted():
        _fill(form, number, [{"player": e.player_id, "outcome": e.outcome, "cards": e.cards}
                             for e in stored])
    else:
        try:
            saved = _save(form, number, order, outcome,
                          lambda entries, confirmed, version: services.edit_round(
                              round_, entries, confirmed=confirmed, device=device_label(),
                              version=version))
        except services.Conflict as conflict:
            return _edit_conflict(form, number, conflict.since)
        if saved is not None:
            flash(f"Round {number} is saved with your changes.")
            return redirect(url_for(".show", number=number))
    rows = _rows(form, order, round_.dealer, outcome)
    return render_template("rounds/edit.html", form=form, rows=rows, outcome=outcome,
                           round=round_)


def _edit_conflict(form: RoundForm, number: int, since: int):
    """The edit page of the round the form was for, wherever the changes made
    since moved it, with what was typed kept; or why it can't be saved."""
    queries.load_board(g.game)  # afresh: a refused save rolled back
    conflict = _conflicted(since)
    if g.game.is_finished:
        return _closed(conflict)
    now = _follow(number, conflict.changes)
    round_ = queries.load_round(g.game, now) if now is not None else None
    if round_ is None:
        return render_template("rounds/conflict.html", conflict=conflict, number=number,
                               now=None, editing=True), 409
    stored = sorted(round_.entries, key=lambda e: e.turn)
    order = [e.player for e in stored]
    _rebuild(form, now, order)
    outcome = Outcome(conflict=conflict)
    rows = _rows(form, order, round_.dealer, outcome)
    for row, entry in zip(rows, stored):
        if (row.entry.outcome.data, _canonical(row.entry.cards.data)) != (entry.outcome, entry.cards):
            saved = OUTCOME_LABELS[entry.outcome] + (f", {entry.cards}" if entry.cards else "")
            row.warnings.append(f"Saved now: {saved}. Saving replaces it with what is typed here.")
    return render_template("rounds/edit.html", form=form, rows=rows, outcome=outcome,
                           round=round_, moved_from=number if now != number else None), 409


@bp.post("/<int:number>/delete")
def delete(number):
    round_ = queries.load_round(g.game, number)
    form = VersionForm()
    version = form.parsed_version()
    if _stale(version):
        return _delete_conflict(number, version)
    if round_ is None:
        abort(404)
    if g.game.is_finished:
        return _closed()
    if not form.validate() or version is None:
        abort(400)
    try:
        services.delete_round(round_, device=device_label(), version=version)
    except services.Conflict as conflict:
        return _delete_conflict(number, conflict.since)
    flash(f"Round {number} is deleted. The history of changes can restore it.")
    return redirect(url_for("sessions.board", session_id=g.game.id))


def _delete_conflict(number: int, since: int):
    """Nothing deleted: what changed meanwhile, and where the round is now."""
    queries.load_board(g.game)  # afresh: a refused delete rolled back
    conflict = _conflicted(since)
    if g.game.is_finished:
        return _closed(conflict)
    now = _follow(number, conflict.changes)
    if now is not None and now > queries.round_count(g.game):
        now = None
    return render_template("rounds/conflict.html", conflict=conflict, number=number, now=now,
                           editing=False), 409


def _canonical(cards: str | None) -> str | None:
    """Typed cards as stored, or None if some are unreadable."""
    readable, errors = scan_cards(cards or "")
    return None if errors else format_cards(readable)


def _stale(version: int | None) -> bool:
    """Whether a form built on ``version`` missed changes made since."""
    return version is not None and version != g.game.version


def _conflicted(since: int) -> Conflicted:
    return Conflicted(since, describe_all(audit_queries.changes_since(g.game, since),
                                          g.game.currency))


def _follow(number: int, changes: list[Change]) -> int | None:
    """Where round ``number`` is after ``changes`` (oldest first): deleting an
    earlier round moves it up, restoring one moves it down; None if it was
    deleted (and not restored)."""
    deleted_by = None
    for change in changes:
        action, moved = change.event.action, change.round_number
        if not isinstance(moved, int):
            continue
        if action == "round.delete" and deleted_by is None:
            if moved == number:
                deleted_by = change.event.id
            elif moved < number:
                number -= 1
        elif action == "round.restore":
            if deleted_by is not None:
                if (change.event.after or {}).get("restores") == deleted_by:
                    number, deleted_by = moved, None
            elif moved <= number:
                number += 1
    return None if deleted_by is not None else number


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


def _fill(form: RoundForm, number: int, prefill: list[dict]) -> None:
    """A new page's form: one entry per player, in playing order."""
    form.number.data = number
    form.version.data = g.game.version
    for item in prefill:
        form.entries.append_entry(item)


def _save(form: RoundForm, number: int, order: list[Player], outcome: Outcome, save):
    """Validate a posted round form and save it with ``save(entries, confirmed,
    version)``; what ``save`` returned, or None with what went wrong put in
    ``outcome``. Raises services.Conflict if the form missed another phone's change."""
    version = form.parsed_version()
    if version is None:
        _rebuild(form, number, order)
        outcome.problems = [Notice(
            "This page was out of date: check the entries below and save again.", [])]
        return None
    if _stale(version):
        raise services.Conflict(version)
    if not _matches(form, number, order):
        if queries.session_version(g.game) != version:
            # Another phone saved between this request's reads of the version
            # and of the rounds.
            raise services.Conflict(version)
        _rebuild(form, number, order)
        outcome.problems = [Notice(
            "The table changed while this page was open (a round was saved from another "
            "phone, or a player joined or left). Check the entries below and save again.", [])]
        return None
    if not form.validate():
        return None
    entries = {player.name: Entry(sub.outcome.data, sub.cards.data or "")
               for player, sub in zip(order, form.entries)}
    try:
        return save(entries, form.confirmed.data or None, version)
    except RoundError as error:
        outcome.problems = _notices(error.problems, order)
    except services.NeedsConfirmation as exc:
        outcome.warnings = _notices(exc.warnings, order)
        outcome.digest = exc.digest
    except services.Conflict:
        raise
    except services.ServiceError as error:
        outcome.problems = [Notice(str(error), [])]
    return None


def _rows(form: RoundForm, order: list[Player], dealer: Player, outcome: Outcome) -> list[Row]:
    rows = [Row(player, sub, player.id == dealer.id) for player, sub in zip(order, form.entries)]
    _attach(rows, outcome)
    return rows


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
    form.version.data = g.game.version


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
    """A column of the money breakdown: its label, the RoundEntry attribute,
    and what the money was when it is the only part."""

    label: str
    attr: str
    only: str


def _money_parts(entries, scheme: str) -> list[Part]:
    """The parts of the money that this round used."""
    hu = "Tien Hu" if any(e.outcome == "tien_hu" for e in entries) else "Hu"
    placed = (Part("Points", "tier_cents", "paid by points") if scheme == "per_point"
              else Part("Tiers", "tier_cents", "paid by place (the 1-2-3 tiers)"))
    parts = [placed, Part(hu, "hu_cents", f"the {hu} payment"),
             Part("Jokers & aces", "joker_ace_cents", "paid for jokers and aces")]
    return [part for part in parts if any(getattr(e, part.attr) for e in entries)]
