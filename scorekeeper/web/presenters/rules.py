"""House rules in words: the settings that matter when reading a session
back, last time's rules in a line and what the chosen rules pay (the new
session's page)."""

from __future__ import annotations

from flask_babel import gettext as _

from ...forms.sessions import PRESET_NAMES
from ...queries import LastTime
from ...rules import HouseRules, payouts, preset_of
from ..filters import money_scheme, priced

DEALERS = {"winner": "the winner", "loser": "the worst loser", "rotate": "the next seat"}
DEALS = {"winner": "the winner deals", "loser": "the biggest loser deals",
         "rotate": "the deal goes round"}


def preset_words(rules: HouseRules) -> str:
    """The preset these rules are, by name ("Penang"), or "Own rules"."""
    key = preset_of(rules)
    return str(PRESET_NAMES[key]) if key is not None else _("Own rules")


def rules_summary(rules: HouseRules, currency: str) -> list[tuple[str, str]]:
    """The settings that matter most when reading a session back, as (name, value)."""
    summary = [("Passport", "any meld" if rules.passport == "any" else "a run only")]
    if rules.scheme == "none":
        summary.append(("Money", "none, points only"))
    else:
        summary += [
            ("Money", money_scheme(rules, currency)),
            ("Hu", f"{priced(rules.hu_cents, currency)} from each player"),
            ("Tien Hu", f"{priced(rules.tien_hu_cents, currency)} from each player"),
            ("Joker/ace", f"{priced(rules.joker_ace_cents, currency)} a unit"
             if rules.joker_ace_cents else "off"),
        ]
    summary += [
        ("Play goes", rules.direction),
        ("Next dealer", DEALERS[rules.dealer_rule]),
    ]
    return summary


def last_time_summary(last: LastTime) -> str:
    """Last time's rules in a line: "Rummi rules as they come, money in RM."
    for a preset, else what sets them apart ("own rules, money in RM. 8
    jokers at 25 points · …")."""
    rules, currency = last.rules, last.currency
    if preset_of(rules) is not None:
        return f"{preset_words(rules)} rules as they come, money in {currency}."

    parts = [f"{rules.packs} packs" if rules.packs != 2 else "",
             f"{rules.jokers} jokers at {rules.joker_points} points",
             "run passport" if rules.passport == "run" else "any passport",
             rules.direction, DEALS[rules.dealer_rule],
             "no passport ranks last" if rules.no_passport_last else ""]
    if rules.scheme == "none":
        parts.append("points only, no money")
    else:
        parts += [money_scheme(rules, currency),
                  f"Hu {priced(rules.hu_cents, currency)}",
                  f"Tien Hu {priced(rules.tien_hu_cents, currency)}",
                  f"joker/ace {priced(rules.joker_ace_cents, currency)}"
                  if rules.joker_ace_cents else ""]
    return f"own rules, money in {currency}. " + " · ".join(part for part in parts if part) + "."


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


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
        return ["Points only: no money changes hands."]
    if rules.scheme == "tiered":
        places = [f"{_ordinal(1)} gets {said(pays.places[0])}"] + [
            f"{_ordinal(i)} pays {said(cents)}" if cents else f"{_ordinal(i)} pays nothing"
            for i, cents in enumerate(pays.places[1:], start=2)]
        lines = [f"With {players} players, a round nobody goes out of: {', '.join(places)}."]
    else:
        lines = [f"A round nobody goes out of: every two players settle the difference in "
                 f"points at {said(rules.point_cents)} a point."]
    others = players - 1
    lines.append(f"Hu: each other player pays the winner {said(pays.hu)} "
                 f"({said(pays.hu * others)} in all). Tien Hu: {said(pays.tien_hu)} each "
                 f"({said(pays.tien_hu * others)}).")
    if rules.joker_ace_cents:
        lines.append(f"Jokers and aces held: {said(rules.joker_ace_cents)} a unit, settled "
                     "between every two players.")
    return lines
