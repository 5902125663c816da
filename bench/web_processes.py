"""Live events across server processes: N ``plunder serve`` processes on one PostgreSQL
database, and games whose two players sit on different processes.

Run: .venv/bin/python bench/web_processes.py [--processes 3] [--games 200] [--think 3.0] [--seconds 120]
     [--db postgresql+psycopg://...]   (default: a throwaway cluster, as the tests start one)
     On a machine shared with other work, ``chrt -r 1`` before it gives the site and its
     clients precedence over that work (as a machine of their own would; it needs root).

Each game is Pillage ``small`` between two people: its creator on process ``i mod N`` leaves
its second seat open, the other claims it with the invite link on process ``i + 1 mod N``. They play random legal moves in turn, waiting ``--think`` seconds on
average (uniform between half and one and a half times it) before each, and the one who moves
says a line at the table just before moving (as often as the chat's rate allows), until the game ends or ``--seconds`` have passed.
It measures, for moves and chat lines alike:

* the acknowledgement: from sending ``act`` to the mover's ``state`` that includes it;
* the cross-process delivery: from sending (``act`` or ``chat``) to the other player's receipt
  of it, on the other process (the move stored, its event committed, NOTIFY, the other process
  reading the event from the store and telling its connection);
* errors (any ``error`` message, dropped connection or exception), and the lines lost (sent
  but never received by the other player) or received twice.

Targets (issue 34): acknowledgement and cross-process delivery p95 < 100 ms, 0 errors, 0 lost
or duplicated events.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' throwaway PostgreSQL
from bench.web_load import create, free_port, pct  # noqa: E402
from plunder.web.chat import CHAT_RATE  # noqa: E402
from plunder.web.security import TOKEN_HEADER  # noqa: E402

TARGET_P95_MS = 100.0


@dataclass
class Tally:
    """What the run measured (seconds)."""

    acks: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    chats: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sent_lines: int = 0
    lost: int = 0
    twice: int = 0
    games_over: int = 0


def start(db: str) -> tuple[subprocess.Popen[bytes], str]:
    """``plunder serve`` on a free port over ``db``; the process and its base URL."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "plunder.cli", "serve", "--port", str(port), "--db", db],
                               stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/", timeout=2):
                return process, url
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("a server did not start")


def join(url: str, path: str) -> str:
    """Claim an open seat by its invite link (``path``) on ``url`` as a newcomer; the token given."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    conn.request("GET", path)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    if answer.status != 303:
        raise RuntimeError(f"GET {path} answered {answer.status}")
    return (answer.getheader("set-cookie") or "").split("=", 1)[1].split(";", 1)[0]


class Player:
    """One player's connection: when each ply and each line reached it."""

    def __init__(self, ws: Any, tally: Tally) -> None:
        self.ws = ws
        self.tally = tally
        self.state: dict[str, Any] = {}
        self.plies: dict[int, float] = {}
        self.lines: dict[str, list[float]] = {}
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for text in self.ws:
                now = time.perf_counter()
                message = json.loads(text)
                if message["type"] == "state":
                    self.state = message
                    self.plies.setdefault(message["ply"], now)
                elif message["type"] == "chat":
                    for line in message["lines"]:
                        self.lines.setdefault(line["text"], []).append(now)
                elif message["type"] == "error":
                    self.tally.errors.append(message["message"])
                self.changed.set()
        except websockets.ConnectionClosed as exc:
            self.tally.errors.append(f"connection closed: {exc}")

    async def until(self, check: Any, seconds: float = 60.0) -> None:
        """Wait until ``check()`` holds."""
        async def wait() -> None:
            while not check():
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), seconds)


