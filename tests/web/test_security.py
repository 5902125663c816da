"""Who may act for a seat and what keeps other sites out: seat tokens minted by the server
only (a token in an address never becomes the cookie; a cookie-less client passes its token
in a header that is never stored), the Origin rule on every state-changing request and
WebSocket, and the security headers of every response (docs/web.md, "Seats and tokens")."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Iterator

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from plunder.core.registry import game_ids
from plunder.web.app import create_app
from plunder.web.limits import MAX_MESSAGE_DEPTH, deeper_than
from plunder.web.security import COOKIE, TOKEN_HEADER, TOKEN_SHAPE
from plunder.web.security import new_token

#: the origin of the pages the test client is served (its requests go to http://testserver)
OWN = "http://testserver"
#: a preset that makes a quick game of each, as the browser tests use
PRESETS = {"pillage": "small", "pirates": "channel", "hubs": "tiny", "profiteer": "short", "crossroads": "2p",
           "pig": "quick", "stones": "standard"}


@pytest.fixture
def app_db(tmp_path: Path) -> str:
    """A fresh SQLite database URL."""
    return f"sqlite:///{tmp_path / 'plunder.db'}"


@pytest.fixture
def client(app_db: str) -> Iterator[TestClient]:
    """The app, its AI in a thread."""
    with TestClient(create_app(app_db, ai_workers=0)) as c:
        yield c


def created(answer_location: str) -> str:
    """The game id of a ``/play/{id}`` redirect."""
    return answer_location.rsplit("/", 1)[1]


def new_game(client: TestClient, seats: dict[str, str], game: str = "pillage", headers: dict[str, str] | None = None,
             query: str = "") -> tuple[str, str | None]:
    """POST the new-game form with ``seats`` (``seat.<i>`` fields): (game id, the cookie the
    answer sets, if any)."""
    answer = client.post(f"/new/{game}{query}", data={"preset": PRESETS[game], **seats},
                         headers=headers or {}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return created(answer.headers["location"]), answer.cookies.get(COOKIE)


def seats_of(client: TestClient, game_id: str, headers: dict[str, str] | None = None) -> list[int]:
    """The seats the client's token acts for in ``game_id`` (the WebSocket's first state)."""
    with client.websocket_connect(f"/ws/{game_id}", headers=dict(headers or {})) as ws:
        message = ws.receive_json()
        assert message["type"] == "state", message
        return list(message["you"])


def test_a_token_in_the_address_never_becomes_the_cookie(app_db: str) -> None:
    app = create_app(app_db, ai_workers=0)
    with TestClient(app) as attacker, TestClient(app) as victim:
        game_id, mine = new_game(attacker, {"seat.0": "me", "seat.1": "open"})
        assert mine  # a newcomer's token, minted by the server
        invite = attacker.get(f"/play/{game_id}").text.split('/join/', 1)[1].split('"', 1)[0]
        # the attacker's invite link carries the attacker's own token
        joined = victim.get(f"/join/{invite}?token={mine}", follow_redirects=False)
        assert joined.status_code == 303
        given = joined.cookies.get(COOKIE)
        assert given and given != mine
        assert seats_of(attacker, game_id) == [0] and seats_of(victim, game_id) == [1]
        # a form posting to /new?token=X (from this origin, so that the Origin rule does not refuse
        # it first): X is neither the cookie nor the seat's token
        victim.cookies.clear()
        other, given = new_game(victim, {"seat.0": "me"}, query=f"?token={mine}", headers={"origin": OWN})
        assert given and given != mine
        assert seats_of(attacker, other) == [] and seats_of(victim, other) == [0]


def test_a_request_carrying_its_cookie_keeps_it(client: TestClient) -> None:
    first, token = new_game(client, {"seat.0": "me", "seat.1": "hotseat"})
    assert token
    second, again = new_game(client, {"seat.0": "me"}, query="?token=" + "A" * 24)
    assert again is None and client.cookies.get(COOKIE) == token  # not set again, not replaced
    assert seats_of(client, first) == [0, 1] and seats_of(client, second) == [0]


def test_cookie_less_clients_pass_their_token_in_a_header_that_is_never_stored(client: TestClient) -> None:
    game_id, token = new_game(client, {"seat.0": "me", "seat.1": "easy"})
    assert token
    client.cookies.clear()
    mine = {TOKEN_HEADER: token}
    other, given = new_game(client, {"seat.0": "me", "seat.1": "hotseat"}, headers=mine)
    assert given is None and not client.cookies  # the header acted, nothing was stored
    assert seats_of(client, game_id, mine) == [0] and seats_of(client, other, mine) == [0, 1]
    assert seats_of(client, other) == []  # without it: a spectator
    page = client.get(f"/play/{other}", headers=mine)
    assert page.status_code == 200 and "/join/" not in page.text and 'id="watch-url"' in page.text
    # a token the server never minted is refused plainly, never taken as a new one
    for bad in ("short", "A" * 23 + "!", "A" * 200):
        answer = client.post("/new/pillage", data={"preset": "small"}, headers={TOKEN_HEADER: bad},
                             follow_redirects=False)
        assert answer.status_code == 400 and TOKEN_HEADER in answer.text and COOKIE not in answer.cookies
        with client.websocket_connect(f"/ws/{game_id}", headers={TOKEN_HEADER: bad}) as ws:
            refused = ws.receive_json()
            assert refused["type"] == "error" and TOKEN_HEADER in refused["message"]


@pytest.mark.parametrize("headers", [
    {"origin": "https://evil.example"},
    {"origin": "http://testserver:8001"},  # the same host at another port is another origin
    {"origin": "null"},
    {"sec-fetch-site": "cross-site"},  # a browser that sends no Origin still says where it came from
    {"sec-fetch-site": "same-site"},
])
def test_a_cross_site_post_is_refused_and_replaces_no_cookie(client: TestClient, headers: dict[str, str]) -> None:
    game_id, token = new_game(client, {"seat.0": "me", "seat.1": "hotseat"})
    assert token
    client.cookies.clear()  # the Lax cookie is not sent on a cross-site POST
    answer = client.post("/new/pillage", data={"preset": "small"}, headers=headers, follow_redirects=False)
    assert answer.status_code == 403 and "another site" in answer.text
    assert COOKIE not in answer.cookies
    client.cookies.set(COOKIE, token)
    assert seats_of(client, game_id) == [0, 1]


def test_same_origin_and_originless_posts_are_served(client: TestClient) -> None:
    for headers in ({"origin": OWN}, {"origin": OWN, "sec-fetch-site": "same-origin"}, {"sec-fetch-site": "none"}, {}):
        client.cookies.clear()
        _, token = new_game(client, {"seat.0": "me"}, headers=headers)
        assert token


@pytest.mark.parametrize("origin", ["http://testserver:8001", "https://evil.example", "null"])
def test_a_websocket_from_another_origin_is_refused(client: TestClient, origin: str) -> None:
    game_id, _ = new_game(client, {"seat.0": "me", "seat.1": "easy"})
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/ws/{game_id}", headers={"origin": origin}) as ws:
            ws.send_json({"type": "resign"})
            ws.receive_json()
    with client.websocket_connect(f"/ws/{game_id}", headers={"origin": OWN}) as ws:
        message = ws.receive_json()
        assert message["you"] == [0] and not message["over"]  # still on: nobody resigned it


def test_an_invite_is_claimed_by_a_navigation_only(app_db: str) -> None:
    app = create_app(app_db, ai_workers=0)
    with TestClient(app) as host, TestClient(app) as guest:
        game_id, _ = new_game(host, {"seat.0": "me", "seat.1": "open"})
        invite = host.get(f"/play/{game_id}").text.split('/join/', 1)[1].split('"', 1)[0]
        # an image or a frame of another site would arrive without the Lax cookie
        for dest, mode in (("image", "no-cors"), ("iframe", "navigate"), ("empty", "cors")):
            answer = guest.get(f"/join/{invite}", follow_redirects=False, headers={
                "sec-fetch-site": "cross-site", "sec-fetch-mode": mode, "sec-fetch-dest": dest})
            assert answer.status_code == 403 and COOKIE not in answer.cookies
        # the link clicked in a mail or a chat: a top-level navigation from another site
        answer = guest.get(f"/join/{invite}", follow_redirects=False, headers={
            "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document"})
        assert answer.status_code == 303 and answer.cookies.get(COOKIE)
        assert seats_of(guest, game_id) == [1]


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    game_id, _ = new_game(client, {"seat.0": "me", "seat.1": "easy"})
    paths = ["/", "/rules/pillage", "/new/pillage", f"/play/{game_id}", f"/watch/{game_id}", f"/record/{game_id}",
             "/replay", "/editor", "/static/game.js", "/static/style.css", "/nowhere"]
    for path in paths:
        answer = client.get(path)
        csp = answer.headers.get("content-security-policy", "")
        directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
        assert directives.get("script-src") == ["'self'"], (path, csp)
        assert directives.get("frame-ancestors") == ["'none'"], (path, csp)
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp, (path, csp)
        assert answer.headers.get("x-content-type-options") == "nosniff", path
        assert answer.headers.get("referrer-policy") == "same-origin", path
        assert answer.headers.get("x-frame-options") == "DENY", path
    refused = client.post("/new/pillage", data={}, headers={"origin": "https://evil.example"})
    assert refused.status_code == 403 and "frame-ancestors 'none'" in refused.headers["content-security-policy"]


def test_a_server_error_page_carries_them_too(app_db: str) -> None:
    app = create_app(app_db, ai_workers=0)

    async def broken(request: Request) -> Response:
        raise RuntimeError("a bug")

    app.router.routes.append(Route("/broken", broken))
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/broken")
    assert answer.status_code == 500 and "Traceback" not in answer.text
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["x-content-type-options"] == "nosniff"


class InlineCode(HTMLParser):
    """What a page has that a Content-Security-Policy without ``'unsafe-inline'`` blocks:
    scripts without ``src`` (other than JSON data blocks), ``on...=`` handlers, ``style=``
    attributes and ``<style>`` elements, and ``javascript:`` links."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script":
            self.scripts += 1
            if not values.get("src") and values.get("type") != "application/json":
                self.found.append(f"inline <script> {values}")
        if tag == "style":
            self.found.append("a <style> element")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value!r}>")


