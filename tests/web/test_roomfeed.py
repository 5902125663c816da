"""The room's live updates on one server process (web/roomfeed.py, the in-memory transport):
a lobby follower sees games appear, fill and leave (their creator gone for the time allowed,
on a clock the test turns) without a reload; "my games" markers and lists are pushed when the
turn passes; a flood of events costs one read of the lobby and a stalled follower keeps at
most one message of each kind."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner
from starlette.requests import Request
from starlette.testclient import TestClient

from plunder.cli import main
from plunder.web import roomfeed, rooms
from plunder.web.app import create_app
from plunder.web.roomfeed import LOBBY, MINE, Follower, Room
from plunder.web.transport import SITE

from .clients import browser_of
from .test_people import named
from .test_play_server import new_game, state_of, until_my_turn

#: the creator's time allowed in these tests (the clock is the test's: nothing waits for it)
GONE = 30.0


class Clock:
    """A wall clock the test moves on."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def anna(tmp_path: Path) -> Iterator[TestClient]:
    """A browser called Anna on a fresh server whose room keeps time by a :class:`Clock`."""
    app = create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0)
    app.state.room.gone_seconds = GONE
    app.state.room.clock = Clock(time.time())
    with TestClient(app) as c:
        named(c, "Anna")
        yield c


def room(client: TestClient) -> Room:
    """The app's room."""
    found: Room = client.app.state.room  # type: ignore[attr-defined]
    return found


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (others skipped: a marker may come with a list)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def until_mine(ws: Any, your_turn: int) -> dict[str, Any]:
    """The first ``mine`` message saying it is this browser's turn in ``your_turn`` games (one
    saying otherwise may come first: a change that left the count as it was)."""
    for _ in range(10):
        message = next_of(ws, "mine")
        if message["your_turn"] == your_turn:
            return message
    raise AssertionError(f"no marker of {your_turn} came")


def test_a_follower_keeps_the_newest_message_of_each_type_only() -> None:
    async def run() -> list[dict[str, Any]]:
        follower = Follower(conn=None, token=None, page="lobby")  # type: ignore[arg-type]
        for n in range(1000):
            follower.push({"type": "lobby", "n": n})
            follower.push({"type": "mine", "n": n})
        assert len(follower.waiting) == 2
        return await follower.next()
    messages = asyncio.run(run())
    assert sorted((m["type"], m["n"]) for m in messages) == [("lobby", 999), ("mine", 999)]


def test_the_lobby_is_live_games_appear_fill_and_leave_when_their_creator_is_gone(anna: TestClient) -> None:
    clock = room(anna).clock
    assert isinstance(clock, Clock)
    with browser_of(anna) as bob, browser_of(anna) as carl:
        named(bob, "Bob")
        with bob.websocket_connect("/live?page=lobby") as lobby:
            assert next_of(lobby, "lobby")["games"] == []
            listed = new_game(anna, "pillage", preset="small", listed="anyone", **{"seat.0": "me", "seat.1": "open"})
            shown = next_of(lobby, "lobby")
            assert shown["games"] == [listed] and "Sit down as" in shown["html"] and "Anna" in shown["html"]
            unlisted = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
            assert next_of(lobby, "lobby")["games"] == [listed] and unlisted  # created, not listed
            # carl sits down: the game is full, it leaves the lobby
            assert carl.post(f"/lobby/{listed}/1", follow_redirects=False).status_code == 303
            assert next_of(lobby, "lobby")["games"] == []

            # a game whose creator never comes to its page leaves once the time allowed is up
            waiting = new_game(anna, "pillage", preset="small", listed="anyone", **{"seat.0": "me", "seat.1": "open"})
            assert next_of(lobby, "lobby")["games"] == [waiting]
            clock.now = time.time() + GONE - 1  # the listing is noted on the real clock
            anna.portal.call(room(anna).expire)  # type: ignore[union-attr]
            assert next_of(lobby, "lobby")["games"] == [waiting]  # not yet
            clock.now += 2
            anna.portal.call(room(anna).expire)  # type: ignore[union-attr]
            assert next_of(lobby, "lobby")["games"] == []
            # its creator comes back to its page: noted, and it is listed again
            with anna.websocket_connect(f"/ws/{waiting}") as ws:
                state_of(ws)
                anna.portal.call(room(anna).renew)  # type: ignore[union-attr]
                assert room(anna).present == {waiting}
                assert next_of(lobby, "lobby")["games"] == [waiting]
            # gone again: noted as gone, and after the time allowed it leaves
            anna.portal.call(room(anna).renew)  # type: ignore[union-attr]
            assert room(anna).present == set()
            clock.now += GONE + 1
            anna.portal.call(room(anna).expire)  # type: ignore[union-attr]
            assert next_of(lobby, "lobby")["games"] == []


