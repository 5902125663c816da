"""Puzzles in the browser (docs/web.md, "Puzzles"): the day's puzzle is announced on the home
page; a puzzle is solved move by move with the replies played by the site, and another failed
with the solution shown and the values in words; the puzzle rating moves after each, and the
streak with it. At desktop size by mouse clicks on the board, and on a phone (390x844) by
touch, where the page must fit the screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from plunder.core.puzzle import Puzzle
from plunder.core.record import replay
from plunder.core.registry import load_game
from plunder.games.pillage.contents import Modifier
from plunder.web.puzzle_pages import catalogue

from .conftest import DESKTOP, PHONE, LiveServer, screenshot
from .test_captions import MIN_TEXT_PX

pytestmark = pytest.mark.browser


def multi_step() -> Puzzle:
    """A shipped puzzle asking two moves or more of the player, with a reply between."""
    return next(p for p in sorted(catalogue().values(), key=lambda p: p.id) if sum(s.solver for s in p.line) >= 2)


def press(page: Page, action: str, touch: bool) -> None:
    """Click (or tap) the board's move ``action`` at its middle, as a person would."""
    target = page.locator(f'#board [data-action="{action}"]').first
    target.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
    box = target.bounding_box()
    assert box is not None, f"{action} is not drawn on the board"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def solve_on_page(page: Page, puzzle: Puzzle, touch: bool) -> None:
    """Find every move the line asks, on the board; each verdict waited for."""
    for i, step in enumerate(puzzle.line):
        if not step.solver:
            continue
        press(page, step.action, touch)
        page.wait_for_function("a => document.getElementById('verdict').textContent.includes('Right: ' + a + ' ')",
                               arg=step.action)
        replies = []
        for later in puzzle.line[i + 1:]:
            if later.solver:
                break
            replies.append(later.action)
        if replies:
            assert f"The reply: {', '.join(replies)}." in page.inner_text("#verdict")
    page.wait_for_selector("#puzzle.done")


