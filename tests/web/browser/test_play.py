"""Playing in the browser: one whole game of each of the five through clicks on the picture
(the new-game form filled in, the board clicked, the result screen read), an online game
between two browser profiles with a spectator watching, and Crossroads' trade panel.

A test plays like a person who picks among the moves the page offers: it reads the legal
moves from the page's move list and clicks the picture where that move is drawn (a line, a
space, a card, a button; Hubs' lattice points and two dots for a segment). Each game's page is
saved as a PNG (``PLUNDER_SCREENSHOTS=docs/web`` refreshes the docs' pictures).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import pytest
from playwright.sync_api import Browser, Page

from .conftest import DESKTOP, PHONE, LiveServer, point_on_screen, screenshot

pytestmark = pytest.mark.browser

#: most decisions a test makes before it calls the game endless
MAX_CLICKS = 400


def start(page: Page, server: LiveServer, game: str, preset: str | None = None, params: dict[str, str] | None = None,
          seats: list[str] | None = None) -> None:
    """Fill in and send ``game``'s new-game form, then wait for the game page to connect."""
    page.goto(f"{server.url}/new/{game}")
    if preset:
        page.select_option("#preset", preset)
    for name, value in (params or {}).items():
        page.fill(f'[name="p.{name}"]', value)
    for i, kind in enumerate(seats or []):
        page.select_option(f'[name="seat.{i}"]', kind)
    page.click("button[type=submit]")
    page.wait_for_selector("#link.live")


def wait_turn(page: Page) -> bool:
    """Wait until it is this page's turn (True) or the game is over (False)."""
    page.wait_for_function("""() => {
        const g = document.getElementById('game');
        return !document.getElementById('result').hidden || g.classList.contains('over-seen')
            || (g.classList.contains('my-turn') && !g.classList.contains('waiting'));
    }""")
    return page.locator("#result").is_hidden()


def legal(page: Page) -> list[str]:
    """The legal moves the page lists (the move list's buttons)."""
    return page.eval_on_selector_all("#move-list button", "els => els.map(e => e.textContent)")


def click_at(page: Page, selector: str) -> None:
    """A real mouse click at the middle of the element ``selector`` (SVG lines and groups have
    no box Playwright calls visible, so the pointer goes where a person's would)."""
    target = page.locator(selector).first
    # a phone's board scrolls sideways in its frame: the target is brought into view first
    target.evaluate("e => e.scrollIntoView({block: 'nearest', inline: 'nearest'})")
    box = target.bounding_box()
    assert box is not None, f"{selector} is not on the page"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def click_action(page: Page, text: str) -> None:
    """Click the element of the picture that carries the action ``text``."""
    click_at(page, f'#board [data-action="{text}"]')


def drawn(page: Page) -> list[str]:
    """The actions the picture carries, in drawing order."""
    return page.eval_on_selector_all("#board [data-action]", "els => els.map(e => e.dataset.action)")


def play_out(page: Page, choose: Callable[[Page, list[str], int], None]) -> int:
    """Take this page's turns with ``choose(page, legal, turn)`` until the game ends; the
    number of turns taken."""
    for turn in range(MAX_CLICKS):
        if not wait_turn(page):
            return turn
        choose(page, legal(page), turn)
    raise AssertionError(f"the game did not end in {MAX_CLICKS} decisions")


def finish(page: Page, name: str, tmp_path: Path) -> None:
    """The result screen names the verdict and takes the score apart; then the page is saved."""
    page.wait_for_selector("#result:not([hidden])")
    verdict = page.inner_text("#verdict")
    assert verdict.startswith("Game over"), verdict
    assert page.locator("#breakdown li").count() >= 1
    screenshot(page, f"{name}-result", tmp_path)
    page.click("#result-close")
    assert page.locator("#result").is_hidden()
    assert page.locator("#controls").is_hidden()  # nothing left to do but look
    screenshot(page, name, tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]


def first_drawn(page: Page, moves: list[str], _turn: int) -> None:
    """Click the first legal move the picture draws."""
    on_board = [t for t in drawn(page) if t in moves]
    assert on_board, f"no legal move is drawn: {moves[:10]}"
    click_action(page, on_board[0])


def test_pillage_against_the_ai(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "pillage", "example", seats=["me", "easy"])
    assert page.locator("#seats li").count() == 2
    turns = play_out(page, first_drawn)
    assert turns >= 2
    # the log tells every line drawn, the last one marked
    assert page.locator("#log li").count() >= 12
    assert page.locator("#log li.last").count() == 1
    finish(page, "pillage", tmp_path)


