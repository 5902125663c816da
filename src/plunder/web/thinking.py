"""AI moves, hints, replays and the coach's analyses off the event loop: pools of worker processes, each behind a
fair queue (:class:`Lane`).

A searching level (``hard``: thousands of simulations in Python) takes seconds of CPU; in a
thread it would hold the interpreter lock and slow every other game's acknowledgement. In a
worker process it uses its own core. The worker gets the position (states pickle; a game's
parameters travel with it) and decides with the same keyed RNG as ``plunder play``
(:func:`plunder.match.decision_rng`), so a game resumed after a restart, or played again after
an undo, meets the same replies.

The requests wait in the server, not in the pools: at most one per game (a newer position's
supersedes the waiting one), served fairly across games by the time their requests have taken
in the workers (a game whose moves cost milliseconds is not kept waiting behind games whose
searches take a second each), so under load every game gets its share and no reply is older
than its position; a stopping server drops them and ends its workers at once
(:meth:`Thinkers.close`).
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import importlib
import multiprocessing
import os
import signal
import sys
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from ..agents import make_agent, scaled_spec, tree
from ..core.agent import Agent
from ..core.game import State
from ..core.registry import entry, game_ids, load_game
from ..advice import advice
from ..analysis.value import Task, Valuation, value_task
from ..match import decision_rng, hint_rng
from .limits import MAX_ANALYSES

#: how much lower the AI workers' CPU priority is than the server's: on a busy machine the
#: event loop, which acknowledges people's moves, goes first (``os.nice``)
WORKER_NICENESS = 10
#: the quick levels' worker's (:data:`QUICK_LEVELS`): between the server's and the searching
#: workers', so that on a busy machine a reply of milliseconds does not wait for CPU behind seconds of search
QUICK_NICENESS = 2
#: the replay worker's, lower still: an upload's seconds of replay give way to people's moves and the AI's
REPLAY_NICENESS = 19
#: the coach's worker's, the lowest niceness, and it runs at the idle policy besides
#: (:data:`IDLE_POOLS`): an analysis's minutes of valuing give way to everything else, AI
#: replies first (docs/web.md, "Coach", has the measurement)
ANALYSIS_NICENESS = 19
#: agents a worker keeps built, by game and spec (a board's tables are not rebuilt every move)
AGENT_CACHE = 64
#: a game that asked for an AI move within this many seconds shares the workers with the
#: others (:meth:`Lane.others`): about the time a person takes over a move
PLAYING_SECONDS = 30.0
#: the least share of its budget a searching level gets when other games' requests wait
#: (:func:`budget_share`); below it a busy server's replies wait rather than weaken further
LEAST_SHARE = 1 / 64

_agents: dict[tuple[str, tuple[tuple[str, str], ...], str], Agent] = {}


def agent_for(state: State, spec: str, keep: bool = True) -> Agent:
    """The agent ``spec`` for ``state``'s game, built once per worker (built afresh and not kept
    unless ``keep``: a busy server's cut budgets would otherwise keep an agent, and a solver's
    tables, per share)."""
    game = state.game
    if not keep:
        return make_agent(spec, game)
    key = (game.id, tuple(sorted(game.params.items())), spec)
    agent = _agents.get(key)
    if agent is None:
        if len(_agents) >= AGENT_CACHE:
            _agents.pop(next(iter(_agents)))
        agent = _agents[key] = make_agent(spec, game)
    return agent


def choose(state: State, spec: str, seed: int, seat: int, ply: int, share: float = 1.0) -> tuple[str, str]:
    """The canonical text of the move agent ``spec`` makes in ``seat`` at move ``ply``, searching
    with ``share`` of its budget (:func:`plunder.agents.scaled_spec`), and words saying what was
    cut ("" when nothing was)."""
    spec, cut = scaled_spec(spec, state.game, share)
    action = agent_for(state, spec, keep=not cut).choose(state, decision_rng(seed, seat, ply))
    return state.game.action_to_text(state, action), cut


def budget_share(slots: int, others: int) -> float:
    """The share of its budget a search starting now gets when ``others`` games share ``slots``
    workers with its game (:meth:`Lane.others`): all of it while there is a worker per game,
    else about ``slots / (1 + others)``, so their requests together cost about what one full
    search per worker does; rounded down to a power of two (a plain figure to tell the player)
    and never below :data:`LEAST_SHARE`."""
    share = 1.0
    while share > LEAST_SHARE and share * (1 + others) > slots:
        share /= 2
    return share


def hint(state: State, spec: str, ply: int) -> list[str]:
    """The hint at move ``ply`` from agent ``spec``, in a player's words (:func:`plunder.advice.advice`;
    the same randomness as ``plunder play``'s hint)."""
    return advice(agent_for(state, spec), state, hint_rng(ply))


