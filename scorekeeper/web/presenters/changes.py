"""The audit trail in words: what each event changed, for the history of
changes, the "saved from another phone" notice of the round forms and live
pages, and the group page's own history. The trail's before/after
snapshots name players by name."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from flask_babel import gettext as _
from flask_babel import lazy_ngettext, ngettext, pgettext

from ...audit import (
    GroupImported,
    GroupPaid,
    GroupUnpaid,
    HandsCleared,
    InviteMade,
    InviteRevoked,
    InviteUsed,
    PassphraseChanged,
    PayloadError,
    PaymentPaid,
    PaymentUnpaid,
    PaytoChanged,
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
from ...forms.payto import KIND_LABELS
from ...forms.rounds import OUTCOME_LABELS
from ...limits import TYPING_MINUTES
from ...models import AuditEvent
from ...rules import HouseRules, RulesError, preset_of
from ...rules.cards import format_cards, scan_cards
from ...services import DEMO_DEVICE
from ..filters import ago, count, isolated, money_scheme, priced, signed_money, zone_name
from ..phone_choice import SHARED, named_for
from .rules import preset_words

# A label that names the device ("Mei's phone", "Kitchen tablet", "手机",
# "telefon Ali") is shown as typed; any other label ("Mei") is someone's phone.
DEVICE_WORDS = ("phone", "tablet", "ipad", "laptop", "computer", "telefon", "komputer",
                "手机", "电话", "平板", "电脑")


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
                entered.append(_("money moved for %(names)s", names=", ".join(moved)))
            return "; ".join(entered) or _("nothing changed")
        return " ".join(self.facts)


def entered_words(device: str, at: datetime) -> str:
    """Where and when a hand of a round filled in together was entered:
    "Ben's phone, 2 h ago"."""
    # Translators: where and when a hand was entered: "Ben's phone, 2 h ago".
    return _("%(phone)s, %(ago)s", phone=phone_words(device), ago=ago(at))


def typing_words(player: str, device: str) -> str:
    """A hand still being typed on a phone (services.Hand.typing): "Ann's
    hand is being typed on Ann's phone…" """
    return _("%(player)s's hand is being typed on %(phone)s…", player=isolated(player),
             phone=phone_words(device))


# Why a hand being typed on a phone gone quiet does not hold the round up
# (worded when shown, in the reader's language).
LAPSE_WORDS = lazy_ngettext(
    "It counts as in if nothing more is typed there for %(minutes)s minute.",
    "It counts as in if nothing more is typed there for %(minutes)s minutes.",
    TYPING_MINUTES, minutes=TYPING_MINUTES)


def phone_words(label: str) -> str:
    """ "Mei" -> "Mei's phone"; "Mei's phone" stays; a blank label is "an
    unnamed phone", the demo's label "the demo". The names the app gives a
    phone (phone_choice.phone_name: "Shared phone", "Mei's phone") are stored
    in English and worded in the reader's language."""
    label = " ".join((label or "").split())
    if not label:
        return _("an unnamed phone")
    if label == DEMO_DEVICE:
        # Translators: where the demo's changes come from: "Round 3 added from the demo".
        return pgettext("the phone of a change", "the demo")
    if label == SHARED:
        return _("Shared phone")
    if (owner := named_for(label)) is not None:
        return _("%(name)s's phone", name=isolated(owner))
    if any(word in label.casefold() for word in DEVICE_WORDS):
        return isolated(label)
    owner = label[:-2] if label.endswith(("'s", "\u2019s")) and len(label) > 2 else label
    # Translators: a phone named after its owner: "Mei's phone".
    return _("%(name)s's phone", name=isolated(owner))


def _points(points: int) -> str:
    return ngettext("%(points)s point", "%(points)s points", points, points=count(points))


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
    score = f"{before} → {after}" if before != after else _("still %(score)s", score=after)
    gone = _left_out(edit.before.cards, edit.after.cards)
    came = _left_out(edit.after.cards, edit.before.cards)
    if gone and came:
        return _("cards %(gone)s → %(came)s, %(score)s", gone=format_cards(gone),
                 came=format_cards(came), score=score)
    if came:
        return _("%(cards)s added, %(score)s", cards=format_cards(came), score=score)
    if gone:
        return _("%(cards)s taken out, %(score)s", cards=format_cards(gone), score=score)
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


