"""Ratings and high scores in the browser: a rated game against the AI played to its end shows
the player's rating change on the result and the player on the leaderboard; a rated game
between two browser profiles changes both ratings; a finished Profiteer game shows on the
high-score table. The result and the leaderboard are saved at desktop and phone size
(``PLUNDER_SCREENSHOTS=docs/web`` refreshes the docs' pictures ``ratings-*.png``)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .conftest import DESKTOP, PHONE, LiveServer, screenshot
from .test_play import first_drawn, legal, play_out

pytestmark = pytest.mark.browser

#: the result's line for a rated game
CHANGE = re.compile(r"^Your rating (-?\d+) → (-?\d+)$")


def start_rated(page: Page, server: LiveServer, seats: list[str]) -> None:
    """Send Pillage's new-game form (the example board) with "rated" ticked."""
    page.goto(f"{server.url}/new/pillage")
    page.select_option("#preset", "example")
    for i, kind in enumerate(seats):
        page.select_option(f'[name="seat.{i}"]', kind)
    assert not page.is_checked("#rated")  # off unless chosen
    page.check("#rated")
    page.click("button[type=submit]")
    page.wait_for_selector("#link.live")


def my_row(page: Page) -> str:
    """The text of this browser's row of the leaderboard."""
    return page.inner_text("#leaderboard tr.you")


def test_a_rated_game_against_the_ai_changes_the_rating_shown(page: Page, live_server: LiveServer,
                                                              tmp_path: Path) -> None:
    start_rated(page, live_server, ["me", "easy"])
    assert play_out(page, first_drawn) >= 2
    page.wait_for_selector("#yours:not([hidden])")
    change = CHANGE.match(page.inner_text("#yours"))
    assert change, page.inner_text("#yours")
    before, after = (int(v) for v in change.groups())
    assert before == 1500 and after != before  # a newcomer shows 1500
    screenshot(page, "ratings-result", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "ratings-result-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    page.click("#standings-button")
    page.wait_for_selector("#leaderboard")
    assert f"Your rating: {after}" in page.inner_text("#my-rating")
    assert re.search(rf"(?<!\S){after}\s+1$", my_row(page).strip()), my_row(page)
    assert page.locator("#leaderboard tr.ai").count() == 3  # the three levels, marked
    assert "The hard AI" in page.inner_text("#leaderboard")
    screenshot(page, "ratings-leaderboard", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "ratings-leaderboard-phone", tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_rated_game_between_two_browsers_changes_both_ratings(browser: Browser, live_server: LiveServer) -> None:
    host, guest = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE)
    try:
        a = host.new_page()
        start_rated(a, live_server, ["me", "open"])
        b = guest.new_page()
        b.goto(a.input_value(".links input.copy[data-seat='1']"))
        b.wait_for_selector("#link.live")
        players = [a, b]
        moves, deadline = 0, time.monotonic() + 120
        while not all(not p.locator("#result").is_hidden() for p in players):
            assert moves < 40 and time.monotonic() < deadline, "the rated game did not end"
            mover = next((p for p in players if p.locator("#game.my-turn:not(.waiting)").count()), None)
            if mover is None:
                a.wait_for_timeout(50)
                continue
            other = b if mover is a else a
            before = other.locator("#log li").count()
            first_drawn(mover, legal(mover), moves)
            moves += 1
            other.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=before)
        shown = {}
        for name, p in (("host", a), ("guest", b)):
            p.wait_for_selector("#yours:not([hidden])")
            change = CHANGE.match(p.inner_text("#yours"))
            assert change and change.group(1) == "1500", p.inner_text("#yours")
            shown[name] = int(change.group(2))
            p.goto(f"{live_server.url}/ratings/pillage")
            assert f"Your rating: {shown[name]}" in p.inner_text("#my-rating")
            assert re.search(rf"(?<!\S){shown[name]}\s+1$", my_row(p).strip()), my_row(p)
        verdict = a.inner_text("h1")  # both are on the leaderboard, each marked only on its own page
        assert verdict.startswith("Leaderboard") and a.locator("#leaderboard tr.you").count() == 1
    finally:
        host.close()
        guest.close()


def test_a_profiteer_game_shows_on_the_high_score_table(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    page.goto(f"{live_server.url}/new/profiteer")
    assert page.locator("#rated").count() == 0  # a solitaire is never rated
    page.select_option("#preset", "short")
    page.click("button[type=submit]")
    page.wait_for_selector("#link.live")
    assert play_out(page, first_drawn) >= 3
    page.wait_for_selector("#yours:not([hidden])")
    told = page.inner_text("#yours")
    assert told.startswith("New personal best: "), told  # this browser's first game of the variant
    score = told.rsplit(" ", 1)[1]
    page.click("#standings-button")
    page.wait_for_selector("table.standings")
    assert f"Your best: {score}" in page.inner_text("main")
    assert page.locator("table.standings tr.you").count() >= 1
    screenshot(page, "ratings-high-scores", tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]
