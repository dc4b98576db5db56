"""The parts of a game that a backup holds both in its sessions and in its
history of changes: house rules, and an entry's outcome and cards."""

from __future__ import annotations

from ..limits import OUTCOME_MAX
from ..phrases import N_, Phrase
from ..rules import HouseRules, RulesError, format_cards
from ..rules.cards import Card, scan_cards
from ..rules.house import shown
from ..rules.scoring import OUTCOMES
from .fields import BackupError, an_object, refused_by_rules, text_field
from .places import quoted

CARDS_MAX = 400  # characters of one hand
MAX_ROUNDS = 1000  # in one session
VERSION_MAX = 10 ** 9
CENTS_MAX = 10 ** 9  # one amount; fits every database's integer column


def house_rules(value, where: Phrase) -> HouseRules:
    """The house rules a backup gives, read as the app reads a session's
    (HouseRules.from_json: missing fields take the defaults) and held to the
    limits the app takes (HouseRules.check_limits), as the form's are."""
    given = an_object(value, where)
    try:
        rules = HouseRules.from_json(given)
        rules.check_limits()
    except RulesError as error:
        raise refused_by_rules(where, error.problems) from None
    return rules


def played(entry: dict, at: Phrase, cards_at: Phrase) -> tuple[str, tuple[Card, ...], str]:
    """An entry's outcome and its cards, also in canonical notation; ``at`` is
    where the entry is, ``cards_at`` where its cards are, for the messages."""
    outcome = text_field(entry, "outcome", at, OUTCOME_MAX)
    if outcome not in OUTCOMES:
        raise BackupError(N_("%(where)s: the outcome %(value)s is not one of %(outcomes)s."),
                          where=at, value=shown(outcome), outcomes=", ".join(OUTCOMES))
    cards, errors = scan_cards(text_field(entry, "cards", at, CARDS_MAX, low=0))
    if errors:
        raise BackupError(N_("%(where)s: %(token)s is not a card."),
                          where=cards_at, token=shown(errors[0].token))
    return outcome, tuple(cards), format_cards(cards)


def cards_of(place: Phrase, player: str) -> Phrase:
    """Where a player's cards are in a round at ``place``."""
    return Phrase(N_("%(place)s: %(player)s's cards"), place=place, player=player)


def once_each(where: Phrase, key: str) -> BackupError:
    """The entries' seats or turns at ``where`` are not 0, 1, 2… each once."""
    return BackupError(N_("%(where)s: the entries' %(key)s must be 0, 1, 2… each once."),
                       where=where, key=quoted(key))
