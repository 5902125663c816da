"""Bounds per client on what the site shares (issue 36): the lobby lists a few games of each
creator and of each address, so one address listing 55 games does not push everyone else off
it; the coach analyses a bounded number of games per identity and per address, past which it
says why in words (docs/web.md, "Limits")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import pytest
from starlette.testclient import TestClient

from plunder.web import limits, rooms
from plunder.web.app import create_app
from plunder.web.rooms import LOBBY_PER_ADDRESS, LOBBY_PER_CREATOR, MAX_LOBBY
from plunder.web.security import COOKIE

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
