"""The daily deal in the browser (docs/web.md, "The daily deal"): the home page announces it;
today's Profiteer deal is played to its end by clicks at desktop size and by touch on a phone
(390x844) by a second identity; each then sees the par, the day's leaderboard and its streak; a
second attempt is refused, and the other player's game stays closed while the day lasts; once
its day is over (the entry moved to yesterday in the store, the server restarted) its replay is
open to all from the archive, and the deal is played again unranked."""

from __future__ import annotations

import html
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page
from sqlalchemy import update

from plunder.web import daily
from plunder.web.store import Store

from .conftest import PHONE, LiveServer, screenshot
from .test_play import drawn, finish, legal, play_out, wait_turn, MAX_CLICKS

pytestmark = pytest.mark.browser

#: how long the server may take to work the day's par out (seconds of CPU on a loaded machine)
PAR_SECONDS = 300.0


def first_drawn(page: Page, moves: list[str], _turn: int) -> None:
    """Click the first legal move the picture draws (the mouse at its middle)."""
    target = page.locator(f'#board [data-action="{[t for t in drawn(page) if t in moves][0]}"]').first
    target.evaluate("e => e.scrollIntoView({block: 'nearest', inline: 'nearest'})")
    box = target.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_first_drawn(page: Page) -> None:
    """Tap the first legal move the picture draws, as a finger would."""
    moves = legal(page)
    target = page.locator(f'#board [data-action="{[t for t in drawn(page) if t in moves][0]}"]').first
    target.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
    box = target.bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def daily_with_par(page: Page, server: LiveServer) -> str:
    """Today's page once the par of Profiteer shows in your result; the result's text."""
    deadline = time.monotonic() + PAR_SECONDS
    while True:
        page.goto(f"{server.url}/daily")
        said = page.inner_text("#result-profiteer")
        if "foresight" in said:
            return said
        assert time.monotonic() < deadline, f"no par after {PAR_SECONDS} s: {said}"
        time.sleep(2)


def test_the_daily_deal_played_at_desktop_and_on_a_phone(page: Page, browser: Browser, fresh_server: LiveServer,
                                                         tmp_path: Path) -> None:
    server = fresh_server
    page.goto(server.url + "/")
    announced = page.inner_text("#daily-deal")
    assert announced.startswith("Today's deal:") and "Profiteer" in announced and "Pirates" in announced
    screenshot(page, "daily-home", tmp_path)
    page.click("#daily-deal a[href='/daily#deal-profiteer']")
    page.click("#play-profiteer")
    page.wait_for_selector("#link.live")
    game_url = page.url
    assert page.locator("#hint-button").is_hidden() and page.locator("#undo-button").is_hidden()
    assert play_out(page, first_drawn) >= 3
    assert page.inner_text("#yours").startswith("You scored ")
    finish(page, "daily-profiteer", tmp_path)
    said = daily_with_par(page, server)
    assert said.startswith("You scored ") and " · the hard AI " in said and " · foresight " in said
    row = page.locator("#deal-profiteer tr.you")
    assert row.count() == 1 and row.locator("td").nth(4).inner_text() == "1"  # a streak of one day
    assert page.inner_text("#streak") == "Your streak: 1 day in a row."
    assert page.locator("#play-profiteer").count() == 0 and page.locator("#play-pirates").count() == 1
    screenshot(page, "daily-desktop", tmp_path)
    # a second attempt (the form sent again) is refused in words
    with page.expect_navigation():
        page.evaluate("""() => { const f = document.createElement('form'); f.method = 'post';
            f.action = '/daily/profiteer'; document.body.append(f); f.submit(); }""")
    assert "You have played today's Profiteer deal" in html.unescape(page.content())

    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    phone.set_default_timeout(15_000)
    try:
        other = phone.new_page()
        # today's game of the other identity is closed to this one, by any way in
        other.goto(game_url.replace("/play/", "/watch/"))
        assert "open when its day ends" in other.inner_text("main")
        other.goto(server.url + "/daily")
        assert other.locator("#deal-profiteer tbody tr").count() == 1  # the first player's entry
        other.locator("#play-profiteer").tap()
        other.wait_for_selector("#link.live")
        for _ in range(MAX_CLICKS):
            if not wait_turn(other):
                break
            tap_first_drawn(other)
        other.wait_for_selector("#result:not([hidden])")
        other.locator("#result-close").tap()
        said = daily_with_par(other, server)
        assert said.startswith("You scored ") and "foresight" in said
        assert other.locator("#deal-profiteer tbody tr").count() == 2  # one entry per identity
        assert other.locator("#deal-profiteer tr.you").count() == 1
        width = other.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the daily page is {width} px wide on a phone"
        screenshot(other, "daily-phone", tmp_path)
    finally:
        phone.close()


def test_today_s_replays_are_closed_and_yesterday_s_open(page: Page, browser: Browser, fresh_server: LiveServer,
                                                         tmp_path: Path) -> None:
    server = fresh_server
    page.goto(server.url + "/daily")
    page.click("#play-profiteer")
    page.wait_for_selector("#link.live")
    game_id = page.url.rsplit("/", 1)[1]
    play_out(page, first_drawn)
    page.wait_for_selector("#result:not([hidden])")
    stranger = browser.new_context()
    stranger.set_default_timeout(15_000)
    try:
        other = stranger.new_page()
        other.goto(f"{server.url}/replay/game/{game_id}")
        assert "open when its day ends" in other.inner_text("main")
        # the day ends: the entry is moved to yesterday in the store (the server's clock is the
        # real one), and the server restarted reads it so
        server.kill()
        assert isinstance(server.db, Path)
        store = Store(f"sqlite:///{server.db}")
        yesterday = daily.day_of(time.time() - 86400)
        with store.engine.begin() as db:
            db.execute(update(daily.daily_entries).where(daily.daily_entries.c.game_id == game_id)
                       .values(day=yesterday, started=daily.daily_entries.c.started - 86400,
                               finished=daily.daily_entries.c.finished - 86400))
        store.close()
        server.start()
        other.goto(server.url + "/daily")
        other.click(f"#archive a[href='/daily/{yesterday}']")
        assert other.locator("#deal-profiteer tbody tr a").count() == 1  # the entry, with its replay
        # its par was never worked out (the entry was moved to yesterday): it is now, once, and
        # shown on a reload (waited for: the first replay page of a fresh process waits for the
        # compiled code the par's thread is loading)
        assert "Par: being worked out" in other.inner_text("#deal-profiteer")
        deadline = time.time() + 240
        while "Par: the hard AI" not in other.inner_text("#deal-profiteer"):
            assert time.time() < deadline, "yesterday's par was not worked out in 240 s"
            other.wait_for_timeout(2000)
            other.reload()
        screenshot(other, "daily-archive", tmp_path)
        other.click("#deal-profiteer a:text('replay')")
        other.wait_for_selector("#board svg")
        assert other.url.endswith(f"/replay/game/{game_id}")
        # and the day's deal again, unranked: undo and hints as in any game
        other.goto(f"{server.url}/daily/{yesterday}")
        other.click("#play-profiteer")
        other.wait_for_selector("#link.live")
        assert other.locator("#undo-button").is_visible()
    finally:
        stranger.close()
