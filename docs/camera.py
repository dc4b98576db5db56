"""What the README's pictures are taken with (docs/screenshots.py): the
served app, phones opened on it at 390×844, and the shared helpers of the
scenes (docs/scenes_*.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scorekeeper import services
from scorekeeper.rules import Entry
from tests.conftest import the_group
from tests.e2e.conftest import PHONE_OPTIONS, signed_in

PICTURES = Path(__file__).resolve().parent / "screenshots"


def hands(typed: dict[str, str]) -> dict[str, Entry]:
    return {name: Entry("hu") if cards == "hu" else Entry("dead", cards)
            for name, cards in typed.items()}


class Camera:
    """The served app, phones to open on it, and the pictures wanted."""

    def __init__(self, app, browser, base_url: str, wanted: Callable[[str], bool]):
        self.app, self.browser, self.base_url, self.wanted = app, browser, base_url, wanted
        self.taken: list[str] = []

    def phone(self, **options):
        """A phone as a player has one: its service worker runs (the tests
        run it only where it is the point)."""
        return self.browser.new_context(**{**PHONE_OPTIONS, "service_workers": "allow",
                                           "base_url": self.base_url, **options})

    def member(self, device: str = "Ann's phone"):
        """A page of a phone signed in to the tests' group."""
        with self.app.app_context():
            the_group()
        context = self.phone()
        signed_in(context, device=device)
        return context.new_page()

    def take(self, page, name: str) -> None:
        self.taken.append(name)
        if self.wanted(name):
            # A page scrolling smoothly (to the player the pad is for) comes to rest.
            page.wait_for_function("""async () => { const y = scrollY;
                await new Promise((done) => requestAnimationFrame(
                    () => requestAnimationFrame(done)));
                return scrollY === y; }""")
            # Animations (a player switched to) shown as they end.
            page.screenshot(path=str(PICTURES / f"{name}.png"), animations="disabled")
            print(f"docs/screenshots/{name}.png")

    def keep(self, name: str, png: bytes) -> None:
        """A picture the app makes itself (the result to share), as it sent it."""
        self.taken.append(name)
        if self.wanted(name):
            (PICTURES / f"{name}.png").write_bytes(png)
            print(f"docs/screenshots/{name}.png")


def phone(game, name: str) -> services.Change:
    """A change of ``game`` made from ``name``'s phone, as the history shows it."""
    return services.Change.to(game, device=f"{name}'s phone")
