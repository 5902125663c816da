"""Restart safety with a real server: ``plunder serve`` killed (SIGKILL) right after it
acknowledged a move, and while an AI was to move, then started again on the same database:
no acknowledged move is lost and every game carries on."""

from __future__ import annotations

import http.client
import json
import random
import time
import urllib.parse
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from plunder.web.security import TOKEN_HEADER
from tests.web.browser.conftest import LiveServer


def create(server: LiveServer, game: str, **fields: str) -> tuple[str, str]:
    """POST the new-game form: (game id, the creator's token)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("POST", f"/new/{game}", urllib.parse.urlencode(fields),
                 {"content-type": "application/x-www-form-urlencoded"})
    answer = conn.getresponse()
    answer.read()
    assert answer.status == 303
    token = (answer.getheader("set-cookie") or "").split("=", 1)[1].split(";", 1)[0]
    return (answer.getheader("location") or "").rsplit("/", 1)[1], token


def channel(server: LiveServer, game_id: str, token: str) -> ClientConnection:
    """The game's WebSocket for the holder of ``token``."""
    return connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", additional_headers={TOKEN_HEADER: token},
                   max_size=2**24, open_timeout=30)


def state(ws: ClientConnection) -> dict[str, Any]:
    """The next message, which must be a state."""
    message = json.loads(ws.recv(timeout=60))
    assert message["type"] == "state", message
    return dict(message)


def my_turn(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    """Read states until this seat is to move or the game is over."""
    while not message["your_turn"] and not message["over"]:
        message = state(ws)
    return message


def test_an_acknowledged_move_survives_a_kill_and_the_game_carries_on(server: LiveServer) -> None:
    game_id, token = create(server, "pillage", preset="small", **{"seat.0": "me", "seat.1": "hotseat"})
    rng = random.Random(3)
    with channel(server, game_id, token) as ws:
        message = state(ws)
        for _ in range(3):
            ws.send(json.dumps({"type": "act", "action": rng.choice(message["legal"]), "ply": message["ply"]}))
            message = state(ws)
    acknowledged = message
    server.kill()  # at once: no shutdown, no flush beyond what was committed
    server.start()
    with channel(server, game_id, token) as ws:
        again = state(ws)
        assert again["ply"] == acknowledged["ply"] and again["svg"] == acknowledged["svg"]
        assert [e["text"] for e in again["log"]] == [e["text"] for e in _whole_log(server, game_id, token)]
        ws.send(json.dumps({"type": "act", "action": again["legal"][0], "ply": again["ply"]}))
        assert state(ws)["ply"] > again["ply"]


def _whole_log(server: LiveServer, game_id: str, token: str) -> list[dict[str, Any]]:
    """The whole log as a fresh connection is sent it."""
    with channel(server, game_id, token) as ws:
        return list(state(ws)["log"])


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_an_ai_to_move_when_the_server_died_moves_after_the_restart(server: LiveServer) -> None:
    game_id, token = create(server, "hubs", preset="tiny", **{"seat.0": "me", "seat.1": "hard"})
    with channel(server, game_id, token) as ws:
        message = my_turn(ws, state(ws))
        ws.send(json.dumps({"type": "act", "action": message["legal"][0], "ply": message["ply"]}))
        acknowledged = state(ws)
    assert server.process is not None
    workers = children(server.process.pid)
    assert workers, "the server runs its AI in worker processes"
    server.kill()
    # a killed server's AI workers die with it rather than wait forever on its queue
    deadline = time.monotonic() + 30
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(w) for w in workers), "AI workers outlived their killed server"
    server.start()
    with channel(server, game_id, token) as ws:
        again = state(ws)
        assert again["ply"] >= acknowledged["ply"]
        resumed = my_turn(ws, again)
        assert resumed["ply"] > acknowledged["ply"] or resumed["over"]