def test_my_games_marker_and_list_are_pushed_when_the_turn_passes(anna: TestClient) -> None:
    with browser_of(anna) as bob:
        named(bob, "Bob")
        with anna.websocket_connect("/live") as annas, bob.websocket_connect("/live?page=mine") as bobs:
            assert next_of(annas, "mine")["your_turn"] == 0
            first = next_of(bobs, "mine")
            assert first["your_turn"] == 0 and "None:" in first["html"]
            game_id = new_game(anna, "pillage", preset="small", listed="anyone", **{"seat.0": "me", "seat.1": "open"})
            assert next_of(annas, "mine") == {"type": "mine", "your_turn": 1, "games": [game_id]}
            assert bob.post(f"/lobby/{game_id}/1", follow_redirects=False).status_code == 303
            seated = next_of(bobs, "mine")
            assert seated["your_turn"] == 0 and f"/play/{game_id}" in seated["html"]
            with anna.websocket_connect(f"/ws/{game_id}") as ws:
                message = until_my_turn(ws, state_of(ws))
                while message["your_turn"]:
                    ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
                    message = state_of(ws)
            assert until_mine(annas, 0)["games"] == []
            told = until_mine(bobs, 1)
            assert told["your_turn"] == 1 and told["games"] == [game_id] and "your-turn" in told["html"]


def fake_request(client: TestClient) -> Request:
    """A request of ``client``'s app (what the room's templates need of a connection)."""
    return Request({"type": "http", "app": client.app, "router": client.app.router,  # type: ignore[attr-defined]
                    "method": "GET", "path": "/lobby", "root_path": "", "scheme": "http",
                    "server": ("testserver", 80), "headers": [], "query_string": b""})


