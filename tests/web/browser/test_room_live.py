"""The lobby and My games live in Chromium, on two server processes sharing one PostgreSQL
database: a lobby open on one process shows a game another profile creates on the other, and
drops it when a third sits down, without a reload; the header's "My games" marker and the My
games list follow the turn. Screenshots: ``room-live-*.png`` (desktop, and a 390x844 touch phone)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import DESKTOP, PHONE, LiveServer, screenshot, servers_on
from .test_chat import watched
from .test_people import name_myself
from .test_play import first_drawn, legal
from .test_processes import whose_turn

pytestmark = pytest.mark.browser

#: the longest a pushed change may take to show (generous: the machine is shared)
SHOW_MS = 20_000


@pytest.fixture
def two_servers(postgres_url: str) -> Iterator[list[LiveServer]]:
    """Two ``plunder serve`` processes on the session's PostgreSQL database."""
    with servers_on(postgres_url, 2) as started:
        yield started


def profile(browser: Browser, phone: bool) -> BrowserContext:
    """A browser profile at desktop size, or a touch phone's."""
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True) if phone \
        else browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(SHOW_MS)
    return ctx


def live(page: Page) -> None:
    """Wait until the page's room feed is connected, then mark the page (a reload would lose the mark)."""
    page.wait_for_selector("#people.live")
    page.evaluate("() => { window.notReloaded = true; }")


def not_reloaded(page: Page) -> bool:
    """Whether the page is still the one :func:`live` marked."""
    return bool(page.evaluate("() => window.notReloaded === true"))


def test_the_lobby_and_my_games_are_live_across_two_processes(browser: Browser, two_servers: list[LiveServer],
                                                              tmp_path: Path) -> None:
    first, second = two_servers
    contexts = [profile(browser, phone=False), profile(browser, phone=True), profile(browser, phone=True)]
    try:
        anna, bob, carl = (watched(ctx) for ctx in contexts)
        name_myself(anna, first, "Anna")
        anna.goto(f"{first.url}/lobby")
        live(anna)
        carl.goto(f"{second.url}/lobby")
        live(carl)
        expect(anna.locator("#lobby-empty")).to_be_visible()

        # bob, on the other process and a phone, lists a game: both lobbies show it
        name_myself(bob, second, "Bob")
        bob.goto(f"{second.url}/new/pillage")
        bob.select_option("#preset", "small")
        bob.select_option('[name="seat.1"]', "open")
        bob.check('input[name="listed"][value="anyone"]')
        bob.click("button[type=submit].primary")
        bob.wait_for_selector("#link.live")
        game_path = bob.url.removeprefix(second.url)
        for page in (anna, carl):
            expect(page.locator("#lobby tbody tr")).to_have_count(1)
            expect(page.locator("#lobby tbody tr")).to_contain_text("Bob")
            assert not_reloaded(page)
        expect(anna.locator("#lobby button.primary")).to_have_text("Sit down as Player 2")
        screenshot(anna, "room-live-lobby-desktop", tmp_path)
        screenshot(carl, "room-live-lobby-phone", tmp_path)
        expect(bob.locator("#turn-count")).to_have_text("1")  # his move first

        # anna sits down: the game leaves carl's lobby
        anna.click("#lobby button.primary")
        anna.wait_for_selector("#link.live")
        expect(carl.locator("#lobby-empty")).to_be_visible()
        assert not_reloaded(carl)

        # bob plays his turn: anna's marker says it is hers, bob's goes
        turns = 0
        while whose_turn([anna, bob]) is bob:
            first_drawn(bob, legal(bob), turns)
            turns += 1
            bob.wait_for_function("() => !document.getElementById('game').classList.contains('waiting')")
        expect(anna.locator("#turn-count")).to_have_text("1")
        expect(anna).to_have_title("(1) " + anna.title().removeprefix("(1) "))
        expect(bob.locator("#turn-count")).to_be_hidden()
        screenshot(anna, "room-live-marker-desktop", tmp_path)

        # bob's My games list follows anna's move
        bob.goto(f"{second.url}/mine")
        live(bob)
        expect(bob.locator(f'#playing a[href="{game_path}"]')).to_be_visible()
        expect(bob.locator("#playing tr.your-turn")).to_have_count(0)
        while whose_turn([anna]) is anna:
            first_drawn(anna, legal(anna), turns)
            turns += 1
            anna.wait_for_function("() => !document.getElementById('game').classList.contains('waiting')")
            if not anna.evaluate("() => document.getElementById('game').classList.contains('my-turn')"):
                break  # bob's turn now: whose_turn would wait for a turn of anna's that is not coming
        expect(bob.locator("#playing tr.your-turn")).to_have_count(1)
        expect(bob.locator("#turn-count")).to_have_text("1")
        assert not_reloaded(bob)
        screenshot(bob, "room-live-mine-phone", tmp_path)
        for page in (anna, bob, carl):
            assert page.errors == []  # type: ignore[attr-defined]
    finally:
        for ctx in contexts:
            ctx.close()
