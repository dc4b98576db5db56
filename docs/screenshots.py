"""Take the README's pictures (docs/screenshots/*.png) with Debian's Chromium at
phone size (390×844), on an app of their own in a new SQLite file.

Run by hand from the checkout when a page changes, then look at the pictures
before committing them:

    .venv/bin/python docs/screenshots.py            # every picture the README shows
    .venv/bin/python docs/screenshots.py settle     # only those whose names hold "settle"

The scenes drive the app as the browser tests do, with their helpers; the
pictures are the README's, and nothing else: the script stops if the README
shows a picture no scene takes, or a scene takes one the README does not show.
"""

from __future__ import annotations

import logging
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: docs/ is on the path, not the root

from camera import PICTURES, Camera  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from scenes_evening import (  # noqa: E402
    a_form_told_of_a_change,
    a_round_together,
    an_evening,
    getting_in,
    group_pages,
    offline_pages,
    playing_and_the_rules,
    this_phone_and_last_time,
)
from scenes_more import (  # noqa: E402
    in_chinese,
    in_malay,
    in_the_dark,
    languages,
    paying_by_qr,
    records_and_pictures,
    the_table_screen,
)

from tests.conftest import fresh_app  # noqa: E402
from tests.e2e.conftest import CHROMIUM  # noqa: E402
from tests.web.phones import serving  # noqa: E402


def shown_in_readme() -> set[str]:
    readme = (ROOT / "README.md").read_text()
    return set(re.findall(r"\(docs/screenshots/([\w-]+)\.png\)", readme))


SCENES = [an_evening, group_pages, getting_in, this_phone_and_last_time, a_form_told_of_a_change,
          a_round_together, offline_pages, playing_and_the_rules, languages, in_malay, in_chinese,
          in_the_dark, the_table_screen, paying_by_qr, records_and_pictures]
# What each scene takes, so that a run for one picture plays only its scene.
TAKES = {
    an_evening: {"new-group", "invite", "new-session", "round-entry", "round-result",
                 "scoreboard", "settle", "night", "history", "history-session", "player", "home"},
    group_pages: {"group", "changes", "share-links", "shared-scoreboard", "house-rules", "money",
                  "settle-part", "what-if", "how-we-play"},
    getting_in: {"invite-join", "invite-gone"},
    this_phone_and_last_time: {"this-phone", "new-session-as-last-time"},
    a_form_told_of_a_change: {"live-form-notice"},
    a_round_together: {"together-board", "together-ben", "together-ann", "together-conflict",
                       "together-saved-elsewhere", "round-same-hands", "together-round-saved"},
    offline_pages: {"offline-scoreboard", "offline-page", "offline-round-form",
                    "offline-rounds-waiting", "offline-round-conflict"},
    playing_and_the_rules: {"home-playing", "already-playing", "rules"},
    languages: {"languages-ms", "languages-zh"},
    in_malay: {"ms-home", "ms-scoreboard", "ms-round-entry", "ms-settle"},
    in_chinese: {"zh-home", "zh-scoreboard", "zh-round-entry", "zh-settle"},
    in_the_dark: {"dark-home", "dark-scoreboard", "dark-round-entry", "dark-settle"},
    the_table_screen: {"table-screen", "table-screen-dark"},
    paying_by_qr: {"settle-qr-pay", "settle-qr-collect", "payment-details"},
    records_and_pictures: {"leaderboard", "head-to-head", "player-charts", "session-chart",
                           "result-picture"},
}


def main(argv: list[str]) -> int:
    every = set().union(*TAKES.values())
    if every != shown_in_readme():
        print("The README shows other pictures than the scenes take: "
              f"not taken {sorted(shown_in_readme() - every)}, "
              f"not shown {sorted(every - shown_in_readme())}", file=sys.stderr)
        return 1
    wanted = (lambda name: any(word in name for word in argv)) if argv else (lambda name: True)
    PICTURES.mkdir(parents=True, exist_ok=True)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line a request
    with tempfile.TemporaryDirectory(prefix="scorekeeper-screenshots-") as folder, \
            fresh_app(Path(folder)) as app, serving(app) as port, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-sync"])
        camera = Camera(app, browser, f"http://127.0.0.1:{port}", wanted)
        for scene in SCENES:
            if any(wanted(name) for name in TAKES[scene]):
                scene(camera)
                assert set(camera.taken) >= TAKES[scene], scene.__name__
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
