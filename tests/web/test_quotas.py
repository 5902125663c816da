"""Limits counted in the store (web/quotas.py, web/upkeep.py): with several server processes on
one PostgreSQL database they together allow what one process allows. A rate's bucket is spent by
one conditional write whichever process spends it; the games in progress are counted over every
live process; and an AI turn left behind by a process killed while thinking is found in the
store and played by another process with nobody connected (docs/web.md, "Several server
processes")."""

from __future__ import annotations

import asyncio
import http.client
import json
import time
import urllib.parse
from typing import Iterator

import pytest
from sqlalchemy import delete, select
from starlette.exceptions import HTTPException

from plunder.core.registry import load_game

from plunder.web import autoplay, coach, quotas, tables as tables_module, upkeep
from plunder.web import leases
from plunder.web.leases import leases as leases_table
from plunder.web.limits import ANALYSIS_BURST, CREATE_BURST, CREATE_RATE
from plunder.web.quotas import loads, rates
from plunder.web.security import TOKEN_HEADER, new_token
from plunder.web.storage import Storage
from plunder.web.store import Store, games
from plunder.web.table import Full
from plunder.web.tables import Tables
from plunder.web.thinking import Thinkers

from .browser.conftest import LiveServer, servers_on
from .test_client_bounds import finished_games


@pytest.fixture
def store(postgres_url: str) -> Iterator[Store]:
    """The session's PostgreSQL store, its limits' rows cleared before and after (the session's
    other tests create games from the same address)."""
    shared = Store(postgres_url)

    def clear() -> None:
        with shared.engine.begin() as db:
            db.execute(delete(rates))
            db.execute(delete(loads))  # the counts of processes killed by earlier tests

    clear()
    yield shared
    clear()
    shared.close()


def test_a_bucket_is_shared_by_two_processes_and_refills_from_when_it_was_last_spent(store: Store,
                                                                                       postgres_url: str) -> None:
    other = Store(postgres_url)  # another process's engine on the same database
    try:
        spent = [quotas.spend(engine, "create address a", 1.0, 4, now=100.0)
                 for engine in (store.engine, other.engine, store.engine, other.engine)]
        assert spent == [True] * 4
        assert not quotas.spend(store.engine, "create address a", 1.0, 4, now=100.5)
        assert not quotas.spend(other.engine, "create address a", 1.0, 4, now=100.9)
        assert quotas.spend(other.engine, "create address b", 1.0, 4, now=100.9)  # another key: its own
        assert quotas.spend(store.engine, "create address a", 1.0, 4, now=101.0)  # a second's refill
        assert not quotas.spend(other.engine, "create address a", 1.0, 4, now=101.5)
        # b is full again a second after its one token was spent; a four seconds after its last
        assert quotas.forget(store.engine, now=101.5) == 0
        assert quotas.forget(store.engine, now=104.5) == 1
        assert quotas.forget(store.engine, now=106.0) == 1  # forgotten, it starts full
        assert [quotas.spend(store.engine, "create address a", 1.0, 4, now=106.0) for _ in range(5)] == [True] * 4 + [False]
    finally:
        other.close()


def test_games_in_progress_are_counted_over_every_live_process(store: Store) -> None:
    engine = store.engine
    assert quotas.claim(engine, "one", "games on", 0, 4, now=100.0)
    assert quotas.claim(engine, "one", "games on", 1, 4, now=100.0)
    assert quotas.claim(engine, "two", "games on", 0, 4, now=100.0)
    assert quotas.claim(engine, "two", "games on", 1, 4, now=100.0)
    assert not quotas.claim(engine, "two", "games on", 2, 4, now=100.0)  # 2 + 2 is the site's limit
    assert not quotas.claim(engine, "three", "games on", 0, 4, now=100.0)
    assert quotas.claim(engine, "three", "analyses", 0, 4, now=100.0)  # another kind: counted apart
    quotas.report(engine, "one", "games on", 1, now=101.0)  # one of one's games ended
    assert quotas.claim(engine, "three", "games on", 0, 4, now=101.0)
    # a process that stops renewing its count (it died) stops counting once its row is old
    assert not quotas.claim(engine, "three", "games on", 1, 4, now=101.0 + quotas.LOAD_SECONDS - 1)
    assert quotas.claim(engine, "three", "games on", 1, 4, now=101.0 + quotas.LOAD_SECONDS + 1)
    quotas.withdraw(engine, "three")
    quotas.withdraw(engine, "one")
    assert quotas.claim(engine, "four", "games on", 1, 4, now=100.0)  # two's 2 and four's 2
    assert not quotas.claim(engine, "four", "games on", 2, 4, now=100.0)


