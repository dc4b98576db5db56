"""The audit trail in words: what each event changed, for the history of
changes, the "saved from another phone" notice of the round forms and live
pages, and the group page's own history. The trail's before/after
snapshots name players by name."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ...audit import (
    HandsCleared,
    InviteMade,
    InviteRevoked,
    InviteUsed,
    PassphraseChanged,
    PayloadError,
    PaymentPaid,
    PaymentUnpaid,
    PlayerAdded,
    PlayerRenamed,
    RoundAdded,
    RoundDeleted,
    RoundEdited,
    RoundRestored,
    RoundSnapshot,
    RulesChanged,
    SeatJoined,
    SeatLeft,
    SessionEnded,
    SessionReopened,
    SessionStarted,
    ShareCreated,
    ShareRevoked,
    TimezoneChanged,
    read_payload,
)
from ...forms.rounds import OUTCOME_LABELS
from ...limits import TYPING_MINUTES
from ...models import AuditEvent
from ...rules import HouseRules, RulesError, preset_of
from ...rules.cards import format_cards, scan_cards
from ..filters import ago, isolated, priced, signed_money
from .rules import preset_words, rules_summary

# A label that names the device ("Mei's phone", "Kitchen tablet") is shown as
# typed; any other label ("Mei") is someone's phone.
DEVICE_WORDS = ("phone", "tablet", "ipad", "laptop", "computer")


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
            entered = [f"{isolated(e.name)} {_edit_brief(e)}"
                       for e in self.edits if e.entered_changed]
            moved = [isolated(e.name) for e in self.edits if e.changed and not e.entered_changed]
            if moved:
                entered.append(f"money moved for {', '.join(moved)}")
            return "; ".join(entered) or "nothing changed"
        return " ".join(self.facts)


def entered_words(device: str, at: datetime) -> str:
    """Where and when a hand of a round filled in together was entered:
    "Ben's phone, 2 h ago"."""
    return f"{phone_words(device)}, {ago(at)}"


def typing_words(player: str, device: str) -> str:
    """A hand still being typed on a phone (services.Hand.typing): "Ann's
    hand is being typed on Ann's phone…" """
    return f"{isolated(player)}'s hand is being typed on {phone_words(device)}…"


# Why a hand being typed on a phone gone quiet does not hold the round up.
LAPSE_WORDS = (f"It counts as in if nothing more is typed there for {TYPING_MINUTES} "
               "minutes.")


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


def _edit_brief(edit: Edit) -> str:
    """ "12 points −2.00 → 36 points −3.00"; where cards changed, which ones
    first: "cards KD → KC, still 36 points −3.00", "9C added, …" (the score
    alone would read as nothing changed)."""
    before, after = _brief(edit.before), _brief(edit.after)
    score = f"{before} → {after}" if before != after else f"still {after}"
    gone = _left_out(edit.before.cards, edit.after.cards)
    came = _left_out(edit.after.cards, edit.before.cards)
    if gone and came:
        return f"cards {format_cards(gone)} → {format_cards(came)}, {score}"
    if came:
        return f"{format_cards(came)} added, {score}"
    if gone:
        return f"{format_cards(gone)} taken out, {score}"
    return score


def _left_out(cards: list, others: list) -> list:
    """The cards of ``cards`` that ``others`` has not (each copy counted), in order."""
    rest = list(others)
    left = []
    for card in cards:
        if card in rest:
            rest.remove(card)
        else:
            left.append(card)
    return left


def _hands(kept: RoundSnapshot) -> list[Hand]:
    """A round snapshot's players in playing order."""
    return [Hand(e.player, e.outcome, e.points, e.net_cents, scan_cards(e.cards)[0])
            for e in sorted(kept.entries, key=lambda e: e.turn)]


def _edits(before: RoundSnapshot, after: RoundSnapshot) -> list[Edit]:
    old = {h.name: h for h in _hands(before)}
    edits = []
    for new in _hands(after):
        was = old.get(new.name, new)
        edits.append(Edit(new.name, was, new,
                          (was.outcome, was.cards) != (new.outcome, new.cards)))
    return edits


ROUND_VERBS = {RoundAdded: "added", RoundDeleted: "deleted", RoundRestored: "restored",
               RoundEdited: "edited"}
TITLES = {PassphraseChanged: "Passphrase changed", SessionEnded: "Session ended",
          SessionReopened: "Session reopened", ShareCreated: "Share link made",
          ShareRevoked: "Share link revoked"}


