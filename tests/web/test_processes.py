"""One site on three server processes (``plunder serve``) sharing one PostgreSQL database:
two players and a spectator, each on a different process, play a rated game to the end over
WebSockets and talk at the table, every move, line, seat, result and rematch reaching the
other processes (docs/web.md, "Several server processes"); a process killed mid-game (SIGKILL)
costs nothing: its player reconnects to another and carries on."""

from __future__ import annotations

import asyncio
import http.client
import json
import urllib.parse
from typing import Any, Iterator

import pytest
import websockets
from sqlalchemy import select

from plunder.web import ratings
from plunder.web.chat import CHAT_BURST
from plunder.web.security import TOKEN_HEADER
from plunder.web.store import Store, token_hash
from plunder.web.transport import InMemory
from plunder.web.pgtransport import PgTransport

from .browser.conftest import LiveServer, servers_on
from .test_ratings import establish

#: how long a message may take to arrive before the test fails (generous: the machine is shared)
WAIT_SECONDS = 30.0


@pytest.fixture
def servers(postgres_url: str) -> Iterator[list[LiveServer]]:
    """Three ``plunder serve`` processes on the session's PostgreSQL database."""
    with servers_on(postgres_url, 3) as started:
        yield started


def post(url: str, path: str, form: dict[str, str], token: str | None = None) -> tuple[int, str, str]:
    """POST a form as a client without cookies: (status, location, the token set, if one was)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    headers = {"content-type": "application/x-www-form-urlencoded", **({TOKEN_HEADER: token} if token else {})}
    conn.request("POST", path, urllib.parse.urlencode(form), headers)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    cookie = answer.getheader("set-cookie") or ""
    given = cookie.split("=", 1)[1].split(";", 1)[0] if "=" in cookie else ""
    return answer.status, answer.getheader("location") or "", given


class Seat:
    """A WebSocket on one server: every message it is sent, read in the background."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.states: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, server: LiveServer, game_id: str, token: str | None) -> Seat:
        """Connect to ``game_id`` on ``server`` with ``token`` (``None``: a spectator)."""
        url = f"ws://127.0.0.1:{server.port}/ws/{game_id}" + ("" if token else "?watch=1")
        ws = await websockets.connect(url, additional_headers={TOKEN_HEADER: token} if token else {})
        return cls(ws)

    async def _read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if message["type"] == "state":
                self.states.append(message)
            elif message["type"] == "chat":
                self.chat.extend(message["lines"])
            elif message["type"] == "error":
                self.errors.append(message)
            self.changed.set()

    async def until(self, check: Any) -> dict[str, Any]:
        """The first state (from the latest back) for which ``check`` holds, waited for."""
        async def wait() -> dict[str, Any]:
            while True:
                if self.states and check(self.states[-1]):
                    return self.states[-1]
                self.changed.clear()
                await self.changed.wait()
        return await asyncio.wait_for(wait(), WAIT_SECONDS)

    async def heard(self, count: int) -> list[str]:
        """The texts of the first ``count`` table-talk lines, waited for."""
        async def wait() -> None:
            while len(self.chat) < count:
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), WAIT_SECONDS)
        return [line["text"] for line in self.chat]

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message``."""
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        """Close the connection."""
        await self.ws.close()
        self.reader.cancel()


def new_rated_game(server: LiveServer) -> tuple[str, str]:
    """A rated, listed Pillage game on ``server`` with its second seat open: (id, creator's token)."""
    status, location, token = post(server.url, "/new/pillage", {
        "preset": "small", "seat.0": "me", "seat.1": "open", "listed": "anyone", "rated": "on"})
    assert status == 303 and token
    return location.rsplit("/", 1)[1], token


def test_the_servers_say_which_transport_they_use(servers: list[LiveServer]) -> None:
    for server in servers:
        assert f"Live events: {PgTransport.name}" in server.said
    assert PgTransport.name != InMemory.name


def test_two_players_and_a_spectator_on_three_processes_play_talk_rate_and_ask_for_a_rematch(
        servers: list[LiveServer], postgres_url: str) -> None:
    game_id, anna = new_rated_game(servers[0])
    status, _, bob = post(servers[1].url, f"/lobby/{game_id}/1", {})  # bob takes the seat on another process
    assert status == 303 and bob
    for token in (anna, bob):  # both established: the end moves both ratings, once
        establish(postgres_url, token_hash(token), 2000.0)

    async def play() -> tuple[list[Seat], list[str]]:
        seats = [await Seat.open(servers[0], game_id, anna), await Seat.open(servers[1], game_id, bob),
                 await Seat.open(servers[2], game_id, None)]
        said: list[str] = []
        try:
            state = await seats[0].until(lambda s: s["seats"][1]["kind"] == "human")
            while not state["over"]:
                mover = next(i for i in (0, 1) if seats[i].states[-1]["your_turn"])
                # a line now and then, from whoever moves, heard by all; no seat says more than the
                # chat's burst (a sixth line within 10 s would be refused for its rate, not lost)
                if state["ply"] % 3 == 0 and sum(line.endswith(f"seat {mover}") for line in said) < CHAT_BURST:
                    said.append(f"line {len(said)} from seat {mover}")
                    await seats[mover].send({"type": "chat", "text": said[-1]})
                ply = state["ply"]
                await seats[mover].send({"type": "act", "action": seats[mover].states[-1]["legal"][0], "ply": ply})
                # every process shows the move: the other player's and the spectator's included
                state = await seats[mover].until(lambda s: s["ply"] > ply)
                states = [await seat.until(lambda s: s["ply"] == state["ply"]) for seat in seats]
                assert len({s["svg"] for s in states}) == 1
            # the result and the ratings it moved reach each player on its own process
            for seat in seats[:2]:
                await seat.until(lambda s: s["over"] and bool(s["result"].get("yours")))
            await seats[2].until(lambda s: s["over"])
            # a rematch asked on anna's process is offered to bob on his
            status, location, _ = post(servers[0].url, f"/rematch/{game_id}", {}, anna)
            assert status == 303 and location == f"/play/{game_id}"
            offered = await seats[1].until(lambda s: "rematch" in s and s["rematch"]["you_waiting"])
            assert not offered["rematch"]["ready"]
            for n, seat in enumerate(seats):
                try:
                    await seat.heard(len(said))
                except TimeoutError:
                    pytest.fail(f"seat {n} heard {[line['text'] for line in seat.chat]} of {said} in "
                                f"{WAIT_SECONDS} s; its errors: {seat.errors}")
            return seats, said
        finally:
            for seat in seats:
                await seat.close()

    seats, said = asyncio.run(play())
    assert len(said) >= 3
    for seat in seats:
        assert [line["text"] for line in seat.chat] == said  # in order, each once, on every process
        assert len({line["id"] for line in seat.chat}) == len(said)
        assert seat.errors == []
    verdicts = {seat.states[-1]["result"]["verdict"] for seat in seats[:2]}
    assert seats[2].states[-1]["result"]["verdict"] not in verdicts  # the spectator's has no "You"
    yours = [seat.states[-1]["result"]["yours"][0] for seat in seats[:2]]
    assert all(line.startswith("Your rating 2000 → ") for line in yours)
    with Store(postgres_url).engine.connect() as c:  # moved once each, whichever process settled it
        played = c.execute(select(ratings.ratings.c.games).where(
            ratings.ratings.c.token.in_([token_hash(anna), token_hash(bob)]))).scalars().all()
    assert played == [13, 13]


def test_a_process_killed_mid_game_costs_its_player_nothing(servers: list[LiveServer]) -> None:
    game_id, anna = new_rated_game(servers[0])
    status, _, bob = post(servers[1].url, f"/lobby/{game_id}/1", {})
    assert status == 303 and bob

    async def play(moves: int, on: dict[str, LiveServer], said: list[str]) -> tuple[int, list[str]]:
        """``moves`` moves from where the game is, anna and bob each on their server, a line a move."""
        a, b = await Seat.open(on["anna"], game_id, anna), await Seat.open(on["bob"], game_id, bob)
        try:
            await a.until(lambda s: s["seats"][1]["kind"] == "human")
            await b.heard(len(said))  # the talk so far, all of it
            for _ in range(moves):
                seats = {0: a, 1: b}
                state = a.states[-1]
                if state["over"]:
                    break
                mover = 0 if state["your_turn"] else 1
                ply = seats[mover].states[-1]["ply"]
                said.append(f"move {ply}")
                await seats[mover].send({"type": "chat", "text": said[-1]})
                await seats[mover].send({"type": "act", "action": seats[mover].states[-1]["legal"][0], "ply": ply})
                shown = await a.until(lambda s: s["ply"] > ply)
                await b.until(lambda s: s["ply"] == shown["ply"])
            await a.heard(len(said))
            await b.heard(len(said))
            assert [line["text"] for line in b.chat] == said and a.errors == [] and b.errors == []
            return b.states[-1]["ply"], [line["text"] for line in a.chat]
        finally:
            await a.close()
            await b.close()

    said: list[str] = []
    before, _ = asyncio.run(play(4, {"anna": servers[0], "bob": servers[1]}, said))
    servers[1].kill()  # SIGKILL: bob's process dies mid-game
    # bob reconnects to the third process: the game as it stood, its talk, and play goes on
    after, heard = asyncio.run(play(4, {"anna": servers[0], "bob": servers[2]}, said))
    assert after > before and heard == said