def test_the_bound_on_games_in_progress_holds_across_two_processes(store: Store, postgres_url: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_module, "MAX_GAMES_ON", 4)

    async def run() -> list[str]:
        one, two = Tables(Store(postgres_url), Thinkers(0)), Tables(Store(postgres_url), Thinkers(0))
        await one.start()
        await two.start()
        refused = []
        try:
            game = load_game("pirates")
            for tables in (one, one, two, two):  # half the limit on each
                await tables.create(game, ["me"], "anna")
            for tables in (one, two):
                with pytest.raises(Full) as full:
                    await tables.create(game, ["me"], "anna")
                refused.append(full.value.message)
            await one.upkeep.close()  # a process stopping withdraws its count: its share is free again
            await two.create(game, ["me"], "anna")
            return refused
        finally:
            await one.close()
            await two.close()

    refused = asyncio.run(run())
    assert all("4 games in progress, its limit" in message for message in refused)


def post_new(server: LiveServer) -> int:
    """Create a game on ``server`` from this machine's address: the answer's status."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request("POST", "/new/pirates", urllib.parse.urlencode({"seat.0": "me"}),
                 {"content-type": "application/x-www-form-urlencoded"})
    status = conn.getresponse().status
    conn.close()
    return status


@pytest.fixture
def two(store: Store, postgres_url: str) -> Iterator[list[LiveServer]]:
    """Two ``plunder serve`` processes on the session's PostgreSQL database."""
    with servers_on(postgres_url, 2) as started:
        yield started


def test_the_game_creation_limit_reached_half_on_each_process_is_refused_on_the_next(two: list[LiveServer]) -> None:
    began = time.monotonic()
    made = [0, 0]
    # alternately on each process until one refuses (one process alone would allow CREATE_BURST)
    for i in range(2 * CREATE_BURST):
        status = post_new(two[i % 2])
        if status != 303:
            break
        made[i % 2] += 1
    refill = (time.monotonic() - began) * CREATE_RATE
    assert status == 429
    assert CREATE_BURST <= sum(made) <= CREATE_BURST + refill + 1
    assert min(made) >= CREATE_BURST // 2 - 1  # each process made its half
    assert post_new(two[(i + 1) % 2]) == 429  # and the other process refuses the next as well


def test_an_ai_turn_of_a_process_killed_thinking_is_played_by_another_with_nobody_connected(
        two: list[LiveServer], store: Store) -> None:
    thinking, other = two
    assert thinking.process is not None
    # a hard AI moving first on a big board: a search of seconds, begun when the game is made
    conn = http.client.HTTPConnection("127.0.0.1", thinking.port, timeout=60)
    conn.request("POST", "/new/pillage", urllib.parse.urlencode({"preset": "big", "seat.0": "hard", "seat.1": "me"}),
                 {"content-type": "application/x-www-form-urlencoded"})
    answer = conn.getresponse()
    game_id = (answer.getheader("location") or "").rsplit("/", 1)[1]
    conn.close()
    assert answer.status == 303

    def holder() -> str | None:
        with store.engine.connect() as db:
            return db.execute(select(leases_table.c.holder).where(leases_table.c.game_id == game_id)).scalar()

    def ai_moved() -> bool:
        row = store.load(game_id)
        assert row is not None
        return any(m.by == 0 for m in row.moves)

    deadline = time.monotonic() + 30
    while (dead := holder()) is None:  # the process thinking for it holds its lease
        assert time.monotonic() < deadline, "the AI never began thinking"
        time.sleep(0.01)
    thinking.kill()  # SIGKILL: its lease is left behind, unreleased
    killed = time.monotonic()
    assert not ai_moved()  # it died before moving
    # nobody is connected to the other process, and it never showed the game: it finds the
    # turn in the store and takes the lease within the documented time (generously: a shared machine)
    taken_over = autoplay.LEASE_SECONDS + upkeep.SCAN_SECONDS
    while holder() == dead:
        assert time.monotonic() < killed + taken_over + 10, "no process took the AI's turn over"
        time.sleep(0.1)
    try:
        deadline = time.monotonic() + 90  # then the search
        while not ai_moved():
            assert time.monotonic() < deadline, "no process played the AI's turn"
            time.sleep(0.2)
        assert other.process is not None and other.process.poll() is None
    finally:
        # nothing left due in the session's database for the other tests' servers to take over
        other.kill()
        with store.engine.begin() as db:
            db.execute(delete(leases_table).where(leases_table.c.game_id == game_id))
            db.execute(delete(games).where(games.c.id == game_id))


