"""The one question a phone is asked once it is in a group, "Which player
are you?", as the home page and an invite link's page ask it: one of the
group's players, someone new (typed), or nobody's phone (shared). The answer
names the phone ("Ben's phone") and says whose it is ("This is Ben's phone")."""

from dataclasses import dataclass

from flask import request
from flask_babel import gettext as _

from ..forms.groups import NewPlayerForm, WhoForm
from ..limits import DEVICE_MAX
from ..models import Player

# The names this module gives a phone, as stored (a phone's label, in its
# cookie and in the history of changes): in English, as a code is, and worded
# in the reader's language where shown (presenters/changes.py, phone_words).
SHARED = "Shared phone"
NAMED = "{name}'s phone"


@dataclass(frozen=True)
class Answer:
    """A known player's id, or None with ``new`` the name typed, or None
    and no name: nobody's phone."""

    player_id: int | None
    new: str | None = None

    @property
    def nobody(self) -> bool:
        return self.player_id is None and self.new is None


@dataclass
class Question:
    """The question's two forms: the names to tap, and someone new to type."""

    who: WhoForm
    new: NewPlayerForm
    error: str | None = None


def ask() -> Question:
    return Question(WhoForm(formdata=None), NewPlayerForm(formdata=None))


def answer(players: list[Player]) -> tuple[Answer | None, Question]:
    """The posted answer, checked against the group's ``players``; or None,
    with the question to show again saying what is wrong."""
    if "name" in request.form:
        new = NewPlayerForm()
        if new.validate():
            known = {p.name_key: p.id for p in players}
            typed: str = new.name.data
            if typed.casefold() in known:  # the same player, whatever the letter case
                return Answer(known[typed.casefold()]), Question(WhoForm(formdata=None), new)
            return Answer(None, typed), Question(WhoForm(formdata=None), new)
        return None, Question(WhoForm(formdata=None), new)
    who = WhoForm()
    question = Question(who, NewPlayerForm(formdata=None))
    if who.validate():
        try:
            player_id = who.player_id()
        except ValueError:
            player_id = 0
        if player_id is None or player_id in {p.id for p in players}:
            return Answer(player_id), question
    question.error = _("Choose one of the names below, someone new, or Nobody's phone.")
    return None, question


def phone_name(answer: Answer, players: list[Player]) -> str:
    """What the answer names the phone: "Ben's phone" (the name alone if that
    is too long), or "Shared phone" for nobody's."""
    name = answer.new if answer.new is not None else next(
        (p.name for p in players if p.id == answer.player_id), None)
    if name is None:
        return SHARED
    named = NAMED.format(name=name)
    return named if len(named) <= DEVICE_MAX else name[:DEVICE_MAX]


def named_for(label: str) -> str | None:
    """Whose phone a label that phone_name gave names ("Ben's phone" -> "Ben"), or None."""
    prefix, suffix = NAMED.split("{name}")
    if label.startswith(prefix) and label.endswith(suffix) and len(label) > len(suffix):
        return label[len(prefix):len(label) - len(suffix)]
    return None


def shown_name(label: str) -> str:
    """A phone's label as its own settings show it to edit, in the reader's
    language where the app gave it ("Shared phone", "Ben's phone")."""
    if label == SHARED:
        return _("Shared phone")
    owner = named_for(label)
    # Translators: a phone named after its owner: "Mei's phone".
    return label if owner is None else _("%(name)s's phone", name=owner)


def kept_label(typed: str, stored: str) -> str:
    """The label a phone's name field gives the phone: the ``stored`` one
    where the field was left as shown_name showed it, else as typed."""
    return stored if stored and typed == shown_name(stored) else typed
