"""The language switch: the button pressed, and the page to go back to."""

from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField


class LanguageForm(FlaskForm):
    # The buttons' values (web/locales.py's tags), given by the view.
    language = SelectField()
    next = HiddenField()
