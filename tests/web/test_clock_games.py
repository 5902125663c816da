"""Games with a time control on the server (web/tables.py over web/clocks.py and
web/clockstore.py), the server's time injected: running out loses on time (once), a move
after the time is up is refused, turn-based clocks give a move's time again and are declared
from the store when nobody has the game open, a restart keeps the clock, a Crossroads seat that
runs out is taken over by an AI so the others finish, an absent player can be claimed against
after the countdown, a game is aborted only before every person moved, and resigning stops it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

import pytest
from sqlalchemy import delete, select

from plunder.core.registry import load_game
from plunder.web import clockstore, quotas
from plunder.web.clocks import DAY, LAG_QUOTA_GAIN, LAG_QUOTA_START, TimeControl
from plunder.web.clockstore import CLAIMED, ON_TIME
from plunder.web.games import time_control
from plunder.web.lobby import mine_rows
from plunder.web.ratings import rating_changes
from plunder.web.store import ABORTED, AI, HUMAN, ON, RESIGNED, Store
from plunder.web.table import CLAIM_SECONDS, Refused, Table
from plunder.web.quotas import LOAD_SECONDS
from plunder.web.tables import PRESENCE, ZOMBIE_LEVEL, Tables
from plunder.web.transport import Event, game_channel
from plunder.web.upkeep import GAMES_ON
from plunder.web.thinking import Thinkers
from plunder.web.viewers import Viewer

T0 = 1_800_000_000.0


class Now:
    """An injected server time."""

    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> float:
        return self.t


def run(url: str, body: Callable[[Tables, Now], Awaitable[Any]], now: Now | None = None) -> Any:
    """``body`` with a server over ``url`` whose time is ``now`` (the clocks' check not started:
    each test declares when it means to)."""
    async def go() -> Any:
        tables = Tables(Store(url), Thinkers(0))
        tables.time = clock = now or Now()
        try:
            return await body(tables, clock)
        finally:
            await tables.close()
    return asyncio.run(go())


async def two_people(tables: Tables, control: str = "3+2", game: str = "pillage") -> tuple[Table, dict[int, Viewer]]:
    """A game of ``game`` between anna (created it) and bob (joined by the invite), with
    ``control``: its table and each seat's viewer."""
    game_id = await tables.create(load_game(game, "small"), ["me", "open"], "anna", control=TimeControl.parse(control))
    table = await tables.get(game_id)
    assert table is not None
    invite = table.row.seats[1].invite
    assert invite is not None
    assert await tables.claim(invite, "bob") == game_id
    return table, {0: Viewer("anna"), 1: Viewer("bob")}


async def move(tables: Tables, table: Table, viewers: dict[int, Viewer], thought: float | None = None) -> int:
    """The seat to move plays its first legal move (its page saying it ``thought`` that many
    seconds over it); that seat."""
    seat = table.state.current_player
    await tables.act(table, viewers[seat], table.prepare().legal[0], len(table.moves), thought=thought)
    return seat


@pytest.fixture
def url(tmp_path: Path) -> str:
    """A fresh SQLite database."""
    return f"sqlite:///{tmp_path / 'plunder.db'}"


def test_no_clock_runs_until_the_invited_seat_is_taken_then_a_move_charges_and_adds(url: str) -> None:
    async def body(tables: Tables, now: Now) -> None:
        game_id = await tables.create(load_game("pillage", "small"), ["me", "open"], "anna",
                                      control=TimeControl.parse("3+2"))
        table = await tables.get(game_id)
        assert table is not None and table.kept is not None
        assert table.kept.clock.running is None  # waiting for a friend costs nobody time
        await tables.claim(str(table.row.seats[1].invite), "bob")
        first = table.state.current_player
        assert table.kept.clock.running == first
        now.t += 10
        viewers = {0: Viewer("anna"), 1: Viewer("bob")}
        assert await move(tables, table, viewers) == first
        assert table.kept.clock.left[first] == pytest.approx(180 - 10 + 2)
        assert table.kept.clock.running == table.state.current_player != first
        sent = table.view(viewers[first])["clock"]
        assert sent["left"][first] == pytest.approx(172) and sent["running"] == 1 - first
    run(url, body)


