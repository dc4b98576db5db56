"""House rules in words: the settings that matter when reading a session
back, and last time's rules in a line (the new session's page)."""

from __future__ import annotations

from ...queries import LastTime
from ...rules import HouseRules, preset_name
from ..filters import money_scheme, priced

DEALERS = {"winner": "the winner", "loser": "the worst loser", "rotate": "the next seat"}
DEALS = {"winner": "the winner deals", "loser": "the biggest loser deals",
         "rotate": "the deal goes round"}


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
    name = preset_name(rules)  # "Penang", "Rummi" or "Own rules"
    if name != "Own rules":
        return f"{name} rules as they come, money in {currency}."

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
