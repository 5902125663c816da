"""The room around the tables in Chromium: a browser names itself and sees its name on a seat
and in the other player's verdict; a game is found again in "My games" after its tab was
closed; a second profile sits down from the lobby; two profiles play a rematch with the seats
rotated. The lobby and My games are saved at desktop and phone size (docs/web/people-*.png)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import DESKTOP, PHONE, LiveServer, screenshot
from .test_play import first_drawn, play_out, start

pytestmark = pytest.mark.browser


def name_myself(page: Page, server: LiveServer, name: str) -> None:
    """Open the home page and save ``name`` in the header's name form (open: never chosen;
    folded on a phone, opened by its summary)."""
    page.goto(f"{server.url}/")
    open_name_form(page)
    page.fill("#name-input", name)
    page.click("#name-form button")
    expect(page.locator("#my-name")).to_have_text(name)
    expect(page.locator("details.me")).not_to_have_attribute("open", "")


def open_name_form(page: Page) -> None:
    """Open the header's name form: open on a desktop for a guest, folded on a phone."""
    if (page.viewport_size or DESKTOP)["width"] > 560:
        expect(page.locator("details.me")).to_have_attribute("open", "")
    else:
        expect(page.locator("details.me")).not_to_have_attribute("open", "")
        page.click("#my-name")


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
    page.fill("#name-input", "<b>x</b><img>")
    page.click("#name-form button")
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


def profile(browser: Browser, phone: bool) -> BrowserContext:
    """A browser profile at desktop size, or a touch phone's (390x844)."""
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True) if phone \
        else browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(30_000)  # a replay is drawn by a worker the whole server shares
    return ctx


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_lookalike_name_is_refused_where_it_is_typed(browser: Browser, live_server: LiveServer, tmp_path: Path,
                                                       phone: bool) -> None:
    ctx = profile(browser, phone)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/")
        open_name_form(page)
        page.fill("#name-input", "the hard \u0410I")  # a Cyrillic capital A
        page.click("#name-form button")
        expect(page.locator("#name-error")).to_have_text(
            "A name may not contain '\u0410I': it looks like the word AI, and would pass for an AI seat.")
        assert page.input_value("#name-input") == "the hard \u0410I"  # kept to correct
        page.fill("#name-input", "Y\u043eu")  # a Cyrillic small o
        page.click("#name-form button")
        expect(page.locator("#name-error")).to_contain_text("looks like 'You', the pages' word for a seat")
        page.fill("#name-input", "the hard Al")  # a small L
        page.click("#name-form button")
        expect(page.locator("#name-error")).to_contain_text("it looks like the word AI")
        screenshot(page, f"people-lookalike-{'phone' if phone else 'desktop'}", tmp_path)
        expect(page.locator("#my-name")).not_to_contain_text("AI")
    finally:
        ctx.close()


def test_names_reach_the_seats_the_mute_button_and_a_bidi_line_is_refused(browser: Browser, live_server: LiveServer,
                                                                          tmp_path: Path) -> None:
    contexts = [profile(browser, phone=False), profile(browser, phone=True)]
    try:
        dora, emil = (ctx.new_page() for ctx in contexts)
        name_myself(dora, live_server, "Dora")
        name_myself(emil, live_server, "Emil")
        start(dora, live_server, "pillage", "small", seats=["me", "open"])
        emil.goto(dora.input_value(".links input.copy[data-seat='1']"))
        emil.wait_for_selector("#link.live")
        expect(dora.locator("#seats")).to_contain_text("Emil")
        assert dora.locator("#seats li").all_inner_texts()[0].startswith("You")
        assert emil.locator("#seats li").all_inner_texts()[0].startswith("Dora")
        for p in (dora, emil):
            assert "Player" not in p.inner_text("#seats")
        expect(emil.locator("#talk button.mute[data-seat='0']")).to_have_text("Mute Dora")
        # a line with a right-to-left override is refused, said under the talk, and sent to nobody
        dora.fill("#talk-text", "gg \u202eyalp doog")
        dora.click("#talk-form button[type=submit]")
        expect(dora.locator("#talk-note")).to_have_text(
            "A chat line may not hold direction controls such as RIGHT-TO-LEFT OVERRIDE (U+202E): "
            "they change how the rest of the text reads.")
        emil.fill("#talk-text", "\u200b\u200b\u200b")  # a line of zero-width spaces
        emil.click("#talk-form button[type=submit]")
        expect(emil.locator("#talk-note")).to_contain_text("invisible characters such as ZERO WIDTH SPACE (U+200B)")
        screenshot(dora, "people-bidi-refused-desktop", tmp_path)
        screenshot(emil, "people-bidi-refused-phone", tmp_path)
        emil.fill("#talk-text", "good game")
        emil.click("#talk-form button[type=submit]")
        dora.wait_for_function("() => document.querySelectorAll('#talk-lines li').length >= 1")
        assert dora.locator("#talk-lines li").all_inner_texts() == ["Emil: good game"]
    finally:
        for ctx in contexts:
            ctx.close()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_result_and_the_replay_name_the_players(browser: Browser, live_server: LiveServer, tmp_path: Path,
                                                    phone: bool) -> None:
    ctx = profile(browser, phone)
    try:
        page = ctx.new_page()
        me = "Fritz" if phone else "Gina"
        name_myself(page, live_server, me)
        start(page, live_server, "pillage", "small", seats=["me", "easy"])
        assert page.locator("#seats li").all_inner_texts()[1].startswith("The easy AI")
        play_out(page, first_drawn)
        page.wait_for_selector("#result:not([hidden])")
        breakdown = " ".join(page.locator("#breakdown li").all_inner_texts())
        assert breakdown and not re.search(r"Player \d", breakdown) and (me in breakdown or "easy AI" in breakdown)
        size = "phone" if phone else "desktop"
        screenshot(page, f"people-result-{size}", tmp_path)
        game_id = page.url.rsplit("/", 1)[1]
        page.goto(f"{live_server.url}/replay/game/{game_id}?n=1")
        expect(page.locator(".replay-meta")).to_contain_text(f"{me} vs the easy AI")
        board = page.inner_text("#board")
        assert not re.search(r"Player \d", board) and (me in board or "easy AI" in board), board
        page.click("#next")  # a position drawn on request, by the same names
        expect(page.locator("#at")).to_have_text("2")
        board = page.inner_text("#board")
        assert not re.search(r"Player \d", board) and (me in board or "easy AI" in board), board
        screenshot(page, f"people-replay-{size}", tmp_path)
    finally:
        ctx.close()