def test_running_out_loses_on_time_declared_once_and_a_late_move_is_refused(url: str) -> None:
    async def body(tables: Tables, now: Now) -> None:
        table, viewers = await two_people(tables)
        loser = table.state.current_player
        now.t += 179
        assert not await tables.flag(table)  # a second left
        now.t += 1.5
        with pytest.raises(Refused, match="time ran out"):
            await move(tables, table, viewers)
        assert table.row.status == RESIGNED and table.row.resigned_by == loser
        assert table.kept is not None and table.kept.ended == ON_TIME
        assert not await tables.flag(table)  # declared already
        verdict = table.view(viewers[1 - loser])["result"]["verdict"]
        assert verdict.endswith("lost on time: you win"), verdict
        assert table.view(viewers[loser])["result"]["verdict"].startswith("You lost on time")
    run(url, body)


def test_a_turn_based_game_gives_each_move_its_days_and_is_declared_from_the_store(url: str) -> None:
    now = Now()

    async def first(tables: Tables, now: Now) -> tuple[str, int]:
        table, viewers = await two_people(tables, "1d")
        now.t += 0.9 * DAY
        seat = await move(tables, table, viewers)
        assert table.kept is not None and table.kept.clock.left[seat] == DAY  # a whole day again
        return table.id, table.state.current_player

    game_id, late = run(url, first, now)
    now.t += 1.01 * DAY

    async def later(tables: Tables, now: Now) -> tuple[list[str], list[str], Any]:
        declared = await tables.sweep()  # nobody has it open: found in the store
        again = await tables.sweep()
        table = await tables.get(game_id)
        assert table is not None
        return declared, again, (table.row.status, table.row.resigned_by)

    declared, again, (status, resigned_by) = run(url, later, now)
    assert declared == [game_id] and again == []
    assert (status, resigned_by) == (RESIGNED, late)


def test_a_restart_keeps_the_clock_running_from_its_stored_time(url: str) -> None:
    now = Now()

    async def before(tables: Tables, now: Now) -> tuple[str, int]:
        table, viewers = await two_people(tables, "5+3")
        now.t += 20
        await move(tables, table, viewers)
        return table.id, table.state.current_player

    game_id, running = run(url, before, now)
    now.t += 45  # the server is down 45 s with this seat's clock running

    async def after(tables: Tables, now: Now) -> tuple[float, float]:
        table = await tables.get(game_id)
        assert table is not None and table.kept is not None and table.kept.clock.running == running
        return table.kept.clock.left_at(running, now.t), table.kept.clock.left_at(1 - running, now.t)

    runner, other = run(url, after, now)
    assert runner == pytest.approx(300 - 45)
    assert other == pytest.approx(300 - 20 + 3)


def test_a_crossroads_seat_that_runs_out_is_taken_over_by_an_ai_and_the_others_finish(url: str) -> None:
    async def body(tables: Tables, now: Now) -> None:
        game = load_game("crossroads", players="3")
        game_id = await tables.create(game, ["me", "open", "open"], "anna", control=TimeControl.parse("3+2"))
        table = await tables.get(game_id)
        assert table is not None
        for seat, who in ((1, "bob"), (2, "cara")):
            await tables.claim(str(table.row.seats[seat].invite), who)
        gone = table.state.current_player
        assert table.kept is not None and table.kept.clock.running == gone
        now.t += 181
        assert await tables.flag(table)
        assert table.row.status == ON
        assert table.row.seats[gone].kind == AI and table.row.seats[gone].agent == ZOMBIE_LEVEL
        assert table.kept.gone == {gone: ZOMBIE_LEVEL}
        stored = await tables.db(tables.store.load, game_id)
        assert stored is not None and stored.seats[gone].kind == AI
        # the AI plays the seat: the game goes on to another person's turn
        for _ in range(200):
            if table.state.current_player != gone:
                break
            await asyncio.sleep(0.05)
        assert table.state.current_player != gone and table.on
        assert table.kept.clock.running == table.state.current_player
        others = [i for i, s in enumerate(table.row.seats) if s.kind == HUMAN]
        viewer = Viewer(table.row.seats[others[0]].token)
        assert table.kept.clock.running in others
        await tables.resign(table, Viewer(table.row.seats[table.state.current_player].token))
        lines = table.view(viewer)["result"]["breakdown"]
        assert f"ran out of time and left; the {ZOMBIE_LEVEL} AI played on for them" in lines[0], lines
    run(url, body)


