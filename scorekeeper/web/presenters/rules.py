"""House rules in words: the settings that matter when reading a session
back, last time's rules in a line and what the chosen rules pay (the new
session's page)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from ...forms.sessions import PRESET_NAMES
from ...queries import LastTime
from ...rules import HouseRules, payouts, preset_of
from ..filters import money_scheme, priced
from .places import ordinal

DIRECTIONS = {"clockwise": _l("clockwise"), "anticlockwise": _l("anticlockwise")}
DEALERS = {"winner": _l("the winner"), "loser": _l("the worst loser"),
           "rotate": _l("the next seat")}
DEALS = {"winner": _l("the winner deals"), "loser": _l("the biggest loser deals"),
         "rotate": _l("the deal goes round")}


def preset_words(rules: HouseRules) -> str:
    """The preset these rules are, by name ("Penang"), or "Own rules"."""
    key = preset_of(rules)
    return str(PRESET_NAMES[key]) if key is not None else _("Own rules")


def rules_summary(rules: HouseRules, currency: str) -> list[tuple[str, str]]:
    """The settings that matter most when reading a session back, as (name, value)."""
    summary = [(_("Passport"), _("any meld") if rules.passport == "any" else _("a run only"))]
    if rules.scheme == "none":
        summary.append((_("Money"), _("none, points only")))
    else:
        # Translators: what a Hu (or a Tien Hu) pays: "RM 3.00 from each player".
        each = _("%(amount)s from each player", amount=priced(rules.hu_cents, currency))
        tien_hu = _("%(amount)s from each player", amount=priced(rules.tien_hu_cents, currency))
        # Translators: money for each joker or ace held: "RM 0.50 a unit", or "off".
        joker_ace = _("%(amount)s a unit", amount=priced(rules.joker_ace_cents, currency))
        summary += [(_("Money"), money_scheme(rules, currency)), (_("Hu"), each),
                    (_("Tien Hu"), tien_hu),
                    (_("Joker/ace"), joker_ace if rules.joker_ace_cents else _("off"))]
    summary += [
        (_("Play goes"), str(DIRECTIONS[rules.direction])),
        (_("Next dealer"), str(DEALERS[rules.dealer_rule])),
    ]
    return summary


def last_time_summary(last: LastTime) -> str:
    """Last time's rules in a line: "Rummi rules as they come, money in RM."
    for a preset, else what sets them apart ("own rules, money in RM. 8
    jokers at 25 points · …")."""
    rules, currency = last.rules, last.currency
    if preset_of(rules) is not None:
        return _("%(preset)s rules as they come, money in %(currency)s.",
                 preset=preset_words(rules), currency=currency)

    parts = [ngettext("%(num)s pack", "%(num)s packs", rules.packs) if rules.packs != 2 else "",
             ngettext("%(num)s joker at %(points)s points", "%(num)s jokers at %(points)s points",
                      rules.jokers, points=rules.joker_points),
             _("run passport") if rules.passport == "run" else _("any passport"),
             str(DIRECTIONS[rules.direction]), str(DEALS[rules.dealer_rule]),
             _("no passport ranks last") if rules.no_passport_last else ""]
    if rules.scheme == "none":
        parts.append(_("points only, no money"))
    else:
        parts += [money_scheme(rules, currency),
                  _("Hu %(amount)s", amount=priced(rules.hu_cents, currency)),
                  _("Tien Hu %(amount)s", amount=priced(rules.tien_hu_cents, currency)),
                  _("joker/ace %(amount)s", amount=priced(rules.joker_ace_cents, currency))
                  if rules.joker_ace_cents else ""]
    # Translators: the rules' differences follow, joined by " · ".
    return _("own rules, money in %(currency)s. %(rules)s.", currency=currency,
             rules=" · ".join(part for part in parts if part))


def listed(items: list[str]) -> str:
    """Items one after another, as the language lists them: "a, b, c"."""
    text = items[0]
    for item in items[1:]:
        # Translators: one more item of a list, after a comma: "1st gets RM 6, 2nd pays RM 1".
        text = _("%(list)s, %(item)s", list=text, item=item)
    return text


def pays_lines(rules: HouseRules, currency: str, players: int) -> list[str]:
    """What the rules pay at a table of ``players``, in sentences, from the
    engine's figures (rules.payouts): "1st gets RM 6, …, 4th pays RM 3." Whole
    amounts lose their ".00" when every amount is whole."""
    pays = payouts(rules, players)
    amounts = [*pays.places, pays.hu, pays.tien_hu, rules.joker_ace_cents,
               rules.point_cents if rules.scheme == "per_point" else 0]
    whole = all(cents % 100 == 0 for cents in amounts)

    def said(cents: int) -> str:
        text = priced(abs(cents), currency)
        return text.removesuffix(".00") if whole else text

    if rules.scheme == "none":
        return [_("Points only: no money changes hands.")]
    if rules.scheme == "tiered":
        places = [_("%(place)s gets %(amount)s", place=ordinal(1), amount=said(pays.places[0]))] + [
            _("%(place)s pays %(amount)s", place=ordinal(i), amount=said(cents)) if cents
            else _("%(place)s pays nothing", place=ordinal(i))
            for i, cents in enumerate(pays.places[1:], start=2)]
        lines = [_("With %(players)s players, a round nobody goes out of: %(places)s.",
                   players=players, places=listed(places))]
    else:
        lines = [_("A round nobody goes out of: every two players settle the difference in "
                   "points at %(amount)s a point.", amount=said(rules.point_cents))]
    others = players - 1
    lines.append(_("Hu: each other player pays the winner %(each)s (%(all)s in all). "
                   "Tien Hu: %(tien_hu)s each (%(tien_hu_all)s).",
                   each=said(pays.hu), all=said(pays.hu * others),
                   tien_hu=said(pays.tien_hu), tien_hu_all=said(pays.tien_hu * others)))
    if rules.joker_ace_cents:
        lines.append(_("Jokers and aces held: %(amount)s a unit, settled between every two "
                       "players.", amount=said(rules.joker_ace_cents)))
    return lines
