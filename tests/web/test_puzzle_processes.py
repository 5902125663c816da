"""Puzzles on two server processes (``plunder serve``) sharing one PostgreSQL database
(docs/web.md, "Puzzles"): an attempt started on one process is played on and finished on the
other, and its last move sent to both at the same moment is taken once, the ratings moved once."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from typing import Any, Iterator

import pytest
from sqlalchemy import select

from plunder.web.puzzle_pages import catalogue
from plunder.web.puzzlestore import puzzle_attempts, puzzle_players, puzzle_strengths
from plunder.web.security import COOKIE, TOKEN_HEADER
from plunder.web.store import Store, token_hash

from .browser.conftest import LiveServer, servers_on


@pytest.fixture
def servers(postgres_url: str) -> Iterator[list[LiveServer]]:
    """Two ``plunder serve`` processes on the session's PostgreSQL database."""
    with servers_on(postgres_url, 2) as started:
        yield started


def move(url: str, puzzle: str, body: dict[str, Any], token: str | None) -> tuple[int, dict[str, Any], str]:
    """POST a puzzle move as a client without cookies: (status, the JSON answer, the token set, if one was)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    headers = {"content-type": "application/json", **({TOKEN_HEADER: token} if token else {})}
    conn.request("POST", f"/puzzles/{puzzle}/move", json.dumps(body), headers)
    answer = conn.getresponse()
    data = json.loads(answer.read())
    conn.close()
    cookie = answer.getheader("set-cookie") or ""
    given = cookie.split("=", 1)[1].split(";", 1)[0] if cookie.startswith(COOKIE + "=") else ""
    return answer.status, data, given


def test_an_attempt_started_on_one_process_is_finished_on_the_other_and_rated_once(
        servers: list[LiveServer], postgres_url: str) -> None:
    first, second = servers
    # a puzzle asking three moves or more of the player, so one is left for the race
    puzzle = next(p for p in sorted(catalogue().values(), key=lambda p: p.id) if sum(s.solver for s in p.line) >= 3)
    status, answer, token = move(first.url, puzzle.id, {"attempt": "", "at": 0, "move": puzzle.line[0].action}, None)
    assert status == 200 and answer["right"] and answer["status"] == "on" and token
    attempt, at = answer["attempt"], answer["at"]
    # on with the other process, up to the last move the line asks
    last = max(i for i, s in enumerate(puzzle.line) if s.solver)
    while at < last:
        status, answer, _ = move(second.url, puzzle.id, {"attempt": attempt, "at": at, "move": puzzle.line[at].action},
                                 token)
        assert status == 200 and answer["right"] and answer["status"] == "on", answer
        at = answer["at"]
    # the last move sent to both processes at once: one takes it, the other says the attempt moved on
    results: list[tuple[int, dict[str, Any], str]] = []
    body = {"attempt": attempt, "at": at, "move": puzzle.line[at].action}
    threads = [threading.Thread(target=lambda s=s: results.append(move(s.url, puzzle.id, body, token))) for s in servers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = sorted(r[0] for r in results)
    assert statuses == [200, 409], results
    won = next(r[1] for r in results if r[0] == 200)
    lost = next(r[1] for r in results if r[0] == 409)
    assert won["status"] == "solved" and won["rating"].startswith("Solved: your puzzle rating 1500? → ")
    assert lost["error"].startswith(("This attempt is over: you solved it", "This attempt has moved on since"))
    store = Store(postgres_url)
    you = token_hash(token)
    with store.engine.connect() as db:
        attempts = db.execute(select(puzzle_attempts.c.status, puzzle_attempts.c.rated)
                              .where(puzzle_attempts.c.identity == you)).all()
        player = db.execute(select(puzzle_players.c.rated, puzzle_players.c.solved, puzzle_players.c.streak)
                            .where(puzzle_players.c.identity == you)).one()
        puzzle_row = db.execute(select(puzzle_strengths.c.attempts).where(puzzle_strengths.c.puzzle == puzzle.id)).scalar()
    store.close()
    assert [tuple(a) for a in attempts] == [("solved", True)]
    assert tuple(player) == (1, 1, 1)  # rated once, one solved, a streak of one
    assert puzzle_row is not None and puzzle_row >= 1
    # a move after the end, on either process: refused in words
    for s in servers:
        status, answer, _ = move(s.url, puzzle.id, body, token)
        assert status == 409 and answer["error"].startswith("This attempt is over: you solved it")
