"""Forms of the rounds pages."""

from flask_wtf import FlaskForm
from wtforms import Form
from wtforms.fields import FieldList, FormField, HiddenField, IntegerField, RadioField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length
from wtforms.widgets import HiddenInput

OUTCOMES = [
    SelectChoice("dead", "Dead"),
    SelectChoice("hu", "Hu"),
    SelectChoice("tien_hu", "Tien Hu"),
    SelectChoice("no_passport", "No passport"),
]

CARDS_MAX = 300  # a full hand of 25 cards, written out generously


class EntryForm(Form):
    """One player's part of a round; ``player`` is the player's id."""

    player = IntegerField(widget=HiddenInput(), validators=[InputRequired()])
    outcome = RadioField("Outcome", choices=OUTCOMES, default="dead")
    cards = StringField("Cards", validators=[
        Length(max=CARDS_MAX, message=f"Type at most {CARDS_MAX} characters.")])


class RoundForm(FlaskForm):
    """Every player's entry, in playing order. ``number`` is the round the page
    was made for, so a round saved meanwhile from another phone is noticed;
    ``confirmed`` is the digest of the warnings the table accepted."""

    number = IntegerField(widget=HiddenInput(), validators=[InputRequired()])
    entries = FieldList(FormField(EntryForm))
    confirmed = HiddenField()


class DeleteRoundForm(FlaskForm):
    """A button-only POST: just the CSRF token."""
