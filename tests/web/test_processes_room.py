"""The lobby and "my games" live across three server processes (``plunder serve``) on one
PostgreSQL database (web/roomfeed.py over the PostgreSQL transport): a game created on one
process appears in a lobby followed on another, leaves it when a player on the third sits
down, and a game whose creator's connections are gone leaves it after the time allowed (made
short here: ``PLUNDER_CREATOR_GONE_SECONDS``); a player's marker on another process follows
the turn."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Callable, Iterator

import pytest
import websockets

from plunder.web.rooms import CREATOR_GONE_VARIABLE
from plunder.web.roomfeed import RENEWALS
from plunder.web.security import TOKEN_HEADER

from .browser.conftest import LiveServer, servers_on
from .test_processes import WAIT_SECONDS, Seat, new_rated_game, post

#: the creator's time allowed in this test, in seconds
GONE = 3.0


@pytest.fixture
def servers(postgres_url: str) -> Iterator[list[LiveServer]]:
    """Three ``plunder serve`` processes on the session's PostgreSQL database, a listed game's
    creator allowed :data:`GONE` seconds away."""
    with servers_on(postgres_url, 3, {CREATOR_GONE_VARIABLE: str(GONE)}) as started:
        yield started


class Follower:
    """A ``/live`` WebSocket on one server: its latest message of each type, read in the background."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.latest: dict[str, dict[str, Any]] = {}
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, server: LiveServer, page: str = "", token: str | None = None) -> Follower:
        """Follow ``page`` on ``server`` as the holder of ``token``."""
        url = f"ws://127.0.0.1:{server.port}/live" + (f"?page={page}" if page else "")
        return cls(await websockets.connect(url, additional_headers={TOKEN_HEADER: token} if token else {}))

    async def _read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            self.latest[message["type"]] = message
            self.changed.set()

    async def until(self, kind: str, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The latest message of ``kind`` once ``check`` holds for it, waited for."""
        async def wait() -> dict[str, Any]:
            while True:
                message = self.latest.get(kind)
                if message is not None and check(message):
                    return message
                self.changed.clear()
                await self.changed.wait()
        return await asyncio.wait_for(wait(), WAIT_SECONDS)

    async def close(self) -> None:
        """Close the connection."""
        await self.ws.close()
        self.reader.cancel()


def test_the_lobby_and_my_games_are_live_across_three_processes(servers: list[LiveServer]) -> None:
    a, b, c = servers

    async def run() -> None:
        lobby = await Follower.open(b, "lobby")
        await lobby.until("lobby", lambda m: m["games"] == [])
        game_id, anna = new_rated_game(a)
        creator = await Seat.open(a, game_id, anna)
        shown = await lobby.until("lobby", lambda m: m["games"] == [game_id])
        assert "Sit down as" in shown["html"]
        annas = await Follower.open(c, token=anna)
        await annas.until("mine", lambda m: m["your_turn"] == 1 and m["games"] == [game_id])

        status, _, bob = post(c.url, f"/lobby/{game_id}/1", {})  # bob sits down on the third process
        assert status == 303 and bob
        await lobby.until("lobby", lambda m: m["games"] == [])  # full: it left the lobby
        bobs = await Follower.open(a, "mine", token=bob)
        await bobs.until("mine", lambda m: m["your_turn"] == 0 and game_id in m["html"])
        # anna moves on the first process: the markers on the other two follow the turn
        state = await creator.until(lambda s: s["seats"][1]["kind"] == "human" and s["your_turn"])
        while state["your_turn"]:
            ply = state["ply"]
            await creator.send({"type": "act", "action": state["legal"][0], "ply": ply})
            state = await creator.until(lambda s: s["ply"] > ply)
        await bobs.until("mine", lambda m: m["your_turn"] == 1 and "your-turn" in m["html"])
        await annas.until("mine", lambda m: m["your_turn"] == 0)
        await creator.close()

        # a second game: listed while its creator is on its page, gone once she has left for GONE
        second, carol = new_rated_game(a)
        page = await Seat.open(c, second, carol)
        await page.until(lambda s: s["you"] == [0])
        await lobby.until("lobby", lambda m: m["games"] == [second])
        await asyncio.sleep(2 * GONE)  # past the time allowed, with her there all along
        assert lobby.latest["lobby"]["games"] == [second]
        await page.close()
        left = time.monotonic()
        await lobby.until("lobby", lambda m: m["games"] == [])
        # noted every GONE / RENEWALS seconds: never sooner than that much before the time allowed
        assert time.monotonic() - left >= GONE * (1 - 1 / RENEWALS) - 0.2
        for follower in (lobby, annas, bobs):
            await follower.close()

    asyncio.run(run())
