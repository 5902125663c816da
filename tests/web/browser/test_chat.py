"""Table talk in the browser: two players talk while a spectator reads, a player mutes another
(remembered on reload), every line shown as text; and Crossroads' negotiation: the trade panel
in view beside the board at 1280x900 with no raw list of offers, a relayed offer sent from the
panel, and an offer told at the table. Screenshots: ``chat-*.png``."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from plunder.core.record import Move
from plunder.core.registry import load_game
from plunder.web.security import COOKIE
from plunder.web.store import HUMAN, ON, GameRow, SeatRow, Store, token_hash
from plunder.web.security import new_token

from ..test_client_modules import to_first_relayed_offer
from .conftest import DESKTOP, PHONE, LiveServer, screenshot
from .test_play import crossroads_choice, legal, start, wait_turn

pytestmark = pytest.mark.browser


def watched(context: BrowserContext) -> Page:
    """A page of ``context`` whose script errors fail the test (:func:`errors`)."""
    page = context.new_page()
    found: list[str] = []
    page.on("pageerror", lambda exc: found.append(str(exc)))
    page.errors = found  # type: ignore[attr-defined]
    return page


def say(page: Page, text: str) -> None:
    """Type a line in the talk panel and send it."""
    page.fill("#talk-text", text)
    page.click("#talk-form button[type=submit]")


def lines(page: Page) -> list[str]:
    """The talk lines the page shows."""
    return page.eval_on_selector_all("#talk-lines li", "els => els.map(e => e.textContent)")


def test_two_players_talk_a_spectator_reads_and_a_player_mutes(browser: Browser, live_server: LiveServer,
                                                                tmp_path: Path) -> None:
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE),
                browser.new_context(viewport=DESKTOP)]
    try:
        a, b, c = (watched(ctx) for ctx in contexts)
        start(a, live_server, "pillage", "example", seats=["me", "open"])
        # before the friend sits down the seat is open: the talk is there, waiting
        b.goto(a.input_value(".links input.copy[data-seat='1']"))
        c.goto(a.input_value("#watch-url"))
        for p in (b, c):
            p.wait_for_selector("#link.live")
        for p in (a, b, c):
            assert p.locator("#talk").is_visible()
        # the spectator reads only
        assert c.locator("#talk-form").is_hidden() and c.locator(".talk-watching").is_visible()
        say(a, "Good luck! <b>bold</b> & <img src=x onerror=alert(1)>")
        # a line is signed with its player's name, as the header shows each browser its own
        na, nb = a.inner_text("#my-name"), b.inner_text("#my-name")
        shown = f"{na}: Good luck! <b>bold</b> & <img src=x onerror=alert(1)>"
        for p in (a, b, c):
            p.wait_for_function("(n) => document.querySelectorAll('#talk-lines li').length >= n", arg=1)
            assert lines(p) == [shown]
            # text, never markup
            assert p.locator("#talk-lines b, #talk-lines img").count() == 0
        say(b, "Thanks, you too")
        for p in (a, c):
            p.wait_for_function("(n) => document.querySelectorAll('#talk-lines li').length >= n", arg=2)
        assert lines(c) == [shown, f"{nb}: Thanks, you too"]
        screenshot(a, "chat-desktop", tmp_path)
        screenshot(b, "chat-phone", tmp_path)
        # a player mutes another with one click: that seat's lines are hidden, and stay so
        b.click("#talk button.mute[data-seat='0']")
        assert lines(b) == [f"{nb}: Thanks, you too"]
        assert b.locator("#talk button.mute[data-seat='0']").inner_text() == f"Unmute {na}"  # by name
        say(a, "can you hear me?")
        c.wait_for_function("(n) => document.querySelectorAll('#talk-lines li').length >= n", arg=3)
        b.reload()
        b.wait_for_selector("#link.live")
        b.wait_for_function("() => document.querySelectorAll('#talk-lines li').length >= 1")
        assert lines(b) == [f"{nb}: Thanks, you too"]
        b.click("#talk button.mute[data-seat='0']")
        assert lines(b) == [shown, f"{nb}: Thanks, you too", f"{na}: can you hear me?"]
        for p in (a, b, c):
            assert p.errors == []  # type: ignore[attr-defined]
    finally:
        for ctx in contexts:
            ctx.close()


def to_trade(page: Page) -> None:
    """Build through the board until this page's trade panel asks for an offer."""
    for turn in range(400):
        assert wait_turn(page), "the game ended before any trade"
        if page.locator("#trade .pick").count():
            return
        crossroads_choice(page, legal(page), turn)
    raise AssertionError("no trading turn came")


def test_crossroads_trade_panel_in_view_without_a_raw_offer_list(page: Page, live_server: LiveServer) -> None:
    start(page, live_server, "crossroads", "2p", seats=["me", "easy"])
    to_trade(page)
    box = page.locator("#trade").bounding_box()
    assert box is not None
    # where the eye is: in the window of a 1280x900 desktop, nothing scrolled
    assert page.evaluate("() => window.scrollY") == 0
    assert 0 <= box["y"] and box["y"] + box["height"] <= DESKTOP["height"], box
    assert box["x"] > DESKTOP["width"] / 2  # beside the board
    # no raw list of offers, in the picture or the move list: the panel makes them
    assert page.locator('#board [data-action^="offer"]').count() == 0
    assert not [t for t in legal(page) if t.startswith("offer")]
    assert page.locator("#trade .pick button").count() >= 1


