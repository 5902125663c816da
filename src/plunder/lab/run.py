"""Running a lab's games: only those the store lacks, on a backend (local processes or Ray), stored as they finish."""

from __future__ import annotations

from typing import Callable

from ..simulate import run_games
from .backends import Backend
from .store import Row, Run, Store, missing


def collect(store: Store, run: Run, games: int, workers: int = 1,
            progress: Callable[[int], None] | None = None, backend: Backend | None = None) -> list[Row]:
    """Make sure games ``0 .. games-1`` of ``run`` are stored, playing only the missing ones on
    ``backend`` (else ``workers`` local processes); return all.

    Each finished chunk is committed at once, so a run stopped midway resumes where it stopped,
    on any backend.
    ``progress`` is told how many games each chunk added (games already stored count at the start).
    """
    todo = missing(store.done(run), games)
    if progress:
        progress(games - len(todo))
    if todo:
        for results in run_games(run.game, run.params, run.agents, todo, run.seed, workers, backend):
            store.add(run, results)
            if progress:
                progress(len(results))
    return store.rows(run, games)
