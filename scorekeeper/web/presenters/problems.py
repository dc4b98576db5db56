"""The rules engine's reports in words: each code (rules.Code) with its values
as a sentence in the reader's language, plurals and all. Players' names and
card notation go in as they are (notation is the same in every language).
Outside a request (python -m scorekeeper.rules) the words are English."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from ...rules import Card, Code, format_cards
from ...rules.house import shown

Values = Mapping[str, Any]


class Report(Protocol):
    """What the engine reports: a Problem, or a CardError."""

    @property
    def code(self) -> Code: ...

    @property
    def values(self) -> Values: ...


def words(report: Report) -> str:
    """A problem or a warning of the engine, in words."""
    return WORDS[report.code](report.values)


def all_words(reports: Iterable[Report]) -> list[str]:
    return [words(report) for report in reports]


def joined(reports: Iterable[Report]) -> str:
    """Several reports in one line, as a refusal quotes them."""
    return "; ".join(all_words(reports))


def _cards(cards: Sequence[Card]) -> str:
    return format_cards(cards)


def _names(players: Iterable[object]) -> str:
    """Players as the reader's language lists them: "Ann and Ben", "Ann, Ben, and Cyd"."""
    return format_list([str(p) for p in players], locale=get_locale() or "en")


def _unreadable_card(v: Values) -> str:
    if "player" in v:
        return _('%(player)s: "%(token)s" (card %(position)d) is not a card: write rank then '
                 "suit, like AS, 10H, QD, or JK for a joker",
                 player=v["player"], token=v["token"], position=v["position"])
    return _('"%(token)s" (card %(position)d) is not a card: write rank then suit, like AS, '
             "10H, QD, or JK for a joker", token=v["token"], position=v["position"])


def _several_winners(v: Values) -> str:
    players = v["players"]
    if len(players) == 2:
        return _("Only one player can win a round, but %(players)s are both marked Hu or Tien Hu",
                 players=_names(players))
    return _("Only one player can win a round, but %(players)s are all marked Hu or Tien Hu",
             players=_names(players))


def _wrong_card_count(v: Values) -> str:
    player, count, dealt = v["player"], v["count"], v["dealt"]
    if v["outcome"] == "tien_hu":
        return ngettext("%(player)s has Tien Hu, so the whole hand of %(dealt)d cards is needed; "
                        "%(num)d was entered",
                        "%(player)s has Tien Hu, so the whole hand of %(dealt)d cards is needed; "
                        "%(num)d were entered", count, player=player, dealt=dealt)
    if v["outcome"] == "no_passport":
        return ngettext("%(player)s has no passport, so the whole hand of %(dealt)d cards is "
                        "needed; %(num)d was entered",
                        "%(player)s has no passport, so the whole hand of %(dealt)d cards is "
                        "needed; %(num)d were entered", count, player=player, dealt=dealt)
    return ngettext("%(player)s is dead with %(num)d card, but a dead hand holds at most "
                    "%(most)d (%(dealt)d were dealt)",
                    "%(player)s is dead with %(num)d cards, but a dead hand holds at most "
                    "%(most)d (%(dealt)d were dealt)",
                    count, player=player, most=v["most"], dealt=dealt)


def _too_many_copies(v: Values) -> str:
    card, count, limit = v["card"], v["count"], v["limit"]
    if "hand" in v:  # no deal gives a hand this large with these copies (never jokers)
        return ngettext("%(num)d copy of %(card)s entered, but the deck has only %(limit)d where "
                        "a hand of %(hand)d cards or more is dealt",
                        "%(num)d copies of %(card)s entered, but the deck has only %(limit)d "
                        "where a hand of %(hand)d cards or more is dealt",
                        count, card=str(card), limit=limit, hand=v["hand"])
    if "players" in v:
        players = ", ".join(map(str, v["players"]))
        if card.is_joker:
            return ngettext("%(num)d joker entered (%(players)s), but the deck has only "
                            "%(limit)d",
                            "%(num)d jokers entered (%(players)s), but the deck has only "
                            "%(limit)d", count, players=players, limit=limit)
        return ngettext("%(num)d copy of %(card)s entered (%(players)s), but the deck has only "
                        "%(limit)d",
                        "%(num)d copies of %(card)s entered (%(players)s), but the deck has "
                        "only %(limit)d", count, card=str(card), players=players, limit=limit)
    if card.is_joker:
        return ngettext("%(num)d joker entered, but the deck has only %(limit)d",
                        "%(num)d jokers entered, but the deck has only %(limit)d",
                        count, limit=limit)
    return ngettext("%(num)d copy of %(card)s entered, but the deck has only %(limit)d",
                    "%(num)d copies of %(card)s entered, but the deck has only %(limit)d",
                    count, card=str(card), limit=limit)


def _tien_hu_not_melded(v: Values) -> str:
    melds = " | ".join(_cards(meld) for meld in v["melds"]) or _("no meld")
    return ngettext("%(player)s's hand does not meld completely: the best is %(melds)s, "
                    "leaving %(deadwood)s (%(num)d point)",
                    "%(player)s's hand does not meld completely: the best is %(melds)s, "
                    "leaving %(deadwood)s (%(num)d points)",
                    v["points"], player=v["player"], melds=melds, deadwood=_cards(v["deadwood"]))


