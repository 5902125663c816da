"""Every game's how-to page in a real browser: sections with pictures drawn by the game's own
renderer, words for a browser (click and tap, never type), no console errors, and a layout that
fits a phone's width as well as a desktop's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Response

from plunder.core.registry import entry, game_ids

from .conftest import DESKTOP, PHONE, LiveServer, screenshot

pytestmark = pytest.mark.browser

#: the games that offer how-to sections (a plugin game without them shows its text)
GAMES = [g for g in game_ids() if entry(g).presentation.how_to_web is not None]
#: terminal advice a browser player cannot follow
TERMINAL = re.compile(r"\btype\b|'moves'|'hint'", re.IGNORECASE)


def _visit(page: Page, url: str) -> list[str]:
    """Open ``url``; the console's errors and the failed requests while it loads. The missing
    ``/favicon.ico`` is left out: the browser asks for it on every page, which is the page
    chrome's business (issue 23 lists it apart), not this page's."""
    errors: list[str] = []

    def note(message: ConsoleMessage) -> None:
        # a failed request is said on the console without its address: it is judged below
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(message.text)

    def answered(response: Response) -> None:
        if response.status >= 400 and not response.url.endswith("/favicon.ico"):
            errors.append(f"{response.status} {response.url}")

    page.on("console", note)
    page.on("response", answered)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return errors


def test_five_games_offer_how_to_sections() -> None:
    assert len(GAMES) >= 5


@pytest.mark.parametrize("game_id", GAMES)
def test_how_to_page_has_pictures_and_browser_words(page: Page, live_server: LiveServer, game_id: str) -> None:
    errors = _visit(page, f"{live_server.url}/rules/{game_id}")
    sections = page.locator("section.howto-section")
    assert sections.count() >= 3
    pictures = page.locator("figure.howto-picture svg")
    assert pictures.count() >= 5
    for i in range(pictures.count()):
        box = pictures.nth(i).bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 100, (i, box)
    text = page.locator("main").inner_text()
    assert not TERMINAL.search(text), TERMINAL.search(text)
    assert re.search(r"\bclick", text, re.IGNORECASE)
    assert page.locator("pre.rules").count() == 0
    assert errors == [] and page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_id", ["pillage", "profiteer"])
def test_how_to_page_fits_a_desktop_and_a_phone(browser: Browser, live_server: LiveServer, tmp_path: Path,
                                               game_id: str) -> None:
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=size)
        try:
            page = context.new_page()
            page.on("pageerror", lambda exc: pytest.fail(str(exc)))
            errors = _visit(page, f"{live_server.url}/rules/{game_id}")
            assert errors == []
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"], f"the page is {width}px wide on a {size['width']}px screen"
            screenshot(page, f"words-howto-{game_id}-{name}", tmp_path)
        finally:
            context.close()
