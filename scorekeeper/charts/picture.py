"""The session as a picture for the group chat: the day, the places with each
player's money, who pays whom and the money chart, as a PNG 1080 pixels wide
(what chat apps show whole). The words come in the reader's language from the
page; the colours are the light theme's (a picture has no stylesheet)."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .fonts import font
from .scales import Scale, nice_ticks, sample, spread_labels
from .svg import POINTS_AT_MOST, Line

WIDTH = 1080
PAD = 60
INK, MUTED, PAPER, LINE = "#111111", "#3d3d3d", "#ffffff", "#c8c8c8"
GAIN, LOSS = "#0b5d3b", "#b00020"
# A colour a player (the picture's lines are told apart by colour and by the
# name at their end).
PALETTE = ("#0b5d3b", "#b00020", "#1a4fd6", "#a86400", "#6a1b9a", "#111111")


@dataclass(frozen=True)
class Row:
    """A place: "1.", the name, the amount as written ("+RM 12.00"), its sign."""

    place: str
    name: str
    amount: str
    sign: int


@dataclass(frozen=True)
class Sheet:
    """Everything the picture says, in the reader's language."""

    title: str  # "Rummy on Sat 28 Nov 2026"
    subtitle: str  # the group, final or so far
    places_title: str
    places: Sequence[Row]
    transfers_title: str
    transfers: Sequence[str]  # sentences ("Ann pays Ben RM 5.00"), or the one "Nobody owes…"
    chart_title: str
    lines: Sequence[Line]
    tick: Callable[[int], str]


CHART_HEIGHT = 520


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    """The text cut short with "…" to fit ``width`` pixels."""
    face = font(size)
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


# Punctuation a line does not start with: it goes down with the character before it.
CLOSING = set("）)」』》〉】，。、：；！？,.:;!?")


def wrapped(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> list[str]:
    """The text in lines that fit ``width`` pixels, broken between words; a
    word longer than a line (as Chinese is written) between characters."""
    face = font(size)

    def fits(line: str) -> bool:
        return draw.textlength(line, font=face) <= width

    lines = [""]
    for word in text.split(" "):
        joined = f"{lines[-1]} {word}" if lines[-1] else word
        if fits(joined):
            lines[-1] = joined
            continue
        if fits(word):
            lines.append(word)
            continue
        if lines[-1]:
            lines[-1] += " "
        for character in word:
            if fits(lines[-1] + character):
                lines[-1] += character
            elif character in CLOSING and len(lines[-1].rstrip()) > 1:
                lines[-1], carried = lines[-1][:-1], lines[-1][-1]
                lines.append(carried + character)
            else:
                lines.append(character)
    return [line.rstrip() for line in lines]


TITLE_LINES_AT_MOST = 3


def draw_sheet(sheet: Sheet) -> Image.Image:
    right = WIDTH - PAD
    title = wrapped(ImageDraw.Draw(Image.new("1", (1, 1))), sheet.title, 52,
                    right - PAD)[:TITLE_LINES_AT_MOST]
    height = (PAD + 66 * len(title) + 50 + 40 + 64 + 60 * len(sheet.places) + 40 + 64
              + 52 * len(sheet.transfers) + 40 + 64 + CHART_HEIGHT + PAD)
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    y = PAD
    for line in title:
        draw.text((PAD, y), line, font=font(52), fill=INK)
        y += 66
    draw.text((PAD, y), _fit(draw, sheet.subtitle, 34, right - PAD), font=font(34), fill=MUTED)
    y += 50 + 40
    draw.text((PAD, y), sheet.places_title, font=font(40), fill=INK)
    y += 64
    for row in sheet.places:
        amount = font(38)
        draw.text((PAD, y), row.place, font=font(38), fill=MUTED)
        width = draw.textlength(row.amount, font=amount)
        name = _fit(draw, row.name, 38, int(right - PAD - 90 - width - 30))
        draw.text((PAD + 90, y), name, font=font(38), fill=INK)
        draw.text((right - width, y), row.amount, font=amount,
                  fill=GAIN if row.sign > 0 else LOSS if row.sign < 0 else INK)
        y += 60
    y += 40
    draw.text((PAD, y), sheet.transfers_title, font=font(40), fill=INK)
    y += 64
    for line in sheet.transfers:
        draw.text((PAD, y), _fit(draw, line, 34, right - PAD), font=font(34), fill=INK)
        y += 52
    y += 40
    draw.text((PAD, y), sheet.chart_title, font=font(40), fill=INK)
    y += 64
    _chart(draw, sheet, (PAD, y, right, y + CHART_HEIGHT))
    return image


def _chart(draw: ImageDraw.ImageDraw, sheet: Sheet, box: tuple[int, int, int, int]) -> None:
    """The running money: a grid with its values, a line a player, names at the ends."""
    left, top, right, bottom = box
    rounds = max((len(line.values) for line in sheet.lines), default=0)
    values = [0, *(v for line in sheet.lines for v in line.values)]
    ticks = nice_ticks(min(values), max(values))
    small = font(28)
    plot_left = left + max(int(draw.textlength(sheet.tick(t), font=small)) for t in ticks) + 16
    plot_right = right - 190
    plot_bottom = bottom - 44
    y = Scale(ticks[0], ticks[-1], plot_bottom, top + 14)
    x = Scale(0, max(rounds, 1), plot_left, plot_right)
    for t in ticks:
        draw.line((plot_left, y(t), plot_right, y(t)), fill=INK if t == 0 else LINE,
                  width=3 if t == 0 else 1)
        draw.text((plot_left - 12, y(t)), sheet.tick(t), font=small, fill=MUTED, anchor="rm")
    for r in [t for t in nice_ticks(0, max(rounds, 1), 5) if 0 < t <= rounds]:
        draw.text((x(r), bottom), str(r), font=small, fill=MUTED, anchor="md")
    kept = sample(rounds + 1, POINTS_AT_MOST * 3)
    ends = []
    for i, line in enumerate(sheet.lines):
        series = [0, *line.values]
        points = [(x(r), y(series[r])) for r in kept if r < len(series)]
        colour = PALETTE[i % len(PALETTE)]
        draw.line(points, fill=colour, width=6, joint="curve")
        ends.append((points[-1], colour, line.name))
    places = spread_labels([end[0][1] for end in ends], 34, top + 14, plot_bottom)
    for ((ex, ey), colour, name), ly in zip(ends, places, strict=True):
        draw.ellipse((ex - 7, ey - 7, ex + 7, ey + 7), fill=colour)
        draw.text((plot_right + 16, ly), _fit(draw, name, 30, right - plot_right - 16),
                  font=font(30), fill=colour, anchor="lm")


def png(sheet: Sheet) -> bytes:
    out = io.BytesIO()
    draw_sheet(sheet).save(out, "PNG", optimize=True)
    return out.getvalue()
