"""The theme switch: the button pressed, and the page to go back to."""

from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField


class ThemeForm(FlaskForm):
    # The buttons' values (web/theme.py's CHOICES), given by the view.
    theme = SelectField()
    next = HiddenField()