def _titles() -> dict[type, str]:
    """The titles of the changes that say nothing more, in the reader's language."""
    return {PassphraseChanged: _("Passphrase changed"), SessionEnded: _("Session ended"),
            SessionReopened: _("Session reopened"), ShareCreated: _("Share link made"),
            ShareRevoked: _("Share link revoked")}


def _round_title(payload: object, number: int) -> str:
    """ "Round 5 added" (a whole sentence each: the verb's place differs by language)."""
    if isinstance(payload, RoundAdded):
        return _("Round %(number)s added", number=number)
    if isinstance(payload, RoundDeleted):
        return _("Round %(number)s deleted", number=number)
    if isinstance(payload, RoundRestored):
        return _("Round %(number)s restored", number=number)
    return _("Round %(number)s edited", number=number)


def describe(event: AuditEvent, currency: str) -> Change:
    """What one event changed, in plain words; PayloadError if its payload is
    not of its action's shape."""
    payload = read_payload(event.action, event.before, event.after)
    change = Change(event, event.subject or event.action)
    match payload:
        case RoundAdded(round=kept) | RoundDeleted(round=kept) | RoundRestored(round=kept):
            _round_words(change, kept, _round_title(payload, kept.number))
            change.hands = _hands(kept)
            if isinstance(payload, RoundAdded) and payload.entered_by:
                change.facts.append(_entered_words(payload.entered_by))
        case RoundEdited(old=old, new=new):
            _round_words(change, new, _round_title(payload, new.number))
            change.edits = _edits(old, new)
        case SessionStarted():
            players = [isolated(name) for name in payload.players]
            change.title = _("Session started")
            change.facts = [
                _("At the table: %(players)s.", players=", ".join(players)) if players else "",
                _("%(player)s deals first.", player=isolated(payload.first_dealer))
                if payload.first_dealer else "",
                _rules_words(payload.house_rules, payload.currency)]
            change.facts = [fact for fact in change.facts if fact]
        case RulesChanged():
            change.title = _("House rules changed")
            change.facts = [
                _("Was: %(rules)s", rules=_rules_words(payload.old_rules, payload.old_currency)),
                _("Now: %(rules)s", rules=_rules_words(payload.new_rules, payload.new_currency)),
                _("Every round was scored again under them.")]
        case SeatJoined(player=player, seats=seats):
            change.title = _("%(player)s joined the table", player=isolated(player))
            if seats:
                change.facts = [_("Seats, in order: %(players)s.",
                                  players=", ".join(map(isolated, seats)))]
        case SeatLeft(player=player):
            change.title = _("%(player)s left the table", player=isolated(player))
        case PaymentPaid() | PaymentUnpaid() | GroupPaid() | GroupUnpaid():
            change.title = _payment_title(payload, currency)
        case HandsCleared(number=number, hands=hands):
            change.title = _("Round %(number)s's hands cleared", number=number)
            change.facts = [
                _("%(player)s: %(hand)s, entered on %(phone)s.", player=isolated(h.player),
                  hand=typed_words(h.outcome, h.cards), phone=phone_words(h.phone))
                for h in hands]
            change.facts.append(_("Nothing of them had counted: the round was not saved."))
        case PlayerAdded(name=name):
            change.title = _("%(player)s joined the group", player=isolated(name))
        case PlayerRenamed(old=old_name, new=new_name):
            change.title = _("%(old)s renamed %(new)s", old=isolated(old_name),
                             new=isolated(new_name))
        case PaytoChanged(name=name, old=old_kind, new=new_kind):
            player = isolated(name)
            change.title = (
                _("%(player)s's payment details removed", player=player) if not new_kind
                else _("%(player)s's payment details set: %(kind)s", player=player,
                       kind=_kind_words(new_kind)) if not old_kind
                else _("%(player)s's payment details changed to %(kind)s", player=player,
                       kind=_kind_words(new_kind)))
        case InviteMade(invite=number, phones=phones, hours=hours):
            change.title = " ".join([
                _("Invite link %(number)s made,", number=number),
                ngettext("for %(phones)s phone", "for %(phones)s phones", phones, phones=phones),
                ngettext("over %(hours)s hour", "over %(hours)s hours", hours, hours=hours)])
        case InviteRevoked(invite=number):
            change.title = _("Invite link %(number)s revoked", number=number)
        case InviteUsed(invite=number):
            change.title = _("Signed in with invite link %(number)s", number=number)
        case TimezoneChanged(old=old_zone, new=new_zone):
            change.title = _("Time zone changed from %(old)s to %(new)s",
                             old=zone_name(old_zone), new=zone_name(new_zone))
        case GroupImported(source=source, sessions=sessions, rounds=rounds):
            change.title = _("Imported from a backup of %(group)s", group=isolated(source))
            change.facts = [" ".join([
                ngettext("%(sessions)s session,", "%(sessions)s sessions,", sessions,
                         sessions=count(sessions)),
                ngettext("%(rounds)s round.", "%(rounds)s rounds.", rounds,
                         rounds=count(rounds))])]
        case _ if type(payload) in _titles():
            change.title = _titles()[type(payload)]
    return change  # an import, or an action this app never wrote: its subject