def test_an_absent_player_can_be_claimed_against_after_the_countdown(url: str) -> None:
    async def body(tables: Tables, now: Now) -> None:
        table, viewers = await two_people(tables)
        anna = viewers[0]
        tables.welcome(table, anna)
        tables.welcome(table, viewers[1])
        tables.leave(table, viewers[1])  # bob's tab closed
        assert table.view(anna)["clock"]["claim"] == [{"seat": 1, "in": CLAIM_SECONDS}]
        now.t += 10
        with pytest.raises(Refused, match="claim in 20 s"):
            await tables.claim_win(table, anna, 1)
        tables.welcome(table, viewers[1])  # back: the countdown stops
        assert table.view(anna)["clock"]["claim"] == []
        tables.leave(table, viewers[1])
        now.t += CLAIM_SECONDS + 1
        with pytest.raises(Refused, match="no absent player"):
            await tables.claim_win(table, viewers[1], 0)  # anna is here
        await tables.claim_win(table, anna, 1)
        assert table.row.status == RESIGNED and table.row.resigned_by == 1
        assert table.kept is not None and table.kept.ended == CLAIMED
        assert table.view(anna)["result"]["verdict"].endswith("left the game: you win (claimed)")
    run(url, body)


def test_a_player_connected_through_a_process_that_died_becomes_absent(postgres_url: str) -> None:
    # bob's tab is open on another server process, which dies (killed: it says nothing more, and
    # stops counting its loads): once it has been silent past LOAD_SECONDS, bob is absent here
    # and the countdown to a claim starts; a process that is alive keeps its players present
    async def body(tables: Tables, now: Now) -> None:
        table, viewers = await two_people(tables)
        anna = viewers[0]
        tables.welcome(table, anna)
        for holder in ("ghost", "living"):
            await tables._presence_told(Event(game_channel(table.id), 0, PRESENCE, {"holder": holder, "tokens": ["bob"]}))
        assert table.view(anna)["clock"]["claim"] == []  # bob is connected elsewhere
        engine = tables.store.engine
        await tables.db(quotas.report, engine, "living", GAMES_ON, 0)  # "living" counts its loads
        alive = await tables.db(quotas.alive, engine)
        assert "living" in alive and "ghost" not in alive
        assert tables.forget_gone(alive) == []  # what the upkeep does every scan
        others = lambda: set(table.remote) - {tables.upkeep.holder}  # noqa: E731 (this process's own is kept too)
        assert others() == {"ghost", "living"}  # heard from just now: perhaps only starting
        now.t += LOAD_SECONDS + 1
        await tables.db(quotas.report, engine, "living", GAMES_ON, 0)
        assert tables.forget_gone(await tables.db(quotas.alive, engine)) == []  # bob is still on "living"
        assert others() == {"living"} and table.view(anna)["clock"]["claim"] == []
        await tables._presence_told(Event(game_channel(table.id), 0, PRESENCE, {"holder": "living", "tokens": []}))
        assert table.view(anna)["clock"]["claim"] == [{"seat": 1, "in": CLAIM_SECONDS}]  # gone from both
        with tables.store.engine.begin() as db:  # the test's rows in the shared database
            db.execute(delete(quotas.loads).where(quotas.loads.c.holder == "living"))
    now = Now()
    now.t = time.time()  # the loads' own clock: the process counted now
    run(postgres_url, body, now)


def test_abort_only_before_every_person_moved_and_without_a_result(url: str) -> None:
    async def body(tables: Tables, now: Now) -> None:
        table, viewers = await two_people(tables)
        assert table.view(viewers[0])["can_abort"]
        await move(tables, table, viewers)
        await tables.abort(table, viewers[1])  # bob has not moved yet
        assert table.row.status == ABORTED and table.kept is not None and table.kept.clock.running is None
        assert table.view(viewers[0])["result"]["verdict"].startswith("Aborted")
        stored = await tables.db(tables.store.load, table.id)
        assert stored is not None and stored.status == ABORTED

        other, seats = await two_people(tables)
        await move(tables, other, seats)
        await move(tables, other, seats)
        assert not other.view(seats[0])["can_abort"]
        with pytest.raises(Refused, match="can no longer be aborted"):
            await tables.abort(other, seats[0])
        with pytest.raises(Refused, match="Spectators cannot abort"):
            await tables.abort(other, Viewer(None))
    run(url, body)


