"""AI work done by one server process at a time (web/leases.py, web/autoplay.py): a lease is
taken by a conditional write, renewed by its holder and taken over once its time is up; with
two processes on one PostgreSQL database showing a game against the AI, each AI move is thought
about once, and a process holding the lease that dies is taken over."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from plunder.core.registry import load_game
from sqlalchemy import delete, select

from plunder.web import autoplay, leases, upkeep
from plunder.web.store import Store
from plunder.web.tables import Tables
from plunder.web.thinking import Thinkers
from plunder.web.viewers import Viewer


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A store's engine on each database."""
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else f"sqlite:///{tmp_path / 'p.db'}"
    store = Store(url)
    yield store.engine
    store.close()


def test_a_lease_is_held_by_one_renewed_by_it_and_taken_over_once_its_time_is_up(engine: Any,
                                                                                  request: pytest.FixtureRequest) -> None:
    game = f"lease-{request.node.callspec.id}-{id(engine)}"[:60]
    assert leases.take(engine, game, "one", 10, now=100.0)
    assert not leases.take(engine, game, "two", 10, now=105.0)  # held
    assert leases.take(engine, game, "one", 10, now=105.0)  # renewed: now until 115
    assert not leases.take(engine, game, "two", 10, now=112.0)
    assert leases.take(engine, game, "two", 10, now=116.0)  # its time is up: taken over
    assert not leases.take(engine, game, "one", 10, now=117.0)
    leases.release(engine, game, "one")  # not the holder: nothing happens
    assert not leases.take(engine, game, "one", 10, now=118.0)
    leases.release(engine, game, "two")
    assert leases.take(engine, game, "one", 10, now=119.0)
    leases.release(engine, game, "one")


def counted(tables: Tables, calls: list[int]) -> None:
    """Count the AI decisions ``tables`` asks its workers for, by ply."""
    choose = tables.thinkers.choose

    async def counting(game_id: str, fresh: Any, state: Any, spec: str, seed: int, seat: int, ply: int) -> Any:
        calls.append(ply)
        await asyncio.sleep(0.05)  # a decision takes a while: the other process has time to want it too
        return await choose(game_id, fresh, state, spec, seed, seat, ply)

    tables.thinkers.choose = counting  # type: ignore[method-assign,assignment]


async def until(check: Any, seconds: float = 30.0) -> None:
    """Wait until ``check()`` holds."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.02)


def test_two_processes_think_once_per_ai_turn(postgres_url: str) -> None:
    async def run() -> tuple[list[int], list[int], int]:
        one, two = Tables(Store(postgres_url), Thinkers(0)), Tables(Store(postgres_url), Thinkers(0))
        calls_one: list[int] = []
        calls_two: list[int] = []
        counted(one, calls_one)
        counted(two, calls_two)
        await one.start()
        await two.start()
        try:
            game = load_game("pillage", "small")
            game_id = await one.create(game, ["medium", "me"], "anna")  # the AI moves first, on one
            here, there = await one.get(game_id), await two.get(game_id)
            assert here is not None and there is not None
            watching, playing = Viewer(None), Viewer("anna")
            two.welcome(there, watching)  # a spectator on two wants the AI's move as well
            one.welcome(here, playing)
            for _ in range(3):
                await until(lambda: not here.ai_to_move() and there.version == here.version or not here.on)
                if not here.on:
                    break
                await one.act(here, playing, here.prepare().legal[0], len(here.moves))
            await until(lambda: not here.ai_to_move() and there.version == here.version or not here.on)
            return calls_one, calls_two, len([m for m in here.moves if m.by == 0])
        finally:
            await one.close()
            await two.close()

    calls_one, calls_two, ai_moves = asyncio.run(run())
    assert ai_moves >= 2
    assert sorted(calls_one + calls_two) == sorted(set(calls_one + calls_two))  # no turn thought about twice
    assert len(calls_one) + len(calls_two) == ai_moves


def test_a_process_that_dies_holding_the_lease_is_taken_over(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(autoplay, "LEASE_SECONDS", 0.5)

    async def run() -> int:
        tables = Tables(Store(postgres_url), Thinkers(0))
        await tables.start()
        try:
            game = load_game("pillage", "small")
            # a game whose AI turn a dead process held: its lease runs out in a second
            game_id = await tables.create(game, ["me", "medium"], "anna")
            table = await tables.get(game_id)
            assert table is not None
            viewer = Viewer("anna")
            tables.welcome(table, viewer)
            assert leases.take(tables.store.engine, game_id, "dead", 3.0)
            while table.on and not table.ai_to_move():  # a box closed moves again: until the AI's turn
                await tables.act(table, viewer, table.prepare().legal[0], len(table.moves))
            moved = len(table.moves)
            assert table.ai_to_move()
            await asyncio.sleep(0.5)
            assert len(table.moves) == moved  # the dead process's lease holds
            await until(lambda: not table.ai_to_move())  # then this one takes over
            return len(table.moves) - moved
        finally:
            await tables.close()

    assert asyncio.run(run()) >= 1


def test_a_move_made_while_the_ai_lets_its_lease_go_is_answered(postgres_url: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A person's move that arrives while the AI's task is still letting its lease go (the task
    not yet done, so nothing new is started) is answered all the same."""
    async def run() -> tuple[int, int]:
        tables = Tables(Store(postgres_url), Thinkers(0))
        await tables.start()
        try:
            lease = tables.autoplay.lease
            assert lease is not None
            release = lease.release
            released: list[str] = []

            async def slow_release(game_id: str) -> None:
                await asyncio.sleep(0.3)  # the person's move comes meanwhile
                await release(game_id)
                released.append(game_id)

            monkeypatch.setattr(lease, "release", slow_release)
            game_id = await tables.create(load_game("pillage", "small"), ["medium", "me"], "anna")
            table = await tables.get(game_id)
            assert table is not None
            viewer = Viewer("anna")
            tables.welcome(table, viewer)
            answered = 0
            for _ in range(4):
                await until(lambda: not table.ai_to_move() or not table.on)
                if not table.on:
                    break
                thinking = table.thinking
                assert thinking is not None and not thinking.done()  # still letting the lease go
                await tables.act(table, viewer, table.prepare().legal[0], len(table.moves))
                answered += 1
            await until(lambda: not table.ai_to_move() or not table.on)
            return answered, len(released)
        finally:
            await tables.close()

    answered, released = asyncio.run(run())
    assert answered >= 2 and released >= answered



