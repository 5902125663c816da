"""Bounds per client on what the site shares (issue 36): the lobby lists a few games of each
creator and of each address, so one address listing 55 games does not push everyone else off
it; the coach analyses a bounded number of games per identity and per address, past which it
says why in words (docs/web.md, "Limits")."""

from __future__ import annotations

import asyncio
import http.client
import re
import threading
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from starlette.testclient import TestClient

from plunder.analysis.value import Task, Valuation
from plunder.core.registry import load_game
from plunder.match import play_out
from plunder.web import coach, limits, rooms
from plunder.web.app import create_app
from plunder.web.limits import ADDRESS_ANALYSIS_BURST, ANALYSIS_BURST, ANALYSIS_RATE
from plunder.web.rooms import LOBBY_PER_ADDRESS, LOBBY_PER_CREATOR, MAX_LOBBY
from plunder.web.security import COOKIE, TOKEN_HEADER, new_token
from plunder.web.store import HUMAN, OVER, GameRow, SeatRow, Store
from plunder.web.thinking import Busy, Thinkers

from .browser.conftest import LiveServer
from .test_play_server import new_game


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app over a fresh SQLite file, its AI in a thread, its rate limits' clock stopped."""
    monkeypatch.setattr(limits, "clock", lambda: 1000.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0),
                    client=("198.51.100.1", 50000)) as c:
        yield c


def at_address(client: TestClient, address: str) -> TestClient:
    """Another browser of ``client``'s server process, connecting from ``address``."""
    assert client.portal is not None
    other = TestClient(client.app, client=(address, 50000))
    other.portal = client.portal
    return other


def listed(client: TestClient) -> list[str]:
    """The game ids the lobby page lists (each row's seat form or own-game link)."""
    page = client.get("/lobby").text
    return re.findall(r'(?:/lobby/|/play/)([A-Za-z0-9_-]{24})', page)


def open_game(client: TestClient, fresh_token: bool = True) -> str:
    """A Pig game listed in the lobby with a seat open, created by a new token unless told otherwise."""
    if fresh_token:
        client.cookies.clear()
    return new_game(client, "pig", listed="anyone", **{"seat.0": "me", "seat.1": "open"})


def test_fifty_five_games_from_one_address_leave_room_for_everyone_else(client: TestClient) -> None:
    flood = at_address(client, "203.0.113.7")
    flooded = [open_game(flood) for _ in range(55)]  # each by a token of its own: 55 creators, one address
    others = [open_game(at_address(client, f"192.0.2.{i}")) for i in range(1, 4)]
    shown = listed(at_address(client, "192.0.2.200"))
    # the address's newest games only, and every other address's game
    assert [g for g in shown if g in flooded] == flooded[::-1][:LOBBY_PER_ADDRESS]
    assert set(others) <= set(shown)
    assert len(shown) == LOBBY_PER_ADDRESS + len(others) < MAX_LOBBY
    # the ones not shown are still there to be joined by their invite links; a seat of a game
    # no longer listed is not taken from the lobby
    assert client.post(f"/lobby/{flooded[0]}/1", follow_redirects=False).status_code == 410


def test_one_creator_is_listed_with_its_newest_few_games(client: TestClient) -> None:
    anna = at_address(client, "203.0.113.8")
    mine = [open_game(anna, fresh_token=i == 0) for i in range(LOBBY_PER_CREATOR + 2)]
    assert COOKIE in anna.cookies  # one token made them all
    shown = listed(at_address(client, "192.0.2.200"))
    assert shown == mine[::-1][:LOBBY_PER_CREATOR]
    assert LOBBY_PER_CREATOR < LOBBY_PER_ADDRESS  # so the creator's bound, not the address's, held here


def test_the_store_query_counts_each_bound_over_the_games_still_listed(client: TestClient) -> None:
    anna = at_address(client, "203.0.113.9")
    mine = [open_game(anna, fresh_token=i == 0) for i in range(LOBBY_PER_CREATOR + 1)]
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    assert [r["id"] for r in rooms.lobby(store)] == mine[::-1][:LOBBY_PER_CREATOR]
    # the newest leaves the lobby (its creator gone from it): the oldest takes its place
    with store.engine.begin() as db:
        db.execute(rooms.listings.delete().where(rooms.listings.c.game_id == mine[-1]))
    assert [r["id"] for r in rooms.lobby(store)] == mine[::-1][1:LOBBY_PER_CREATOR + 1]


def finished_games(store: Store, count: int) -> list[str]:
    """``count`` finished small Pillage games stored as a server stores them (random play); their ids."""
    game = load_game("pillage", preset="example")
    made = []
    for seed in range(count):
        record, _ = play_out(game, ["random", "random"], seed=seed)
        row = GameRow(new_token(), game.id, dict(game.params), seed, OVER, "creator",
                      [SeatRow(HUMAN, token="t"), SeatRow(HUMAN, token="t")], moves=list(record.moves))
        store.create(row)
        made.append(row.id)
    return made


