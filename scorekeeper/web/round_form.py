"""The round form's rows: each player's part with what a save said about it,
and the form laid out for an order of play, keeping what was typed, or with
the hands saved from other phones of a round filled in together."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import g
from flask_babel import gettext as _

from ..audit import Action
from ..forms.rounds import OUTCOME_LABELS, EntryForm, RoundForm
from ..models import Player
from ..rules import Problem
from .filters import isolated
from .presenters.changes import Change, entered_words, phone_words, typed_words, typing_words
from .presenters.problems import words

# The new round's form with every hand empty (?blank=<the session's version>):
# what the service worker keeps for offline (web/offline.py).
BLANK_FORM = "blank"


@dataclass
class Row:
    """One player's part of the round form, with what the save said about it."""

    player: Player
    entry: EntryForm  # bound to what was posted, or filled in
    dealer: bool
    own: bool = False  # the player whose phone this is
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    entered: str = ""  # a hand kept from the round filled in together: where, when
    typing: str = ""  # that hand is still being typed on a phone: where, in words


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
    # The form holds a hand of a round saved meanwhile: the same game, likely.
    alike: bool = False

    @property
    def added(self) -> list[Change]:
        """The rounds added meanwhile."""
        return [c for c in self.changes if c.event.action == Action.ROUND_ADD]


@dataclass
class Outcome:
    """What a save attempt left to show: problems, warnings to confirm, the
    changes made from another phone that stopped it, or the hands saved from
    other phones meanwhile (``news``) that stopped it."""

    problems: list[Notice] = field(default_factory=list)
    warnings: list[Notice] = field(default_factory=list)
    digest: str | None = None
    conflict: Conflicted | None = None
    news: list[Notice] = field(default_factory=list)


def fill(form: RoundForm, number: int, prefill: list[dict]) -> None:
    """A new page's form: one entry per player, in playing order."""
    form.number.data = number
    form.version.data = g.game.version
    for item in prefill:
        form.entries.append_entry(item)


def form_rows(form: RoundForm, order: list[Player], dealer: Player, outcome: Outcome,
              own: int | None = None) -> list[Row]:
    """The rows in playing order; the row of ``own``, the phone's player, first."""
    rows = [Row(player, sub, player.id == dealer.id, player.id == own)
            for player, sub in zip(order, form.entries, strict=False)]
    attach(rows, outcome)
    return sorted(rows, key=lambda row: not row.own)


def show_entered(rows: list[Row], draft) -> None:
    """Beside each hand of the round filled in together (a services.Draft)
    that the form holds as saved, where and when it was entered, or where it
    is still being typed (unless a Save's warning in the row says so already)."""
    hands = {place.player.id: place.hand for place in draft.places if place.hand}
    for row in rows:
        hand = hands.get(row.player.id)
        typed = (row.entry.outcome.data, row.entry.cards.data or "")
        if hand is not None and typed == (hand.outcome, hand.cards):
            if hand.typing:
                words = typing_words(row.player.name, hand.device)
                if not any(warning.startswith(words) for warning in row.warnings):
                    row.typing = words
            else:
                row.entered = entered_words(hand.device, hand.at)


def typing_notices(typing, order: list[Player]) -> list[Notice]:
    """A Save's warning for each hand still being typed on another phone
    (services.StillTyped), which the round would take as this form has it."""
    by_name = {p.name: p for p in order}
    # Translators: after "Ann's hand is being typed on Ben's phone." (%(typing)s).
    return [Notice(_("%(typing)s So far: %(typed)s. Wait for it to come in, or save anyway "
                     "with %(player)s's hand as this form has it.",
                     typing=typing_words(hand.player, hand.device),
                     typed=typed_words(hand.outcome, hand.cards), player=isolated(hand.player)),
                   [by_name[hand.player]] if hand.player in by_name else [])
            for hand in typing]


def take_hands(form: RoundForm, order: list[Player], hands) -> list[Notice]:
    """Put hands saved from other phones (DraftEntry rows) in the form in place
    of what was typed for those players; a notice for each, with what was typed."""
    by_id = {p.id: p for p in order}
    hand_of = {hand.player_id: hand for hand in hands if hand.player_id in by_id}
    notices = []
    for sub in form.entries:
        hand = hand_of.get(_posted_int(sub.player.raw_data))
        if hand is None:
            continue
        typed = typed_words(sub.outcome.data, sub.cards.data or "")
        sub.outcome.data, sub.cards.data = hand.outcome, hand.cards
        player = by_id[hand.player_id]
        notices.append(Notice(
            _("%(player)s's hand was entered from %(phone)s meanwhile: %(hand)s. You had "
              "%(typed)s.", player=isolated(player.name), phone=phone_words(hand.device),
              hand=typed_words(hand.outcome, hand.cards), typed=typed), [player]))
    return notices


def posted_hands(form: RoundForm) -> dict[int, tuple[str, str]]:
    """The hands a posted form holds, as typed: player id: (outcome, cards)."""
    hands = {}
    for sub in form.entries:
        player_id = _posted_int(sub.player.raw_data)
        if player_id is not None:
            hands[player_id] = (str(sub.outcome.data or ""), sub.cards.data or "")
    return hands


def matches(form: RoundForm, number: int, order: list[Player]) -> bool:
    """Whether the posted form was made for this round and these players; if
    so, its entries are put in playing order. (A round kept on a phone offline
    behind another comes in the form of that one, laid out in its order.)"""
    seat = {player.id: place for place, player in enumerate(order)}
    posted = [_posted_int(sub.player.raw_data) for sub in form.entries]
    if (_posted_int(form.number.raw_data) != number or len(posted) != len(seat)
            or set(posted) != set(seat)):
        return False
    by_player = dict(zip(posted, form.entries.entries, strict=True))
    form.entries.entries[:] = [by_player[player.id] for player in order]
    return True


def _posted_int(raw_data) -> int | None:
    try:
        return int(raw_data[0])
    except (TypeError, ValueError, IndexError):
        return None


def rebuild(form: RoundForm, number: int, order: list[Player]) -> None:
    """Lay the form out for ``order``, keeping what was typed for each player."""
    typed = {_posted_int(sub.player.raw_data): sub for sub in form.entries}
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


def notices(problems: list[Problem], order: list[Player]) -> list[Notice]:
    """The rules engine's problems in words, each linked to its players."""
    by_name = {p.name: p for p in order}
    return [Notice(words(p), [by_name[name] for name in p.players if name in by_name])
            for p in problems]


def attach(rows: list[Row], outcome: Outcome) -> None:
    """Each problem and warning also goes next to the players it concerns."""
    by_id = {row.player.id: row for row in rows}
    for notices, attr in ((outcome.problems, "errors"), (outcome.warnings, "warnings"),
                          (outcome.news, "warnings")):
        for notice in notices:
            for player in notice.players:
                getattr(by_id[player.id], attr).append(notice.message)
