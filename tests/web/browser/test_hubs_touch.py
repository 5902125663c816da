"""Hubs by touch on a phone, and clicks just off the sheet (issue 23): a tap aims (a ghost dot,
a magnified view, arrows one point at a time) and "Place" places; dots are tapped to draw
segments; a whole game is played this way at 390x844 with touch events. A mouse click just
outside the frame takes the nearest point on its edge, and one further off says why nothing
was placed."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .conftest import PHONE, LiveServer, point_on_screen, screenshot
from .test_play import MAX_CLICKS, legal, start, wait_turn

pytestmark = pytest.mark.browser


def tap_centre(page: Page, selector: str) -> None:
    """A finger's tap at the middle of ``selector``."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not on the page"
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_move(page: Page, move: str) -> None:
    """Play ``move`` by touch: a dot aimed next to its point, moved there with an arrow and
    placed; a segment by tapping its two dots."""
    if move.startswith("dot "):
        x, y = (int(v) for v in move[4:].split(","))
        near = x - 1 if x > 0 else x + 1
        page.touchscreen.tap(*point_on_screen(page, near, y))
        page.wait_for_selector("#hub-aim:not([hidden])")
        assert page.inner_text("#hub-aim p") in (f"Aiming at {near},{y}.", f"Point {near},{y} is taken: move the aim.")
        assert page.locator("#hub-aim svg.loupe circle.ghost").count() == 1  # the magnified view shows the aim
        page.locator("#hub-aim button.nudge", has_text="→" if near < x else "←").tap()
        assert page.inner_text("#hub-aim p") == f"Aiming at {x},{y}."
        page.locator("#hub-aim button.place").tap()
    else:
        first, second = move[4:].split("-")
        tap_centre(page, f'#board [data-dot="{first}"]')
        assert page.locator(f'#board [data-dot="{first}"].picked').count() == 1
        tap_centre(page, f'#board [data-dot="{second}"]')


def test_a_whole_hubs_game_by_touch_on_a_phone(browser: Browser, live_server: LiveServer, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        start(page, live_server, "hubs", "tiny", seats=["me", "easy"])
        for turn in range(MAX_CLICKS):
            if not wait_turn(page):
                break
            moves = legal(page)
            tap_move(page, moves[0])
            if turn == 0:
                screenshot(page, "roughweb-hubs-touch-phone", tmp_path)
            # the tap played it: the page waits for the server, then the position moves on
            page.wait_for_function("() => !document.getElementById('game').classList.contains('waiting')")
        else:
            pytest.fail("the game did not end")
        assert page.locator("#result").is_visible() and page.inner_text("#verdict").startswith("Game over")
        assert page.locator("#log li").count() >= 2 * (6 + 3)  # two rounds of 6 dots and at least 3 segments
    finally:
        context.close()


def test_aiming_by_touch_on_the_default_sheet(browser: Browser, live_server: LiveServer, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        start(page, live_server, "hubs", seats=["me", "easy"])
        page.wait_for_selector("#game.my-turn")
        (x0, _), (x1, _) = point_on_screen(page, 0, 0), point_on_screen(page, 1, 0)
        # the board keeps its drawn size on a phone (its words readable): points are still far
        # closer together than a fingertip is wide (about 40 px)
        assert x1 - x0 < 20, "the default sheet's points are closer than a fingertip on a phone"
        page.touchscreen.tap(*point_on_screen(page, 30, 20))
        page.wait_for_selector("#hub-aim:not([hidden])")
        for _ in range(3):
            page.locator("#hub-aim button.nudge", has_text="↑").tap()
        assert page.inner_text("#hub-aim p") == "Aiming at 30,23."
        screenshot(page, "roughweb-hubs-aim-phone", tmp_path)
        page.locator("#hub-aim button.place").tap()
        page.wait_for_function("() => document.getElementById('log').textContent.includes('at 30,23')")
    finally:
        context.close()


def test_a_click_just_off_the_sheets_edge_takes_the_edge_point(page: Page, live_server: LiveServer) -> None:
    start(page, live_server, "hubs", "small", seats=["me", "easy"])
    page.wait_for_selector("#game.my-turn")
    free = [m for m in legal(page) if m.startswith("dot 0,")]
    y = int(free[0].split(",")[1])
    x, sy = point_on_screen(page, 0, y)
    page.mouse.click(x - 2, sy)  # 2 px left of the frame
    page.wait_for_function("(y) => document.getElementById('log').textContent.includes(`at 0,${y}`)", arg=y)
    page.wait_for_selector("#game.my-turn:not(.waiting)")
    # further off, but still by the sheet: the page says why nothing was placed
    step = point_on_screen(page, 1, 0)[0] - point_on_screen(page, 0, 0)[0]
    page.mouse.click(x - 2 * step, sy)
    page.wait_for_selector("#message:not([hidden])")
    assert "outside the sheet" in page.inner_text("#message")
