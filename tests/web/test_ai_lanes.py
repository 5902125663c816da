"""The server's AI work under stress: requests served fairly across games (the order tested
directly, not by timing), a failing AI seat falling back to a simpler level with the game
still playable, the global bound on games in progress, and a stopping server that does not
wait for the searches it has queued."""

from __future__ import annotations

import asyncio
import http.client
import os
import signal
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from plunder.core.game import State
from plunder.core.registry import load_game
from plunder.web import tables as tables_module
from plunder.web import thinking
from plunder.web.app import create_app
from plunder.web.store import Store
from plunder.web.tables import Tables
from plunder.web.viewers import Viewer
from plunder.web.thinking import Lane, Superseded, Thinkers
from tests.web.browser.conftest import LiveServer


# ---- the order of the queue ----

async def _served_order() -> tuple[list[str], list[str]]:
    """Game A asks three times while its first search runs, then B and C ask once: what runs, in
    order, and which requests were dropped."""
    gate = threading.Event()
    ran: list[str] = []

    def search(name: str) -> str:
        if name == "A1":
            gate.wait(10)
        ran.append(name)
        return name

    with ThreadPoolExecutor(1) as pool:
        lane = Lane(lambda: pool, slots=1)
        first = asyncio.create_task(lane.run("A", lambda: True, search, "A1"))
        await asyncio.sleep(0)
        a2 = asyncio.create_task(lane.run("A", lambda: True, search, "A2"))
        await asyncio.sleep(0)
        a3 = asyncio.create_task(lane.run("A", lambda: True, search, "A3"))
        await asyncio.sleep(0)
        b1 = asyncio.create_task(lane.run("B", lambda: True, search, "B1"))
        c1 = asyncio.create_task(lane.run("C", lambda: False, search, "C1"))  # its position moved on
        d1 = asyncio.create_task(lane.run("D", lambda: True, search, "D1"))
        await asyncio.sleep(0)
        gate.set()
        outcomes = await asyncio.gather(first, a2, a3, b1, c1, d1, return_exceptions=True)
    dropped = [name for name, outcome in zip(["A1", "A2", "A3", "B1", "C1", "D1"], outcomes)
               if isinstance(outcome, Superseded)]
    return ran, dropped



def run_apart(coroutine: Any) -> Any:
    """``asyncio.run(coroutine)`` in a thread of its own: the browser tests' session keeps an
    event loop running in the main thread, where ``asyncio.run`` refuses to start another."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()

def test_a_game_behind_another_games_searches_is_served_in_turn() -> None:
    ran, dropped = run_apart(_served_order())
    # B and D asked after A's second and third requests, but A had just been served: they go first;
    # A's newer request replaced its waiting one; C's position changed before its turn
    assert ran == ["A1", "B1", "D1", "A3"]
    assert dropped == ["A2", "C1"]


async def _served_by_time() -> list[str]:
    """Game A's searches take 5 s each, B's and C's moves a millisecond, on one worker: A1 runs
    while B1 and C1 wait, A asks again during B1, B during C1. What runs, in order."""
    now = [0.0]
    cost = {"A1": 5.0, "B1": 0.001, "C1": 0.001, "A2": 5.0, "B2": 0.001}
    gates = {name: threading.Event() for name in cost}
    ran: list[str] = []

    def search(name: str) -> str:
        gates[name].wait(10)
        now[0] += cost[name]  # the time it took, on the lane's clock
        ran.append(name)
        return name

    def ask(key: str, name: str) -> asyncio.Task[str]:
        return asyncio.create_task(lane.run(key, thinking.always, search, name))

    with ThreadPoolExecutor(1) as pool:
        lane = Lane(lambda: pool, slots=1, now=lambda: now[0])
        a1 = ask("A", "A1")
        await asyncio.sleep(0)
        b1, c1 = ask("B", "B1"), ask("C", "C1")
        await asyncio.sleep(0)
        gates["A1"].set()
        await a1  # B1 starts
        a2 = ask("A", "A2")
        await asyncio.sleep(0)
        gates["B1"].set()
        await b1  # C1 starts: A has had 5 s, C nothing
        b2 = ask("B", "B2")
        await asyncio.sleep(0)
        gates["C1"].set()
        await c1  # B2 starts, though A2 asked first: B has had a millisecond, A 5 s
        gates["B2"].set()
        gates["A2"].set()
        await asyncio.gather(a2, b2)
    return ran


def test_a_game_of_quick_moves_is_not_kept_waiting_behind_long_searches() -> None:
    # served in turns, B2 would wait behind A2 (A was served before B); by time, it goes first
    assert run_apart(_served_by_time()) == ["A1", "B1", "C1", "B2", "A2"]


# ---- an AI that fails ----

def failing_hard(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every ``hard`` agent raise in its worker (the worker is a thread here); the specs
    the workers were asked for."""
    asked: list[str] = []
    real = thinking.agent_for

    def agent_for(state: State, spec: str, keep: bool = True) -> Any:
        asked.append(spec)
        if spec == "hard":
            raise RuntimeError("the search ran out of room")
        return real(state, spec, keep)

    monkeypatch.setattr(thinking, "agent_for", agent_for)
    return asked


