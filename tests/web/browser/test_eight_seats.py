"""A game of eight seats in the browser (issue 35): the example Last Stone (``examples/stones``,
2-8 players) shown on the home page, set up for eight by its form and played to the end by
hotseat, all eight seats at one screen, with the mouse on a desktop and by touch on a phone
(390x844); the form, the seats beside the board and the result screen hold eight seats at both
sizes without the page growing sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from playwright.sync_api import Browser, Page

from plunder.core.svg import SEAT

from ..eight_seats import require_stones
from .conftest import LiveServer, phone_tab, screenshot
from .test_play import MAX_CLICKS, click_action, legal, wait_turn

pytestmark = pytest.mark.browser

#: eight seats at one screen: the creator's and seven hotseats
HOTSEATS = ["me"] + ["hotseat"] * 7
#: the pile of the desktop's game: three stones a seat, taken one at a time, so every seat moves
PILE = 24


def fits(page: Page) -> None:
    """The page is no wider than the screen (nothing to scroll sideways)."""
    assert page.viewport_size is not None
    width = page.viewport_size["width"]
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"the page is {wide}px wide on a {width}px screen"


def set_up_eight(page: Page, server: LiveServer, pile: int, name: str, tmp_path: Path) -> None:
    """The home page's card, then the form set for eight players by hotseat, sent."""
    page.goto(server.url + "/")
    card = page.locator("#game-stones")
    assert card.locator(".players").inner_text() == "2–8 players"
    card.scroll_into_view_if_needed()
    screenshot(page, f"{name}-home", tmp_path)
    card.get_by_role("link", name="Play", exact=True).click()
    page.wait_for_url("**/new/stones")
    rows = page.locator("label.row.seat")
    assert rows.count() == 8 and page.locator("label.row.seat:visible").count() == 4  # the default: 4 players
    page.select_option('[name="p.players"]', "8")
    assert page.locator("label.row.seat:visible").count() == 8
    page.fill('[name="p.pile"]', str(pile))
    for i, kind in enumerate(HOTSEATS):
        page.select_option(f'[name="seat.{i}"]', kind)
    fits(page)
    screenshot(page, f"{name}-form", tmp_path)
    page.click("button[type=submit]")
    page.wait_for_selector("#link.live")
    seats = page.locator("#seats li")
    assert seats.count() == 8
    # eight seats of one browser, each told apart by its label once ("You (Player 8)")
    assert seats.nth(7).inner_text().strip() == "You (Player 8)"
    # each seat in its own colour, as the board draws it
    colours = page.eval_on_selector_all("#seats .swatch", "els => els.map(e => getComputedStyle(e).backgroundColor)")
    assert len(set(colours)) == 8 and "rgb(136, 136, 136)" not in colours
    assert page.locator(f'#board rect[stroke="{SEAT[7]}"]').count() == 1  # the eighth seat's tally


def play_to_the_end(page: Page, take: Callable[[Page, str], None]) -> list[str]:
    """Take one stone a turn (``take(page, "take 1")``) for whichever seat is to move; the
    seats that moved, in order, as the seat list marked them."""
    movers: list[str] = []
    for _ in range(MAX_CLICKS):
        if not wait_turn(page):
            return movers
        assert "take 1" in legal(page)
        movers.append(page.locator("#seats li.to-move").inner_text().split("to move")[0].strip())
        take(page, "take 1")
    raise AssertionError(f"the game did not end in {MAX_CLICKS} decisions")


def result(page: Page, name: str, tmp_path: Path) -> None:
    """The result screen names the winner and every seat's stones, and fits the screen."""
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#verdict").startswith("Game over")
    assert page.locator("#breakdown li").count() == 9  # eight seats' stones and the last stone
    card = page.locator(".result-card").bounding_box()
    size = page.viewport_size
    assert card is not None and size is not None
    assert card["x"] >= 0 and card["x"] + card["width"] <= size["width"] and card["height"] <= size["height"]
    screenshot(page, f"{name}-result", tmp_path)
    page.click("#result-close")
    fits(page)
    screenshot(page, name, tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]


def test_eight_seats_by_hotseat_on_a_desktop(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    require_stones()
    set_up_eight(page, live_server, PILE, "stones8-desktop", tmp_path)
    screenshot(page, "stones8-desktop-start", tmp_path)
    movers = play_to_the_end(page, click_action)
    assert len(movers) == PILE and len(set(movers)) == 8  # every seat took three stones
    assert movers[:8] == movers[8:16] == movers[16:]
    result(page, "stones8-desktop", tmp_path)
    # the replay names the eight players, and colours its seats as the board does
    page.goto(live_server.url + str(page.get_attribute("#replay-link", "href")))
    page.wait_for_selector("#replay")
    assert page.locator(".replay-meta .seat").count() == 8
    assert page.get_attribute("#replay", "data-seat-colours") == ",".join(SEAT)
    fits(page)
    screenshot(page, "stones8-desktop-replay", tmp_path)


def test_eight_seats_by_hotseat_by_touch_on_a_phone(browser: Browser, live_server: LiveServer, tmp_path: Path) -> None:
    require_stones()
    with phone_tab(browser) as (page, errors):
        page.errors = errors  # type: ignore[attr-defined]
        set_up_eight(page, live_server, 10, "stones8-phone", tmp_path)
        fits(page)
        screenshot(page, "stones8-phone-start", tmp_path)

        def tap(page: Page, action: str) -> None:
            target = page.locator(f'#board [data-action="{action}"]').first
            target.evaluate("e => e.scrollIntoView({block: 'center'})")
            box = target.bounding_box()
            assert box is not None
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

        movers = play_to_the_end(page, tap)
        assert len(movers) == 10 and len(set(movers)) == 8
        result(page, "stones8-phone", tmp_path)
