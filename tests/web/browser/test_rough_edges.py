"""Rough edges a new player met on the game page (issue 23), each checked in Chromium: the
controls a game between people has no use for are hidden, a move clicked while the server was
away is sent once it is back (and the warning goes), an invite link leaves the page once its
seat is claimed, a refused move is told in the page's words, and no page asks for a missing icon.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, WebSocketRoute

from .conftest import DESKTOP, PHONE, LiveServer, screenshot
from .test_editor import checked, sketch_two_apart
from .test_play import click_action, drawn, legal, start


def on_board(page: Page) -> list[str]:
    """The legal moves the picture draws, in drawing order."""
    moves = set(legal(page))
    return [t for t in drawn(page) if t in moves]

pytestmark = pytest.mark.browser


def test_hint_and_undo_are_hidden_between_people_and_shown_in_hotseat(page: Page, live_server: LiveServer) -> None:
    start(page, live_server, "pillage", "example", seats=["me", "open"])
    assert page.locator("#controls").is_visible()
    assert page.locator("#hint-button").is_hidden() and page.locator("#undo-button").is_hidden()
    assert page.locator("#resign-button").is_visible()
    start(page, live_server, "pillage", "example", seats=["me", "hotseat"])
    assert page.locator("#hint-button").is_visible() and page.locator("#undo-button").is_visible()


def test_a_move_clicked_while_the_server_is_down_is_sent_once_it_is_back(page: Page, fresh_server: LiveServer,
                                                                      tmp_path: Path) -> None:
    start(page, fresh_server, "pillage", "example", seats=["me", "hotseat"])
    page.wait_for_selector("#game.my-turn")
    move = on_board(page)[0]
    fresh_server.kill()
    page.wait_for_selector("#link.reconnecting")
    click_action(page, move)
    message = page.locator("#message")
    assert message.is_visible()
    assert f"your move {move} is sent once the connection is back" in message.inner_text()
    screenshot(page, "roughweb-reconnecting", tmp_path)
    fresh_server.start()
    page.wait_for_selector("#link.live", timeout=30_000)
    # the move went: the log tells it, and the warning is gone
    page.wait_for_function("() => document.querySelectorAll('#log li').length >= 1")
    assert move in page.inner_text("#log")
    page.wait_for_selector("#message", state="hidden")


def test_a_move_that_no_longer_applies_after_a_reconnect_is_said_not_sent(browser: Browser,
                                                                       live_server: LiveServer) -> None:
    host = browser.new_context(viewport=DESKTOP)
    down = [False]  # while True, the page's connections are refused
    live: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        if down[0]:
            ws.close()
        else:
            live.append(ws.connect_to_server())
    try:
        a = host.new_page()
        a.route_web_socket("**/ws/**", route)
        start(a, live_server, "pillage", "example", seats=["me", "hotseat"])
        first, second = on_board(a)[:2]
        down[0] = True
        live[-1].close()
        a.wait_for_selector("#link.reconnecting")
        click_action(a, first)
        # another tab of the same player moves meanwhile: the position the move was meant for is gone
        b = host.new_page()
        b.goto(a.url)
        b.wait_for_selector("#link.live")
        click_action(b, second)
        b.wait_for_function("() => document.querySelectorAll('#log li').length >= 1")
        down[0] = False
        a.wait_for_selector("#link.live", timeout=30_000)
        a.wait_for_function("() => document.getElementById('message').textContent.includes('was not sent')")
        assert first in a.inner_text("#message") and first not in a.inner_text("#log")
        assert second in a.inner_text("#log")
    finally:
        host.close()


def test_the_invite_link_goes_once_the_friend_has_joined(browser: Browser, live_server: LiveServer,
                                                       tmp_path: Path) -> None:
    host = browser.new_context(viewport=DESKTOP)
    guest = browser.new_context(viewport=PHONE)
    try:
        a = host.new_page()
        start(a, live_server, "pillage", "example", seats=["me", "open"])
        invite = a.locator(".links input.copy[data-seat='1']")
        assert invite.count() == 1
        b = guest.new_page()
        b.goto(invite.input_value())
        b.wait_for_selector("#link.live")
        a.wait_for_selector(".links input.copy[data-seat='1']", state="detached")
        assert a.locator("#watch-url").is_visible()  # the spectators' link stays
        a.reload()
        a.wait_for_selector("#link.live")
        assert a.locator(".links .invite").count() == 0
    finally:
        host.close()
        guest.close()


def test_a_refused_move_is_told_in_the_pages_words(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "profiteer", seats=["me"])
    page.wait_for_selector("#game.my-turn")
    page.click("#moves summary")
    page.fill("#move-text", "take it")
    page.press("#move-text", "Enter")
    page.wait_for_selector("#message:not([hidden])")
    said = page.inner_text("#message")
    # the terminal's advice ("Type ...", "'moves' to list them") has no place on the page
    assert "type" not in said.lower() and "moves" not in said, said
    assert "Click a target on the board or choose from the move list, for example a move like" in said, said


def test_no_page_asks_for_a_missing_icon(page: Page, live_server: LiveServer) -> None:
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.on("response", lambda response: failed.append(response.url) if response.status >= 400 else None)
    errors: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)
    page.on("console", console)
    for path in ("/", "/new/pillage", "/replay", "/editor"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
    icon = page.request.get(live_server.url + "/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert page.locator("link[rel=icon]").count() == 1
    # an incomplete board in the editor is an answer in the page, not an HTTP error
    sketch_two_apart(page)
    checked(page, "error")
    assert failed == [] and errors == [], (failed, errors)


@pytest.mark.parametrize("game", ["pillage", "pirates", "hubs", "profiteer", "crossroads"])
def test_the_new_game_form_speaks_words_with_names_for_designers(page: Page, live_server: LiveServer,
                                                                 game: str, tmp_path: Path) -> None:
    page.goto(f"{live_server.url}/new/{game}")
    fields = page.eval_on_selector_all(
        "label.row.param", "els => els.map(e => [e.querySelector('span').textContent, e.querySelector('span').title, "
        "e.querySelector('[data-param]').dataset.param])")
    assert fields
    for label, title, name in fields:
        assert label != name and label[:1].isupper() and "_" not in label, (label, name)
        assert title.startswith(f"{name}: "), title  # the parameter's name, for designers
    shown = page.inner_text("#new-game")
    assert not re.search(r"\b[A-Z]{2}-\d+\b", shown), "a ruling id is shown on the form"
    if game == "hubs":
        screenshot(page, "roughweb-newgame", tmp_path)
        page.set_viewport_size(PHONE)
        screenshot(page, "roughweb-newgame-phone", tmp_path)


@pytest.mark.parametrize("game,preset", [("hubs", "small"), ("profiteer", None)])
def test_a_hint_says_which_move_and_why_in_words_inside_its_box(browser: Browser, live_server: LiveServer,
                                                               game: str, preset: str | None, tmp_path: Path) -> None:
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            start(page, live_server, game, preset, seats=["me", "easy"] if game == "hubs" else ["me"])
            page.wait_for_selector("#game.my-turn")
            page.click("#hint-button")
            page.wait_for_function("() => (document.querySelector('#hint p') || {}).textContent?.startsWith('Play ')",
                                   timeout=60_000)
            lines = page.eval_on_selector_all("#hint p", "els => els.map(e => e.textContent)")
            assert lines[0][5:].split(" (")[0].rstrip(".") in legal(page), lines
            assert lines[1].startswith("Why: "), lines
            said = " ".join(lines)
            assert not re.search(r"mcts|root=|sims=|±|visits|'s move", said), said
            # nothing sticks out of the hint's box
            wide = page.eval_on_selector("#hint", "el => [el.scrollWidth, el.clientWidth]")
            assert wide[0] <= wide[1], f"the hint is {wide[0]}px wide in a box of {wide[1]}px"
            if game == "hubs":
                page.locator("#hint").scroll_into_view_if_needed()
                screenshot(page, f"roughweb-hint-{size}", tmp_path)
        finally:
            context.close()


def test_the_replay_list_shows_who_played_and_who_won(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "pillage", "example", seats=["me", "easy"])
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign-button")
    page.wait_for_selector("#result:not([hidden])")
    game_id = page.url.rsplit("/", 1)[1]
    page.goto(live_server.url + "/replay")
    row = page.locator(f"table.finished tr:has(a[href$='{game_id}'])")
    me = page.inner_text("#my-name")
    assert row.locator("td.players").inner_text() == f"{me}, the easy AI"  # the names they played under
    assert row.locator("td.verdict").inner_text() == f"{me} resigned: the easy AI wins"  # by the players' names
    screenshot(page, "roughweb-replays", tmp_path)
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the list is {width}px wide on a {PHONE['width']}px screen"
    screenshot(page, "roughweb-replays-phone", tmp_path)


def test_profiteer_switches_are_finger_sized_on_a_phone(browser: Browser, live_server: LiveServer,
                                                       tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        start(page, live_server, "profiteer", seats=["me"])
        for _ in range(40):  # play "keep" until a decision offers switches
            page.wait_for_selector("#game.my-turn:not(.waiting)")
            moves = legal(page)
            if any(m.startswith("switch ") for m in moves):
                break
            target = "keep" if "keep" in moves else moves[0]
            page.locator(f'#board [data-action="{target}"]').first.tap()
        switches = [m for m in legal(page) if m.startswith("switch ")]
        assert switches, "no decision offered a switch"
        buttons = page.locator("#profiteer-switches button.switch")
        assert buttons.count() == len(switches)
        for i in range(buttons.count()):
            box = buttons.nth(i).bounding_box()
            assert box is not None and box["width"] >= 40 and box["height"] >= 40, box
        screenshot(page, "roughweb-profiteer-switches-phone", tmp_path)
        before = page.locator("#log li").count()
        buttons.first.tap()
        # the tap played the switch: the log tells one more move
        page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=before)
    finally:
        context.close()
