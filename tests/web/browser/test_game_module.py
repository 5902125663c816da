"""A game's own module (``Client.module``) on the game page: when it cannot be loaded, the page
says so and the game is still played through the move list."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route

from .conftest import LiveServer
from .test_play import start, wait_turn

pytestmark = pytest.mark.browser


def test_a_module_that_does_not_load_leaves_the_move_list_playing(page: Page, live_server: LiveServer) -> None:
    aborted: list[str] = []

    def refuse(route: Route) -> None:
        aborted.append(route.request.url)
        route.abort()

    page.route("**/assets/hubs/client.js", refuse)
    start(page, live_server, "hubs", "tiny", seats=["me", "hotseat"])
    assert aborted  # the page asked for the module
    assert "did not load" in page.inner_text("#message")
    assert wait_turn(page)
    page.click("#moves summary")
    before = page.locator("#log li").count()
    page.locator("#move-list button").first.click()
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=before)
