"""The home page forms."""

from wtforms import Form, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length

from .sessions import PRESET_NAMES


class CheckHandForm(Form):
    """A GET form (read from the query string), so it carries no CSRF token."""

    cards = StringField(
        "Cards", validators=[Length(max=200, message="Type at most 200 characters.")]
    )
    preset = SelectField("Rules", default="penang", choices=[
        SelectChoice(key, name) for key, name in PRESET_NAMES.items()])
