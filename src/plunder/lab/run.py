"""Running a lab's games: only those the store lacks, on a backend (local processes or Ray), stored as they finish."""

from __future__ import annotations

from typing import Callable, Sequence

from ..core.options import lab_games
from ..simulate import run_plans
from ..backends import Backend, LocalPool
from .store import Row, Run, Store, missing


def collect(store: Store, run: Run, games: int, workers: int = 1,
            progress: Callable[[int], None] | None = None, backend: Backend | None = None) -> list[Row]:
    """Make sure games ``0 .. games-1`` of ``run`` are stored, playing only the missing ones on
    ``backend`` (else ``workers`` local processes); return all.

    Each finished chunk is committed at once, so a run stopped midway resumes where it stopped,
    on any backend.
    ``progress`` is told how many games each chunk added (games already stored count at the start).
    """
    return collect_many(store, [(run, games)], workers, progress, backend)[0]


def collect_many(store: Store, wanted: Sequence[tuple[Run, int]], workers: int = 1,
                 progress: Callable[[int], None] | None = None,
                 backend: Backend | None = None) -> list[list[Row]]:
    """:func:`collect` for several runs (run, games) at once: their games share the backend."""
    if backend is None:
        with LocalPool(workers) as pool:
            return collect_many(store, wanted, progress=progress, backend=pool)
    runs: list[Run] = []
    plans = []
    lab_games(sum(games for _, games in wanted), "games")
    for run, games in wanted:
        todo = missing(store.done(run), games)
        if progress:
            progress(games - len(todo))
        if todo:
            runs.append(run)
            plans.append((run.game, run.params, run.agents, todo, run.seed))
    for n, results in run_plans(plans, backend):
        store.add(runs[n], results)
        if progress:
            progress(len(results))
    return [store.rows(run, games) for run, games in wanted]
