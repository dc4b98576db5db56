"""The session's picture (scorekeeper/charts/picture.py): a PNG 1080 wide,
its names drawn in a font that has them (Chinese included)."""

import io

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from scorekeeper.charts import Line
from scorekeeper.charts.fonts import font, font_path
from scorekeeper.charts.picture import CLOSING, WIDTH, Row, Sheet, png, wrapped


def drawn(text: str) -> Image.Image:
    image = Image.new("L", (200, 80), 255)
    ImageDraw.Draw(image).text((10, 10), text, font=font(48), fill=0)
    return image


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def test_the_font_draws_chinese_and_malay_names():
    assert font_path() is not None  # fonts-wqy-microhei (README, set-up; .ci/run)
    missing = drawn("\U000f0001")  # a private-use codepoint: no font has it, its box is drawn
    for name in ("陈", "美", "玲"):
        glyph = drawn(name)
        assert glyph.getbbox() is not None and not same(glyph, missing), name
    assert not same(drawn("陈"), drawn("美"))  # each its own glyph, not one box for all
    assert not same(drawn("Ŝ"), missing) and not same(drawn("ž"), missing)


def sheet(players: int, transfers: int) -> Sheet:
    names = ["陈美玲", "Siti Nurhaliza binti Abdullah", "Ann", "Ben", "Чен", "Dan"][:players]
    return Sheet(
        "Friday table: rummy on Sat 28 Nov 2026 (final)", "40 rounds", "Final places",
        [Row(f"{i + 1}.", name, f"+RM {i}.00", 1 - i) for i, name in enumerate(names)],
        "Who pays whom", [f"Ann pays 陈美玲 RM {i}.00" for i in range(transfers)] or ["None"],
        "Money round by round",
        [Line(name, [(i - 2) * r * 10 for r in range(1, 41)]) for i, name in enumerate(names)],
        str)


def test_a_picture_is_a_png_sized_for_a_chat():
    small, large = (Image.open(io.BytesIO(png(sheet(n, n - 1)))) for n in (2, 6))
    assert small.format == large.format == "PNG"
    assert small.width == large.width == WIDTH
    assert 900 < small.height < large.height < 2200


@given(st.lists(st.text(st.sampled_from("ab陈美玲Ŝž"), min_size=1, max_size=40), min_size=1,
                max_size=12))
def test_a_long_title_wraps_between_words_or_characters_and_keeps_them_all(words):
    text = " ".join(words)
    draw = ImageDraw.Draw(Image.new("1", (1, 1)))
    lines = wrapped(draw, text, 52, 400)
    assert all(draw.textlength(line, font=font(52)) <= 400 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    if all(draw.textlength(word, font=font(52)) <= 400 for word in words):
        assert " ".join(lines) == text


def test_a_chinese_title_fills_its_lines_and_starts_none_with_closing_punctuation():
    draw = ImageDraw.Draw(Image.new("1", (1, 1)))
    title = "Friday table：2026年11月6日周五的牌局（最终）"
    lines = wrapped(draw, title, 52, 960)
    assert lines[0].startswith("Friday table：2026") and len(lines) == 2
    assert not any(line[0] in CLOSING for line in lines)
    assert "".join(lines).replace(" ", "") == title.replace(" ", "")