def describe(event: AuditEvent, currency: str) -> Change:
    """What one event changed, in plain words; PayloadError if its payload is
    not of its action's shape."""
    payload = read_payload(event.action, event.before, event.after)
    change = Change(event, event.subject or event.action)
    match payload:
        case RoundAdded(round=kept) | RoundDeleted(round=kept) | RoundRestored(round=kept):
            _round_words(change, kept, ROUND_VERBS[type(payload)])
            change.hands = _hands(kept)
            if isinstance(payload, RoundAdded) and payload.entered_by:
                change.facts.append(_entered_words(payload.entered_by))
        case RoundEdited(old=old, new=new):
            _round_words(change, new, ROUND_VERBS[RoundEdited])
            change.edits = _edits(old, new)
        case SessionStarted():
            players = [isolated(name) for name in payload.players]
            change.title = "Session started"
            change.facts = [
                f"At the table: {', '.join(players)}." if players else "",
                f"{isolated(payload.first_dealer)} deals first." if payload.first_dealer else "",
                _rules_words(payload.house_rules, payload.currency)]
            change.facts = [fact for fact in change.facts if fact]
        case RulesChanged():
            change.title = "House rules changed"
            change.facts = ["Was: " + _rules_words(payload.old_rules, payload.old_currency),
                            "Now: " + _rules_words(payload.new_rules, payload.new_currency),
                            "Every round was scored again under them."]
        case SeatJoined(player=player, seats=seats):
            change.title = f"{isolated(player)} joined the table"
            if seats:
                change.facts = [f"Seats, in order: {', '.join(map(isolated, seats))}."]
        case SeatLeft(player=player):
            change.title = f"{isolated(player)} left the table"
        case PaymentPaid() | PaymentUnpaid():
            state = "paid" if isinstance(payload, PaymentPaid) else "not paid"
            change.title = (f"{isolated(payload.payer)} → {isolated(payload.payee)} "
                            f"{priced(payload.cents, currency)} marked {state}")
        case HandsCleared(number=number, hands=hands):
            change.title = f"Round {number}'s hands cleared"
            change.facts = [
                f"{isolated(h.player)}: {typed_words(h.outcome, h.cards)}, "
                f"entered on {phone_words(h.phone)}." for h in hands]
            change.facts.append("Nothing of them had counted: the round was not saved.")
        case PlayerAdded(name=name):
            change.title = f"{isolated(name)} joined the group"
        case PlayerRenamed(old=old_name, new=new_name):
            change.title = f"{isolated(old_name)} renamed {isolated(new_name)}"
        case InviteMade(invite=number, phones=phones, hours=hours):
            change.title = (f"Invite link {number} made, for {phones} phones "
                            f"over {hours} hours")
        case InviteRevoked(invite=number):
            change.title = f"Invite link {number} revoked"
        case InviteUsed(invite=number):
            change.title = f"Signed in with invite link {number}"
        case TimezoneChanged(old=old_zone, new=new_zone):
            change.title = f"Time zone changed from {old_zone} to {new_zone}"
        case _ if type(payload) in TITLES:
            change.title = TITLES[type(payload)]
    return change  # an import, or an action this app never wrote: its subject


def typed_words(outcome: str, cards: str) -> str:
    """A hand as typed: "Dead, AS 2H" """
    label = OUTCOME_LABELS.get(outcome, outcome)
    return f"{label}, {cards.strip()}" if cards.strip() else label


def _round_words(change: Change, kept: RoundSnapshot, verb: str) -> None:
    """A round's change: "Round 5 added", and who dealt."""
    change.title = f"Round {kept.number} {verb}"
    change.round_number = kept.number
    if kept.dealer:
        change.facts.append(f"{isolated(kept.dealer)} dealt.")


def _entered_words(entered_by: tuple[tuple[str, str], ...]) -> str:
    """Who entered which hands of a round filled in together: "Hands entered
    from Ann's phone: Ann, Cat; from Ben's phone: Ben." """
    by_phone: dict[str, list[str]] = {}
    for player, phone in entered_by:
        by_phone.setdefault(phone, []).append(isolated(player))
    return "Hands entered " + "; ".join(
        f"from {phone_words(phone)}: {', '.join(names)}" for phone, names in by_phone.items()) + "."


def _rules_words(house_rules, currency: str) -> str:
    """The house rules in a sentence: "Penang rules, money in RM: tiers … × RM 1.00." """
    try:
        rules = HouseRules.from_json(house_rules)
    except RulesError:  # not house rules as the app writes them
        return f"Money in {currency}."
    summary = dict(rules_summary(rules, currency))
    name = preset_words(rules)  # "Penang", "Rummi" or "Own rules"
    name = name if preset_of(rules) is None else f"{name} rules"
    return f"{name}, money in {currency}: {summary['Money']}."


def describe_all(events: list[AuditEvent], currency: str) -> list[Change]:
    changes = []
    for event in events:
        try:
            changes.append(describe(event, currency))
        except PayloadError:  # a damaged payload: its subject, as it was saved
            changes.append(Change(event, event.subject or event.action))
    return changes