def test_no_page_has_inline_code_the_policy_would_block(client: TestClient) -> None:
    paths = ["/", "/replay", "/editor"]
    for game in game_ids():
        seats = {"seat.0": "me", "seat.1": "easy"} if game not in ("pirates", "profiteer") else {"seat.0": "me"}
        game_id, _ = new_game(client, seats, game)
        paths += [f"/new/{game}", f"/rules/{game}", f"/play/{game_id}", f"/watch/{game_id}"]
    for path in paths:
        page = client.get(path)
        assert page.status_code == 200, path
        parser = InlineCode()
        parser.feed(page.text)
        assert parser.found == [], (path, parser.found[:5])
    assert parser.scripts >= 1  # the parser saw the game page's scripts


def test_the_token_shape_is_the_shape_of_the_tokens_the_server_mints() -> None:
    assert all(TOKEN_SHAPE.fullmatch(new_token()) for _ in range(200))


def test_nesting_is_counted_outside_strings_only() -> None:
    assert not deeper_than('{"type": "act", "action": "[[[[[[[[[[{{{{{{{{\\"[[[[", "ply": 1}', 1)
    assert deeper_than('{"a": [[1]]}', 2) and not deeper_than('{"a": [[1]]}', 3)
    assert not deeper_than("[" * MAX_MESSAGE_DEPTH + "]" * MAX_MESSAGE_DEPTH, MAX_MESSAGE_DEPTH)
    assert deeper_than("[" * (MAX_MESSAGE_DEPTH + 1), MAX_MESSAGE_DEPTH)
