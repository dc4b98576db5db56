"""A session's history of changes (the audit trail), and restoring a deleted round.

The trail's before/after snapshots name players by name; this module puts them
into words for the history page, the "saved from another phone" notice of the
round forms and the group page's own history.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, abort, g, redirect, render_template, url_for

from .. import audit_queries, services
from ..forms.rounds import OUTCOME_LABELS, VersionForm
from ..models import AuditEvent
from ..rules import HouseRules, preset_name
from ..rules.cards import scan_cards
from .access import device_label
from .filters import isolated, money, signed_money
from .history import rules_summary
from .loading import add_session_id, load_game_session
from .paging import page_number

bp = Blueprint("changes", __name__, url_prefix="/sessions/<int:session_id>/changes")
bp.url_value_preprocessor(load_game_session)
bp.url_defaults(add_session_id)

# A label that names the device ("Mei's phone", "Kitchen tablet") is shown as
# typed; any other label ("Mei") is someone's phone.
DEVICE_WORDS = ("phone", "tablet", "ipad", "laptop", "computer")


@bp.get("")
def index():
    return render_changes(page_number())


@bp.post("/<int:event_id>/restore")
def restore(event_id: int):
    deletion = audit_queries.session_event(g.game, event_id)
    if deletion is None or deletion.action != "round.delete":
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
        round_ = services.restore_round(g.game, deletion, device=device_label(), version=version)
    except services.ServiceError as error:
        return render_changes(1, error=str(error)), 409
    return redirect(url_for("rounds.show", number=round_.number))


def render_changes(number: int, error: str | None = None):
    page = audit_queries.session_changes(g.game, number)
    if not page.exists:
        abort(404)
    restored = services.restored_deletions(g.game)
    return render_template(
        "changes/index.html", page=page, changes=describe_all(page.items, g.game.currency),
        restorable={e.id for e in page.items
                    if e.action == "round.delete" and e.id not in restored},
        error=error)


# Changes in words


@dataclass(frozen=True)
class Hand:
    """One player's part of a round as the trail kept it."""

    name: str
    outcome: str  # dead, hu, tien_hu, no_passport
    points: int
    cents: int
    cards: list  # rules.Card

    @property
    def outcome_label(self) -> str:
        return OUTCOME_LABELS.get(self.outcome, self.outcome)


@dataclass(frozen=True)
class Edit:
    """A player's part of an edited round: before and after, and whether what
    the table entered for them (outcome or cards) changed, or only the score."""

    name: str
    before: Hand
    after: Hand
    entered_changed: bool

    @property
    def changed(self) -> bool:
        return self.entered_changed or self.before != self.after


@dataclass
class Change:
    """An audit event put into words."""

    event: AuditEvent
    title: str  # "Round 5 added"
    facts: list[str] = field(default_factory=list)  # sentences under the title
    hands: list[Hand] = field(default_factory=list)  # a round added, deleted or restored
    edits: list[Edit] = field(default_factory=list)  # a round edited, players in turn
    round_number: int | None = None

    @property
    def phone(self) -> str:
        return phone_words(self.event.device)

    @property
    def summary(self) -> str:
        """One line of what happened, for the notice of a refused save."""
        if self.hands:
            return ", ".join(f"{isolated(h.name)} {_brief(h)}" for h in self.hands)
        if self.edits:
            entered = [f"{isolated(e.name)} {_brief(e.before)} → {_brief(e.after)}"
                       for e in self.edits if e.entered_changed]
            moved = [isolated(e.name) for e in self.edits if e.changed and not e.entered_changed]
            if moved:
                entered.append(f"money moved for {', '.join(moved)}")
            return "; ".join(entered) or "nothing changed"
        return " ".join(self.facts)


def phone_words(label: str) -> str:
    """ "Mei" -> "Mei's phone"; "Mei's phone" stays; a blank label is "an unnamed phone"."""
    label = " ".join((label or "").split())
    if not label:
        return "an unnamed phone"
    if any(word in label.casefold() for word in DEVICE_WORDS):
        return isolated(label)
    if label.endswith(("'s", "\u2019s")):
        return f"{isolated(label)} phone"
    return f"{isolated(label)}'s phone"


def _points(points: int) -> str:
    return f"{points} point" if points == 1 else f"{points} points"


def _brief(hand: Hand) -> str:
    """ "12 points −2.00", or "Hu +9.00" """
    if hand.outcome == "dead":
        return f"{_points(hand.points)} {signed_money(hand.cents)}"
    return f"{hand.outcome_label} {signed_money(hand.cents)}"


