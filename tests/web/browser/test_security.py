"""The security policy in a real browser: every game page works under the Content-Security-
Policy with no violation (the page loads, connects and plays a move), the policy blocks inline
script and framing, and a page of another origin on the same host (whose requests carry the
player's cookie) can neither open the player's WebSocket nor resign their game."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Iterator

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page

from .conftest import PHONE, LiveServer, screenshot
from .test_play import crossroads_choice, first_drawn, hubs_choice, legal, pirates_choice, start, wait_turn

pytestmark = pytest.mark.browser

#: each game's quick preset, seats and a chooser of one move by clicks (as tests/web/browser/test_play.py plays)
GAMES: dict[str, tuple[str, list[str], Callable[[Page, list[str], int], None]]] = {
    "pillage": ("example", ["me", "easy"], first_drawn),
    "pirates": ("channel", ["me"], pirates_choice),
    "hubs": ("tiny", ["me", "easy"], hubs_choice),
    "profiteer": ("short", ["me"], first_drawn),
    "crossroads": ("2p", ["me", "easy"], crossroads_choice),
}

#: records every Content-Security-Policy violation of a page (an init script runs whatever the policy)
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
    (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
"""


class OtherSite:
    """A page of another origin on the same host (127.0.0.1, another port): a real server, so
    the browser treats it as the local page it is (a page it made up would count as public
    and be kept off the loopback address whatever the server said)."""

    def __init__(self) -> None:
        self.body = ""
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                body = site.body.encode()
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def other_site() -> Iterator[OtherSite]:
    """:class:`OtherSite`, serving what the test puts in its ``body``."""
    site = OtherSite()
    yield site
    site.close()


def watched(context: BrowserContext) -> tuple[Page, list[str]]:
    """A page of ``context`` and the console messages that speak of the policy."""
    context.add_init_script(WATCH_VIOLATIONS)
    page = context.new_page()
    said: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            said.append(message.text)

    page.on("console", heard)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    return page, said


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_page_plays_under_the_policy(context: BrowserContext, live_server: LiveServer, game: str,
                                               tmp_path: Path) -> None:
    page, said = watched(context)
    answer = page.goto(f"{live_server.url}/")
    assert answer is not None and "script-src 'self'" in answer.headers["content-security-policy"]
    preset, seats, choose = GAMES[game]
    start(page, live_server, game, preset, seats=seats)
    assert wait_turn(page)
    before = page.locator("#log li").count()
    choose(page, legal(page), 0)
    # a function, not an expression: the page's policy forbids evaluating a string
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length > n", arg=before)
    assert page.locator("#message").is_hidden()  # the move was taken, not refused
    assert page.evaluate("window.__violations") == [] and said == []
    assert page.errors == []  # type: ignore[attr-defined]
    screenshot(page, f"csp-{game}", tmp_path)
    if game == "pillage":
        page.set_viewport_size(PHONE)
        screenshot(page, f"csp-{game}-phone", tmp_path)


def test_the_policy_blocks_inline_script_and_framing(context: BrowserContext, live_server: LiveServer,
                                                     other_site: OtherSite) -> None:
    page, said = watched(context)
    start(page, live_server, "pillage", "example", seats=["me", "hotseat"])
    ran = page.evaluate("""() => {
        const s = document.createElement('script');
        s.textContent = 'window.__ran = true';
        document.head.appendChild(s);
        return window.__ran === true;
    }""")
    assert ran is False
    assert any(v.startswith("script-src") for v in page.evaluate("window.__violations"))
    assert any("script-src 'self'" in m for m in said), said
    # another site framing the game page: the browser refuses to show it
    game_url = page.url
    other_site.body = f'<!doctype html><iframe id="f" src="{game_url}" onload="document.title = \'loaded\'"></iframe>'
    page.goto(f"{other_site.url}/frame")
    page.wait_for_function("() => document.title === 'loaded'")
    # the frame holds the browser's own error page in place of the game
    assert len(page.frames) == 2 and page.frames[1].url.startswith("chrome-error:")
    assert page.frames[1].evaluate("() => document.getElementById('game')") is None


def test_a_page_of_another_origin_cannot_use_the_players_websocket(context: BrowserContext, live_server: LiveServer,
                                                                   other_site: OtherSite) -> None:
    page, _ = watched(context)
    start(page, live_server, "pillage", "example", seats=["me", "hotseat"])
    game_url = page.url
    game_id = game_url.rsplit("/", 1)[1]
    # the same host at another port: the browser sends the player's cookie along (cookies do
    # not tell ports apart), so only the server's Origin check stands in the way
    other_site.body = f"""<!doctype html><title>waiting</title><script>
      const ws = new WebSocket("ws://127.0.0.1:{live_server.port}/ws/{game_id}");
      window.opened = false;
      ws.onopen = () => {{ window.opened = true; ws.send(JSON.stringify({{type: "resign"}})); }};
      ws.onmessage = (e) => {{ document.title = "message " + e.data.slice(0, 40); }};
      ws.onclose = (e) => {{ document.title = "closed " + e.code; }};
    </script>"""
    page.goto(f"{other_site.url}/attack")
    page.wait_for_function("() => window.opened || document.title.startsWith('closed')")
    assert page.evaluate("window.opened") is False
    # the game is on, and its player still acts for both seats
    page.goto(game_url)
    page.wait_for_selector("#link.live")
    assert "resigned" not in page.inner_text("#status")
    assert wait_turn(page) and legal(page)
