"""The analysis engine: every decision of a record valued, each move's loss and mark.

:func:`analyse` replays a record (:mod:`plunder.core.record`), and values each decision
position for the player to move (:mod:`.value`): exactly with the game's solver where the
game's :class:`~plunder.core.capabilities.Analysis` says the position is small enough, else
by paired playouts at a budget counted in playouts (reproducible from the analysis seed). A
move's *loss* is the mover's margin after the best move found minus its margin after the
move played, in the game's own units, marked good / inaccuracy / mistake / blunder by the
game's thresholds; a loss found by playouts is an estimate with an interval, and is marked only
as far as the interval clears a threshold, else ``unclear`` (``docs/analysis.md``).

Positions are valued in worker processes (``workers``) and cached by key: the game, its
parameters, the moves reaching the position, the move played and the settings
(:func:`position_key`), in memory (:class:`Engine`) and optionally on disk (:class:`DiskCache`).
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..agents.levels import level_spec
from ..core import options
from ..core.capabilities import Analysis
from ..core.errors import ParameterError, RecordError
from ..core.game import Game, State
from ..core.record import Record, replay
from ..core.registry import entry, load_game
from .value import SURE_Z, UNCLEAR, Task, Valuation, analysis_of, confident_mark, value_task

#: raised with any change to how a position is valued, so a disk cache of older values is not read
ENGINE_VERSION = 8
#: the largest playout budget per position
MAX_SIMS = 100_000
#: the longest playout cut
MAX_DEPTH = 10_000
#: how many of a player's worst moves the summary names
WORST_MOVES = 3
#: marks from best to worst, then the mark of a playout-valued move whose loss the playouts
#: cannot place on one side of a threshold
MARKS = ("good", "inaccuracy", "mistake", "blunder", UNCLEAR)


@dataclass(frozen=True)
class Settings:
    """How hard to look: ``sims`` playouts per position and playouts cut after ``depth`` actions
    (``None``: the game's defaults), the analysis ``seed``, and whether the solver may be used."""

    sims: int | None = None
    depth: int | None = None
    seed: int = 0
    exact: bool = True

    def check(self) -> None:
        """Refuse settings out of their limits, saying which."""
        if self.sims is not None and not 1 <= self.sims <= MAX_SIMS:
            raise ParameterError(f"analysis budget {self.sims} playouts is out of range 1..{MAX_SIMS}")
        if self.depth is not None and not 0 <= self.depth <= MAX_DEPTH:
            raise ParameterError(f"analysis depth {self.depth} is out of range 0..{MAX_DEPTH}")


@dataclass(frozen=True)
class MoveAnalysis:
    """One decision of the record judged."""

    #: index of the move in the record
    ply: int
    #: the seat that moved
    seat: int
    #: the move played, and the best move found (canonical texts)
    played: str
    best: str
    #: the mover's margin after the best move minus after the move played (>= 0), in units: the
    #: solver's exact figure, or the playouts' estimate (see :attr:`error`)
    loss: float
    #: the drop of the mover's win probability (``None`` where none is known)
    win_loss: float | None
    #: good, inaccuracy, mistake, blunder, or unclear (playouts only: the loss's interval
    #: straddles a threshold)
    mark: str
    #: per seat, the margin after the move played: the value curve
    margins: list[float]
    #: per seat, the win probability after the move played, if known
    wins: list[float] | None
    #: the solver gave the values
    exact: bool
    #: candidate moves compared
    candidates: int
    #: the standard error of :attr:`loss` (0 when exact)
    error: float = 0.0
    #: per seat, the standard error of :attr:`margins` and of :attr:`wins` (the curve's band;
    #: ``None`` where exact, or no win probability is known)
    margin_errors: list[float] | None = None
    win_errors: list[float] | None = None
    #: the loss is a bound the solver proved (:func:`~.value.proven`): :attr:`loss` is a lower
    #: bound of it and :attr:`upper` an upper bound (``None``: none), the mark is exact, the
    #: margins after the move played are the solver's
    bounded: bool = False
    upper: float | None = None

    @property
    def position(self) -> int:
        """The number of the position the move led to: how the move list, the tables and the
        curve's x axis all number the move."""
        return self.ply + 1

    def loss_words(self) -> str:
        """The loss in words: the solver's figure as it is, an estimate as an estimate rounded
        to what its standard error allows ("about 40" for 42.7 ± 6), a proven bound as a bound
        ("at least 10", "at most 1", "5 to 8")."""
        if self.bounded:
            if self.upper is None:
                return f"at least {self.loss:g}"
            if self.upper == self.loss:
                return f"{self.loss:g}"
            return f"{self.loss:g} to {self.upper:g}" if self.loss > 0 else f"at most {self.upper:g}"
        return f"{self.loss:g}" if self.exact else about(self.loss, self.error)


@dataclass
class PlayerSummary:
    """One seat's decisions summed up."""

    seat: int
    name: str
    decisions: int
    average_loss: float
    marks: dict[str, int]
    worst: list[MoveAnalysis]


@dataclass
class GameAnalysis:
    """A whole record analysed: its moves judged, in record order, and the game's units."""

    game: Game[Any]
    record: Record
    units: str
    moves: list[MoveAnalysis] = field(default_factory=list)

    def summary(self) -> list[PlayerSummary]:
        """Per seat: decisions, average loss, marks counted and the worst moves."""
        out = []
        for seat, name in enumerate(self.record.players):
            own = [m for m in self.moves if m.seat == seat]
            marks = {mark: sum(m.mark == mark for m in own) for mark in MARKS}
            worst = sorted((m for m in own if m.loss > 0), key=lambda m: (-m.loss, m.ply))[:WORST_MOVES]
            average = sum(m.loss for m in own) / len(own) if own else 0.0
            out.append(PlayerSummary(seat, name, len(own), average, marks, worst))
        return out


def position_key(game: Game[Any], record: Record, ply: int, settings: tuple[Any, ...]) -> str:
    """The cache key of the decision before move ``ply``: game, parameters, moves so far, the
    move played and the settings, hashed."""
    text = json.dumps([ENGINE_VERSION, game.id, sorted(game.params.items()),
                       [m.action for m in record.moves[: ply + 1]], list(settings)])
    return hashlib.sha256(text.encode()).hexdigest()


class DiskCache:
    """Valuations kept in an SQLite file between runs, by :func:`position_key`."""

    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(str(path))
        self.db.execute("CREATE TABLE IF NOT EXISTS valuation (key TEXT PRIMARY KEY, data TEXT NOT NULL)")

    def get(self, key: str) -> Valuation | None:
        """The stored valuation of ``key``, if any."""
        row = self.db.execute("SELECT data FROM valuation WHERE key = ?", (key,)).fetchone()
        return None if row is None else Valuation.from_data(json.loads(row[0]))

    def put(self, key: str, value: Valuation) -> None:
        """Store ``value`` under ``key``."""
        self.db.execute("INSERT OR REPLACE INTO valuation VALUES (?, ?)", (key, json.dumps(value.to_data())))
        self.db.commit()

    def close(self) -> None:
        """Close the file."""
        self.db.close()


def decisions(record: Record, game: Game[Any]) -> Iterator[tuple[int, State[Any]]]:
    """(move index, position before it) of each decision of ``record`` (chance's moves skipped)."""
    state = game.new_initial_state()
    for i, move in enumerate(record.moves):
        if move.by is not None:
            yield i, state
        state = state.apply_text(move.action)


class Engine:
    """Analyses records, keeping every valuation in memory (and in ``disk`` if given)."""

    def __init__(self, disk: DiskCache | None = None) -> None:
        self.memory: dict[str, Valuation] = {}
        self.disk = disk

    def _cached(self, key: str) -> Valuation | None:
        found = self.memory.get(key)
        if found is None and self.disk is not None:
            found = self.disk.get(key)
            if found is not None:
                self.memory[key] = found
        return found

    def _keep(self, key: str, value: Valuation) -> None:
        self.memory[key] = value
        if self.disk is not None:
            self.disk.put(key, value)

    def analyse(self, record: Record, settings: Settings = Settings(), workers: int = 1,
                progress: Callable[[int, int], None] | None = None) -> GameAnalysis:
        """``record`` analysed with ``settings`` over ``workers`` processes; ``progress(done,
        total)`` is called as positions are valued. A record that does not replay, or of a game
        that offers no analysis, is refused (:class:`RecordError`, ``ValueError``)."""
        options.workers(workers)
        made = plan(record, settings)
        todo = [t for t in made.tasks if self._cached(t.key) is None]
        done = len(made.tasks) - len(todo)
        if progress:
            progress(done, len(made.tasks))
        for task, value in zip(todo, _run(todo, workers)):
            self._keep(task.key, value)
            done += 1
            if progress:
                progress(done, len(made.tasks))
        result = GameAnalysis(made.game, record, made.analysis.units)
        for ply, task in zip(made.plies, made.tasks):
            result.moves.append(made.judge(ply, task, self.memory[task.key]))
        return result


@dataclass(frozen=True)
class Plan:
    """A record's analysis laid out: its game, the game's :class:`Analysis`, and one
    :class:`Task` per decision with the move index it judges (``plies``). A caller values the
    tasks as it likes (:class:`Engine` in a pool; the web coach one at a time in its lane) and
    judges each valuation with :meth:`judge`."""

    game: Game[Any]
    analysis: Analysis[Any]
    tasks: list[Task]
    plies: list[int]

    def judge(self, ply: int, task: Task, value: Valuation) -> MoveAnalysis:
        """The move of ``task`` (at move index ``ply``) judged by its valuation."""
        return judged(ply, task.state.current_player, task.played, value, self.analysis)


def plan(record: Record, settings: Settings = Settings()) -> Plan:
    """``record``'s decisions as valuation tasks with ``settings``; a record that does not
    replay, or of a game that offers no analysis, is refused (:class:`RecordError`, ``ValueError``)."""
    settings.check()
    try:
        game = load_game(record.game, **record.params)
    except ParameterError as exc:
        raise RecordError(f"record's game cannot be loaded: {exc}") from None
    replay(record, game)
    game_entry = entry(game.id)
    analysis = analysis_of(game_entry, game.id)
    spec = analysis.playout or level_spec("hard", game_entry.strength.agents, game_entry.strength.levels)
    sims = settings.sims if settings.sims is not None else analysis.sims
    depth = settings.depth if settings.depth is not None else analysis.depth
    shape = (sims, depth, spec, analysis.candidates, analysis.screen, analysis.screen_playout,
             analysis.stretch_seconds, settings.seed, settings.exact)
    found = list(decisions(record, game))
    tasks = [Task(position_key(game, record, i, shape), state, record.moves[i].action, sims, depth, spec,
                  settings.seed, settings.exact) for i, state in found]
    return Plan(game, analysis, tasks, [i for i, _ in found])


def _run(tasks: list[Task], workers: int) -> Iterable[Valuation]:
    """Each task's valuation, in order: here, or over ``workers`` processes."""
    if workers == 1 or len(tasks) < 2:
        return map(value_task, tasks)
    pool: Executor = ProcessPoolExecutor(max_workers=workers)

    def results() -> Iterator[Valuation]:
        with pool:
            yield from pool.map(value_task, tasks, chunksize=1)

    return results()


def judged(ply: int, seat: int, played: str, value: Valuation, analysis: Analysis[Any]) -> MoveAnalysis:
    """A valued decision as a judged move: its loss, win-probability drop and mark. An exact loss
    is marked by the thresholds; an estimate only as far as its interval (:data:`SURE_Z` standard
    errors each side) clears them, else ``unclear`` (:func:`~.value.confident_mark`). The better
    move is named where the loss is above 0 and the move is not called good on an estimate whose
    interval reaches 0."""
    gap = value.best_margins[seat] - value.played_margins[seat] if value.gap is None else value.gap
    loss = max(0.0, gap) if value.best != played else 0.0
    # a proven bound marks as an exact loss does: the tests stop at the worst threshold it reaches
    mark = analysis.mark(loss) if value.exact or value.bounded else confident_mark(analysis, gap, value.error)
    named = loss > 0 and (value.exact or value.bounded or mark != "good" or gap - SURE_Z * value.error > 0)
    win_loss = None
    if value.best_wins is not None and value.played_wins is not None:
        win_loss = max(0.0, value.best_wins[seat] - value.played_wins[seat]) if named else 0.0
    return MoveAnalysis(ply, seat, played, value.best if named else played, loss, win_loss, mark,
                        value.played_margins, value.played_wins, value.exact, value.candidates,
                        0.0 if value.exact else value.error, value.margin_errors, value.win_errors, value.bounded,
                        value.upper)


def about(estimate: float, error: float) -> str:
    """``estimate`` in words as an estimate: "about" and the figure rounded to the power of ten
    below twice its standard error (at least to a tenth, at most to the estimate's own leading
    digit), so no digit is claimed that the playouts did not measure."""
    step = 10.0 ** math.floor(math.log10(2 * error)) if error > 0 else 0.1
    if estimate > 0:
        step = min(step, 10.0 ** math.floor(math.log10(estimate)))
    step = max(step, 0.1)
    rounded = round(estimate / step) * step
    return f"about {rounded:.{max(0, -math.floor(math.log10(step)))}f}"


def analyse(record: Record, settings: Settings = Settings(), workers: int = 1,
            progress: Callable[[int, int], None] | None = None, cache: str | Path | None = None) -> GameAnalysis:
    """``record`` analysed by a fresh :class:`Engine` (with an on-disk ``cache`` file if given)."""
    disk = DiskCache(cache) if cache is not None else None
    try:
        return Engine(disk).analyse(record, settings, workers, progress)
    finally:
        if disk is not None:
            disk.close()