def test_a_move_that_gives_the_ai_its_turn_is_stored_with_the_lease(postgres_url: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # a process that dies between storing a person's move and setting its AI thinking leaves a
    # lease that runs out, which another process's upkeep finds with nobody connected anywhere
    monkeypatch.setattr(autoplay, "LEASE_SECONDS", 0.5)
    monkeypatch.setattr(upkeep.Upkeep, "start", lambda self: None)  # scans run by hand below

    async def run() -> tuple[str, str, int]:
        dying, other = Tables(Store(postgres_url), Thinkers(0)), Tables(Store(postgres_url), Thinkers(0))
        await dying.start()
        await other.start()
        try:
            game_id = await dying.create(load_game("pillage", "small"), ["me", "medium"], "anna")
            table = await dying.get(game_id)
            assert table is not None
            viewer = Viewer("anna")
            dying.welcome(table, viewer)
            dying.autoplay.kick = lambda table: None  # type: ignore[method-assign]  # it dies as the move is stored
            while table.on and not table.ai_to_move():
                await dying.act(table, viewer, table.prepare().legal[0], len(table.moves))
            assert table.ai_to_move()
            moved = len(table.moves)
            with dying.store.engine.connect() as db:
                holder = db.execute(select(leases.leases.c.holder)
                                    .where(leases.leases.c.game_id == game_id)).scalar_one()
            await asyncio.sleep(0.6)  # the lease runs out
            with other.store.engine.begin() as db:  # the site's upkeep left held by an earlier test's tables
                db.execute(delete(leases.leases).where(leases.leases.c.game_id == upkeep.UPKEEP_LEASE))
            taken = await other.upkeep.once()
            there = other.open[game_id]
            await until(lambda: len(there.moves) > moved)
            return holder, dying.lease.holder, len(taken)
        finally:
            await dying.close()
            await other.close()

    holder, dying_holder, taken = asyncio.run(run())
    assert holder == dying_holder
    assert taken == 1


def test_a_lease_is_not_taken_for_a_position_the_store_has_moved_past(tmp_path: Path) -> None:
    from plunder.web.store import ON, GameRow, HUMAN, SeatRow

    store = Store(f"sqlite:///{tmp_path / 'v.db'}")
    try:
        store.create(GameRow("g", "pillage", {}, 1, ON, "t", [SeatRow(HUMAN, token="t")] * 2, version=3))
        # a process showing version 2 has not heard of the last change: it must not think
        assert not leases.take(store.engine, "g", "two", 10, now=100.0, version=2)
        with store.engine.connect() as db:
            assert db.execute(select(leases.leases)).all() == [], "nothing was taken"
        assert leases.take(store.engine, "g", "two", 10, now=100.0, version=3)  # the position stored
        assert leases.take(store.engine, "g", "two", 10, now=101.0)  # renewed without a version, as while thinking
    finally:
        store.close()
