"""The daily deal on two server processes (``plunder serve``) sharing one PostgreSQL database
(docs/web.md, "The daily deal"): both asked for the day's page at once, the par of each deal is
worked out by one of them, once; one identity starting the deal on both gets one game."""

from __future__ import annotations

import http.client
import threading
import time
import urllib.parse
import urllib.request
from typing import Iterator

import pytest
from sqlalchemy import select

from plunder.web import daily
from plunder.web.security import TOKEN_HEADER
from plunder.web.store import Store

from .browser.conftest import LiveServer, servers_on
from .test_processes import post

#: how long the real par computations may take on a loaded machine before the test fails
PAR_SECONDS = 300.0


@pytest.fixture
def servers(postgres_url: str) -> Iterator[list[LiveServer]]:
    """Two ``plunder serve`` processes on the session's PostgreSQL database."""
    with servers_on(postgres_url, 2) as started:
        yield started


def get(url: str, path: str, token: str | None) -> int:
    """GET ``path`` as the client holding ``token`` (``None``: a newcomer); the status."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    conn.request("GET", path, headers={TOKEN_HEADER: token} if token else {})
    status = conn.getresponse().status
    conn.close()
    return status


def test_two_processes_work_the_par_out_once_and_one_identity_gets_one_game(
        servers: list[LiveServer], postgres_url: str) -> None:
    first, second = servers
    # both processes asked for today's page at the same moment: each would work the pars out
    pages = [threading.Thread(target=lambda s=s: urllib.request.urlopen(s.url + "/daily", timeout=60).read())
             for s in servers]
    for t in pages:
        t.start()
    for t in pages:
        t.join()
    store = Store(postgres_url)
    day = daily.day_of(time.time())
    deadline = time.monotonic() + PAR_SECONDS
    while any(daily.par_of(store, day, g) is None for g in daily.solitaires()):
        assert time.monotonic() < deadline, "the day's par was not worked out in time"
        time.sleep(1)
    # asked again on both: nothing is worked out a second time
    for s in servers:
        urllib.request.urlopen(s.url + "/daily", timeout=60).read()
    with store.engine.connect() as db:
        rows = db.execute(select(daily.daily_par.c.game, daily.daily_par.c.runs, daily.daily_par.c.cpu)
                          .where(daily.daily_par.c.day == day)).all()
    assert sorted((g, runs) for g, runs, _ in rows) == [("pirates", 1), ("profiteer", 1)]
    assert all(cpu > 0 for _, _, cpu in rows)
    # one identity starting today's deal on each process: one game
    status, location, token = post(first.url, "/daily/profiteer", {})
    assert status == 303 and token
    again = post(second.url, "/daily/profiteer", {}, token)
    assert again[:2] == (303, location)
    assert get(second.url, location, token) == 200
    game_id = location.rsplit("/", 1)[1]
    # a stranger on the other process sees nothing of it
    assert get(second.url, f"/record/{game_id}", None) == 403
    with store.engine.connect() as db:
        entries = db.execute(select(daily.daily_entries.c.game_id).where(daily.daily_entries.c.day == day,
                                                                         daily.daily_entries.c.game == "profiteer"))
        assert list(entries.scalars()) == [game_id]
    store.close()
