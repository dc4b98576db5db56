"""Forms of the rounds pages, and the hand a phone sends of a round filled
in together."""

from dataclasses import dataclass
from typing import TypeGuard

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Form
from wtforms.fields import (
    FieldList,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange
from wtforms.widgets import HiddenInput

from ..limits import ID_MAX, MAX_PLAYERS

OUTCOMES = [
    SelectChoice("dead", _l("Dead")),
    SelectChoice("hu", _l("Hu")),
    SelectChoice("tien_hu", _l("Tien Hu")),
    SelectChoice("no_passport", _l("No passport")),
]
OUTCOME_LABELS = {choice.value: choice.label for choice in OUTCOMES}
# A helper line each, shown with the outcomes on the round form and the rules page.
OUTCOME_HELP = {
    "dead": _l("Dead: didn’t go out; enter what you still hold."),
    "hu": _l("Hu: went out; nothing to enter."),
    "tien_hu": _l("Tien Hu: the whole dealt hand; the others’ cards may then be left empty."),
    "no_passport": _l("No passport: made no first meld; enter the whole hand."),
}

CARDS_MAX = 300  # a full hand of 25 cards, written out generously
VERSION_DIGITS = 9


def parse_version(text) -> int | None:
    """The session version a page was built on, or None if ``text`` is not one."""
    text = text if isinstance(text, str) else ""
    if not (text.isascii() and text.isdigit() and len(text) <= VERSION_DIGITS):
        return None
    return int(text)


class EntryForm(Form):
    """One player's part of a round; ``player`` is the player's id."""

    player = IntegerField(widget=HiddenInput(), validators=[InputRequired()])
    outcome = RadioField("Outcome", choices=OUTCOMES, default="dead")
    cards = StringField("Cards", validators=[
        Length(max=CARDS_MAX, message=_l("Type at most %(max)d characters."))])


class VersionForm(FlaskForm):
    """A form that carries the session's version when its page was made, so a
    change saved meanwhile from another phone is noticed. On its own: a
    button-only POST (delete or restore a round)."""

    version = HiddenField()

    def parsed_version(self) -> int | None:
        return parse_version(self.version.data)


class RoundForm(VersionForm):
    """Every player's entry, in playing order. ``number`` is the round the page
    was made for; ``confirmed`` is the digest of the warnings the table accepted;
    ``draft`` the draft version of the round filled in together that the page
    shows (a new round's form only)."""

    number = IntegerField(widget=HiddenInput(), validators=[InputRequired()])
    # No more than a table seats: a post of thousands would cost seconds.
    entries = FieldList(FormField(EntryForm), max_entries=MAX_PLAYERS)
    confirmed = HiddenField()
    draft = HiddenField()

    def parsed_draft(self) -> int | None:
        return parse_version(self.draft.data)


class ClearHandsForm(FlaskForm):
    """ "Clear this round's hands": the round the page showed them in."""

    number = IntegerField(widget=HiddenInput(), validators=[
        InputRequired(), NumberRange(min=1, max=ID_MAX)])


@dataclass(frozen=True)
class SentHand:
    """A player's hand as a phone sends it (JSON): ``base`` is the hand's
    version the phone last saw (0: none), ``number`` the round it is for;
    ``typing``: sent as it is typed, the field still being written in."""

    outcome: str
    cards: str
    base: int
    number: int
    typing: bool = False


def read_sent_hand(document: object) -> SentHand | None:
    """The hand in a phone's JSON document, or None if it is not one."""
    if not isinstance(document, dict):
        return None
    outcome, cards = document.get("outcome"), document.get("cards", "")
    base, number = document.get("base"), document.get("number")
    if not (isinstance(outcome, str) and outcome in OUTCOME_LABELS and isinstance(cards, str)
            and len(cards) <= CARDS_MAX and "\x00" not in cards
            and _whole(base) and _whole(number)):
        return None
    return SentHand(outcome, cards, base, number, document.get("typing") is True)


def _whole(value: object) -> TypeGuard[int]:
    return type(value) is int and 0 <= value <= ID_MAX  # not a bool, nor a float