def test_an_aborted_rated_game_moves_no_rating_and_a_game_lost_on_time_does(url: str) -> None:
    async def rated(tables: Tables) -> tuple[Table, dict[int, Viewer]]:
        game_id = await tables.create(load_game("pillage", "small"), ["me", "open"], "anna", rated=True,
                                      control=TimeControl.parse("3+2"))
        table = await tables.get(game_id)
        assert table is not None
        await tables.claim(str(table.row.seats[1].invite), "bob")
        return table, {0: Viewer("anna"), 1: Viewer("bob")}

    async def body(tables: Tables, now: Now) -> None:
        table, viewers = await rated(tables)
        await tables.abort(table, viewers[0])
        assert table.outcome == {}
        with tables.store.engine.connect() as db:
            assert db.execute(select(rating_changes).where(rating_changes.c.game_id == table.id)).first() is None
        other, seats = await rated(tables)
        now.t += 200
        assert await tables.flag(other)
        assert other.outcome is not None and sorted(other.outcome) == ["anna", "bob"]  # both ratings moved
    run(url, body)


def test_resigning_a_timed_game_stops_the_clock(url: str) -> None:
    async def body(tables: Tables, now: Now) -> None:
        table, viewers = await two_people(tables, "10+5")
        now.t += 7
        await tables.resign(table, viewers[table.state.current_player])
        assert table.row.status == RESIGNED and table.kept is not None
        assert table.kept.clock.running is None and table.kept.ended is None
        now.t += 10_000
        assert not await tables.flag(table)
        assert "resigned" in table.view(viewers[0])["result"]["verdict"]
    run(url, body)


def test_the_form_gives_a_game_with_an_open_seat_a_clock_and_refuses_none() -> None:
    assert time_control("auto", ["me", "open"]) == TimeControl.parse("10+5")
    assert time_control("auto", ["me", "hotseat"]) is None
    assert time_control("auto", ["me", "medium"]) is None
    assert time_control("7d", ["me", "medium"]) == TimeControl.parse("7d")
    with pytest.raises(Refused, match="choose one of 3\\+2"):
        time_control("none", ["me", "open"])
    with pytest.raises(Refused, match="not one this server offers"):
        time_control("1+0", ["me", "open"])


def test_my_games_show_where_your_clock_runs(url: str) -> None:
    async def body(tables: Tables, now: Now) -> None:
        table, viewers = await two_people(tables, "3+2")
        mover = table.row.seats[table.state.current_player].token
        waiter = table.row.seats[1 - table.state.current_player].token
        assert mover is not None and waiter is not None
        now.t += 37
        mine = await mine_rows(tables, mover)
        theirs = await mine_rows(tables, waiter)
        assert [r["clock"] for r in mine] == ["2:23"] and mine[0]["your_turn"]
        assert [r["clock"] for r in theirs] == [None]
    run(url, body)


def test_a_move_sent_in_time_that_arrives_late_by_its_credited_lag_stands(url: str) -> None:
    async def body(tables: Tables, now: Now) -> None:
        table, viewers = await two_people(tables)
        now.t += 180.3  # the deadline passed 0.3 s before the move arrived
        with pytest.raises(Refused, match="time ran out"):  # no thought said: no lag credited
            await move(tables, table, viewers)
        table, viewers = await two_people(tables)
        mover = table.state.current_player
        now.t += 180.3
        await move(tables, table, viewers, thought=179.9)  # sent with 0.1 s left: 0.4 s of lag, credited
        assert table.row.status == ON and table.kept is not None
        assert table.kept.clock.left[mover] == pytest.approx(180 - 179.9 + 2)
        assert table.kept.clock.quota_of(mover) == LAG_QUOTA_START  # the first move's allowance spent
        other = await move(tables, table, viewers)
        now.t += 1.0 + LAG_QUOTA_START + 0.5  # 0.5 s of lag past the quota: charged
        await move(tables, table, viewers, thought=1.0)
        assert table.kept.clock.left[mover] == pytest.approx(180 - 179.9 + 2 - 1.5 + 2)
        assert table.kept.clock.quota_of(mover) == pytest.approx(LAG_QUOTA_GAIN)
        assert table.kept.clock.quota_of(other) == LAG_QUOTA_START
        stored = await tables.db(clockstore.load, tables.store.engine, table.id)  # in the move's transaction
        assert stored is not None and stored.clock == table.kept.clock
    run(url, body)
