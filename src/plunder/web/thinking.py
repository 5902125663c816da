"""AI moves and hints off the event loop: a pool of worker processes.

A searching level (``hard``: thousands of simulations in Python) takes seconds of CPU; in a
thread it would hold the interpreter lock and slow every other game's acknowledgement. In a
worker process it uses its own core. The worker gets the position (states pickle; a game's
parameters travel with it) and decides with the same keyed RNG as ``plunder play``
(:func:`plunder.match.decision_rng`), so a game resumed after a restart, or played again after
an undo, meets the same replies.
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import signal
import sys
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from ..agents import make_agent
from ..core.agent import Agent
from ..core.game import State
from ..match import decision_rng, hint_lines, hint_rng

#: how much lower the AI workers' CPU priority is than the server's: on a busy machine the
#: event loop, which acknowledges people's moves, goes first (``os.nice``)
WORKER_NICENESS = 5
#: agents a worker keeps built, by game and spec (a board's tables are not rebuilt every move)
AGENT_CACHE = 64

_agents: dict[tuple[str, tuple[tuple[str, str], ...], str], Agent] = {}


def agent_for(state: State, spec: str) -> Agent:
    """The agent ``spec`` for ``state``'s game, built once per worker."""
    game = state.game
    key = (game.id, tuple(sorted(game.params.items())), spec)
    agent = _agents.get(key)
    if agent is None:
        if len(_agents) >= AGENT_CACHE:
            _agents.pop(next(iter(_agents)))
        agent = _agents[key] = make_agent(spec, game)
    return agent


def choose(state: State, spec: str, seed: int, seat: int, ply: int) -> str:
    """The canonical text of the move agent ``spec`` makes in ``seat`` at move ``ply``."""
    action = agent_for(state, spec).choose(state, decision_rng(seed, seat, ply))
    return state.game.action_to_text(state, action)


def hint(state: State, spec: str, ply: int) -> list[str]:
    """The hint ``plunder play`` gives at move ``ply``, from agent ``spec``, in lines."""
    return hint_lines(agent_for(state, spec), state, hint_rng(ply), pad=0)


#: Linux's prctl option that sends a signal to a process when its parent dies
PR_SET_PDEATHSIG = 1


def start_worker(server_pid: int) -> None:
    """Run once in each worker: die with the server and give way to it.

    A server killed outright (a crash, SIGKILL) cannot stop its workers, and a worker left
    waiting on a dead server's queue would wait forever: on Linux the kernel kills the worker
    when its parent, the server, dies (``PR_SET_PDEATHSIG``); a server already gone by the
    time the worker starts ends it at once. Then the worker lowers its priority
    (:data:`WORKER_NICENESS`), so the event loop that acknowledges people's moves goes first.
    """
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no prctl here: a killed server leaves its workers behind
            pass
    if os.getppid() != server_pid:
        os._exit(0)
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # a platform or sandbox that refuses it: the workers run at the server's priority
        pass


def warm() -> int:
    """Nothing but importing the games: run once per worker at start so the first AI move of a
    game does not wait for the imports."""
    return os.getpid()


#: the levels that decide in milliseconds (a greedy agent, or half random): they have a pool of
#: their own, so their replies never wait behind a searching level's
QUICK_LEVELS = ("easy", "medium")


class Thinkers:
    """The pools that AI moves and hints run in: one worker process for the quick levels
    (:data:`QUICK_LEVELS`) and ``workers`` processes for the searching ones and hints (``0``:
    one thread in the server's process for everything, for tests that need no second
    process); each started at its first use or by :meth:`start`."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        self._pools: dict[str, Executor] = {}

    def pool(self, spec: str) -> Executor:
        """The executor agent ``spec`` runs in, made at the first use."""
        kind = "quick" if spec in QUICK_LEVELS or self.workers == 0 else "deep"
        if kind not in self._pools:
            if self.workers > 0:
                self._pools[kind] = ProcessPoolExecutor(1 if kind == "quick" else self.workers,
                                                        # spawned, so the server is each worker's parent (start_worker)
                                                        mp_context=multiprocessing.get_context("spawn"),
                                                        initializer=start_worker, initargs=(os.getpid(),))
            else:
                self._pools[kind] = ThreadPoolExecutor(1, thread_name_prefix="plunder-ai")
        return self._pools[kind]

    async def start(self) -> None:
        """Start every worker now rather than at the first AI move."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(loop.run_in_executor(self.pool(QUICK_LEVELS[0]), warm),
                             *(loop.run_in_executor(self.pool("hard"), warm) for _ in range(max(self.workers, 1))))

    async def choose(self, state: State, spec: str, seed: int, seat: int, ply: int) -> str:
        """:func:`choose` in the agent's pool."""
        return await asyncio.get_running_loop().run_in_executor(self.pool(spec), choose, state, spec, seed, seat, ply)

    async def hint(self, state: State, spec: str, ply: int) -> list[str]:
        """:func:`hint` in the agent's pool."""
        return await asyncio.get_running_loop().run_in_executor(self.pool(spec), hint, state, spec, ply)

    def close(self) -> None:
        """Stop the workers once the moves being worked out are done (the others are dropped)."""
        for pool in self._pools.values():
            pool.shutdown(wait=True, cancel_futures=True)