def test_crossroads_trade_panel_on_a_phone_is_right_under_the_board(browser: Browser, live_server: LiveServer,
                                                                     tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = watched(context)
        start(page, live_server, "crossroads", "2p", seats=["me", "easy"])
        to_trade(page)
        board = page.locator("#board").bounding_box()
        panel = page.locator("#trade").bounding_box()
        assert board is not None and panel is not None
        # the message line may sit between them, nothing else
        assert 0 <= panel["y"] - (board["y"] + board["height"]) < 80, (board, panel)
        screenshot(page, "chat-crossroads-phone", tmp_path)
    finally:
        context.close()


def seated_at(contexts: list[BrowserContext], server: LiveServer, game: str, params: dict[str, str],
              moves: list[Move]) -> str:
    """A game stored with ``moves`` made, its first seat held by the first context and every
    other seat by the last (one context: every seat its own); its id."""
    tokens = [new_token() for _ in contexts]
    loaded = load_game(game, **params)
    holders = [tokens[0]] + [tokens[-1]] * (loaded.num_players - 1)
    row = GameRow(new_token(), game, dict(loaded.params), 7, ON, token_hash(tokens[0]),
                  [SeatRow(HUMAN, token=token_hash(t)) for t in holders], moves=moves)
    store = Store(f"sqlite:///{server.db}")
    try:
        store.create(row)
    finally:
        store.close()
    for context, token in zip(contexts, tokens):
        context.add_cookies([{"name": COOKIE, "value": token, "url": server.url}])
    return row.id


def test_crossroads_panel_drops_a_choice_the_position_no_longer_offers(browser: Browser, live_server: LiveServer) -> None:
    # Player 1 picks I9 and H5, then passes; Player 2 trades with H5, which is then used this
    # round: back on Player 1's turn the panel must not offer (or break on) the pair I9-H5
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)]
    try:
        a, b = (watched(ctx) for ctx in contexts)
        game_id = seated_at(contexts, live_server, "crossroads", {"players": "4"}, to_first_relayed_offer(0))
        for p in (a, b):
            p.goto(f"{live_server.url}/play/{game_id}")
            p.wait_for_selector("#link.live")
        assert wait_turn(a)
        a.locator("#trade .pick", has_text="Your city").locator("button[data-value='I9']").click()
        a.locator("#trade .pick", has_text="With").locator("button[data-value='H5']").click()
        a.locator("#trade").get_by_role("button", name="Pass").click()
        assert wait_turn(b)  # Player 2 offers J7-H5, Player 4 accepts, Players 3 and 4 pass
        b.locator("#trade .pick", has_text="Your city").locator("button[data-value='J7']").click()
        b.locator("#trade .pick", has_text="With").locator("button[data-value='H5']").click()
        for button in (b.locator("#trade .splits button").first, *(b.locator("#trade").get_by_role("button", name=answer)
                                                                   for answer in ("Accept", "Pass", "Pass"))):
            # one move at a time: the next button is pressed once the last move is in the log
            last = b.inner_text("#log li.last")
            button.click()
            b.wait_for_function("(t) => document.querySelector('#log li.last').textContent !== t", arg=last)
        assert wait_turn(a)
        a.wait_for_selector("#trade .pick")
        assert a.locator("#message").is_hidden(), a.inner_text("#message")
        assert a.locator("#trade .pick", has_text="With").count() == 1
        assert a.locator("#trade button[data-value='H5']").count() == 0
        assert a.locator("#trade .splits").count() == 0  # nothing chosen past the city
        for p in (a, b):
            assert p.errors == []  # type: ignore[attr-defined]
    finally:
        for ctx in contexts:
            ctx.close()


def test_crossroads_relayed_offer_sent_from_the_panel_and_told_at_the_table(context: BrowserContext, page: Page,
                                                                          live_server: LiveServer, tmp_path: Path) -> None:
    game_id = seated_at([context], live_server, "crossroads", {"players": "4"}, to_first_relayed_offer(0))
    page.goto(f"{live_server.url}/play/{game_id}")
    page.wait_for_selector("#link.live")
    assert wait_turn(page)
    panel = page.locator("#trade")
    assert panel.is_visible()
    # the only relayed route of this position: I9 to H5 through J7 (Player 2's city)
    panel.locator(".pick", has_text="Your city").locator("button[data-value='I9']").click()
    panel.locator(".pick", has_text="With").locator("button[data-value='H5']").click()
    route = panel.locator(".pick", has_text="Route")
    if route.count():
        route.locator("button[data-value='J7']").click()
    splits = panel.locator(".splits button")
    assert splits.count() == 10, splits.all_inner_texts()  # 3 gold between 3: you, Player 4, J7
    splits.filter(has_text="you 1 · You (Player 4) 1 · J7 1").click()  # every seat is this browser's
    # the log's words (the seats named by their players: here one browser holds them all)
    page.wait_for_function("() => [...document.querySelectorAll('#log li')].some(e => "
                           "e.textContent.includes(' offers I9-H5 via J7 ') && e.textContent.includes('fee 1'))")
    told = next(t for t in page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
                if " offers I9-H5 via J7 " in t)
    # and at the table, in the game's words
    page.wait_for_function("(t) => [...document.querySelectorAll('#talk-lines li')].some(e => e.textContent === t)",
                           arg=told)
    say(page, "J7 asks only 1: take it?")
    page.wait_for_function("() => document.querySelectorAll('#talk-lines li').length >= 2")
    screenshot(page, "chat-crossroads-desktop", tmp_path)
    assert page.errors == []  # type: ignore[attr-defined]
