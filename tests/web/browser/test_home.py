"""The home page in a real browser: every game's card with its picture, the way to its rules,
and a layout that fits a phone's width as well as a desktop's."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from plunder.core.registry import game_ids

from .conftest import PHONE, LiveServer, screenshot

pytestmark = pytest.mark.browser


def test_home_shows_every_game_and_leads_to_its_rules(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    page.goto(live_server.url + "/")
    cards = page.locator(".game-card")
    assert cards.count() == len(game_ids())
    for game_id in game_ids():
        card = page.locator(f"#game-{game_id}")
        assert card.locator("svg").first.is_visible()
        assert card.locator("svg").first.bounding_box()["width"] > 100  # type: ignore[index]
    screenshot(page, "home", tmp_path)
    page.locator("#game-profiteer").get_by_role("link", name="How to play").click()
    page.wait_for_url("**/rules/profiteer")
    assert "26" in page.locator("main").inner_text()
    assert page.errors == []  # type: ignore[attr-defined]


def test_home_fits_a_phone_screen(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
    finally:
        context.close()