def _hands(snapshot: dict) -> list[Hand]:
    """A round snapshot's players in playing order."""
    hands = []
    for entry in sorted(snapshot.get("entries", []), key=lambda e: e.get("turn", 0)):
        hands.append(Hand(str(entry.get("player", "?")), str(entry.get("outcome", "")),
                          int(entry.get("points", 0)), int(entry.get("net_cents", 0)),
                          scan_cards(str(entry.get("cards", "")))[0]))
    return hands


def _edits(before: dict, after: dict) -> list[Edit]:
    old = {h.name: h for h in _hands(before)}
    edits = []
    for new in _hands(after):
        was = old.get(new.name, new)
        edits.append(Edit(new.name, was, new,
                          (was.outcome, was.cards) != (new.outcome, new.cards)))
    return edits


def describe(event: AuditEvent, currency: str) -> Change:
    """What one event changed, in plain words."""
    before, after = event.before or {}, event.after or {}
    action = event.action
    if action in ("round.add", "round.delete", "round.restore", "round.edit"):
        kept = before if action == "round.delete" else after
        number = kept.get("number")
        verb = {"round.add": "added", "round.delete": "deleted",
                "round.restore": "restored", "round.edit": "edited"}[action]
        change = Change(event, f"Round {number} {verb}", round_number=number)
        if kept.get("dealer"):
            change.facts.append(f"{isolated(kept['dealer'])} dealt.")
        if action == "round.edit":
            change.edits = _edits(before, after)
        else:
            change.hands = _hands(kept)
        return change
    if action == "session.start":
        players = [isolated(name) for name in after.get("players", [])]
        change = Change(event, "Session started", [
            f"At the table: {', '.join(players)}." if players else "",
            f"{isolated(after['first_dealer'])} deals first." if after.get("first_dealer") else ""])
        change.facts.append(_rules_words(after.get("house_rules"), after.get("currency", currency)))
        change.facts = [fact for fact in change.facts if fact]
        return change
    if action == "session.rules":
        return Change(event, "House rules changed", [
            "Was: " + _rules_words(before.get("house_rules"), before.get("currency", currency)),
            "Now: " + _rules_words(after.get("house_rules"), after.get("currency", currency)),
            "Every round was scored again under them."])
    if action == "seat.join":
        seats = [isolated(name) for name in after.get("seats", [])]
        return Change(event, f"{isolated(after.get('player', event.subject))} joined the table",
                      [f"Seats, in order: {', '.join(seats)}."] if seats else [])
    if action == "seat.leave":
        return Change(event, f"{isolated(before.get('player', event.subject))} left the table")
    if action in ("payment.paid", "payment.unpaid"):
        transfer = after if action == "payment.paid" else before
        state = "paid" if action == "payment.paid" else "not paid"
        try:
            title = (f"{isolated(transfer['payer'])} → {isolated(transfer['payee'])} "
                     f"{currency} {money(int(transfer['cents']))} marked {state}")
        except (KeyError, TypeError, ValueError):
            title = f"{isolated(event.subject)} marked {state}"
        return Change(event, title)
    if action == "player.add":
        return Change(event, f"{isolated(after.get('name', event.subject))} joined the group")
    if action == "player.rename":
        return Change(event, f"{isolated(before['name'])} renamed {isolated(after['name'])}")
    if action == "group.timezone":
        return Change(event, f"Time zone changed from {before['timezone']} "
                             f"to {after['timezone']}")
    titles = {"group.passphrase": "Passphrase changed",
              "session.end": "Session ended", "session.reopen": "Session reopened",
              "share.create": "Share link made", "share.revoke": "Share link revoked"}
    return Change(event, titles.get(action) or event.subject or action)


def _rules_words(house_rules, currency: str) -> str:
    """The house rules in a sentence: "Penang rules, money in RM: tiers … × RM 1.00." """
    try:
        rules = HouseRules(**house_rules)
    except (TypeError, ValueError):
        return f"Money in {currency}."
    summary = dict(rules_summary(rules, currency))
    name = preset_name(rules)  # "Penang", "Rummi" or "Own rules"
    name = name if name.endswith("rules") else f"{name} rules"
    return f"{name}, money in {currency}: {summary['Money']}."


def describe_all(events: list[AuditEvent], currency: str) -> list[Change]:
    changes = []
    for event in events:
        try:
            changes.append(describe(event, currency))
        except (AttributeError, KeyError, TypeError, ValueError):  # a snapshot of another shape
            changes.append(Change(event, event.subject or event.action))
    return changes
