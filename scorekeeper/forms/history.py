"""Forms of the history pages."""

from wtforms import Form, SelectField


class HistoryFilterForm(Form):
    """A GET form (read from the query string), so it carries no CSRF token.

    The view sets ``player.choices``: "" for everyone, then player ids.
    """

    player = SelectField(
        "Player", default="",
        invalid_choice_message="Choose a player from the list.")
