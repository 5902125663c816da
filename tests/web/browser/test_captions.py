"""The board in Chromium names the players as the header and the log do (a game against the
AI played to its end: the picture's game-over line says the winner's name, never "Player 2";
a hostile name shows as text), on a phone it shows whole, or at its full size where its words
are readable (10 px and up: it scrolls in its frame, the page no wider than the screen), and
Crossroads' cells are square at both sizes. Saved as docs/web/captions-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, LiveServer, screenshot
from .test_people import name_myself
from .test_play import first_drawn, play_out, start

pytestmark = pytest.mark.browser

#: a name with markup in it: the board must show it as text
NAME = "Ann <b>&"
#: the smallest text a phone's board may set, in CSS px
MIN_TEXT_PX = 10.0


def board_texts(page: Page) -> list[str]:
    """The text of every ``<text>`` of the board's picture."""
    return page.eval_on_selector_all("#board svg text", "els => els.map(e => e.textContent)")


def text_sizes(page: Page) -> list[float]:
    """The size every text of the board is set at on the screen, in CSS px (its font size times
    the picture's scale)."""
    return page.eval_on_selector_all(
        "#board svg text", "els => els.map(e => parseFloat(e.getAttribute('font-size')) * e.getScreenCTM().a)")


def page_width(page: Page) -> int:
    """How wide the page lays out (more than the screen: it scrolls sideways as a whole)."""
    width: int = page.evaluate("() => document.documentElement.scrollWidth")
    return width


def test_the_board_names_the_players_and_reads_on_a_phone(page: Page, live_server: LiveServer,
                                                          tmp_path: Path) -> None:
    name_myself(page, live_server, NAME)
    start(page, live_server, "pillage", "small", seats=["me", "easy"])
    game_url = page.url
    said = "\n".join(board_texts(page))
    assert f"{NAME} to move" in said and "Player 1" not in said, said
    assert page.locator("#board svg b").count() == 0  # the name is text, not markup
    page.set_viewport_size(PHONE)
    # first the whole board within the screen
    box = page.locator("#board svg").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "captions-phone-whole", tmp_path)
    # then, chosen, its full size: every word readable, the board scrolling in its frame
    page.click("#board-size")
    expect(page.locator("#board-size")).to_have_text("Whole board")
    sizes = text_sizes(page)
    assert min(sizes) >= MIN_TEXT_PX, f"board text at {min(sizes):.1f} px on a phone"
    assert page_width(page) <= PHONE["width"], "the board widened the page instead of scrolling in its frame"
    screenshot(page, "captions-phone", tmp_path)
    play_out(page, first_drawn)  # the board's targets are reached by scrolling its frame
    page.wait_for_selector("#result:not([hidden])")
    verdict = page.inner_text("#verdict")  # "You win" / "You lost to the easy AI" / "a tie"
    # the easy AI's choices come from the game's fresh seed, so the game may end any of three ways
    caption = ("Game over: A tie" if "tie" in verdict.lower()
               else f"Game over: {NAME if 'You win' in verdict else 'The easy AI'} wins")
    page.click("#result-close")
    said = "\n".join(board_texts(page))
    assert caption in said, (verdict, said)
    assert "Player 1" not in said and "Player 2" not in said
    page.eval_on_selector("#board", "frame => { frame.scrollLeft = 0; }")  # back to the caption's start
    screenshot(page, "captions-result-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    screenshot(page, "captions-result-desktop", tmp_path)
    # a new name is not: the finished game keeps the name it was played under
    name_myself_again(page, live_server, "Bea")
    page.goto(game_url)
    page.wait_for_selector("#link.live")
    expect(page.locator("#board svg")).to_contain_text(f"Score: {NAME} ")
    assert "Bea" not in page.inner_text("#board")
    assert page.errors == []  # type: ignore[attr-defined]


def name_myself_again(page: Page, server: LiveServer, name: str) -> None:
    """Change this browser's name on the home page (its name form, opened)."""
    page.goto(f"{server.url}/")
    page.click("details.me summary")
    page.fill("#name-input", name)
    page.click("#name-form button")
    expect(page.locator("#my-name")).to_have_text(name)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_crossroads_cells_are_square(page: Page, live_server: LiveServer, size: dict[str, int]) -> None:
    page.set_viewport_size({"width": size["width"], "height": size["height"]})
    start(page, live_server, "crossroads", "2p", seats=["me", "easy"])
    box = page.locator("#board svg rect.cell").first.bounding_box()
    assert box is not None and box["width"] > 0
    assert abs(box["width"] - box["height"]) < 0.5, box
    assert page.locator("#board-size").is_visible() == (size == PHONE)  # the choice is a small screen's
    if size == PHONE:  # at its full size, its words readable, the cells still square
        page.click("#board-size")
        box = page.locator("#board svg rect.cell").first.bounding_box()
        assert box is not None and abs(box["width"] - box["height"]) < 0.5, box
        assert min(text_sizes(page)) >= MIN_TEXT_PX
