"""Time controls in the browser (Chromium, one player at desktop size, the other a 390x844
touch phone): each seat's clock on the board, counting down for the side to move, with the
tab title; a live game lost on time, a turn-based game of days per move, a win claimed against
an absent opponent, a Crossroads seat taken over by the AI after a timeout, abort and resign.
The server's time is moved by the test-only file its environment names
(``tables.TIME_SHIFT_ENV``): no test waits for a clock to run down."""

from __future__ import annotations

import json
import os
import time

from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from plunder.web.tables import TIME_SHIFT_ENV

from .conftest import DESKTOP, PHONE, LiveServer, screenshot

pytestmark = pytest.mark.browser


class Shifted(LiveServer):
    """A server whose time the test moves on (:meth:`advance`)."""

    def __init__(self, db: Path, shift: Path) -> None:
        super().__init__(db, {TIME_SHIFT_ENV: str(shift)})
        self.shift = shift
        shift.write_text("0")

    def advance(self, seconds: float) -> None:
        """Move the server's time ``seconds`` on."""
        # written whole then renamed into place: the server never reads a file half written
        fresh = self.shift.with_suffix(".new")
        fresh.write_text(str(float(self.shift.read_text()) + seconds))
        os.replace(fresh, self.shift)
        # the server reads the file again at most every 0.1 s: a move sent at once could be
        # charged at the time before (the next clock then seems to have lost the shift)
        time.sleep(0.25)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shifted]:
    """A server of this module's own, its time moved by the tests."""
    folder = tmp_path_factory.mktemp("clocks")
    live = Shifted(folder / "plunder.db", folder / "shift")
    live.start()
    yield live
    live.kill()


