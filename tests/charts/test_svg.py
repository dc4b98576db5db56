"""The charts' SVG (scorekeeper/charts/svg.py): well formed, names escaped,
whole-number coordinates, colours from the stylesheet alone, and light."""

import itertools
import random
import re
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.charts import Bar, Line, Words, bar_chart, line_chart
from scorekeeper.charts.svg import TARGETS_AT_MOST

NS = {"svg": "http://www.w3.org/2000/svg"}
WORDS = Words("Money", "Ann ends up.", lambda cents: str(cents // 100))


def parse(markup) -> ET.Element:
    """The chart's <svg>; with round links, the <div> holding it and theirs."""
    # The page's SVG has no xmlns (HTML gives it one): parsed alone, it gets one here.
    return ET.fromstring(str(markup).replace("<svg ", f'<svg xmlns="{NS["svg"]}" '))


def walk(values) -> list[int]:
    total, out = 0, []
    for v in values:
        total += v
        out.append(total)
    return out


def session(rng: random.Random, players: int, rounds: int) -> list[Line]:
    return [Line(f"Player {i}", walk(rng.randint(-3000, 3000) for _ in range(rounds)), i == 1)
            for i in range(players)]


def href(n: int) -> str:
    return f"/sessions/12/rounds/{n}"


def test_a_400_round_session_of_six_adds_a_few_kb():
    svg = line_chart("money-chart", session(random.Random(4), 6, 400), WORDS, href)
    assert len(str(svg).encode()) <= 7_000
    tree = parse(svg)
    assert tree.tag == "div" and tree.get("class") == "chart-frame"
    chart, hits = tree
    assert chart.get("role") == "img" and hits.get("aria-hidden") == "true"
    assert chart.findall(".//svg:a", NS) == []  # an image holds no controls: they lie over it
    lines = [p for p in tree.iter("{http://www.w3.org/2000/svg}path")
             if "chart-line" in p.get("class")]
    assert len(lines) == 6  # one path a player
    assert len(tree.findall(".//svg:a", NS)) == TARGETS_AT_MOST


def test_names_are_escaped_and_labelled_at_the_lines_ends():
    lines = [Line('<script>alert("x")</script>', [100, 200]),
             Line("陈美玲 & Sue", [-100, 50], True)]
    words = Words('Money <b>"', 'A & B <i>', str)
    svg = str(line_chart("c", lines, words))
    assert "<script>" not in svg and "<b>" not in svg and "<i>" not in svg
    tree = parse(svg)
    labels = [t.text for t in tree.iter("{http://www.w3.org/2000/svg}text")
              if "chart-label" in t.get("class")]
    # Each isolated (FSI…PDI): nothing in a name turns the text after it around.
    assert labels == ["\u2068<script>…\u2069", "\u2068陈美玲 & Sue\u2069"]
    assert tree.find("svg:title", NS).text == 'Money <b>"'
    assert tree.find("svg:desc", NS).text == "A & B <i>"
    assert tree.get("role") == "img" and tree.get("aria-labelledby") == "c-title"
    assert tree.get("aria-describedby") == "c-desc"
    marked = [e.get("class") for e in tree.iter() if "chart-me" in (e.get("class") or "")]
    # This phone's player's line: thicker (its class), its name in bold and a dot at its end.
    assert marked == ["chart-line chart-s1 chart-me", "chart-s1 chart-me",
                      "chart-label chart-s1 chart-me"]


@given(st.lists(st.lists(st.integers(-10**7, 10**7), min_size=1, max_size=60),
                min_size=1, max_size=6))
def test_coordinates_are_whole_and_colours_come_from_the_stylesheet(series):
    rounds = max(map(len, series))
    lines = [Line(f"P{i}", values + [values[-1]] * (rounds - len(values)))
             for i, values in enumerate(series)]
    svg = str(line_chart("c", lines, WORDS, href))
    for d in re.findall(r' d="([^"]*)"', svg):
        assert re.fullmatch(r"[MlHVhvz0-9 \-]+", d), d
    for attribute in ("x", "y", "width", "height", "cx", "cy"):
        for value in re.findall(rf' {attribute}="([^"]*)"', svg):
            assert re.fullmatch(r"-?\d+", value)
    assert not re.search(r"(fill|stroke|style|color)=", svg)
    assert "#" not in svg.replace("&#", "")


@given(st.integers(1, 500))
def test_every_round_opens_from_its_column(rounds):
    svg = line_chart("c", [Line("A", list(range(rounds)))], WORDS, href)
    tree = parse(svg)
    links = tree.findall(".//svg:a", NS)
    opened = [int(a.get("href").rsplit("/", 1)[1]) for a in links]
    assert len(links) == min(rounds, TARGETS_AT_MOST)
    assert opened == sorted(set(opened)) and opened[0] >= 1 and opened[-1] <= rounds
    rects = [(int(r.get("x")), int(r.get("width"))) for r in tree.iter(
        "{http://www.w3.org/2000/svg}rect")]
    # The columns tile the plot, left to right, with no gap.
    assert all(x + width == next_x for (x, width), (next_x, _) in itertools.pairwise(rects))
    assert tree[1].get("class") == "chart-hits" and tree[1].get("aria-hidden") == "true"
    assert all(a.get("tabindex") == "-1" for a in links)
    if rounds <= TARGETS_AT_MOST:
        assert opened == list(range(1, rounds + 1))


def test_bars_go_up_for_gains_and_down_for_losses():
    bars = [Bar(500, "2025"), Bar(0), Bar(-250), Bar(1000, "2026")]
    tree = parse(bar_chart("m", bars, WORDS))
    paths = {p.get("class"): p.get("d") for p in tree.iter("{http://www.w3.org/2000/svg}path")}
    assert paths["chart-gain"].count("M") == 2 and paths["chart-loss"].count("M") == 1
    zero = int(re.search(r"M\d+ (\d+)", paths["chart-loss"])[1])
    assert all(int(top) < zero for top in re.findall(r"V(\d+)h", paths["chart-gain"]))
    assert all(int(bottom) > zero for bottom in re.findall(r"V(\d+)h", paths["chart-loss"]))
    labels = [t.text for t in tree.iter("{http://www.w3.org/2000/svg}text")
              if "chart-bar-label" in t.get("class")]
    assert labels == ["2025", "2026"]
