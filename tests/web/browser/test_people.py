"""The room around the tables in Chromium: a browser names itself and sees its name on a seat
and in the other player's verdict; a game is found again in "My games" after its tab was
closed; a second profile sits down from the lobby; two profiles play a rematch with the seats
rotated. The lobby and My games are saved at desktop and phone size (docs/web/people-*.png)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import DESKTOP, PHONE, LiveServer, screenshot
from .test_play import start

pytestmark = pytest.mark.browser


def name_myself(page: Page, server: LiveServer, name: str) -> None:
    """Open the home page and save ``name`` in the header's name form (open: never chosen)."""
    page.goto(f"{server.url}/")
    expect(page.locator("details.me")).to_have_attribute("open", "")
    page.fill("#name-input", name)
    page.click("#name-form button")
    expect(page.locator("#my-name")).to_have_text(name)
    expect(page.locator("details.me")).not_to_have_attribute("open", "")


def second_page(browser: Browser) -> tuple[BrowserContext, Page]:
    """Another browser profile (its own cookies) at desktop size."""
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(15_000)
    return ctx, ctx.new_page()


def test_a_name_is_refused_or_escaped(page: Page, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/")
    page.fill("#name-input", "The Hard AI")
    page.click("#name-form button")
    expect(page.locator("#name-error")).to_contain_text("may not contain the word AI")
    page.fill("form.name-page input[name=name]", "<b>x</b><img>")
    page.click("form.name-page button[type=submit]")
    expect(page.locator("#my-name")).to_have_text("<b>x</b><img>")
    assert page.locator("header b, header img").count() == 0


def test_lobby_join_names_verdict_and_rematch(page: Page, browser: Browser, live_server: LiveServer,
                                              tmp_path: Path) -> None:
    name_myself(page, live_server, "Anna")
    page.goto(f"{live_server.url}/new/pillage")
    page.select_option("#preset", "small")
    page.select_option('[name="seat.1"]', "open")
    page.check('input[name="listed"][value="anyone"]')
    page.click("button[type=submit].primary")
    page.wait_for_selector("#link.live")
    game_url = page.url
    ctx, bob = second_page(browser)
    try:
        name_myself(bob, live_server, "Bob")
        bob.goto(f"{live_server.url}/lobby")
        row = bob.locator("#lobby tbody tr").first
        expect(row).to_contain_text("Pillage")
        expect(row).to_contain_text("Anna")
        screenshot(bob, "people-lobby", tmp_path)
        bob.set_viewport_size(PHONE)
        screenshot(bob, "people-lobby-phone", tmp_path)
        bob.set_viewport_size(DESKTOP)
        row.get_by_role("button", name="Sit down as Player 2").click()
        bob.wait_for_selector("#link.live")
        assert bob.url == game_url
        expect(bob.locator("#seats")).to_contain_text("Anna")
        expect(page.locator("#seats")).to_contain_text("Bob")  # told when the seat was taken
        bob.on("dialog", lambda dialog: dialog.accept())
        bob.click("#resign-button")
        expect(page.locator("#verdict")).to_have_text("Bob resigned: you win")
        expect(bob.locator("#verdict")).to_have_text("You resigned: Anna wins")
        # a rematch: Anna asks, Bob accepts, both land on the new game with the seats rotated
        page.locator("#rematch-result .rematch-button").click()
        expect(page.locator("#rematch-result .rematch-waiting")).to_contain_text("waiting for 1 player")
        expect(bob.locator("#rematch-result")).to_contain_text("Your opponent offers a rematch.")
        screenshot(bob, "people-rematch", tmp_path)
        bob.locator("#rematch-result .accept-rematch").click()
        bob.wait_for_url(lambda url: url != game_url)
        page.wait_for_url(bob.url)
        page.wait_for_selector("#link.live")
        expect(page.locator("#seats li").first).to_contain_text("Bob")
        expect(page.locator("#seats li").nth(1)).to_contain_text("You")
        expect(bob.locator("#turn")).to_be_visible()  # Bob, second last time, moves first now
    finally:
        ctx.close()
    assert page.errors == []  # type: ignore[attr-defined]


def test_my_games_finds_a_game_after_its_tab_was_closed(page: Page, context: BrowserContext,
                                                        live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "pillage", "small", seats=["me", "easy"])
    game_url = page.url
    page.close()
    again = context.new_page()
    again.goto(f"{live_server.url}/")
    again.click("#mine-link")
    row = again.locator("#playing tbody tr").first
    expect(row).to_contain_text("the easy AI")
    expect(row).to_contain_text("Your turn")
    expect(again.locator("#turn-count")).to_have_text("1")
    expect(again).to_have_title("(1) My games")
    screenshot(again, "people-mine", tmp_path)
    again.set_viewport_size(PHONE)
    screenshot(again, "people-mine-phone", tmp_path)
    again.set_viewport_size(DESKTOP)
    row.get_by_role("link").click()
    again.wait_for_selector("#link.live")
    assert again.url == game_url
    expect(again.locator("#turn")).to_be_visible()