@pytest.fixture
def people(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Anna at a desktop, Bob on a touch phone, Cara at a desktop: three browser profiles."""
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True),
                browser.new_context(viewport=DESKTOP)]
    for c in contexts:
        c.set_default_timeout(20_000)
    yield contexts
    for c in contexts:
        c.close()


def open_game(server: LiveServer, people: list[BrowserContext], clock: str, game: str = "pillage",
              players: int = 2) -> list[Page]:
    """Anna creates a game of ``game`` with ``clock``, the other seats open, and the others
    join by the invite links: each one's page, connected."""
    anna = people[0].new_page()
    anna.on("dialog", lambda d: d.accept())
    anna.goto(f"{server.url}/new/{game}")
    if game == "pillage":
        anna.select_option("#preset", "small")
    else:
        anna.select_option('[name="p.players"]', str(players))
    for i in range(players):
        anna.select_option(f'[name="seat.{i}"]', "me" if i == 0 else "open")
    anna.select_option("#clock", clock)
    anna.click("button[type=submit]")
    anna.wait_for_selector("#link.live")
    pages = [anna]
    for i in range(1, players):
        invite = anna.input_value(f".links input.copy[data-seat='{i}']")
        page = people[i].new_page()
        page.on("dialog", lambda d: d.accept())
        page.goto(invite)
        page.wait_for_selector("#link.live")
        pages.append(page)
    for page in pages:
        page.wait_for_selector("#seats .clock.running")
    return pages


def mover(pages: list[Page]) -> Page:
    """The page whose turn it is."""
    for page in pages:
        page.wait_for_function("() => document.querySelector('#game.my-turn') !== null || "
                               "Array.from(document.querySelectorAll('#seats li.to-move')).length > 0")
    found = [p for p in pages if p.locator("#game.my-turn").count()]
    assert len(found) == 1
    return found[0]


def play_one(page: Page) -> None:
    """Play the first listed move and wait for the turn to pass."""
    page.locator("#moves summary").click()
    page.locator("#move-list button").first.click()
    page.wait_for_selector("#game:not(.my-turn)")


def verdict(page: Page) -> str:
    """The result screen's verdict, waited for."""
    page.wait_for_selector("#result:not([hidden])")
    return page.inner_text("#verdict")


def test_a_live_game_shows_the_clocks_and_is_lost_on_time(server: Shifted, people: list[BrowserContext],
                                                          tmp_path: Path) -> None:
    pages = open_game(server, people, "3+2")
    first = mover(pages)
    other = pages[1] if first is pages[0] else pages[0]
    assert first.locator("#seats .clock").count() == 2 and other.locator("#seats .clock").count() == 2
    # the running clock counts down on the page between the server's messages
    before = first.inner_text("#seats .clock.running")
    first.wait_for_function("(b) => document.querySelector('#seats .clock.running').textContent !== b", arg=before)
    assert "● (2:5" in first.title() and "Your turn" in first.title()
    assert first.inner_text("#clock-now").startswith("2:5") and other.locator("#clock-now").is_hidden()
    assert "(" not in other.title().split("·")[0]
    screenshot(pages[0], "clock-live-desktop", tmp_path)
    screenshot(pages[1], "clock-live-phone", tmp_path)
    # My games shows where your clock runs
    mine = first.context.new_page()
    mine.goto(f"{server.url}/mine")
    assert mine.inner_text("#playing tr.your-turn .clock").startswith("· 2:5")
    theirs = other.context.new_page()
    theirs.goto(f"{server.url}/mine")
    assert theirs.locator("#playing .clock").count() == 0 and theirs.locator("#playing tr").count() >= 2
    screenshot(mine, "clock-my-games", tmp_path)
    mine.close()
    theirs.close()
    server.advance(181)
    assert verdict(first).startswith("You lost on time")
    assert verdict(other).endswith("lost on time: you win")
    screenshot(pages[1], "clock-on-time-phone", tmp_path)
    screenshot(pages[0], "clock-on-time-desktop", tmp_path)


def test_a_turn_based_game_counts_days_per_move(server: Shifted, people: list[BrowserContext], tmp_path: Path) -> None:
    pages = open_game(server, people, "1d")
    first = mover(pages)
    assert first.inner_text("#seats .clock.running") in ("1d 0h", "23:59:59")
    server.advance(0.9 * 86400)
    play_one(first)  # with a tenth of the day left: the next move has a whole day again
    second = mover(pages)
    second.wait_for_function("() => /^(1d 0h|23:59:\\d\\d)$/.test(document.querySelector('#seats .clock.running').textContent)")
    screenshot(pages[0], "clock-days-desktop", tmp_path)
    screenshot(pages[1], "clock-days-phone", tmp_path)
    server.advance(1.01 * 86400)
    assert verdict(second).startswith("You lost on time")
    assert verdict(first).endswith("you win")


def test_a_win_is_claimed_against_an_absent_opponent(server: Shifted, people: list[BrowserContext],
                                                     tmp_path: Path) -> None:
    anna, bob = open_game(server, people, "5+3")
    bob.close()  # bob's tab closed
    anna.wait_for_selector("#claim:not([hidden])")
    assert "you can claim the win in" in anna.inner_text("#claim")
    screenshot(anna, "clock-claim-countdown-desktop", tmp_path)
    server.advance(31)
    anna.reload()  # the page is told the countdown is over (a state's figures)
    anna.locator("#claim button.claim-win").click()
    assert verdict(anna).endswith("left the game: you win (claimed)")
    screenshot(anna, "clock-claimed-desktop", tmp_path)


def test_a_crossroads_seat_that_runs_out_is_played_by_the_ai(server: Shifted, people: list[BrowserContext],
                                                             tmp_path: Path) -> None:
    pages = open_game(server, people, "3+2", game="crossroads", players=3)
    gone = mover(pages)
    staying = [p for p in pages if p is not gone]
    server.advance(181)
    for page in staying:
        page.wait_for_selector("#seats li.kind-ai")
    # the AI plays the seat and the game goes on to another person
    staying[0].wait_for_function("() => document.querySelector('#seats li.kind-ai.to-move') === null")
    screenshot(pages[1], "clock-zombie-phone", tmp_path)
    resigner = staying[0]
    resigner.on("dialog", lambda d: d.accept())
    resigner.click("#resign-button")
    staying[1].wait_for_selector("#result:not([hidden])")
    lines = staying[1].inner_text("#breakdown")
    assert "ran out of time and left; the medium AI played on for them" in lines
    screenshot(staying[1], "clock-zombie-result", tmp_path)


def test_abort_before_everyone_moved_and_resign_after(server: Shifted, people: list[BrowserContext],
                                                      tmp_path: Path) -> None:
    anna, bob = open_game(server, people, "10+5")
    assert anna.locator("#abort-button").is_visible() and bob.locator("#abort-button").is_visible()
    bob.click("#abort-button")
    assert verdict(anna).startswith("Aborted") and verdict(bob).startswith("Aborted")
    screenshot(bob, "clock-aborted-phone", tmp_path)

    anna, bob = open_game(server, people, "10+5")
    first = mover([anna, bob])
    play_one(first)
    second = bob if first is anna else anna
    play_one(second)
    for page in (anna, bob):
        page.wait_for_selector("#abort-button", state="hidden")
    bob.click("#resign-button")
    assert "resigned" in verdict(anna) and verdict(bob).startswith("You resigned")
    screenshot(bob, "clock-resigned-phone", tmp_path)


def test_the_page_says_how_long_it_thought_over_a_move(server: Shifted, people: list[BrowserContext]) -> None:
    pages = open_game(server, people, "3+2")
    first = mover(pages)
    sent: list[dict[str, Any]] = []
    first.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(json.loads(frame))))
    first.reload()  # its connection made anew, now watched
    first.wait_for_selector("#game.my-turn")
    first.wait_for_timeout(400)  # a person thinking
    play_one(first)
    [act] = [m for m in sent if m.get("type") == "act"]
    # from the turn reaching the page (after the reload) to the move: the 0.4 s at least, the
    # page's whole life at most; the server credits the rest of what the clock ran as lag
    assert isinstance(act["thought"], (int, float)) and 0.4 <= act["thought"] < 60, act