def test_a_flood_of_events_costs_one_read_and_a_stalled_follower_keeps_one_of_each(
        anna: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = []
    real = roomfeed.lobby_rows

    async def counted(*args: Any) -> Any:
        reads.append(args)
        return await real(*args)
    monkeypatch.setattr(roomfeed, "lobby_rows", counted)
    the_room = room(anna)
    stalled = Follower(fake_request(anna), None, "lobby")

    async def flood() -> None:
        the_room.join(stalled)
        for _ in range(1000):
            await the_room.tables.transport.publish(SITE, LOBBY, {})
            await the_room.tables.transport.publish(SITE, MINE, {"tokens": ["nobody"]})
        assert the_room._sending is not None
        await the_room._sending
    anna.portal.call(flood)  # type: ignore[union-attr]
    assert len(reads) == 1
    assert set(stalled.waiting) == {"lobby", "mine"}

    async def yielding_flood() -> None:
        for _ in range(200):
            await the_room.tables.transport.publish(SITE, LOBBY, {})
            await asyncio.sleep(0)
        assert the_room._sending is not None
        await the_room._sending
    anna.portal.call(yielding_flood)  # type: ignore[union-attr]
    assert 1 < len(reads) <= 201 and set(stalled.waiting) == {"lobby", "mine"}
    the_room.leave(stalled)


def test_the_creators_time_comes_from_the_environment_and_a_bad_one_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(rooms.CREATOR_GONE_VARIABLE, raising=False)
    assert rooms.creator_gone_seconds() == rooms.CREATOR_GONE_SECONDS == 60.0
    monkeypatch.setenv(rooms.CREATOR_GONE_VARIABLE, "2.5")
    assert rooms.creator_gone_seconds() == 2.5
    for bad in ("0", "-1", "soon", "inf"):
        monkeypatch.setenv(rooms.CREATOR_GONE_VARIABLE, bad)
        with pytest.raises(ValueError, match=f"{rooms.CREATOR_GONE_VARIABLE} is '{bad}': it must be a positive"):
            rooms.creator_gone_seconds()


def test_plunder_serve_refuses_a_bad_creators_time_before_it_starts(tmp_path: Path) -> None:
    answer = CliRunner().invoke(main, ["serve", "--port", "1", "--db", f"sqlite:///{tmp_path / 'plunder.db'}"],
                                env={rooms.CREATOR_GONE_VARIABLE: "soon"})
    assert answer.exit_code == 1
    assert "PLUNDER_CREATOR_GONE_SECONDS is 'soon': it must be a positive number of seconds" in answer.output
    assert "being served" not in answer.output


def test_a_rename_reaches_an_open_lobby_and_my_games_page(anna: TestClient) -> None:
    with browser_of(anna) as bob:
        named(bob, "Bob")
        listed = new_game(anna, "pillage", preset="small", listed="anyone", **{"seat.0": "me", "seat.1": "open"})
        playing = new_game(anna, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
        with anna.websocket_connect(f"/ws/{playing}") as ws:
            invite = state_of(ws)["invites"][0]["path"]
        assert bob.get(invite, follow_redirects=False).status_code == 303
        with bob.websocket_connect("/live?page=lobby") as lobby, bob.websocket_connect("/live?page=mine") as mine:
            shown = next_of(lobby, "lobby")
            assert shown["games"] == [listed] and "Anna" in shown["html"] and "Annabel" not in shown["html"]
            assert "Anna" in next_of(mine, "mine")["html"]
            named(anna, "Annabel")  # nothing else changed: only the rename sends the lists again
            assert "Annabel" in next_of(lobby, "lobby")["html"]
            assert "Annabel" in next_of(mine, "mine")["html"]


def test_the_teller_stores_one_event_at_a_time_and_tells_what_came_meanwhile_together() -> None:
    published: list[tuple[str, dict[str, Any]]] = []
    release = asyncio.Event()

    async def publish(kind: str, data: dict[str, Any]) -> None:
        published.append((kind, data))
        if len(published) == 1:
            await release.wait()  # the first event is being stored while more changes come

    async def scenario() -> None:
        teller = roomfeed.Teller(publish)
        first = teller.tell(False, ["a"])
        await asyncio.sleep(0)
        assert published == [(MINE, {"tokens": ["a"]})]
        later = [teller.tell(False, ["b", "c"]), teller.tell(True, ["c"]),
                 teller.tell(False, [f"t{n:03}" for n in range(roomfeed.MINE_TOKENS)])]
        await asyncio.sleep(0)
        assert len(published) == 1 and not first.done(), "nothing more is stored while one event is"
        release.set()
        await asyncio.wait_for(asyncio.gather(first, *later), 5)
        # after the first: the lobby once, and every token told meanwhile, in events of at most MINE_TOKENS
        assert published[1] == (LOBBY, {})
        told = [data["tokens"] for kind, data in published[2:]]
        assert all(kind == MINE for kind, _ in published[2:]) and len(told) == 2
        assert max(len(tokens) for tokens in told) == roomfeed.MINE_TOKENS
        assert sorted(t for tokens in told for t in tokens) == sorted(["b", "c", *(f"t{n:03}" for n in range(roomfeed.MINE_TOKENS))])
        teller.close()

    asyncio.run(scenario())
