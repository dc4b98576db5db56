"""Draw the app's icons (static/icons/*.png) from one SVG with Debian's Chromium.

Run from the checkout when the design changes: `.venv/bin/python docs/icons.py`.
Two fanned cards, a black spade and a red heart, on the felt green of app.css.
The "any" icons are rounded squares on a clear ground; the maskable ones fill
their square, with the cards inside the central circle that every launcher's
mask keeps (80% of the width). Chromium and Safari (15.4 and later) take them
from the manifest.
"""

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
FELT, INK, RED = "#0b5d3b", "#111111", "#b00020"

# Drawn on a 100-unit square, the fan centred.
SPADE = ("M0 -30 C12 -16 26 -8 26 4 A12 12 0 0 1 5 11 L10 26 L-10 26 L-5 11 "
         "A12 12 0 0 1 -26 4 C-26 -8 -12 -16 0 -30 Z")
HEART = ("M0 26 C-14 14 -27 4 -27 -8 A13 13 0 0 1 0 -16 A13 13 0 0 1 27 -8 "
         "C27 4 14 14 0 26 Z")


def card(angle: int, dx: int, pip: str, colour: str, pip_dx: int) -> str:
    return (f'<g transform="translate({50 + dx} 52) rotate({angle})">'
            f'<rect x="-19" y="-26" width="38" height="52" rx="5" fill="#fff" '
            f'stroke="{FELT}" stroke-width="1.2"/>'
            f'<path d="{pip}" fill="{colour}" transform="translate({pip_dx} -3) scale(0.4)"/>'
            f'</g>')


def svg(scale: float, rounded: bool) -> str:
    corner = 18 if rounded else 0
    # The spade sits left on the card behind, clear of the one in front.
    fan = card(-14, -12, SPADE, INK, -7) + card(10, 11, HEART, RED, 0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<rect width="100" height="100" rx="{corner}" fill="{FELT}"/>'
            f'<g transform="translate(50 50) scale({scale}) translate(-50 -50)">{fan}</g>'
            f'</svg>')


# name: (pixels, scale of the fan, rounded corners on a clear ground)
ICON_SET = {
    "icon-192": (192, 1.2, True),
    "icon-512": (512, 1.2, True),
    "maskable-192": (192, 0.85, False),
    "maskable-512": (512, 0.85, False),
}


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--no-sandbox"])
        for name, (size, scale, rounded) in ICON_SET.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content('<body style="margin:0">'
                             f'<div style="width:{size}px;height:{size}px">{svg(scale, rounded)}'
                             '</div></body>')
            page.locator("svg").evaluate("s => { s.style.width = s.style.height = '100%'; }")
            page.screenshot(path=str(ICONS / f"{name}.png"), omit_background=rounded)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