def test_the_coach_analyses_at_most_its_limit_over_every_process(store: Store, postgres_url: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coach, "MAX_ANALYSES", 1)
    one = quotas.Loads(Storage(Store(postgres_url)), "one")
    two = quotas.Loads(Storage(Store(postgres_url)), "two")

    async def run() -> str:
        await coach.Coach().admit(one)  # one process starts an analysis: the site's one
        with pytest.raises(HTTPException) as full:
            await coach.Coach().admit(two)  # so the other refuses
        await one.report(upkeep.ANALYSES, 0)  # it ended
        await coach.Coach().admit(two)
        return str(full.value.detail)

    try:
        refused = asyncio.run(run())
    finally:
        one.storage.close()
        two.storage.close()
    assert "already analysing 1 games, its limit" in refused


def test_one_process_scans_for_ai_turns_left_behind_and_clears_leases_with_nothing_due(
        store: Store, postgres_url: str) -> None:
    async def run() -> tuple[list[str], list[str], bool, bool]:
        one, two = Tables(Store(postgres_url), Thinkers(0)), Tables(Store(postgres_url), Thinkers(0))
        try:
            game = load_game("pillage", "small")
            # made by a third process, gone now: its AI to move (the AI seat first), a lease of its left behind
            maker = Tables(Store(postgres_url), Thinkers(0))
            maker.kick = lambda table: None  # type: ignore[method-assign]  # it died before thinking
            due = await maker.create(game, ["medium", "me"], "anna")
            idle = await maker.create(game, ["me", "medium"], "anna")  # the person to move: nothing due
            await maker.close()
            for game_id in (due, idle):
                assert leases.take(store.engine, game_id, "dead", 1.0, now=time.time() - 5)
            with store.engine.begin() as db:  # no other process's upkeep holds the scan now
                db.execute(delete(leases_table).where(leases_table.c.game_id == upkeep.UPKEEP_LEASE))
            first = await one.upkeep.once()
            second = await two.upkeep.once()  # the upkeep lease is one's: two does not scan
            thinking = one.open[due].thinking
            assert thinking is not None
            await thinking
            with store.engine.connect() as db:
                left = set(db.execute(select(leases_table.c.game_id)).scalars())
            moved = any(m.by == 0 for m in (store.load(due) or pytest.fail("lost")).moves)
            named = {due: "due", idle: "idle"}
            return [named.get(g, g) for g in first], second, moved, idle in left or due in left
        finally:
            await one.close()
            await two.close()

    first, second, moved, left = asyncio.run(run())
    assert "due" in first and "idle" not in first and second == []
    assert moved and not left


def test_a_players_share_of_analyses_is_counted_over_both_processes(two: list[LiveServer], store: Store) -> None:
    made = finished_games(store, ANALYSIS_BURST + 1)
    token = new_token()
    answers = []
    try:
        for i, game_id in enumerate(made):  # alternately on each process: one process alone would start them all
            conn = http.client.HTTPConnection("127.0.0.1", two[i % 2].port, timeout=60)
            conn.request("POST", f"/replay/game/{game_id}/analyse", headers={TOKEN_HEADER: token})
            answer = conn.getresponse()
            answers.append((answer.status, json.loads(answer.read()).get("error", "")))
            conn.close()
    finally:
        for server in two:  # their analyses end with them
            server.kill()
        with store.engine.begin() as db:
            db.execute(delete(games).where(games.c.id.in_(made)))
    assert [status for status, _ in answers] == [202] * ANALYSIS_BURST + [429]
    assert answers[-1][1].startswith(f"You have started {ANALYSIS_BURST} analyses in a short time")
