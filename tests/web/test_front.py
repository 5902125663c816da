"""Who a request comes from and which site it is for (web/front.py): forwarded addresses are
believed from the configured proxies only (none by default), and a request or WebSocket
handshake sent to a name that is not the site's is refused with 400 in words (docs/web.md,
"Deploying")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocket

from plunder.web import front as front_module
from plunder.web.app import create_app
from plunder.web.front import Front, FrontDoor, FrontError, LOOPBACK_HOSTS


async def who(request: Request) -> Response:
    """The address and scheme the app sees."""
    return PlainTextResponse(f"{request.client.host if request.client else '?'} {request.url.scheme}")


async def echo(websocket: WebSocket) -> None:
    """Accepts, says the address and scheme it sees, closes."""
    await websocket.accept()
    await websocket.send_text(f"{websocket.client.host if websocket.client else '?'} {websocket.url.scheme}")
    await websocket.close()


def app_behind(front: Front) -> Starlette:
    """A bare app behind the front door."""
    app = Starlette(routes=[Route("/", who), WebSocketRoute("/ws", echo)])
    return FrontDoor(app, front)  # type: ignore[return-value]


def seen(front: Front, peer: str, headers: dict[str, str], host: str = "127.0.0.1:8000") -> str:
    """What the app behind ``front`` sees of a request from ``peer`` with ``headers``."""
    with TestClient(app_behind(front), base_url=f"http://{host}", client=(peer, 4711)) as client:
        answer = client.get("/", headers=headers)
        assert answer.status_code == 200, answer.text
        return answer.text


def test_forwarded_headers_are_ignored_unless_the_peer_is_a_configured_proxy() -> None:
    forged = {"x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https", "forwarded": "for=198.51.100.1;proto=https"}
    # by default no proxy is trusted: a local client cannot choose its address (the hole)
    default = Front.configured([], [], "127.0.0.1")
    assert default.proxies == ()
    assert seen(default, "127.0.0.1", forged) == "127.0.0.1 http"
    trusting = Front.configured(["10.0.0.0/24", "::1"], [], "127.0.0.1")
    assert seen(trusting, "127.0.0.1", forged) == "127.0.0.1 http"  # 127.0.0.1 is not among them
    # from a trusted proxy: the Forwarded header's client (it comes before X-Forwarded-For) and scheme
    assert seen(trusting, "10.0.0.5", forged) == "198.51.100.1 https"
    assert seen(trusting, "10.0.0.5", {"x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https"}) \
        == "203.0.113.9 https"


def test_the_client_is_the_first_address_from_the_right_that_no_trusted_proxy_holds() -> None:
    trusting = Front(Front.configured(["10.0.0.0/8"], [], "127.0.0.1").proxies)
    # a client writing its own X-Forwarded-For gets it kept on the left: never believed
    chain = {"x-forwarded-for": "1.2.3.4, 203.0.113.9, 10.1.1.1"}
    assert seen(trusting, "10.0.0.5", chain) == "203.0.113.9 http"
    assert seen(trusting, "10.0.0.5", {"forwarded": 'for="[2001:db8::7]:4711", for=10.2.2.2'}) == "2001:db8::7 http"
    # a hop that is no address ends the walk at the last trusted proxy's word
    assert seen(trusting, "10.0.0.5", {"x-forwarded-for": "unknown, 10.1.1.1"}) == "10.1.1.1 http"
    assert seen(trusting, "10.0.0.5", {"x-forwarded-for": "203.0.113.9:5555"}) == "203.0.113.9 http"
    assert seen(trusting, "10.0.0.5", {}) == "10.0.0.5 http"  # a proxy that forwards nothing is the client


def test_the_environment_adds_proxies_and_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(front_module.PROXIES_VARIABLE, "10.0.0.1, 10.0.0.2")
    monkeypatch.setenv(front_module.HOSTS_VARIABLE, "games.example.org")
    front = Front.configured(["::1"], [], "127.0.0.1")
    assert [str(n) for n in front.proxies] == ["::1/128", "10.0.0.1/32", "10.0.0.2/32"]
    assert front.hosts == {"games.example.org"}  # named: the loopback names are no longer the site's


def test_unreadable_settings_are_refused_naming_them() -> None:
    with pytest.raises(FrontError, match="trusted proxy 'nginx' is not an IP address"):
        Front.configured(["nginx"], [], "127.0.0.1")
    with pytest.raises(FrontError, match="site host 'https://games.example.org' is not a host name"):
        Front.configured([], ["https://games.example.org"], "127.0.0.1")


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000", "localhost.",
                                  "192.0.2.4:8000"])
def test_the_loopback_names_and_the_listening_address_are_the_default_site(host: str) -> None:
    front = Front.configured([], [], "192.0.2.4")
    assert front.hosts == {*LOOPBACK_HOSTS, "192.0.2.4"}
    assert seen(front, "127.0.0.1", {}, host=host) == "127.0.0.1 http"


@pytest.mark.parametrize("host", ["evil.example:8000", "evil.example", "127.0.0.1.evil.example", "[::2]:8000",
                                  "0.0.0.0:8000"])
def test_a_request_sent_to_another_name_is_refused_in_words(host: str) -> None:
    front = Front.configured([], [], "0.0.0.0")  # listening everywhere: no request names 0.0.0.0
    assert front.hosts == set(LOOPBACK_HOSTS)
    with TestClient(app_behind(front), base_url=f"http://{host}") as client:
        answer = client.get("/")
        assert answer.status_code == 400
        assert "not for this site" in answer.text and "which is not this site's name" in answer.text
        assert answer.headers["x-frame-options"] == "DENY"  # the security headers still
        with pytest.raises(WebSocketDenialResponse) as denied:
            with client.websocket_connect(f"ws://{host}/ws"):
                pass
        assert denied.value.status_code == 400 and "not for this site" in denied.value.text


def test_a_named_site_is_served_by_its_name_and_a_websocket_too() -> None:
    front = Front.configured(["10.0.0.5"], ["games.example.org"], "127.0.0.1")
    with TestClient(app_behind(front), base_url="https://games.example.org", client=("10.0.0.5", 1)) as client:
        with client.websocket_connect("ws://games.example.org/ws", headers={"x-forwarded-for": "203.0.113.9",
                                                      "x-forwarded-proto": "https"}) as ws:
            assert ws.receive_text() == "203.0.113.9 wss"
    with TestClient(app_behind(front), base_url="http://127.0.0.1:8000") as client:
        assert client.get("/").status_code == 400  # named: loopback is not the site any more


def test_the_app_refuses_a_rebound_name_and_keeps_its_own_origin_rule(tmp_path: Path) -> None:
    front = Front.configured([], [], "127.0.0.1")
    app = create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0, front=front)
    with TestClient(app, base_url="http://rebound.example:8000") as client:
        # a page of rebound.example, its name pointed at this server: same-origin to the Origin rule
        answer = client.post("/new/pig", data={"seat.0": "me", "seat.1": "easy"},
                             headers={"origin": "http://rebound.example:8000"}, follow_redirects=False)
        assert answer.status_code == 400 and "not for this site" in answer.text
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        answer = client.post("/new/pig", data={"seat.0": "me", "seat.1": "easy"},
                             headers={"origin": "http://127.0.0.1:8000"}, follow_redirects=False)
        assert answer.status_code == 303, answer.text


def test_plunder_serve_refuses_an_unreadable_proxy_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "plunder.cli", "serve", "--trusted-proxy", "nginx"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "trusted proxy 'nginx' is not an IP address" in done.stderr
    assert "Traceback" not in done.stderr
