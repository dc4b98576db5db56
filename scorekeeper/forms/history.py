"""Forms of the history pages."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Form, SelectField, StringField
from wtforms.validators import InputRequired, Length

from ..limits import NAME_MAX


class HistoryFilterForm(Form):
    """A GET form (read from the query string), so it carries no CSRF token.

    The view sets ``player.choices``: "" for everyone, then player ids.
    """

    player = SelectField(
        _l("Player"), default="",
        invalid_choice_message=_l("Choose a player from the list."))


class RenameForm(FlaskForm):
    name = StringField(_l("Name"), validators=[
        InputRequired(_l("Type the name.")),
        Length(max=NAME_MAX, message=_l("Use at most %(max)s characters.", max=NAME_MAX))])
