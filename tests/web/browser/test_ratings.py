"""Ratings and high scores in the browser: a rated game against the AI played to its end shows
the player's provisional rating change ("?") on the result, keeps the player off the
leaderboard (where an established player shows) and on a rating history page of its own; a
rated game shows neither undo nor hint, and the server refuses an undo forced from the page
(desktop and a 390x844 touch phone); a rated game between two newcomers moves neither rating;
a finished Profiteer game shows on the high-score table. The result, the leaderboard and the
history are saved at desktop and phone size (``PLUNDER_SCREENSHOTS=docs/web`` refreshes the
docs' pictures ``ratings-*.png``)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page
from sqlalchemy import insert

from plunder.web import ratings
from plunder.web.security import new_token
from plunder.web.store import Store, token_hash

from .conftest import DESKTOP, PHONE, LiveServer, screenshot
from .test_play import first_drawn, legal, play_out, wait_turn

pytestmark = pytest.mark.browser

#: the result's line for a rated game against the AI, of a provisional rating ("?")
CHANGE = re.compile(r"^Your rating (\d+)\? → (\d+)\?$")


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


def established_player(server: LiveServer, mu: float) -> str:
    """Store an established rating ``mu`` at Pillage for a new identity (as if placed by the AI
    levels) on ``server``'s database; its player id."""
    token = token_hash(new_token())
    with Store(f"sqlite:///{server.db}").engine.begin() as c:
        c.execute(insert(ratings.ratings).values(game="pillage", token=token, mu=mu, sigma=ratings.PROVISIONAL_SIGMA - 100,
                                                 games=14, updated=time.time()))
        c.execute(insert(ratings.rated_opponents), [{"game": "pillage", "token": token, "opponent": f"ai:{level}"}
                                                    for level in ratings.LEVELS])
    return ratings.player_id(token)


def test_a_rated_game_shows_a_provisional_rating_off_the_leaderboard_and_its_history(
        page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start_rated(page, live_server, ["me", "easy"])
    assert play_out(page, first_drawn) >= 2
    page.wait_for_selector("#yours:not([hidden])")
    change = CHANGE.match(page.inner_text("#yours"))
    assert change, page.inner_text("#yours")
    before, after = (int(v) for v in change.groups())
    assert before == 1500 and after != before  # a newcomer shows 1500?, provisional
    screenshot(page, "ratings-result", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "ratings-result-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    other = established_player(live_server, 1800.0)
    page.click("#standings-button")
    page.wait_for_selector("#leaderboard")
    mine = page.inner_text("#my-rating")
    assert f"Your rating: {after}?" in mine and "provisional: uncertainty" in mine, mine
    assert page.locator("#leaderboard tr.you").count() == 0  # provisional: off the board
    assert page.locator("#leaderboard tr.ai").count() == 3  # the three levels, marked
    assert "The hard AI" in page.inner_text("#leaderboard")
    assert page.locator(f'#leaderboard a[href="/ratings/pillage/players/{other}"]').count() == 1  # established: on it
    assert "?" not in page.inner_text("#leaderboard")
    screenshot(page, "ratings-leaderboard", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "ratings-leaderboard-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    page.click("#my-history")
    page.wait_for_selector("#history")
    assert f"Rating {after}?" in page.inner_text("#standing") and "Provisional" in page.inner_text("#standing")
    rows = page.locator("#history tbody tr")
    assert rows.count() == 1 and "The easy AI" in rows.inner_text() and f"1500 → {after}?" in rows.inner_text()
    assert page.locator("#rating-chart polyline").count() == 1
    screenshot(page, "ratings-history", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "ratings-history-phone", tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_rated_game_has_no_undo_or_hint_and_a_forced_undo_is_refused(browser: Browser, live_server: LiveServer,
                                                                        tmp_path: Path, phone: bool) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True) if phone \
        else browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        start_rated(page, live_server, ["me", "easy"])
        assert wait_turn(page)
        assert page.locator("#rated-note").is_visible() and "no undo, no hints" in page.inner_text("#rated-note")
        assert page.locator("#resign-button").is_visible()
        assert page.locator("#undo-button").is_hidden() and page.locator("#hint-button").is_hidden()
        first_drawn(page, legal(page), 0)
        assert wait_turn(page)
        assert page.locator("#undo-button").is_hidden()  # still absent once there is a move to take back
        # a client that shows the button anyway: the server refuses, in words
        page.evaluate("document.getElementById('undo-button').hidden = false")
        if phone:
            page.tap("#undo-button")
        else:
            page.click("#undo-button")
        page.wait_for_selector("#message:not([hidden])")
        assert ratings.NO_UNDO in page.inner_text("#message")
        screenshot(page, "ratings-no-undo" + ("-phone" if phone else ""), tmp_path)
    finally:
        context.close()


def test_a_rated_game_between_two_newcomers_moves_neither_rating(browser: Browser, live_server: LiveServer) -> None:
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
        for p in players:  # two newcomers: neither rating moves (each is placed by the AI levels first)
            p.wait_for_selector("#yours:not([hidden])")
            told = p.inner_text("#yours")
            assert told.startswith("Not rated for you: every opponent's rating is still provisional."), told
            p.goto(f"{live_server.url}/ratings/pillage")
            assert "You have no rating here yet" in p.inner_text("#my-rating")
            assert p.locator("#leaderboard tr.you").count() == 0
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