#: Linux's prctl option that sends a signal to a process when its parent dies
PR_SET_PDEATHSIG = 1


def start_worker(server_pid: int, niceness: int = WORKER_NICENESS, idle: bool = False) -> None:
    """Run once in each worker: die with the server and give way to it.

    A server killed outright (a crash, SIGKILL) cannot stop its workers, and a worker left
    waiting on a dead server's queue would wait forever: on Linux the kernel kills the worker
    when its parent, the server, dies (``PR_SET_PDEATHSIG``); a server already gone by the
    time the worker starts ends it at once. Then the worker lowers its priority by ``niceness``
    (under the normal scheduling policy, whatever the server's)
    (:data:`WORKER_NICENESS`, :data:`QUICK_NICENESS`, :data:`REPLAY_NICENESS`), so the event loop that acknowledges
    people's moves goes first; an ``idle`` worker (:data:`IDLE_POOLS`) then takes Linux's idle
    policy (``SCHED_IDLE``), below every niceness: a worker at niceness 19 still gets about an
    eighth of a core shared with one at 10 (the kernel's weights 15 and 110), an idle one about
    a fortieth (3 and 110).
    """
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no prctl here: a killed server leaves its workers behind
            pass
    if os.getppid() != server_pid:
        os._exit(0)
    try:
        if hasattr(os, "sched_getscheduler") and os.sched_getscheduler(0) != os.SCHED_OTHER:
            # a server given a real-time priority (``chrt``): its workers go back to the normal
            # policy, where niceness counts, or a search would take turns with the event loop
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
        os.nice(niceness)
        if idle and hasattr(os, "SCHED_IDLE"):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except OSError:  # a platform or sandbox that refuses it: the workers run at the server's priority
        pass


def warm(searches: bool = True) -> int:
    """Import the games and, for a worker that runs ``searches``, let each game prepare what its
    searches compile or load on first use (``ENTRY.strength.warm``, and the compiled MCTS tree of
    a game with compiled rules): run once per worker at
    start so the first AI move of a game does not wait for either. The quick levels' worker
    prepares nothing: a compiler's runtime would take memory it never uses."""
    for game_id in game_ids():
        prepare = entry(game_id).strength.warm
        if searches and prepare is not None:
            prepare()
        if searches and entry(game_id).strength.compiled is not None:
            tree.warm(load_game(game_id))
    return os.getpid()


def warm_replays() -> int:
    """:func:`warm` for the replay worker: import the replays' module (the pages' templates, the pictures)."""
    importlib.import_module("plunder.web.replays")
    return os.getpid()


#: the levels that decide in milliseconds (a greedy agent, or half random): they have a pool of
#: their own, so their replies never wait behind a searching level's
QUICK_LEVELS = ("easy", "medium")
#: each pool's workers' niceness
NICENESS = {"quick": QUICK_NICENESS, "deep": WORKER_NICENESS, "replay": REPLAY_NICENESS,
            "analysis": ANALYSIS_NICENESS}
