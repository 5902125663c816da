"""The example game Pig (``examples/pig``, installed from outside Plunder) in the browser: the
new-game form, the picture's roll and hold buttons clicked against the AI to the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from .conftest import PHONE, LiveServer, screenshot
from .test_play import click_action, drawn, finish, legal, play_out, start

pytestmark = pytest.mark.browser


def test_pig_against_the_ai(page: Page, live_server: LiveServer, tmp_path: Path) -> None:
    start(page, live_server, "pig", "quick", seats=["me", "medium"])
    assert page.locator("#seats li").count() == 2
    assert sorted(drawn(page)) == ["roll"] == legal(page)  # nothing to hold before the first roll (PG-3)
    click_action(page, "roll")
    # the move is acknowledged: the die's roll follows it in the log, and it is our turn or theirs
    page.wait_for_function("() => document.querySelectorAll('#log li').length >= 2")
    assert f"{page.inner_text('#my-name')} rolls" in page.inner_text("#log")  # the log names the player
    assert "the die shows" in page.inner_text("#log")
    screenshot(page, "pig-desktop", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "pig-phone", tmp_path)

    def roll_once_then_hold(page: Page, moves: list[str], _turn: int) -> None:
        click_action(page, "hold" if "hold" in moves else "roll")

    assert play_out(page, roll_once_then_hold) >= 1
    assert page.locator("#log li.last").count() == 1
    finish(page, "pig-end", tmp_path)
