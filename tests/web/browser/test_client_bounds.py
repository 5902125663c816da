"""Bounds per client in a real browser (issue 36): a player who has started the coach's share of
analyses presses Analyse on another finished game and reads why it is refused, in words, where
the analysis would have appeared (no page of its own), at desktop size and on a 390x844 touch
screen; and a page reached by a name that is not the site's is refused in words."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from plunder.web.limits import ANALYSIS_BURST
from plunder.web.security import COOKIE
from plunder.web.store import Store

from ..test_client_bounds import finished_games
from .conftest import PHONE, LiveServer, screenshot

pytestmark = pytest.mark.browser

#: milliseconds a replay page may take (drawn by the replay worker, at a low priority, on a loaded machine)
REPLAY_MS = 60_000


def test_a_player_past_the_coachs_share_reads_why_in_place(page: Page, browser: Browser, fresh_server: LiveServer,
                                                            tmp_path: Path) -> None:
    store = Store(f"sqlite:///{fresh_server.db}")
    try:
        games = finished_games(store, ANALYSIS_BURST + 1)
    finally:
        store.close()
    url = fresh_server.url
    # the browser is given its token by choosing a name, then starts its share of analyses
    page.goto(f"{url}/name")
    page.get_by_label("your name").fill("Wren")
    page.get_by_role("main").get_by_role("button", name="Save").click()
    cookie = next(c for c in page.context.cookies() if c["name"] == COOKIE)
    # the page first: its replay is drawn by the replay worker, which the coach's, busy with
    # the analyses below, would share the CPU with (both at the lowest priority)
    page.goto(f"{url}/replay/game/{games[-1]}", timeout=REPLAY_MS)
    for game_id in games[:ANALYSIS_BURST]:
        assert page.request.post(f"{url}/replay/game/{game_id}/analyse").status == 202

    page.get_by_role("button", name="Analyse").click()
    status = page.locator("#coach-status")
    status.filter(has_text="You have started").wait_for()
    assert status.inner_text() == (f"You have started {ANALYSIS_BURST} analyses in a short time, the coach's limit "
                                   "for one player: it starts one more for you every 2 minutes. Analyses already "
                                   "made are shown at once.")
    assert page.url == f"{url}/replay/game/{games[-1]}"  # the replay page stays, the button may be pressed again
    assert page.get_by_role("button", name="Analyse").is_enabled()
    assert page.locator("#coach-curve").is_hidden()
    screenshot(page, "coach-refused-desktop", tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]

    # the same player on a phone, tapping
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        phone.add_cookies([cookie])  # type: ignore[list-item]
        small = phone.new_page()
        small.goto(f"{url}/replay/game/{games[-1]}", timeout=REPLAY_MS)
        small.get_by_role("button", name="Analyse").tap()
        said = small.locator("#coach-status")
        said.filter(has_text="You have started").wait_for()
        assert said.is_visible()
        box = said.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        width = small.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
        screenshot(small, "coach-refused-phone", tmp_path)
    finally:
        phone.close()


def test_a_page_reached_by_another_name_is_refused_in_words(page: Page, live_server: LiveServer) -> None:
    # localhost is one of the default site's names; a rebound name is not (Chromium sends the
    # name it was given in Host: here the test sets it, as a DNS answer pointing the name here would)
    home = page.goto(live_server.url.replace("127.0.0.1", "localhost") + "/")
    assert home is not None and home.status == 200
    answer = page.request.get(live_server.url + "/", headers={"host": f"rebound.example:{live_server.port}"})
    assert answer.status == 400
    assert "not for this site" in answer.text() and f"'rebound.example:{live_server.port}'" in answer.text()
