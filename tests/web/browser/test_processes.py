"""Two browsers on two server processes (``plunder serve`` twice on one PostgreSQL database):
they play a Pillage game to the end and talk at the table, each move and line crossing from one
process to the other. Screenshots: ``processes-*.png``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page

from .conftest import servers_on, DESKTOP, PHONE, LiveServer, screenshot
from .test_chat import lines, say, watched
from .test_play import first_drawn, legal, start

pytestmark = pytest.mark.browser

#: decisions a Pillage example game takes at most, both players together
MAX_TURNS = 200
#: how long a turn may take to come round (generous: the machine is shared)
TURN_SECONDS = 60.0


@pytest.fixture
def two_servers(postgres_url: str) -> Iterator[list[LiveServer]]:
    """Two ``plunder serve`` processes on the session's PostgreSQL database."""
    with servers_on(postgres_url, 2) as started:
        yield started


def whose_turn(pages: list[Page]) -> Page | None:
    """The page whose turn it is, or ``None`` once the game is over (waited for)."""
    deadline = time.monotonic() + TURN_SECONDS
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#result").is_visible():
                return None
            if page.evaluate("() => { const g = document.getElementById('game');"
                             " return g.classList.contains('my-turn') && !g.classList.contains('waiting'); }"):
                return page
        time.sleep(0.05)
    raise AssertionError("no turn came round")


def test_two_browsers_on_two_processes_play_and_talk(browser: Browser, two_servers: list[LiveServer],
                                                     tmp_path: Path) -> None:
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=PHONE)]
    try:
        a, b = (watched(ctx) for ctx in contexts)
        start(a, two_servers[0], "pillage", "example", seats=["me", "open"])
        invite = a.input_value(".links input.copy[data-seat='1']")
        # the friend follows the invite on the other process
        b.goto(invite.replace(two_servers[0].url, two_servers[1].url))
        b.wait_for_selector("#link.live")
        assert two_servers[1].url in b.url
        say(a, "Hello from the first process")
        b.wait_for_function("(n) => document.querySelectorAll('#talk-lines li').length >= n", arg=1)
        say(b, "Hello from the second")
        a.wait_for_function("(n) => document.querySelectorAll('#talk-lines li').length >= n", arg=2)
        turns = 0
        while (page := whose_turn([a, b])) is not None:
            before = page.locator("#log li").count()
            first_drawn(page, legal(page), turns)
            page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=before)
            turns += 1
            assert turns < MAX_TURNS
        for page in (a, b):
            page.wait_for_selector("#result:not([hidden])")
        assert a.locator("#log li").count() == b.locator("#log li").count()
        assert lines(a) == lines(b) and len(lines(a)) == 2
        screenshot(a, "processes-desktop", tmp_path)
        screenshot(b, "processes-phone", tmp_path)
        assert a.errors == [] and b.errors == []  # type: ignore[attr-defined]
    finally:
        for ctx in contexts:
            ctx.close()
