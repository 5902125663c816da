"""The new-game form's help and the lobby speak words (issue 39): under each field, what it is and values
the presets give it as examples, never a grammar ("forms: square:RxC, ... json:TEXT"), which
stays for designers in the help's tooltip; yes and no rather than true and false; preset names
as words; the lobby's column of when a game was opened says so. At 1280x900 and at 390x844 with touch; screenshots in docs/web/words-form-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .conftest import DESKTOP, PHONE, LiveServer, screenshot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_new_game_forms_help_speaks_words(browser: Browser, live_server: LiveServer, tmp_path: Path,
                                              phone: bool) -> None:
    ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, has_touch=phone, is_mobile=phone)
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        for game in ("pillage", "profiteer", "pirates", "hubs", "crossroads"):
            page.goto(f"{live_server.url}/new/{game}")
            helps = page.locator("form.new-game label.param small").all_inner_texts()
            assert helps, game
            for text in helps:
                assert "forms:" not in text and "RxC" not in text and "TEXT" not in text, (game, text)
            options = page.locator("form.new-game select option").all_inner_texts()
            assert not {"true", "false"} & set(options), (game, options)
            assert not any("_" in o for o in page.locator("#preset option").all_inner_texts()), game
        # the board's syntax is kept for designers in the tooltip; an example is in words' place
        page.goto(f"{live_server.url}/new/pillage")
        board = page.locator("label.param:has([name='p.board']) small")
        assert "square:RxC" in (board.get_attribute("title") or "")
        assert "for example square:" in board.inner_text()
        page.goto(f"{live_server.url}/new/profiteer")
        assert "war switch" in page.locator("#preset option").all_inner_texts()
        screenshot(page, f"words-form-{'phone' if phone else 'desktop'}", tmp_path)
    finally:
        ctx.close()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_lobbys_columns_say_what_they_mean(browser: Browser, live_server: LiveServer, tmp_path: Path,
                                               phone: bool) -> None:
    ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, has_touch=phone, is_mobile=phone)
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/new/pillage")
        page.select_option("#preset", "small")
        page.select_option('[name="seat.1"]', "open")
        page.check("input[name=listed][value=anyone]")
        page.click("button[type=submit].primary")
        page.wait_for_selector("#link.live")
        page.goto(f"{live_server.url}/lobby")
        if not phone:  # a phone shows the rows as cards, without the heads
            assert page.locator("#lobby thead th").all_inner_texts()[:4] == ["Game", "Variant", "Seated", "Opened"]
        opened = page.locator("#lobby td.opened").first.inner_text()
        assert opened == "opened just now" or (opened.startswith("opened ") and opened.endswith(" ago")), opened
        screenshot(page, f"words-lobby-{'phone' if phone else 'desktop'}", tmp_path)
    finally:
        ctx.close()