#: the pools whose workers run at the idle policy besides (:func:`start_worker`): the coach's
#: analyses and the daily par never slow an AI reply by more than what an idle task takes
IDLE_POOLS = frozenset({"analysis"})
#: requests waiting in one lane at most (one per game or address: past this a new one is refused
#: as :class:`Busy`, a bound that rotating addresses cannot get round)
MAX_WAITING = 2_000
#: keys a lane remembers serving (for the fair order; the longest-served are forgotten first)
MAX_SERVED_KEYS = 10_000

T = TypeVar("T")


class Superseded(Exception):
    """A waiting request dropped before it ran: a newer one of its game (or address) took its
    place, or the position it was asked for is no longer the game's."""


class Busy(Exception):
    """A lane already has :data:`MAX_WAITING` requests waiting."""


@dataclass
class Job:
    """A request waiting in a :class:`Lane`: the call, its key, whether it is still wanted."""

    key: str
    call: Callable[..., Any]
    args: tuple[Any, ...]
    wanted: Callable[[], bool]
    future: asyncio.Future[Any]
    seq: int
    #: the call takes, last, the share of its budget to use (:func:`budget_share`), decided when it starts
    shares: bool = False
    #: the lane's virtual time at which it started (:meth:`Lane.tag`), and the monotonic time it did
    tag: float = 0.0
    began: float = 0.0


