"""The banner honest about the connection (issue 39): "Your turn" is said once (the badge),
the badge is off while the connection is down (the status's plain words stay), and the "Not
connected..." message about a move clicked then is on the screen, not under a tall board at
the fold. At 1280x900 and at 390x844 with touch; screenshots in docs/web/turn-offline-*.png."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .conftest import DESKTOP, PHONE, LiveServer
from .test_play import start
from .test_rough_edges import on_board

pytestmark = pytest.mark.browser

#: how many elements of the banner show the words "Your turn"
SAID = """() => [...document.querySelectorAll('#banner *')].filter((el) => el.children.length === 0
    && el.textContent.trim() === 'Your turn' && el.getClientRects().length > 0).length"""


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_your_turn_once_and_off_while_down_and_the_warning_in_view(browser: Browser, fresh_server: LiveServer,
                                                                  tmp_path: Path, phone: bool) -> None:
    ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, has_touch=phone, is_mobile=phone)
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        start(page, fresh_server, "pillage", seats=["me", "easy"])  # the standard board: taller than the window
        page.wait_for_selector("#game.my-turn")
        assert page.evaluate(SAID) == 1
        move = on_board(page)[0]
        fresh_server.kill()
        page.wait_for_selector("#link.reconnecting")
        assert page.evaluate(SAID) == 1  # the status's plain words; the badge is off
        assert not page.locator("#turn").is_visible()
        # a move clicked near the top of the board: the warning is on the screen as it is
        line = page.locator(f'#board [data-action="{move}"]').first
        line.evaluate("e => e.scrollIntoView({block: 'start'})")
        box = line.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        warning = page.locator("#message")
        assert "Not connected to the server" in warning.inner_text()
        seen = warning.bounding_box()
        height = (PHONE if phone else DESKTOP)["height"]
        assert seen is not None and 0 <= seen["y"] and seen["y"] + seen["height"] <= height, seen
        # the screen as seen (the warning keeps to the window's foot), not the whole page
        target = Path(os.environ.get("PLUNDER_SCREENSHOTS") or tmp_path)
        page.screenshot(path=str(target / f"turn-offline-{'phone' if phone else 'desktop'}.png"))
    finally:
        ctx.close()