async def first_move_against_hard(tables: Tables) -> tuple[Any, Viewer, list[dict[str, Any]]]:
    """A small Pillage game of "me" against ``hard``, my first move made: the table, my viewer
    and the messages it got so far."""
    game = load_game("pillage", "small")
    game_id = await tables.create(game, ["me", "hard"], "tok")
    table = await tables.get(game_id)
    assert table is not None
    viewer = Viewer("tok")
    tables.welcome(table, viewer)
    first = await asyncio.wait_for(viewer.queue.get(), 30)
    assert first is not None
    await tables.act(table, viewer, first["legal"][0], first["ply"])
    return table, viewer, [first]


async def _play_against_failing_hard(db: str) -> tuple[list[dict[str, Any]], list[str]]:
    tables = Tables(Store(db), Thinkers(0))
    await tables.start()
    try:
        table, viewer, got = await first_move_against_hard(tables)
        # the AI seat's reply, however it comes, within a bound (the bug: nothing ever came)
        mine = got[0]
        while not mine["your_turn"] or not any(m["type"] == "notice" for m in got):
            message = await asyncio.wait_for(viewer.queue.get(), 30)
            assert message is not None
            got.append(message)
            if message["type"] == "state":
                mine = message
        # and the game is still playable: another move of mine, another reply of the AI's
        await tables.act(table, viewer, mine["legal"][0], mine["ply"])
        while True:
            message = await asyncio.wait_for(viewer.queue.get(), 30)
            assert message is not None
            got.append(message)
            if message["type"] == "state" and (message["your_turn"] or message["over"]) and message["ply"] > mine["ply"] + 1:
                break
        return got, [e.text for e in table.log]
    finally:
        await tables.close()


def test_a_failing_ai_falls_back_to_a_simpler_level_and_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    asked = failing_hard(monkeypatch)
    got, log = run_apart(_play_against_failing_hard(f"sqlite:///{tmp_path / 'plunder.db'}"))
    notices = [m for m in got if m["type"] == "notice"]
    assert len(notices) == 1
    # by the seat's name, as the log says it (never its label)
    assert notices[0]["message"].startswith("The medium AI: the hard AI failed on this position") and \
        "level medium" in notices[0]["message"]
    # the move made at the simpler level says why in the log, and the seat shows its new level
    assert sum("Player 2: the hard AI failed on this position" in text for text in log) == 1
    assert got[-1]["seats"][1]["name"] == "the medium AI"
    # hard was tried once; every later move of the seat asked for medium
    assert asked[0] == "hard" and "hard" not in asked[1:] and asked.count("medium") >= 2


# ---- the global bound on games in progress ----

def test_games_past_the_global_bound_are_refused_plainly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tables_module, "MAX_GAMES_ON", 3)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0)) as client:
        for _ in range(3):
            made = client.post("/new/pirates", data={"seat.0": "me"}, follow_redirects=False)
            assert made.status_code == 303
        refused = client.post("/new/pirates", data={"seat.0": "me"}, follow_redirects=False)
        assert refused.status_code == 503
        assert "3 games in progress, its limit" in refused.text and "Traceback" not in refused.text
        # a game that ends frees its place
        game_id = made.headers["location"].rsplit("/", 1)[1]
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            ws.receive_json()
            ws.send_json({"type": "resign"})
            assert ws.receive_json()["over"]
        assert client.post("/new/pirates", data={"seat.0": "me"}, follow_redirects=False).status_code == 303


