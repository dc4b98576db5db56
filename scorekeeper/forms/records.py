"""Forms of the records pages: GET forms, read from the query string, so
they carry no CSRF token."""

import re
from datetime import date

from flask_babel import lazy_gettext as _l
from wtforms import Form, SelectField, StringField, ValidationError

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
# Far enough either way for any group's history, near enough that a day's
# bounds stay ordinary datetimes in every time zone.
FIRST_YEAR, LAST_YEAR = 1900, 2999


class DayField(StringField):
    """A date typed (or picked) as year-month-day, read into ``day``; empty
    for none."""

    day: date | None = None

    def pre_validate(self, form: Form) -> None:
        self.day = None
        text = (self.data or "").strip()
        if not text:
            return
        try:
            if not DAY.fullmatch(text):
                raise ValueError(text)
            day = date.fromisoformat(text)
        except ValueError:
            raise ValidationError(
                _l("Type a date as year-month-day, such as 2026-01-31.")) from None
        if not FIRST_YEAR <= day.year <= LAST_YEAR:
            raise ValidationError(_l("Use a year from %(first)s to %(last)s.",
                                     first=FIRST_YEAR, last=LAST_YEAR))
        self.day = day


class LeaderboardForm(Form):
    """The dates of the board, either left empty for no bound: ``from`` and
    ``to`` in the URL (day_from.day, day_to.day once validated)."""

    day_from = DayField(_l("From"), name="from")
    day_to = DayField(_l("To"), name="to")

    def validate_day_to(self, field: DayField) -> None:
        first = self.day_from.day
        if field.day and first and field.day < first:
            raise ValidationError(_l("The last day comes before the first."))


class HeadToHeadForm(Form):
    """Two of the group's players; the view sets the choices ("" then ids)."""

    a = SelectField(_l("Player"), default="",
                    invalid_choice_message=_l("Choose a player from the list."))
    b = SelectField(_l("Against"), default="",
                    invalid_choice_message=_l("Choose a player from the list."))

    def validate_b(self, field: SelectField) -> None:
        if field.data and field.data == self.a.data:
            raise ValidationError(_l("Choose two different players."))
