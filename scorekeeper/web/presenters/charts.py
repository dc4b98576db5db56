"""The charts as the pages show them, in the reader's language: a session's
money round by round (the scoreboard, a session in history), a player's money
by month and points left per round; each with the words a screen reader reads
and the figures for the table beside it (scorekeeper/charts draws them)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from babel import Locale
from babel.dates import format_skeleton
from flask import url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from ... import queries
from ...charts import Bar, Line, Words, bar_chart, line_chart, nice_step
from ...models import GameSession, Player
from ...queries import Month
from ..filters import isolated, money, signed_priced
from ..locales import formatting


def tick(cents: int) -> str:
    """A money axis's value: whole units where they are ("−500", "12.50")."""
    return money(cents, whole=True)


@dataclass(frozen=True)
class Course:
    """A player's line, in figures: their money now, highest and lowest, each
    with its round (the first round it was reached)."""

    name: str
    marked: bool
    now: int
    high: int
    high_round: int
    low: int
    low_round: int


@dataclass(frozen=True)
class SessionChart:
    svg: Markup
    rounds: int
    courses: list[Course]
    points: bool  # it charts points (else money)


def courses(names: Sequence[str], series: Sequence[Sequence[int]],
            marked: int | None = None) -> list[Course]:
    found = []
    for i, (name, values) in enumerate(zip(names, series, strict=True)):
        high, low = max(values), min(values)
        found.append(Course(name, i == marked, values[-1], high, values.index(high) + 1,
                            low, values.index(low) + 1))
    return found


def session_chart(names: Sequence[str], series: Sequence[Sequence[int]], currency: str,
                  marked: int | None = None, href: Callable[[int], str] | None = None,
                  points: bool = False) -> SessionChart | None:
    """The chart of a session with rounds (None before the first): ``names``
    and ``series`` (queries.running_totals) in the same order, money or, with
    ``points`` (a session played for points only), points; the line of
    ``marked`` (an index) drawn as this phone's player's."""
    rounds = max((len(values) for values in series), default=0)
    if not rounds:
        return None
    found = courses(names, series, marked)
    if points:
        title = _("Each player's points, round by round")
        line = _("%(player)s: %(now)s points after round %(last)s; highest %(high)s (round "
                 "%(high_round)s), lowest %(low)s (round %(low_round)s).")
        figure: Callable[[int], str] = str
        axis: Callable[[int], str] = str
    else:
        title = _("Each player's money, round by round")
        line = _("%(player)s: %(now)s after round %(last)s; highest %(high)s (round "
                 "%(high_round)s), lowest %(low)s (round %(low_round)s).")
        def figure(cents: int) -> str:
            return signed_priced(cents, currency)
        axis = tick
    said = [line % {"player": isolated(c.name), "now": figure(c.now), "last": rounds,
                    "high": figure(c.high), "high_round": c.high_round,
                    "low": figure(c.low), "low_round": c.low_round} for c in found]
    lines = [Line(name, values, i == marked)
             for i, (name, values) in enumerate(zip(names, series, strict=True))]
    return SessionChart(line_chart("money-chart", lines, Words(title, " ".join(said), axis),
                                   href), rounds, found, points)


def game_chart(game: GameSession, players: Sequence[Player], rounds: int, points: bool,
               me: int | None = None,
               href: Callable[[int], str] | None = None) -> SessionChart | None:
    """The chart of ``game`` (of ``rounds`` rounds) with ``players`` in their
    order: its points (``points``) or its money round by round, ``me``'s
    line marked (a player id), a tap on a round opening ``href(number)``;
    None before its first round, with no statement."""
    ids = [player.id for player in players]
    series = queries.running_totals(game.id, ids, points=points) if rounds else []
    return session_chart([player.name for player in players], series, game.currency,
                         ids.index(me) if me in ids else None, href, points=points)


def month_name(month: Month) -> str:
    return _month_name(month.year, month.month, formatting())


@functools.lru_cache(maxsize=4096)
def _month_name(year: int, month: int, locale: Locale) -> str:
    """Kept: a player's page names every month of their years, and Babel
    works out the skeleton's pattern again for each."""
    return format_skeleton("yMMM", date(year, month, 1), locale=locale)


def points_asked(game: GameSession, args: Mapping[str, str]) -> bool:
    """Whether a session's page charts its points: a session played for
    them, or one for money whose page asks (``?chart=points``)."""
    return queries.by_points(game) or args.get("chart") == "points"


def chart_switch(game: GameSession, args: Mapping[str, str], endpoint: str,
                 **values: Any) -> str | None:
    """The page (``endpoint``) with the other of a money session's charts;
    None for a session played for points, which has only its points."""
    if queries.by_points(game):
        return None
    other = "money" if points_asked(game, args) else "points"
    return url_for(endpoint, chart=other, _anchor="chart-title", **values)


YEAR_LABELS_AT_MOST = 6


def months_chart(months: Sequence[Month], currency: str) -> Markup | None:
    """Bars a month from the player's first to their last (none where they
    did not play), the years under them."""
    if not months:
        return None
    first, last = months[0], months[-1]
    span = (last.year - first.year) * 12 + last.month - first.month + 1
    cents = {(m.year, m.month): m.cents for m in months}
    every = max(1, -(-(last.year - first.year + 1) // YEAR_LABELS_AT_MOST))
    bars = []
    for i in range(span):
        year, month = first.year + (first.month - 1 + i) // 12, (first.month - 1 + i) % 12 + 1
        labelled = (i == 0 or month == 1) and (year - first.year) % every == 0
        bars.append(Bar(cents.get((year, month), 0), str(year) if labelled else ""))
    up = sum(m.cents > 0 for m in months)
    down = sum(m.cents < 0 for m in months)
    summary = ngettext(
        "%(num)s month played from %(first)s to %(last)s in %(currency)s: %(up)s ended up, "
        "%(down)s down, %(total)s in all.",
        "%(num)s months played from %(first)s to %(last)s in %(currency)s: %(up)s ended up, "
        "%(down)s down, %(total)s in all.", len(months),
        first=month_name(first), last=month_name(last), currency=currency, up=up, down=down,
        total=signed_priced(sum(m.cents for m in months), currency))
    return bar_chart("months-chart", bars, Words(_("Money by month"), summary, tick))


@dataclass(frozen=True)
class Bin:
    low: int
    high: int
    rounds: int


BINS_AT_MOST = 10


def points_bins(spread: dict[int, int]) -> list[Bin]:
    """The rounds by points left, in equal bins of round widths from 0."""
    if not spread:
        return []
    width = nice_step(max(spread) + 1, BINS_AT_MOST)
    bins = [Bin(low, low + width - 1, 0) for low in range(0, max(spread) + 1, width)]
    counts = [0] * len(bins)
    for points, rounds in spread.items():
        counts[points // width] += rounds
    return [Bin(b.low, b.high, n) for b, n in zip(bins, counts, strict=True)]


def points_chart(bins: Sequence[Bin]) -> Markup | None:
    if not bins:
        return None
    most = max(bins, key=lambda b: b.rounds)
    summary = ngettext("%(num)s round: most often %(low)s to %(high)s points left "
                       "(%(count)s of them).",
                       "%(num)s rounds: most often %(low)s to %(high)s points left "
                       "(%(count)s of them).", sum(b.rounds for b in bins),
                       low=most.low, high=most.high, count=most.rounds)
    bars = [Bar(b.rounds, str(b.low) if i % (1 + len(bins) // 7) == 0 else "")
            for i, b in enumerate(bins)]
    return bar_chart("points-chart", bars,
                     Words(_("Points left per round"), summary, str), up="chart-count")