# ---- a stopping server ----

#: how long a stopping server may take, generously (it took 15 to 26 s with searches queued)
STOP_SECONDS = 10.0


def test_a_stopped_server_with_searches_queued_exits_within_seconds(server: LiveServer) -> None:
    # each game's hard AI moves first: a search of seconds each, more than the workers can take at once
    for _ in range(8):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("POST", "/new/pillage", urllib.parse.urlencode({"preset": "big", "seat.0": "hard", "seat.1": "me"}),
                     {"content-type": "application/x-www-form-urlencoded"})
        assert conn.getresponse().status == 303
        conn.close()
    time.sleep(1.0)  # the searches have started
    assert server.process is not None
    began = time.monotonic()
    os.kill(server.process.pid, signal.SIGTERM)
    server.process.wait(60)
    took = time.monotonic() - began
    assert took < STOP_SECONDS, f"the server took {took:.1f} s to stop"


# ---- a worker's start ----

def test_a_worker_warms_every_game_that_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    """``warm`` runs each game's ``strength.warm`` (Pillage compiles its playouts there), so a
    player's first AI move does not wait for it; games without one are passed over."""
    from dataclasses import replace

    from plunder.core.registry import entry, game_ids

    called: list[str] = []
    ids = game_ids()

    def entry_with_counter(game_id: str) -> Any:
        found = entry(game_id)
        if game_id == ids[-1]:  # one game offers nothing to warm
            return replace(found, strength=replace(found.strength, warm=None))
        return replace(found, strength=replace(found.strength, warm=lambda: called.append(game_id)))

    monkeypatch.setattr(thinking, "entry", entry_with_counter)
    trees: list[str] = []
    monkeypatch.setattr(thinking.tree, "warm", lambda game: trees.append(game.id))
    assert thinking.warm() == os.getpid()
    assert called == ids[:-1] and len(called) >= 4
    # the compiled MCTS tree is warmed for the games with compiled rules
    assert trees == [g for g in ids if entry(g).strength.compiled is not None] and "pillage" in trees
    # the quick levels' worker imports the games and prepares nothing
    called.clear()
    trees.clear()
    assert thinking.warm(searches=False) == os.getpid() and called == [] and trees == []


# ---- budgets that shrink while other games wait ----

async def _shares_given() -> list[tuple[str, float]]:
    """Game A's search runs while B, C and D ask: the share of its budget each gets as it starts."""
    gate = threading.Event()
    ran: list[tuple[str, float]] = []

    def search(name: str, share: float) -> str:
        if name == "A":
            gate.wait(10)
        ran.append((name, share))
        return name

    with ThreadPoolExecutor(1) as pool:
        lane = Lane(lambda: pool, slots=1)
        first = asyncio.create_task(lane.run("A", lambda: True, search, "A", shares=True))
        await asyncio.sleep(0)
        rest = [asyncio.create_task(lane.run(k, lambda: True, search, k, shares=True)) for k in "BCD"]
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(first, *rest)
    return ran


def test_a_search_gets_less_of_its_budget_while_other_games_play() -> None:
    # A started alone; B, C and D each with three other games in play (A's included: it asked
    # within PLAYING_SECONDS), one worker for them all
    assert run_apart(_shares_given()) == [("A", 1.0), ("B", 0.25), ("C", 0.25), ("D", 0.25)]


def test_a_game_that_stopped_asking_no_longer_counts() -> None:
    now = [1000.0]
    lane = Lane(lambda: ThreadPoolExecutor(1), slots=1, now=lambda: now[0])
    lane.asked.update({"A": 1000.0, "B": 1010.0})
    assert lane.others("A") == 1 and lane.others("C") == 2
    now[0] = 1000.0 + thinking.PLAYING_SECONDS + 5  # A asked too long ago; B is still in play
    assert lane.others("C") == 1 and list(lane.asked) == ["B"]


@pytest.mark.parametrize("slots", [1, 2, 4])
def test_budget_shares_drain_the_queue_in_about_one_search(slots: int) -> None:
    for waiting in range(0, 300):  # other games in play
        share = thinking.budget_share(slots, waiting)
        assert share in [2.0 ** -k for k in range(7)]
        # the games' searches at this share cost at most what ``slots`` full ones do, unless at the floor
        assert share * (1 + waiting) <= slots or share == thinking.LEAST_SHARE
        # and no smaller than needed: twice the share would not fit; a worker per game cuts nothing
        assert share == 1.0 or 2 * share * (1 + waiting) > slots
        assert (share == 1.0) == (1 + waiting <= slots)