def hubs_choice(page: Page, moves: list[str], _turn: int) -> None:
    """Place a dot by clicking its lattice point, or draw a segment by clicking its two dots."""
    move = moves[0]
    if move.startswith("dot "):
        x, y = (int(v) for v in move[4:].split(","))
        point = point_on_screen(page, x, y)
        page.mouse.move(point[0], point[1])
        assert page.locator("#board circle.ghost:not(.bad)").count() == 1  # a free point glows
        page.mouse.click(point[0], point[1])
    else:
        first, second = move[4:].split("-")
        click_at(page, f'#board [data-dot="{first}"]')
        assert page.locator(f'#board [data-dot="{first}"].picked').count() == 1
        assert page.locator(f'#board [data-dot="{second}"].partner').count() == 1
        click_at(page, f'#board [data-dot="{second}"]')


def test_hubs_against_the_ai(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "hubs", "tiny", seats=["me", "easy"])
    turns = play_out(page, hubs_choice)
    assert turns >= 4
    finish(page, "hubs", tmp_path)


def pirates_choice(page: Page, moves: list[str], turn: int) -> None:
    """Sail about for a while, then retire; every choice clicked on the picture."""
    if "retire" in moves and turn > 12:
        click_action(page, "retire")
    elif "stop" in moves and turn % 4 == 3:
        click_action(page, "stop")
    else:
        first_drawn(page, moves, turn)


def test_pirates_solitaire(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "pirates", "channel", seats=["me"])
    turns = play_out(page, pirates_choice)
    assert turns >= 5
    finish(page, "pirates", tmp_path)


def test_profiteer_solitaire(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "profiteer", "short", seats=["me"])
    turns = play_out(page, first_drawn)
    assert turns >= 3
    finish(page, "profiteer", tmp_path)


def crossroads_choice(page: Page, moves: list[str], turn: int) -> None:
    """Build where the picture offers (cities first), trade through the panel, else the first move."""
    if page.locator("#trade").is_visible():
        trade(page, moves)
        return
    for kind in ("place", "city", "road", "col"):
        found = [t for t in drawn(page) if t.startswith(kind) and t in moves]
        if found:
            click_action(page, found[0])
            return
    first_drawn(page, moves, turn)


def trade(page: Page, _moves: list[str]) -> None:
    """Answer an offer (accept) or make the first one the panel builds, else pass (the panel
    alone holds the trading moves: the move list lists none)."""
    panel = page.locator("#trade")
    accept = panel.get_by_role("button", name="Accept")
    if accept.count():
        accept.click()
        return
    if not panel.locator(".pick").count():
        panel.get_by_role("button", name="Pass").click()
        return
    for label in ("Your city", "With", "Route"):
        row = panel.locator(".pick", has_text=label)
        if row.count() and not row.locator("button.chosen").count():
            row.locator("button").first.click()
    panel.locator(".splits button").first.click()


def test_crossroads_against_the_ai(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "crossroads", "2p", params={"max_rounds": "3"}, seats=["me", "easy"])
    turns = play_out(page, crossroads_choice)
    assert turns >= 4
    finish(page, "crossroads", tmp_path)


def test_online_game_two_players_and_a_spectator(browser: Browser, live_server: LiveServer, tmp_path: Path) -> None:
    host = browser.new_context(viewport=DESKTOP)
    guest = browser.new_context(viewport=PHONE)
    watcher = browser.new_context(viewport=DESKTOP)
    try:
        a = host.new_page()
        start(a, live_server, "pillage", "example", seats=["me", "open"])
        invite = a.input_value(".links input.copy[data-seat='1']")
        watch = a.input_value("#watch-url")
        assert "/join/" in invite and "/watch/" in watch
        b = guest.new_page()
        b.goto(invite)
        b.wait_for_selector("#link.live")
        c = watcher.new_page()
        c.goto(watch)
        c.wait_for_selector("#link.live")
        assert c.locator("#controls").is_hidden() and c.locator("#game.spectator").count() == 1
        players = [a, b]
        # a bound on moves (the example board has fewer lines) and on waiting, counted apart: on a
        # busy machine a turn may take many polls to arrive, which must not use up the moves
        moves, deadline = 0, time.monotonic() + 120
        while not all(not p.locator("#result").is_hidden() for p in players):
            assert moves < 40 and time.monotonic() < deadline, "the online game did not end"
            # whoever's turn it is clicks; the other sees the move arrive without reloading
            mover = next((p for p in players if p.locator("#game.my-turn:not(.waiting)").count()), None)
            if mover is None:
                a.wait_for_timeout(50)
                continue
            other = b if mover is a else a
            assert other.locator("#game.my-turn").count() == 0
            before = other.locator("#log li").count()
            first_drawn(mover, legal(mover), moves)
            moves += 1
            # a function, not an expression: the page's policy forbids evaluating a string
            other.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=before)
        for p in (a, b, c):
            p.wait_for_selector("#result:not([hidden])")
        assert a.inner_text("#verdict") == b.inner_text("#verdict") == c.inner_text("#verdict")
        assert a.inner_text("#log") == b.inner_text("#log") == c.inner_text("#log")
        screenshot(b, "online-phone", tmp_path)
        screenshot(c, "online-spectator", tmp_path)
    finally:
        for ctx in (host, guest, watcher):
            ctx.close()