def analyse(client: TestClient, game_id: str, token: str) -> tuple[int, str, str | None]:
    """Ask for ``game_id``'s analysis as the holder of ``token``: the status, the refusal's words, its Retry-After."""
    answer = client.post(f"/replay/game/{game_id}/analyse", headers={TOKEN_HEADER: token})
    return answer.status_code, answer.json().get("error", ""), answer.headers.get("retry-after")


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The coach's valuations held until the event is set (then each fails as a busy server's
    would): analyses stay under way and cost no CPU; the site's cap is raised out of the way."""
    gate = threading.Event()

    async def waiting(self: Thinkers, key: str, task: Task) -> Valuation:
        await asyncio.to_thread(gate.wait, 60)
        raise Busy()

    monkeypatch.setattr(Thinkers, "value", waiting)
    monkeypatch.setattr(coach, "MAX_ANALYSES", 100)
    yield gate
    gate.set()


def test_the_coach_starts_a_few_analyses_per_player_and_per_address_then_says_why(
        client: TestClient, held: threading.Event) -> None:
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    games = finished_games(store, ADDRESS_ANALYSIS_BURST + 3)
    anna = new_token()
    started = [analyse(client, g, anna)[0] for g in games[:ANALYSIS_BURST]]
    assert started == [202] * ANALYSIS_BURST
    status, words, wait = analyse(client, games[ANALYSIS_BURST], anna)
    assert status == 429 and wait == str(round(1 / ANALYSIS_RATE))
    assert words == (f"You have started {ANALYSIS_BURST} analyses in a short time, the coach's limit for one "
                     "player: it starts one more for you every 2 minutes. Analyses already made are shown at once.")
    # an analysis under way (or kept) is answered again at no cost, to anyone
    assert analyse(client, games[0], anna)[0] == 202
    # the address's share: tokens made up for the occasion gain nothing past it
    answers = [analyse(client, g, new_token()) for g in games[ANALYSIS_BURST:]]
    assert [a[0] for a in answers] == [202] * (ADDRESS_ANALYSIS_BURST - ANALYSIS_BURST) + [429] * 3
    assert answers[-1][1].startswith(f"Your address has started {ADDRESS_ANALYSIS_BURST} analyses in a short time")
    assert "every 30 seconds" in answers[-1][1]
    # another address has its own share
    other = at_address(client, "192.0.2.77")
    assert analyse(other, games[-1], new_token())[0] == 202


def test_a_full_coach_refuses_before_any_share_is_spent(client: TestClient, held: threading.Event,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    games = finished_games(store, ANALYSIS_BURST + 2)
    monkeypatch.setattr(coach, "MAX_ANALYSES", 1)
    anna = new_token()
    assert analyse(client, games[0], anna)[0] == 202
    refused = [analyse(client, g, anna) for g in games[1:]]  # more than her share, all refused as full
    assert [r[0] for r in refused] == [503] * len(refused)
    assert "already analysing 1 games, its limit" in refused[0][1]
    monkeypatch.setattr(coach, "MAX_ANALYSES", 100)
    assert [analyse(client, g, anna)[0] for g in games[1:ANALYSIS_BURST]] == [202] * (ANALYSIS_BURST - 1)
    assert analyse(client, games[ANALYSIS_BURST], anna)[0] == 429


def test_plunder_serve_believes_no_forwarded_address_and_refuses_a_rebound_name(tmp_path: Path) -> None:
    # the hole: uvicorn believed X-Forwarded-For from 127.0.0.1, so a local client
    # rotated its address at will; `plunder serve` trusts no proxy unless told
    server = LiveServer(tmp_path / "plunder.db")
    server.start()
    try:
        made = []
        for i in range(LOBBY_PER_ADDRESS + 1):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            conn.request("POST", "/new/pig", urllib.parse.urlencode({"seat.0": "me", "seat.1": "open",
                                                                    "listed": "anyone"}),
                         {"content-type": "application/x-www-form-urlencoded",
                          "x-forwarded-for": f"203.0.113.{i + 1}", "forwarded": f"for=198.51.100.{i + 1}"})
            answer = conn.getresponse()
            assert answer.status == 303
            made.append((answer.getheader("location") or "").rsplit("/", 1)[1])
            conn.close()
        with urllib.request.urlopen(f"{server.url}/lobby", timeout=60) as page:
            shown = re.findall(r'/lobby/([A-Za-z0-9_-]{24})/', page.read().decode())
        assert shown == made[::-1][:LOBBY_PER_ADDRESS]  # one address, whatever the headers said

        # a WebSocket handshake sent to another name is refused with 400 in words, as a page is
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        conn.request("GET", f"/ws/{made[0]}", headers={
            "host": f"rebound.example:{server.port}", "upgrade": "websocket", "connection": "Upgrade",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13"})
        answer = conn.getresponse()
        assert answer.status == 400 and b"not for this site" in answer.read()
        conn.close()
    finally:
        server.kill()