async def _busy_reply(db: str) -> tuple[list[dict[str, Any]], list[str]]:
    """A game against ``hard`` on a server where every search starts with a quarter of its budget."""
    tables = Tables(Store(db), Thinkers(0))
    await tables.start()
    try:
        table, viewer, got = await first_move_against_hard(tables)
        while not any(m["type"] == "notice" for m in got):
            message = await asyncio.wait_for(viewer.queue.get(), 60)
            assert message is not None
            got.append(message)
        return got, [e.text for e in table.log]
    finally:
        await tables.close()


def test_a_reply_searched_with_less_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(thinking, "budget_share", lambda slots, waiting: 0.25)
    real = thinking.agent_for
    specs: list[str] = []

    def agent_for(state: State, spec: str, keep: bool = True) -> Any:
        specs.append(spec)
        assert not keep  # a cut budget's agent is built afresh, not kept per share
        return real(state, spec, keep)

    monkeypatch.setattr(thinking, "agent_for", agent_for)
    got, log = run_apart(_busy_reply(f"sqlite:///{tmp_path / 'plunder.db'}"))
    notice = next(m for m in got if m["type"] == "notice")
    words = ("the server was busy, so the hard AI searched 1,750 of its 7,000 simulations and 25,000 of its 100,000 "
             "positions, with its exact search from 20 moves before the end instead of 22")
    assert notice["message"] == f"T{words[1:]}."
    assert sum(words in text for text in log) == 1
    # the worker built the agent with the cut budget
    assert specs and all(s == "hard:sims=1750,nodes=25000,endgame=20" for s in specs)


def test_the_coachs_positions_never_queue_in_front_of_ai_moves() -> None:
    # issue 36: in the searching pool an AI move waited behind the position being valued (an
    # exact solve up to 20 s), and analyses slowed `hard` replies threefold
    thinkers = Thinkers(1)
    try:
        analysis, deep = thinkers.lanes["analysis"].executor(), thinkers.lanes["deep"].executor()
        assert analysis is not deep and analysis is thinkers.pool_of("analysis")
        assert thinkers.lanes["analysis"].slots == 1  # every analysis shares one worker: at most one core
        base = os.nice(0)
        # the coach's worker gives way to the AI's (the lowest priority there is, 19)
        assert analysis.submit(os.nice, 0).result(120) == min(19, base + thinking.ANALYSIS_NICENESS)
        assert deep.submit(os.nice, 0).result(120) == min(19, base + thinking.WORKER_NICENESS)
        assert thinking.ANALYSIS_NICENESS > thinking.WORKER_NICENESS
        # and below every niceness, at Linux's idle policy: it runs on what the AI leaves
        assert analysis.submit(os.sched_getscheduler, 0).result(120) == os.SCHED_IDLE
        assert deep.submit(os.sched_getscheduler, 0).result(120) == os.SCHED_OTHER
    finally:
        thinkers.close()


def test_a_worker_of_a_server_given_real_time_priority_runs_below_it_at_the_normal_policy() -> None:
    import shutil
    import subprocess
    import sys

    chrt = shutil.which("chrt")
    if chrt is None or subprocess.run([chrt, "-r", "1", "true"], capture_output=True).returncode != 0:
        pytest.skip("this machine does not let a process take a real-time priority (chrt -r 1)")
    # the child plays a worker started by its parent, the server, which runs under chrt
    script = ("import os; from plunder.web.thinking import start_worker; "
              "before = os.sched_getscheduler(0); start_worker(os.getppid(), 10); "
              "print(before, os.sched_getscheduler(0), os.nice(0))")
    server = ("import subprocess, sys; "
              f"sys.exit(subprocess.run([sys.executable, '-c', {script!r}]).returncode)")
    done = subprocess.run([chrt, "-r", "1", sys.executable, "-c", server], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    before, after, niceness = (int(word) for word in done.stdout.split())
    assert before == os.SCHED_RR, "the worker began with the server's real-time policy"
    assert after == os.SCHED_OTHER and niceness >= 10
