"""Charts drawn on the server: SVG for the pages (svg.py) and the session's
picture as a PNG (picture.py), from figures the queries give (queries/charts.py).
No Flask, no database: words, links and figures are passed in."""

from .scales import Scale, nice_step, nice_ticks, sample, spread_labels
from .svg import Bar, Line, Words, bar_chart, line_chart

__all__ = ["Bar", "Line", "Scale", "Words", "bar_chart", "line_chart", "nice_step",
           "nice_ticks", "sample", "spread_labels"]
