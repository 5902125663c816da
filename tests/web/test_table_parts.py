"""The parts of a game at a table, each on its own: the table's rules of play (web/table.py),
its viewers' queues (web/viewers.py) and its storage's calls (web/storage.py)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from plunder.core.record import Move
from plunder.core.registry import load_game
from plunder.match import new_seed
from plunder.web.security import new_token
from plunder.web.storage import Storage
from plunder.web.store import HUMAN, ON, GameRow, SeatRow, Store
from plunder.web.table import Refused, Table
from plunder.web.viewers import MAX_QUEUED, Viewer, offer, tell


def table_of(game: str, preset: str) -> Table:
    """A new table of ``game`` between two people, with chance's opening draws."""
    rules = load_game(game, preset)
    table = Table(GameRow(new_token(), rules.id, dict(rules.params), new_seed(), ON, "x",
                          [SeatRow(HUMAN, token="x"), SeatRow(HUMAN, token="y")]))
    moves: list[Move] = []
    states = [table.state]
    table.followed(moves, states)
    table.extend(moves, states[1:])
    table.row.moves = list(moves)  # as stored
    return table


def test_moves_told_by_another_process_replay_to_the_positions_the_mover_planned() -> None:
    mover = table_of("pirates", "classic")
    follower = Table(mover.row)  # the same stored game, built afresh (another process)
    assert len(follower.moves) == len(mover.moves) > 0
    for _ in range(6):
        seat = mover.state.current_player
        moves, states = mover.plan(seat, mover.prepare().legal[0])
        first = len(mover.moves)
        mover.extend(moves, states)
        replayed = follower.replay_from(first, moves)
        assert [str(s) for s in replayed] == [str(s) for s in states]
        follower.extend(moves, replayed)
    assert [m.action for m in follower.moves] == [m.action for m in mover.moves]
    assert [e.text for e in follower.log] == [e.text for e in mover.log]


def test_a_move_the_rules_refuse_is_refused_in_a_players_words() -> None:
    table = table_of("pillage", "small")
    with pytest.raises(Refused) as refused:
        table.plan(table.state.current_player, "z9-z10")
    assert "PP-" in refused.value.detail and "PP-" not in refused.value.message


def test_a_viewer_too_slow_is_cut_off_and_a_notice_skips_a_full_queue() -> None:
    async def run() -> tuple[set[Viewer], Viewer, Viewer]:
        slow, quick = Viewer("a"), Viewer("b")
        viewers = {slow, quick}
        for n in range(MAX_QUEUED):
            offer([slow], {"n": n})
        offer(viewers, {"type": "notice"})  # the slow one has no room: skipped, kept
        assert slow in viewers and slow.queue.qsize() == MAX_QUEUED
        tell(viewers, lambda viewer: {"type": "state", "for": viewer.token})
        return viewers, slow, quick

    viewers, slow, quick = asyncio.run(run())
    assert viewers == {quick}  # the slow one was cut off: its queue holds only the end
    assert slow.queue.qsize() == 1 and slow.queue.get_nowait() is None
    got = [quick.queue.get_nowait() for _ in range(2)]
    assert [m["type"] if m else None for m in got] == ["notice", "state"]


def test_storage_calls_sqlite_on_the_loop_and_a_database_over_the_network_in_threads(tmp_path: Path,
                                                                                   postgres_url: str) -> None:
    def where() -> str:
        return threading.current_thread().name

    async def run(url: str) -> tuple[str, str, bool]:
        storage = Storage(Store(url))
        try:
            return await storage.db(where), threading.current_thread().name, storage.shared
        finally:
            storage.close()

    called, loop, shared = asyncio.run(run(f"sqlite:///{tmp_path / 'p.db'}"))
    assert called == loop and not shared
    called, loop, shared = asyncio.run(run(postgres_url))
    assert called != loop and called.startswith("plunder-db") and shared
