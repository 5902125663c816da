"""One clock run out, two ``plunder serve`` processes on one PostgreSQL database, both showing
the game: exactly one declares the loss on time (a conditional write on the game's version),
and both players, each on a process of their own, are told the verdict. The servers' time is
moved by the test-only file their environment names (``tables.TIME_SHIFT_ENV``): nothing is
waited for but the declaration."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Iterator

import pytest
from sqlalchemy import create_engine, func, select

from plunder.web.clockstore import ON_TIME, clocks
from plunder.web.pgtransport import events
from plunder.web.tables import TIME_SHIFT_ENV

from .browser.conftest import LiveServer, servers_on
from .test_processes import Seat, post


@pytest.fixture
def shift(tmp_path: Path) -> Path:
    """The file of seconds the servers add to their wall clock."""
    path = tmp_path / "shift"
    path.write_text("0")
    return path


@pytest.fixture
def servers(postgres_url: str, shift: Path) -> Iterator[list[LiveServer]]:
    """Two server processes on the session's PostgreSQL database, their time moved by ``shift``."""
    with servers_on(postgres_url, 2, {TIME_SHIFT_ENV: str(shift)}) as started:
        yield started


def test_a_clock_run_out_is_declared_once_across_two_processes(servers: list[LiveServer], shift: Path,
                                                                postgres_url: str) -> None:
    status, location, anna = post(servers[0].url, "/new/pillage", {
        "preset": "small", "seat.0": "me", "seat.1": "open", "listed": "anyone", "clock": "3+2"})
    assert status == 303 and anna
    game_id = location.rsplit("/", 1)[1]
    status, _, bob = post(servers[1].url, f"/lobby/{game_id}/1", {})
    assert status == 303 and bob

    async def play() -> tuple[dict[str, Any], dict[str, Any]]:
        a, b = await Seat.open(servers[0], game_id, anna), await Seat.open(servers[1], game_id, bob)
        try:
            started = await a.until(lambda s: s["clock"]["running"] is not None)
            await b.until(lambda s: s["clock"]["running"] is not None)
            assert started["clock"]["control"] == "3+2"
            shift.write_text("200")  # 3 minutes and more pass on both servers' clocks
            ended = [await seat.until(lambda s: s["over"]) for seat in (a, b)]
            return ended[0], ended[1]
        finally:
            await a.close()
            await b.close()

    seen_a, seen_b = asyncio.run(play())
    assert seen_a["clock"]["running"] is None and seen_b["clock"]["running"] is None  # stopped once over
    verdicts = {seen_a["result"]["verdict"], seen_b["result"]["verdict"]}
    assert any("lost on time: you win" in v for v in verdicts), verdicts
    assert any(v.startswith("You lost on time") for v in verdicts), verdicts
    engine = create_engine(postgres_url)
    try:
        with engine.connect() as db:
            ended = db.execute(select(clocks.c.ended).where(clocks.c.game_id == game_id)).scalar_one()
            changes = db.execute(select(func.count()).select_from(events).where(
                events.c.channel == f"game:{game_id}", events.c.kind == "changed")).scalar_one()
    finally:
        engine.dispose()
    assert ended == ON_TIME
    # the changes told: the seat taken, then the one declaration (a second would be a third)
    assert changes == 2, changes