def _kind_words(kind: str) -> str:
    """Payment details' kind in words ("DuitNow: mobile number (Malaysia)")."""
    return str(next((label for k, label in KIND_LABELS.items() if k.value == kind), kind))


def typed_words(outcome: str, cards: str) -> str:
    """A hand as typed: "Dead, AS 2H" """
    label = str(OUTCOME_LABELS.get(outcome, outcome))
    return f"{label}, {cards.strip()}" if cards.strip() else label


def _round_words(change: Change, kept: RoundSnapshot, title: str) -> None:
    """A round's change: "Round 5 added", and who dealt."""
    change.title = title
    change.round_number = kept.number
    if kept.dealer:
        change.facts.append(_("%(player)s dealt.", player=isolated(kept.dealer)))


def _entered_words(entered_by: tuple[tuple[str, str], ...]) -> str:
    """Who entered which hands of a round filled in together: "Hands entered
    from Ann's phone: Ann, Cat; from Ben's phone: Ben." """
    by_phone: dict[str, list[str]] = {}
    for player, phone in entered_by:
        by_phone.setdefault(phone, []).append(isolated(player))
    return _("Hands entered %(parts)s.", parts="; ".join(
        _("from %(phone)s: %(players)s", phone=phone_words(phone), players=", ".join(names))
        for phone, names in by_phone.items()))


def _rules_words(house_rules, currency: str) -> str:
    """The house rules in a sentence: "Penang rules, money in RM: tiers … × RM 1.00." """
    try:
        rules = HouseRules.from_json(house_rules)
    except RulesError:  # not house rules as the app writes them
        return _("Money in %(currency)s.", currency=currency)
    money = (money_scheme(rules, currency) if rules.scheme != "none"
             else _("none, points only"))
    if preset_of(rules) is None:  # "Own rules"
        return _("Own rules, money in %(currency)s: %(money)s.", currency=currency, money=money)
    return _("%(preset)s rules, money in %(currency)s: %(money)s.", preset=preset_words(rules),
             currency=currency, money=money)


def _payment_title(payload, currency: str) -> str:
    """ "Ann → Ben RM 3.00 of RM 5.50 marked paid", "… marked not paid"."""
    if isinstance(payload, GroupPaid | GroupUnpaid):
        currency = payload.currency
    words = {"payer": isolated(payload.payer), "payee": isolated(payload.payee),
             "amount": priced(payload.cents, currency)}
    across = isinstance(payload, GroupPaid | GroupUnpaid)
    if isinstance(payload, PaymentUnpaid | GroupUnpaid):
        return (_("%(payer)s → %(payee)s %(amount)s across sessions marked not paid", **words)
                if across else _("%(payer)s → %(payee)s %(amount)s marked not paid", **words))
    if payload.owed is not None and payload.owed != payload.cents:
        words["owed"] = priced(payload.owed, currency)
        return (_("%(payer)s → %(payee)s %(amount)s of %(owed)s across sessions marked paid",
                  **words) if across else
                _("%(payer)s → %(payee)s %(amount)s of %(owed)s marked paid", **words))
    return (_("%(payer)s → %(payee)s %(amount)s across sessions marked paid", **words)
            if across else _("%(payer)s → %(payee)s %(amount)s marked paid", **words))


def describe_all(events: list[AuditEvent], currency: str) -> list[Change]:
    changes = []
    for event in events:
        try:
            changes.append(describe(event, currency))
        except PayloadError:  # a damaged payload: its subject, as it was saved
            changes.append(Change(event, event.subject or event.action))
    return changes
