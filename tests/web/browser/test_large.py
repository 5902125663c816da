"""Large games in a real browser (issue 26): a Hubs sheet of 1000 x 1000 (a million legal
moves, of which the page is sent the first 500) is played by clicks on the sheet, on a desktop
and on a phone; a long game's page shows the last entries of its log and fetches older ones on
request."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from plunder.web.limits import MESSAGE_RATE
from plunder.web.table import LEGAL_CAP, LOG_WINDOW

from .conftest import PHONE, LiveServer, screenshot
from .test_play import hubs_choice, start, wait_turn

pytestmark = pytest.mark.browser

#: how long a step of these tests may take (milliseconds)
SLOW_MS = 120_000


def test_a_hubs_sheet_of_a_million_points_plays_by_clicks(browser: Browser, page: Page, live_server: LiveServer,
                                                          tmp_path: Path) -> None:
    # the first position of a million points takes the server a second or two of CPU, many on
    # a busy machine
    page.set_default_timeout(SLOW_MS)
    start(page, live_server, "hubs", params={"width": "1000", "height": "1000"}, seats=["me", "hotseat"])
    assert wait_turn(page)
    assert page.inner_text("#move-count") == f"(1000000, {LEGAL_CAP} listed)"
    # points far apart: a lattice step is about half a pixel here, so a click finds the point
    # nearest to it, within a step or so of the one aimed at
    for x, y in ((250, 500), (750, 250)):
        ply = page.evaluate("() => document.querySelectorAll('#log li').length")
        hubs_choice(page, [f"dot {x},{y}"], 0)
        page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=ply)
        assert "placed dot" in page.inner_text("#log li.last")
        assert wait_turn(page)
    assert page.locator("#board circle.dot, #board [data-dot]").count() == 2
    screenshot(page, "hubs-large", tmp_path)
    phone = browser.new_context(viewport=PHONE, storage_state=page.context.storage_state())
    small = phone.new_page()
    small.set_default_timeout(SLOW_MS)
    small.goto(page.url)
    small.wait_for_selector("#link.live")
    assert small.locator("#board [data-dot]").count() == 2
    screenshot(small, "hubs-large-phone", tmp_path)
    phone.close()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_long_games_page_shows_the_last_of_its_log_and_older_entries_on_request(page: Page, live_server: LiveServer,
                                                                                 tmp_path: Path) -> None:
    page.set_default_timeout(SLOW_MS)
    start(page, live_server, "hubs", "sixty", seats=["me", "hotseat"])
    moves = LOG_WINDOW + 30
    # the moves are sent over a socket of the page's own (the page's cookie is the seat's token)
    # paced under the server's message rate (a client sending faster is refused, and cut off after
    # enough refusals); a socket closed, or no end in time, fails the test rather than hanging it
    page.evaluate("""([path, most, pace, seconds]) => new Promise((done, fail) => {
        const url = new URL(path, location.href);
        url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
        const ws = new WebSocket(url);
        let last = null, sent = 0, timer = null, finished = false;
        const act = () => {
            timer = null;
            sent = Date.now();
            ws.send(JSON.stringify({type: "act", action: last.legal[0], ply: last.ply}));
        };
        const soon = () => { if (!timer) timer = setTimeout(act, Math.max(0, pace - (Date.now() - sent))); };
        const end = (error) => { if (!finished) { finished = true; error ? fail(error) : done(); } };
        setTimeout(() => end(new Error(`the game did not reach ply ${most} in ${seconds} s`)), seconds * 1000);
        ws.onclose = (event) => end(new Error(`the server closed the socket (${event.code})`));
        ws.onmessage = (event) => {
            const msg = JSON.parse(event.data);
            // a move refused (its ply gone by, or the rate passed): send the latest position's again
            if (msg.type === "error" && last) { soon(); return; }
            if (msg.type !== "state") return;
            if (msg.ply >= most || msg.over) { end(null); ws.close(); return; }
            last = msg;
            if (msg.your_turn) soon();
        };
    })""", [page.get_attribute("#game", "data-ws"), moves, 1000 / (MESSAGE_RATE * 0.8), 180])
    page.reload()
    page.wait_for_selector("#link.live")
    assert page.locator("#log li").count() == LOG_WINDOW
    assert page.get_attribute("#log li >> nth=0", "value") == str(moves - LOG_WINDOW + 1)
    earlier = page.locator("#log-earlier")
    assert earlier.is_visible() and earlier.inner_text() == f"Earlier moves ({moves - LOG_WINDOW})"
    earlier.click()
    page.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=moves)
    assert page.get_attribute("#log li >> nth=0", "value") == "1" and earlier.is_hidden()
    screenshot(page, "long-log", tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]
