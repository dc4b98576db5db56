"""The charts as SVG markup, drawn on the server: whole-number coordinates,
one path a line (relative steps), colours and dashes from the page's
stylesheet (classes and currentColor: static/css/charts.css), names escaped.
No Flask: the page passes its words and its links in."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup

from .scales import Scale, nice_ticks, sample, spread_labels

WIDTH = 360  # viewBox units: about a pixel each on a phone 360 px wide
HEIGHT = 220
LEFT, RIGHT, TOP, BOTTOM = 46, 74, 10, 22  # the plot's margins: tick labels, names
POINTS_AT_MOST = 81  # a line's points: a 400-round session is drawn from 81 of them
TARGETS_AT_MOST = 30  # a chart's round links: a band of rounds each beyond that
NAME_FITS = 9  # characters of a name at a line's end
ISOLATES = dict.fromkeys(range(0x2066, 0x206A))  # LRI, RLI, FSI, PDI
STYLES = 6  # .chart-s0 … .chart-s5: a colour and a dash pattern each


@dataclass(frozen=True)
class Line:
    """A player's running figure after each round (the first, round 1's)."""

    name: str
    values: Sequence[int]
    marked: bool = False  # this phone's player: drawn thicker, named in bold, a dot at its end


@dataclass(frozen=True)
class Words:
    """What the chart says: its title and summary (read by a screen reader),
    and how an axis value reads ("12", "−4.50")."""

    title: str
    summary: str
    tick: Callable[[int], str]


def short(name: str) -> str:
    """A name as a line's end shows it: cut to fit, and isolated (FSI…PDI,
    any isolate of its own left out) so that no character in it turns the
    text after it around."""
    name = name.translate(ISOLATES)
    return "\u2068" + (name if len(name) <= NAME_FITS else name[:NAME_FITS - 1] + "…") + "\u2069"


def _steps(points: Sequence[tuple[int, int]]) -> str:
    """A path through the points: a move, then relative lines ("l4-3 4 2")."""
    (x, y), rest = points[0], points[1:]
    parts = [f"M{x} {y}"]
    steps = []
    for nx, ny in rest:
        dx, dy = nx - x, ny - y
        steps.append(f"{dx}{'' if dy < 0 else ' '}{dy}")
        x, y = nx, ny
    if steps:
        parts.append("l" + " ".join(steps).replace(" -", "-"))
    return "".join(parts)


def _frame(ident: str, words: Words, body: list[str], height: int = HEIGHT) -> Markup:
    head = Markup(
        '<svg class="chart" id="{0}" viewBox="0 0 {1} {2}" role="img" '
        'aria-labelledby="{0}-title" aria-describedby="{0}-desc">'
        '<title id="{0}-title">{3}</title><desc id="{0}-desc">{4}</desc>'
    ).format(ident, WIDTH, height, words.title, words.summary)
    return head + Markup("".join(body)) + Markup("</svg>")


def _y_axis(ticks: Sequence[int], y: Scale, right: int, words: Words) -> list[str]:
    grid = "".join(f"M{LEFT} {y(t)}H{right}" for t in ticks)
    body = [f'<path class="chart-grid" d="{grid}"/>']
    if ticks[0] < 0 < ticks[-1]:
        body.append(f'<path class="chart-zero" d="M{LEFT} {y(0)}H{right}"/>')
    body += [str(Markup('<text class="chart-tick chart-y" x="{}" y="{}">{}</text>')
                 .format(LEFT - 4, y(t) + 4, words.tick(t))) for t in ticks]
    return body


def line_chart(ident: str, lines: Sequence[Line], words: Words,
               href: Callable[[int], str] | None = None) -> Markup:
    """Each line from 0 before the first round, round by round; its name at
    its end. ``href``, the page of round n: a tap on the chart's column of a
    round opens it (invisible targets over the chart, hidden from screen
    readers and the tab order, which have the rounds table's own links)."""
    rounds = max((len(line.values) for line in lines), default=0)
    values = [0, *(v for line in lines for v in line.values)]
    ticks = nice_ticks(min(values), max(values))
    right = WIDTH - RIGHT
    x = Scale(0, max(rounds, 1), LEFT, right)
    y = Scale(ticks[0], ticks[-1], HEIGHT - BOTTOM, TOP)
    body = _y_axis(ticks, y, right, words)
    for r in [t for t in nice_ticks(0, max(rounds, 1), 5) if 0 < t <= rounds]:
        body.append(f'<text class="chart-tick chart-x" x="{x(r)}" y="{HEIGHT - 6}">{r}</text>')
    kept = sample(rounds + 1, POINTS_AT_MOST)
    ends = []
    for i, line in enumerate(lines):
        series = [0, *line.values]
        points = [(x(r), y(series[r])) for r in kept if r < len(series)]
        style = f"chart-s{i % STYLES}{' chart-me' if line.marked else ''}"
        body.append(f'<path class="chart-line {style}" d="{_steps(points)}"/>')
        ends.append((points[-1], style, line))
    places = spread_labels([end[0][1] + 4 for end in ends], 12, TOP + 8, HEIGHT - BOTTOM)
    for ((ex, ey), style, line), ly in zip(ends, places, strict=True):
        if line.marked:
            body.append(f'<circle class="{style}" cx="{ex}" cy="{ey}" r="4"/>')
        body.append(str(Markup('<text class="chart-label {}" x="{}" y="{}">{}</text>')
                        .format(style, right + 6, ly, short(line.name))))
    chart = _frame(ident, words, body)
    if href is None or not rounds:
        return chart
    # The links lie over the image, not in it: an image's parts are not controls.
    return Markup('<div class="chart-frame">') + chart + _targets(rounds, x, href) + Markup(
        "</div>")


def _targets(rounds: int, x: Scale, href: Callable[[int], str]) -> Markup:
    """A column a round (a band of rounds past TARGETS_AT_MOST), each a link
    to its middle round, in an SVG of their own to lie over the chart's."""
    bands = min(rounds, TARGETS_AT_MOST)
    edges = [1 + i * rounds // bands for i in range(bands + 1)]  # each band's first round
    parts = [f'<svg class="chart-hits" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true">']
    for first, last in itertools.pairwise(edges):
        left, width = x(first - 0.5), x(last - 0.5) - x(first - 0.5)
        middle = (first + last - 1) // 2
        parts.append(str(Markup(
            '<a href="{}" tabindex="-1"><rect x="{}" width="{}" height="{}"/></a>'
        ).format(href(middle), left, width, HEIGHT - BOTTOM)))
    parts.append("</svg>")
    return Markup("".join(parts))


@dataclass(frozen=True)
class Bar:
    """A bar: its value, and the label under it (or "" for none)."""

    value: int
    label: str = ""


def bar_chart(ident: str, bars: Sequence[Bar], words: Words, height: int = 180,
              up: str = "chart-gain") -> Markup:
    """Bars up from zero (class ``up``: gains, or counts), down for losses
    (one path each kind), the labels given under them."""
    values = [0, *(bar.value for bar in bars)]
    ticks = nice_ticks(min(values), max(values))
    right = WIDTH - 8
    y = Scale(ticks[0], ticks[-1], height - BOTTOM, TOP)
    body = _y_axis(ticks, y, right, words)
    x = Scale(0, max(len(bars), 1), LEFT + 2, right)
    rising: list[str] = []
    down: list[str] = []
    zero = y(0)
    for i, bar in enumerate(bars):
        left, width = x(i), max(x(i + 1) - x(i) - 1, 1)
        if bar.value:
            top = y(bar.value)
            (rising if bar.value > 0 else down).append(f"M{left} {zero}V{top}h{width}V{zero}z")
        if bar.label:
            body.append(str(Markup('<text class="chart-tick chart-bar-label" x="{}" y="{}">{}'
                                   '</text>').format(left, height - 6, bar.label)))
    for kind, paths in ((up, rising), ("chart-loss", down)):
        if paths:
            body.append(f'<path class="{kind}" d="{"".join(paths)}"/>')
    return _frame(ident, words, body, height)