def fits(page: Page) -> None:
    """The page is no wider than the phone's screen, and the board (where there is one) within
    it: the whole board, or its frame when the board is at its full size (scrolling in it)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the puzzle page is {width} px wide on a phone"
    if page.locator("#board svg").count() == 0:
        return
    full = "full" in (page.get_attribute("#board", "class") or "").split()
    board = page.locator("#board" if full else "#board svg").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]


def text_sizes(page: Page) -> list[float]:
    """The size every text of the board is set at on the screen, in CSS px (its font size times
    the picture's scale)."""
    sizes: list[float] = page.eval_on_selector_all(
        "#board svg text", "els => els.map(e => parseFloat(e.getAttribute('font-size')) * e.getScreenCTM().a)")
    return sizes


def readable(page: Page) -> None:
    """Every word of the board is set at 10 CSS px or more (and there are words)."""
    sizes = text_sizes(page)
    assert sizes and min(sizes) >= MIN_TEXT_PX, f"the board's smallest text is {min(sizes or [0]):.1f} px"


def test_puzzles_solved_and_failed_at_desktop(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    page.goto(live_server.url + "/")
    announced = page.inner_text("#daily-puzzle")
    assert announced.startswith("Today's puzzle:") and "difficulty" in announced
    page.click("#daily-puzzle a >> nth=0")
    assert "Today's puzzle" in page.inner_text(".puzzle-card h2")
    daily = catalogue()[page.url.rsplit("/", 1)[1]]
    assert page.inner_text("#rating") == "1500?"
    assert page.inner_text("#prompt").endswith("every other move does worse.")
    screenshot(page, "puzzle-desktop-start", tmp_path)
    solve_on_page(page, daily, touch=False)
    assert page.inner_text("#prompt") == "Solved!"
    assert page.inner_text("#verdict").count("Right: ") == sum(s.solver for s in daily.line)
    change = page.inner_text("#rating-change")
    assert change.startswith("Solved: your puzzle rating 1500? → ") and "(+" in change
    solved_rating = page.inner_text("#rating")
    assert solved_rating != "1500?" and int(solved_rating.rstrip("?")) > 1500
    assert page.inner_text("#streak") == "Streak: 1 solved in a row (best 1)"
    assert page.locator("#solution-line li").count() == len(daily.line)
    screenshot(page, "puzzle-desktop-solved", tmp_path)
    # the next puzzle, missed: the solution shown with the values in words
    page.click("#next")
    page.wait_for_selector("#puzzle")
    nxt = catalogue()[page.url.rsplit("/", 1)[1]]
    assert nxt.id != daily.id and page.inner_text("#rating") == solved_rating
    values = nxt.line[0].values
    worst = min(values, key=lambda a: values[a])
    press(page, worst, touch=False)
    page.wait_for_selector("#puzzle.done.failed")
    said = page.inner_text("#verdict")
    assert said.startswith(f"Wrong: after {worst}, best play makes you ") and "better for you than yours" in said
    assert page.locator("#solution-line li").first.inner_text().startswith(nxt.line[0].action)
    change = page.inner_text("#rating-change")
    assert change.startswith(f"Missed: your puzzle rating {solved_rating} → ") and "(-" in change
    assert page.inner_text("#streak") == "Streak: 0 solved in a row (best 1)"
    screenshot(page, "puzzle-desktop-failed", tmp_path)
    # trying it again is a retry, unrated
    page.click("#again")
    assert "A retry: not rated" in page.inner_text("#rated")
    assert page.errors == []  # type: ignore[attr-defined]


def test_puzzles_by_touch_on_a_phone(browser: Browser, live_server: LiveServer, tmp_path: Path) -> None:
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    phone.set_default_timeout(15_000)
    try:
        page = phone.new_page()
        page.goto(live_server.url + "/")
        assert page.locator("#daily-puzzle").is_visible()
        fits(page)
        puzzle = multi_step()
        page.goto(f"{live_server.url}/puzzles/{puzzle.id}")
        fits(page)
        # at first the board at its full size, every word readable: wider than the screen,
        # scrolled in its frame
        assert page.inner_text("#board-size") == "Whole board"
        drawn = page.locator("#board svg").bounding_box()
        assert drawn is not None and drawn["width"] > PHONE["width"]
        readable(page)
        screenshot(page, "puzzle-phone-start", tmp_path)
        # the whole board on a tap, within the screen (its words small), and back
        page.locator("#board-size").tap()
        assert page.inner_text("#board-size") == "Full size"
        fits(page)
        screenshot(page, "puzzle-phone-whole-board", tmp_path)
        page.locator("#board-size").tap()
        assert page.inner_text("#board-size") == "Whole board"
        # solved by taps on the full-size board, its words readable after every reply
        solve_on_page(page, puzzle, touch=True)
        assert page.inner_text("#rating-change").startswith("Solved: your puzzle rating 1500? → ")
        fits(page)
        readable(page)
        screenshot(page, "puzzle-phone-solved", tmp_path)
        # a typed move that is no move: refused in words, nothing else changes
        page.goto(f"{live_server.url}/puzzles?after={puzzle.id}")
        page.locator("#moves summary").tap()
        page.fill("#move-text", "zz-top")
        page.locator("#move-form button").tap()
        page.wait_for_selector("#message:not([hidden])")
        assert page.inner_text("#message").startswith("Not a move here: cannot read action 'zz-top'")
        nxt = catalogue()[page.url.rsplit("/", 1)[1]]
        values = nxt.line[0].values
        press(page, min(values, key=lambda a: values[a]), touch=True)
        page.wait_for_selector("#puzzle.done.failed")
        assert page.locator("#solution").is_visible() and "(-" in page.inner_text("#rating-change")
        assert page.locator("#moves").is_hidden()  # no move is offered once the attempt is over
        fits(page)
        screenshot(page, "puzzle-phone-failed", tmp_path)
    finally:
        phone.close()


def big_board() -> Puzzle:
    """A shipped puzzle on the default 4x4 board with valued contents, a modifier among them."""
    def has_modifier(puzzle: Puzzle) -> bool:
        state = replay(puzzle.record(), load_game("pillage", **puzzle.params))
        return any(isinstance(c, Modifier) for c in getattr(state, "contents"))

    return next(p for p in sorted(catalogue().values(), key=lambda p: p.id)
                if p.params["board"] == "square:4x4" and p.params["contents"] == "random" and has_modifier(p))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_4x4_puzzle_is_drawn_whole_and_readable(browser: Browser, live_server: LiveServer, tmp_path: Path,
                                                   size: str) -> None:
    phone = size == "phone"
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True) if phone else \
        browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        puzzle = big_board()
        page.goto(f"{live_server.url}/puzzles/{puzzle.id}")
        texts = page.eval_on_selector_all("#board svg text", "els => els.map(e => e.textContent)")
        assert any("Modifiers:" in t for t in texts), texts  # the legend of a valued board
        readable(page)
        if phone:
            fits(page)
        else:  # a desktop's board shows whole beside the side panel, no taller than the window
            drawn = page.locator("#board svg").bounding_box()
            side = page.locator(".side").bounding_box()
            assert drawn is not None and side is not None
            assert drawn["x"] >= 0 and drawn["x"] + drawn["width"] <= side["x"]
            assert drawn["height"] <= DESKTOP["height"]
        screenshot(page, f"puzzle-4x4-{size}", tmp_path)
        values = puzzle.line[0].values
        press(page, min(values, key=lambda a: values[a]), touch=phone)
        page.wait_for_selector("#puzzle.done.failed")
        assert page.inner_text("#verdict").startswith("Wrong: after ")
        readable(page)
        assert errors == []
    finally:
        context.close()