def _quoted(v: Values) -> dict[str, str]:
    """A rule and its value, quoted as a message quotes it."""
    return {"rule": v["rule"], "value": shown(v["value"])}


# Each code's words. A msgid is written out in full at each call, so that
# pybabel finds it.
WORDS: dict[Code, Callable[[Values], str]] = {
    Code.UNREADABLE_CARD: _unreadable_card,
    Code.TOO_FEW_PLAYERS: lambda v: ngettext(
        "A round needs at least %(num)d player", "A round needs at least %(num)d players",
        v["least"]),
    Code.DUPLICATE_PLAYER: lambda v: ngettext(
        "%(player)s is listed %(num)d time in the round",
        "%(player)s is listed %(num)d times in the round", v["times"], player=v["player"]),
    Code.UNKNOWN_PLAYER: lambda v: _(
        "%(player)s has an entry but does not play this round", player=v["player"]),
    Code.MISSING_ENTRY: lambda v: _(
        "%(player)s has no entry: choose an outcome", player=v["player"]),
    Code.UNKNOWN_OUTCOME: lambda v: _(
        "%(player)s: the outcome %(outcome)s is not one of %(outcomes)s", player=v["player"],
        outcome=shown(v["outcome"]), outcomes=", ".join(v["outcomes"])),
    Code.SEVERAL_WINNERS: _several_winners,
    Code.WRONG_CARD_COUNT: _wrong_card_count,
    Code.HU_WITH_CARDS: lambda v: ngettext(
        "%(player)s went out (Hu) but has a card entered: %(cards)s",
        "%(player)s went out (Hu) but has cards entered: %(cards)s",
        len(v["cards"]), player=v["player"], cards=_cards(v["cards"])),
    Code.TOO_MANY_COPIES: _too_many_copies,
    Code.TIEN_HU_NOT_MELDED: _tien_hu_not_melded,
    Code.HAS_PASSPORT: lambda v: _(
        "%(player)s has a passport, so it is not 'no passport': %(meld)s",
        player=v["player"], meld=_cards(v["meld"])),
    Code.TOO_MANY_CARDS: lambda v: ngettext(
        "%(num)d card entered, but a hand holds at most %(most)d (the most these rules deal)",
        "%(num)d cards entered, but a hand holds at most %(most)d (the most these rules deal)",
        v["count"], most=v["most"]),
    Code.TIEN_HU_UNCHECKED: lambda v: _(
        "%(player)s's hand is too large to check in full: save only if it melds completely",
        player=v["player"]),
    Code.DEAD_WITHOUT_CARDS: lambda v: _(
        "%(player)s is dead with no cards left: if %(player)s went out, choose Hu",
        player=v["player"]),
    Code.MELD_IN_DEAD_HAND: lambda v: _(
        "%(player)s is dead but holds a meld that could have been played: %(meld)s",
        player=v["player"], meld=_cards(v["meld"])),
    Code.SAME_AS_LAST_ROUND: lambda v: _(
        "Every hand is the same as in round %(number)d, card for card: if this is round "
        "%(number)d entered again, don't save it, or it counts twice", number=v["number"]),
    Code.RULE_NOT_A_CHOICE: lambda v: _(
        "%(rule)s must be one of %(choices)s, not %(value)s",
        choices=", ".join(map(repr, v["choices"])), **_quoted(v)),
    Code.RULE_BELOW_ONE: lambda v: _("%(rule)s must be at least 1, not %(value)s", **_quoted(v)),
    Code.RULE_NEGATIVE: lambda v: _("%(rule)s can't be negative", rule=v["rule"]),
    Code.TIERS_REFUSED: lambda v: _("tiers must be one or more units, none negative"),
    Code.RULES_NOT_AN_OBJECT: lambda v: _(
        "house rules must be an object, not %(value)s", value=shown(v["value"])),
    Code.NOT_A_RULE: lambda v: ngettext(
        "%(keys)s is not a house rule", "%(keys)s are not house rules", len(v["keys"]),
        keys=", ".join(map(shown, v["keys"]))),
    Code.RULE_NOT_WHOLE: lambda v: _(
        '"%(rule)s" must be a whole number, not %(value)s', **_quoted(v)),
    Code.RULE_NOT_WHOLE_OR_NULL: lambda v: _(
        '"%(rule)s" must be a whole number or null, not %(value)s', **_quoted(v)),
    Code.RULE_NOT_TRUE_OR_FALSE: lambda v: _(
        '"%(rule)s" must be true or false, not %(value)s', **_quoted(v)),
    Code.RULE_NOT_TEXT: lambda v: _('"%(rule)s" must be text, not %(value)s', **_quoted(v)),
    Code.TIERS_NOT_WHOLE: lambda v: _(
        '"tiers" must be a list of whole numbers, not %(value)s', value=shown(v["value"])),
    Code.RULE_OUT_OF_RANGE: lambda v: _(
        '"%(rule)s" must be a whole number from %(low)d to %(high)d, not %(value)s',
        low=v["low"], high=v["high"], **_quoted(v)),
    Code.TIER_COUNT_OUT_OF_RANGE: lambda v: _(
        '"tiers" must list 1 to %(most)d places, not %(count)d', most=v["most"],
        count=v["count"]),
    Code.TIER_OUT_OF_RANGE: lambda v: _(
        '"tiers" must be whole numbers from 0 to %(most)d', most=v["most"]),
}
