"""The home page forms."""

from flask_babel import lazy_gettext as _l
from wtforms import Form, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length

from .sessions import PRESET_NAMES


class CheckHandForm(Form):
    """A GET form (read from the query string), so it carries no CSRF token."""

    cards = StringField(
        _l("Cards"), validators=[Length(max=200, message=_l("Type at most %(max)s characters.",
                                                              max=200))]
    )
    preset = SelectField(_l("Rules"), default="penang", choices=[
        SelectChoice(key, name) for key, name in PRESET_NAMES.items()])
