"""The What if page in words and rows: what changed in the rules, each
player's money as played beside the money under the other rules, the rounds
those rules refuse and why, and the money round by round."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _

from ...forms.sessions import RULE_FIELDS, HouseRulesForm, rule_data
from ...models import Player
from ...rules import HouseRules, WhatIf
from .problems import joined
from .rule_book import shown_value


@dataclass(frozen=True)
class Changed:
    """A rule the look changes: its name, the session's value and the other."""

    label: str
    was: str
    now: str


@dataclass(frozen=True)
class Compared:
    """A player's money over the session: as played, under the other rules,
    and what it would have made of a difference."""

    player: Player
    played: int
    would_be: int

    @property
    def difference(self) -> int:
        return self.would_be - self.played


@dataclass(frozen=True)
class RoundLine:
    """One round: each player's money as played and under the other rules
    (a cell None: not at the table that round; the second amount None: the
    other rules refuse the round)."""

    number: int
    cells: list[tuple[int, int | None] | None]
    refused: bool


def changed_rules(own: HouseRules, other: HouseRules) -> list[Changed]:
    """The rules that differ, in the form's order, as the form shows them."""
    forms = [HouseRulesForm(formdata=None, data=rule_data(rules), meta={"csrf": False})
             for rules in (own, other)]
    return [Changed(str(forms[0][name].label.text), shown_value(forms[0][name]),
                    shown_value(forms[1][name]))
            for name in RULE_FIELDS if getattr(own, name) != getattr(other, name)]


def compared(result: WhatIf[str], players: list[Player]) -> list[Compared]:
    """Each player of the session, in the order given."""
    return [Compared(p, result.played.get(p.name, 0), result.would_be.get(p.name, 0))
            for p in players]


def refused_lines(result: WhatIf[str]) -> list[str]:
    """Why each round the other rules refuse can't be scored, in words."""
    return [_("Round %(number)d can't be scored under these rules: %(problems)s",
              number=r.number, problems=joined(r.problems)) for r in result.refused]


def round_lines(result: WhatIf[str], players: list[Player]) -> list[RoundLine]:
    lines = []
    for replayed in result.rounds:
        money = replayed.money
        cells: list[tuple[int, int | None] | None] = [
            (replayed.played[p.name], None if money is None else money[p.name])
            if p.name in replayed.played else None for p in players]
        lines.append(RoundLine(replayed.number, cells, money is None))
    return lines


def amounts(rows: list[Compared], lines: list[RoundLine]) -> list[int]:
    """Every amount the page shows, for all_whole."""
    shown = [cents for row in rows for cents in (row.played, row.would_be, row.difference)]
    shown += [cents for line in lines for cell in line.cells if cell
              for cents in cell if cents is not None]
    return shown
