"""A results store: one SQLite row per game played, so runs resume and data scientists can read them.

Open it with any SQLite client (``sqlite3 lab.sqlite 'select * from games limit 5'``) or
``pandas.read_sql``. A run is named by (game, canonical parameters, agents, base seed); game ``i``
of a run used seed ``base + i``. Lists and mappings are stored as canonical JSON text.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..core.errors import ParameterError, quoted
from ..core.files import canonical_json
from ..core.options import writable_file
from ..simulate import GameResult

SCHEMA = """
create table if not exists games (
    game text not null,
    params text not null,
    agents text not null,
    base_seed integer not null,
    game_index integer not null,
    seed integer not null,
    seats text not null,
    returns text not null,
    scores text not null,
    stats text not null,
    primary key (game, params, agents, base_seed, game_index)
)
"""


@dataclass(frozen=True)
class Run:
    """Which games a row belongs to: the game, its canonical parameters, the agents, the base seed."""

    game: str
    params: dict[str, str]
    agents: tuple[str, ...]
    seed: int

    def key(self) -> tuple[str, str, str, int]:
        """The row columns naming this run."""
        return (self.game, canonical_json(self.params), canonical_json(list(self.agents)), self.seed)


@dataclass(frozen=True)
class Row:
    """One stored game."""

    index: int
    seed: int
    seats: list[str]
    returns: list[float]
    scores: list[float]
    stats: dict[str, Any]


class Store:
    """The SQLite file of a lab's games; every write commits, so an interrupted run keeps its games."""

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the store at ``path``: a regular file (or a new one) holding a SQLite
        database; anything else (a FIFO, a device, another kind of file) is refused with a
        :class:`ParameterError`."""
        self.path = Path(path)
        writable_file(self.path, "results file")
        try:
            self.db = sqlite3.connect(self.path)
        except sqlite3.Error as exc:
            raise ParameterError(f"results file {quoted(str(self.path))} cannot be opened: {exc}") from None
        try:
            self.db.execute(SCHEMA)
            self.db.commit()
        except sqlite3.Error as exc:
            self.db.close()
            raise ParameterError(f"results file {quoted(str(self.path))} is not a SQLite results file of Plunder's "
                                 f"or cannot be written ({exc})") from None

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    def done(self, run: Run) -> set[int]:
        """Indices of the run's games already stored."""
        cur = self.db.execute(
            "select game_index from games where game=? and params=? and agents=? and base_seed=?", run.key())
        return {i for (i,) in cur}

    def add(self, run: Run, results: Iterable[tuple[int, GameResult]]) -> None:
        """Store games (index, result) of ``run`` and commit."""
        key = run.key()
        self.db.executemany(
            "insert or replace into games values (?,?,?,?,?,?,?,?,?,?)",
            [(*key, i, run.seed + i, canonical_json(seats), canonical_json(returns), canonical_json(scores),
              canonical_json(stats)) for i, (seats, returns, scores, stats) in results])
        self.db.commit()

    def rows(self, run: Run, games: int) -> list[Row]:
        """The run's stored games with index below ``games``, in index order."""
        cur = self.db.execute(
            "select game_index, seed, seats, returns, scores, stats from games "
            "where game=? and params=? and agents=? and base_seed=? and game_index<? order by game_index",
            (*run.key(), games))
        return [Row(i, seed, json.loads(seats), json.loads(ret), json.loads(sc), json.loads(st))
                for i, seed, seats, ret, sc, st in cur]


def missing(done: set[int], games: int) -> Sequence[int]:
    """The indices below ``games`` not yet in ``done``."""
    return [i for i in range(games) if i not in done]
