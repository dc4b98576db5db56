"""Refusals that carry the rules engine's problems, in words: house rules
past the limits the app takes, a round that can't be scored, a part of a
backup the engine refused. Any other refusal of a service says its own
message (marked N_ in the service), translated here with its values; a
backup's, a phrase (scorekeeper.phrases), worded here with the places in it."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from ... import services
from ...backup import BackupError
from ...phrases import Amount, Phrase
from ..filters import count, priced
from .problems import joined


def refusal(error: Exception) -> str:
    """Why a service or a backup refused, in words."""
    if isinstance(error, services.RulesRefused):
        return _("These house rules can't be taken: %(problems)s",
                 problems=joined(error.problems))
    if isinstance(error, services.Unscorable):
        if error.new_rules:
            return _("Round %(number)d can't be scored under these rules: %(problems)s",
                     number=error.number, problems=joined(error.problems))
        return _("Round %(number)d can't be scored: %(problems)s",
                 number=error.number, problems=joined(error.problems))
    if isinstance(error, BackupError) and error.problems:
        return worded(error.phrase, problems=joined(error.problems))
    if isinstance(error, BackupError):
        return worded(error.phrase)
    if isinstance(error, services.ServiceError):
        return _(error.message, **{name: _value(value) for name, value in error.values.items()})
    return str(error)


def worded(phrase: Phrase, **more: str) -> str:
    """A phrase in the reader's language, its phrases within it worded in
    turn, its whole numbers and amounts as the language writes them; ``more``
    values already in words."""
    values = {name: _value(value) for name, value in phrase.values.items()} | more
    if isinstance(phrase.message, tuple):
        return ngettext(*phrase.message, phrase.values["count"], **values)
    return _(phrase.message, **values)


def _value(value: object) -> object:
    if isinstance(value, Phrase):
        return worded(value)
    if isinstance(value, Amount):
        return priced(value.cents, value.currency)
    return count(value) if type(value) is int else value