class Lane:
    """A fair queue in front of an executor of ``slots`` workers.

    At most ``slots`` calls are in the executor at once, so the executor's own first-come queue
    never builds up. The rest wait here, at most one per key (a game, say): a newer request of a
    key supersedes its waiting one, whose caller gets :class:`Superseded`; a request no longer
    ``wanted`` when its turn comes is dropped the same way, so a reply is never older than the
    position it answers.

    A free slot goes to the waiting key that has had the least time in the workers (start-time
    fair queueing, Goyal, Vin and Cheng, SIGCOMM 1996, with a request's seconds in the executor
    as its length): the lane keeps a virtual clock, the tag of the request it started last; a
    request's tag is the clock or, if later, the virtual time its key's previous request
    finished (its tag plus its seconds), and the least tag goes first, the earliest asked among
    equals. So one game asking again and again cannot keep another waiting, and a game whose
    requests take a millisecond is served before the games whose searches take a second, each
    of which still gets its turn: served in turns, a cheap game would wait behind every costly
    one.
    """

    def __init__(self, executor: Callable[[], Executor], slots: int, most: int = MAX_WAITING,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.executor = executor
        #: the clock the lane reads (seconds; a test's own)
        self.now = now
        self.slots = max(slots, 1)
        self.most = most
        self.waiting: dict[str, Job] = {}
        #: when each key last asked (monotonic seconds), oldest first: the games in play here
        self.asked: OrderedDict[str, float] = OrderedDict()
        self.running = 0
        #: the virtual time at which each key's last request finished, longest-served first
        self.finish: OrderedDict[str, float] = OrderedDict()
        #: the virtual clock: the tag of the request started last
        self.virtual = 0.0
        self.seq = 0
        self.closed = False

    async def run(self, key: str, wanted: Callable[[], bool], call: Callable[..., T], *args: Any,
                  shares: bool = False) -> T:
        """``call(*args)`` in the executor in ``key``'s turn; :class:`Superseded` if dropped first,
        :class:`Busy` if too many wait, :class:`asyncio.CancelledError` once the lane is closed.
        With ``shares`` the call gets one more argument when it starts: the share of its budget
        that the other games in play leave it (:func:`budget_share`)."""
        if self.closed:
            raise asyncio.CancelledError()
        old = self.waiting.pop(key, None)
        if old is not None and not old.future.done():
            old.future.set_exception(Superseded())
        if len(self.waiting) >= self.most:
            raise Busy()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.asked.pop(key, None)
        self.asked[key] = self.now()
        if len(self.asked) > MAX_SERVED_KEYS:
            self.asked.popitem(last=False)
        self.seq += 1
        self.waiting[key] = Job(key, call, args, wanted, future, self.seq, shares)
        self.dispatch()
        return await future

    def next(self) -> Job | None:
        """The waiting job to run now (dropping the ones no longer wanted), or ``None``."""
        while self.waiting:
            job = min(self.waiting.values(), key=lambda j: (self.tag(j.key), j.seq))
            del self.waiting[job.key]
            if job.future.done():  # its caller gave up
                continue
            if not job.wanted():
                job.future.set_exception(Superseded())
                continue
            return job
        return None

    def dispatch(self) -> None:
        """Hand waiting jobs to the executor while it has a free slot."""
        while self.running < self.slots and not self.closed and (job := self.next()) is not None:
            self.running += 1
            job.tag = self.virtual = self.tag(job.key)
            job.began = self.now()
            args = (*job.args, budget_share(self.slots, self.others(job.key))) if job.shares else job.args
            try:
                done = asyncio.get_running_loop().run_in_executor(self.executor(), job.call, *args)
            except RuntimeError as exc:  # the executor was shut down meanwhile
                self.running -= 1
                job.future.set_exception(exc)
                continue
            done.add_done_callback(functools.partial(self.finished, job))

    def tag(self, key: str) -> float:
        """The virtual time at which a request of ``key`` starting now would start: the virtual clock, or
        the time its key's last request finished if that is later (the key has had more than its
        share)."""
        return max(self.virtual, self.finish.get(key, self.virtual))

    def others(self, key: str) -> int:
        """How many other keys (games) asked within the last :data:`PLAYING_SECONDS`, or are
        waiting: the games that share the workers with ``key``'s for now. Counted over a
        while, not only the requests waiting this instant: a search started on an empty
        queue still runs while the other games' next requests come in."""
        since = self.now() - PLAYING_SECONDS
        while self.asked and next(iter(self.asked.values())) < since:
            self.asked.popitem(last=False)
        return len(self.asked) - (key in self.asked)

    def finished(self, job: Job, done: asyncio.Future[Any]) -> None:
        """A call came back: pass its outcome on, count its time to its key, and start the next one."""
        self.running -= 1
        self.finish.pop(job.key, None)
        self.finish[job.key] = job.tag + (self.now() - job.began)
        if len(self.finish) > MAX_SERVED_KEYS:
            self.finish.popitem(last=False)
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif done.exception() is not None:
                job.future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                job.future.set_result(done.result())
        self.dispatch()

    def close(self) -> None:
        """Refuse new requests and cancel the waiting ones."""
        self.closed = True
        for job in self.waiting.values():
            job.future.cancel()
        self.waiting.clear()


def always() -> bool:
    """Wanted whenever its turn comes (a replay: no later event makes it stale)."""
    return True


class Thinkers:
    """The pools that AI moves, hints, replays and the coach's analyses run in: one worker process
    for the quick levels (:data:`QUICK_LEVELS`), ``workers`` processes for the searching ones and
    hints, one for replays and one for analyses, at the lowest priority (:data:`ANALYSIS_NICENESS`;
    started at the first analysis)
    (``0``: one thread in the server's process for everything, for tests that
    need no second process); each started at its first use or by :meth:`start`, each behind a
    fair :class:`Lane`."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        self._pools: dict[str, Executor] = {}
        sizes = {"quick": 1, "deep": max(self.workers, 1), "replay": 1}
        self.lanes = {kind: Lane(functools.partial(self.pool_of, kind), size) for kind, size in sizes.items()}
        # the coach's positions, one at a time, in a worker of their own at the lowest priority:
        # in the searching pool an AI move waited behind a position's valuation (up to an exact
        # solve's 20 s), and several analyses slowed `hard` replies threefold (issue 36)
        self.lanes["analysis"] = Lane(functools.partial(self.pool_of, "analysis"), 1, MAX_ANALYSES)

    def kind(self, spec: str) -> str:
        """The pool agent ``spec`` runs in: ``quick`` or ``deep``."""
        return "quick" if spec in QUICK_LEVELS else "deep"

    def pool_of(self, kind: str) -> Executor:
        """The executor of ``kind`` (``quick``, ``deep``, ``replay``, ``analysis``), made at the first use."""
        if self.workers == 0:
            kind = "thread"
        if getattr(self._pools.get(kind), "_broken", False):  # a worker died (killed, out of memory): start afresh
            self._pools.pop(kind).shutdown(wait=False, cancel_futures=True)
        if kind not in self._pools:
            if self.workers > 0:
                size = self.workers if kind == "deep" else 1
                self._pools[kind] = ProcessPoolExecutor(size,
                                                        # spawned, so the server is each worker's parent (start_worker)
                                                        mp_context=multiprocessing.get_context("spawn"),
                                                        initializer=start_worker,
                                                        initargs=(os.getpid(), NICENESS[kind], kind in IDLE_POOLS))
            else:
                self._pools[kind] = ThreadPoolExecutor(1, thread_name_prefix="plunder-ai")
        return self._pools[kind]

    def pool(self, spec: str) -> Executor:
        """The executor agent ``spec`` runs in, made at the first use."""
        return self.pool_of(self.kind(spec))

    async def start(self) -> None:
        """Start every worker but the coach's now rather than at the first AI move or upload (a
        worker starting at low priority on a busy machine takes many seconds to import what it runs)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(loop.run_in_executor(self.pool_of("quick"), warm, False),
                             *(loop.run_in_executor(self.pool_of("deep"), warm) for _ in range(max(self.workers, 1))),
                             loop.run_in_executor(self.pool_of("replay"), warm_replays))
        # the coach's worker starts at the first analysis: a server nobody asks one of keeps
        # neither its memory nor, at start, its share of the CPU the other workers warm with

    async def choose(self, key: str, wanted: Callable[[], bool], state: State, spec: str, seed: int, seat: int,
                     ply: int) -> tuple[str, str]:
        """:func:`choose` in the agent's lane, in game ``key``'s turn, with the share of its budget
        the other games waiting leave it: the move's text and what was cut ("" if nothing)."""
        return await self.lanes[self.kind(spec)].run(key, wanted, choose, state, spec, seed, seat, ply, shares=True)

    async def hint(self, key: str, wanted: Callable[[], bool], state: State, spec: str, ply: int) -> list[str]:
        """:func:`hint` in the agent's lane, in game ``key``'s turn."""
        return await self.lanes[self.kind(spec)].run(key, wanted, hint, state, spec, ply)

    async def replay(self, key: str, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in the replay worker, in ``key``'s turn (an address: its newer upload
        supersedes a waiting one)."""
        return await self.lanes["replay"].run(key, always, call, *args)

    async def value(self, key: str, task: Task) -> Valuation:
        """One position of an analysis valued (:func:`plunder.analysis.value.value_task`) in the
        coach's lane, in game ``key``'s turn."""
        return await self.lanes["analysis"].run(key, always, value_task, task)

    async def background(self, key: str, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in the coach's worker, at the lowest priority, in ``key``'s turn: CPU
        work nobody at a table waits on (a daily deal's par), which in the server's own process
        would hold its interpreter for seconds and slow every game it serves."""
        return await self.lanes["analysis"].run(key, always, call, *args)

    def close(self) -> None:
        """Stop at once: refuse new work, cancel what waits, and end the workers in the middle
        of what they are working out (a search can take many seconds; a stopping server does
        not wait for it: the game's AI thinks again after the restart)."""
        for lane in self.lanes.values():
            lane.close()
        for pool in self._pools.values():
            # ProcessPoolExecutor has no public way to stop a running call before Python 3.14
            processes = getattr(pool, "_processes", None) or {}
            for process in list(processes.values()):
                process.kill()
            pool.shutdown(wait=False, cancel_futures=True)
