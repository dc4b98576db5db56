"""Refusals that carry the rules engine's problems, in words: house rules
past the limits the app takes, a round that can't be scored, a part of a
backup the engine refused. Any other refusal of a service says its own
message (marked N_ in the service), translated here with its values."""

from __future__ import annotations

from flask_babel import gettext as _

from ... import services
from ...backup import BackupError
from ..filters import count
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
        return _("%(where)s: %(problems)s.", where=error.where, problems=joined(error.problems))
    if isinstance(error, BackupError):
        return _(error.message, **{name: count(value) if type(value) is int else value
                                   for name, value in error.values.items()})
    if isinstance(error, services.ServiceError):
        return _(error.message, **error.values)
    return str(error)
