"""Forms of the history pages."""

from flask_wtf import FlaskForm
from wtforms import Form, SelectField, StringField
from wtforms.validators import InputRequired, Length

from ..limits import NAME_MAX


class HistoryFilterForm(Form):
    """A GET form (read from the query string), so it carries no CSRF token.

    The view sets ``player.choices``: "" for everyone, then player ids.
    """

    player = SelectField(
        "Player", default="",
        invalid_choice_message="Choose a player from the list.")


class RenameForm(FlaskForm):
    name = StringField("Name", validators=[
        InputRequired("Type the name."),
        Length(max=NAME_MAX, message=f"Use at most {NAME_MAX} characters.")])