async def game(i: int, urls: list[str], think: float, tally: Tally, deadline: float) -> None:
    """One game, its players on processes ``i`` and ``i + 1`` (mod N), played and talked until the end."""
    rng = random.Random(i)
    here, there = urls[i % len(urls)], urls[(i + 1) % len(urls)]
    try:
        game_id, first = await asyncio.to_thread(create, here, "pillage", "", "", {
            "preset": "small", "seat.0": "me", "seat.1": "open"})
        sockets = [await websockets.connect(f"{here.replace('http', 'ws')}/ws/{game_id}", open_timeout=60,
                                            additional_headers={TOKEN_HEADER: first})]
        players = [Player(sockets[0], tally)]
        try:
            await players[0].until(lambda: bool(players[0].state))
            second = await asyncio.to_thread(join, there, players[0].state["invites"][0]["path"])
            sockets.append(await websockets.connect(f"{there.replace('http', 'ws')}/ws/{game_id}", open_timeout=60,
                                                    additional_headers={TOKEN_HEADER: second}))
            players.append(Player(sockets[1], tally))
            await players[1].until(lambda: bool(players[1].state) and players[1].state["seats"][1]["kind"] == "human")
            await players[0].until(lambda: bool(players[0].state) and players[0].state["ply"] == players[1].state["ply"])
            n = 0
            last_line = [0.0, 0.0]
            while not players[0].state["over"] and time.perf_counter() < deadline:
                mover = 0 if players[0].state["your_turn"] else 1
                me, other = players[mover], players[1 - mover]
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                ply = me.state["ply"]
                text = ""
                if time.perf_counter() - last_line[mover] > 1 / CHAT_RATE:  # as often as the chat's rate allows
                    text = f"game {i} line {n}"
                    n += 1
                    said = last_line[mover] = time.perf_counter()
                    await me.ws.send(json.dumps({"type": "chat", "text": text}))
                    tally.sent_lines += 1
                sent = time.perf_counter()
                await me.ws.send(json.dumps({"type": "act", "action": rng.choice(me.state["legal"]), "ply": ply}))
                await me.until(lambda: me.state["ply"] > ply)
                new = me.state["ply"]
                tally.acks.append(me.plies[new] - sent)
                await other.until(lambda: new in other.plies and (not text or text in other.lines))
                tally.moves.append(other.plies[new] - sent)
                if text:
                    tally.chats.append(other.lines[text][0] - said)
            if players[0].state["over"]:
                tally.games_over += 1
            await asyncio.sleep(1.0)  # anything late or twice arrives meanwhile
            for player in players:
                for text, times in player.lines.items():
                    tally.twice += len(times) > 1
            heard = set(players[0].lines) & set(players[1].lines)
            tally.lost += n - len(heard)
        finally:
            for ws in sockets:
                await ws.close()
            for player in players:
                player.task.cancel()
    except Exception as exc:  # every failure counts, and the other games play on
        tally.errors.append(f"game {i}: {type(exc).__name__}: {exc}")


async def run(urls: list[str], games: int, think: float, seconds: float) -> tuple[Tally, float]:
    """Every game at once; the tally and the wall time."""
    tally = Tally()
    began = time.perf_counter()
    await asyncio.gather(*(game(i, urls, think, tally, began + seconds) for i in range(games)))
    return tally, time.perf_counter() - began


def database(given: str | None) -> Iterator[str]:
    """``given``, else a throwaway PostgreSQL cluster for the run."""
    if given:
        yield given
        return
    from tests.web.postgres import cluster
    yield from cluster()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds a player waits before a move")
    parser.add_argument("--seconds", type=float, default=120.0, help="the games stop after this long")
    parser.add_argument("--db", help="a PostgreSQL URL (default: a throwaway cluster)")
    args = parser.parse_args()
    print(f"{args.games} games over {args.processes} server processes, think {args.think} s, at most "
          f"{args.seconds:g} s; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    for db in database(args.db):
        servers = [start(db) for _ in range(args.processes)]
        try:
            tally, took = asyncio.run(run([url for _, url in servers], args.games, args.think, args.seconds))
        finally:
            for process, _ in servers:
                process.terminate()
                process.wait(30)
    for name, values in (("acknowledgement", tally.acks), ("move delivered to the other process", tally.moves),
                         ("chat line delivered to the other process", tally.chats)):
        print(f"  {name}: {len(values)} measured, p50 {pct(values, 50):.1f} ms, p95 "
              f"{pct(values, 95):.1f} ms, p99 {pct(values, 99):.1f} ms")
    print(f"  {tally.games_over} games played to the end in {took:.0f} s; {tally.sent_lines} lines said, "
          f"{tally.lost} lost, {tally.twice} received twice; {len(tally.errors)} errors")
    for error in tally.errors[:10]:
        print(f"    {error}")
    worst = max(pct(tally.acks, 95), pct(tally.moves, 95), pct(tally.chats, 95))
    print(f"target: p95 < {TARGET_P95_MS:.0f} ms for each (worst {worst:.1f} ms), 0 errors, 0 lost or twice")


if __name__ == "__main__":
    main()
