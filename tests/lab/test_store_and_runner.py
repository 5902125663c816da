"""The results store resumes interrupted runs, and the runner's results never depend on the worker count."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from plunder.lab.run import collect
from plunder.lab.store import Run, Store
from plunder.match import play_stats
from plunder.agents import make_agent
from plunder.core.registry import load_game
from plunder.simulate import run_games, seating

PROFITEER = Run("profiteer", dict(load_game("profiteer").params), ("greedy", "profit"), 500)
PILLAGE = Run("pillage", dict(load_game("pillage", preset="small").params), ("greedy", "random"), 7)


def flat(run: Run, games: int, workers: int) -> list[tuple[int, object]]:
    """Every (index, result) of ``games`` games played on ``workers`` processes."""
    return [r for chunk in run_games(run.game, run.params, run.agents, range(games), run.seed, workers) for r in chunk]


def test_results_are_the_same_for_one_or_two_workers() -> None:
    for run, games in ((PROFITEER, 40), (PILLAGE, 6)):
        assert flat(run, games, 1) == flat(run, games, 2)


def test_a_stored_game_is_the_game_play_gives_for_its_seed_and_seats(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    rows = collect(store, PILLAGE, 3)
    game = load_game("pillage", **PILLAGE.params)
    for row in rows:
        assert row.seed == PILLAGE.seed + row.index
        assert row.seats == seating(list(PILLAGE.agents), 2, row.index)
        _, final, stats = play_stats(game, [make_agent(a, game) for a in row.seats], seed=row.seed)
        assert (row.returns, row.scores) == (list(final.returns()), list(final.scores()))
        assert row.stats == stats


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = Store(path)
    first = collect(store, PROFITEER, 12)  # the run stopped after 12 of 30 games
    store.close()
    told: list[int] = []
    store = Store(path)
    resumed = collect(store, PROFITEER, 30, workers=2, progress=told.append)
    assert told[0] == 12 and sum(told) == 30  # the 12 stored games counted at once, 18 played
    assert resumed[:12] == first
    fresh = collect(Store(tmp_path / "fresh.sqlite"), PROFITEER, 30)
    assert resumed == fresh
    # other parameters are another run: nothing of the first is reused
    other = Run("profiteer", {**PROFITEER.params, "hand": "12"}, PROFITEER.agents, PROFITEER.seed)
    assert store.done(other) == set()
    store.close()
    with sqlite3.connect(path) as db:  # one row per game, readable by any SQLite client
        assert db.execute("select count(*), min(seed), max(seed) from games").fetchone() == (30, 500, 529)
