"""An exact solver for Hubs on small sheets (``plunder solve``, the analysis engine's exact values).

Hubs has no chance and two seats, and a value here is the final score margin of the player to
act (Player 1's total less Player 2's, or the reverse), both sides playing for the margin. It
decomposes by rounds: each round starts on a fresh sheet (HB-7) and only its offense scores in it
(HB-4, HB-6), so what a round adds to the margin depends on that round's play alone. A round's
value is the offense's points in it with the offense maximising and the defense minimising them,
and the position's value is

    margin so far  ±  the current round's points still to come  ±  R for every later round,

the sign each time by which seat is on offense, where ``R`` is the value of a fresh round (every
round of a match has the same sheet, dots and order of play, so the same value). Playing for the
win alone (the returns, HB-6) picks the same moves: the returns are a non-decreasing function of
the margin, and minimax commutes with one.

Within a round:

* **Segment phase.** The future points depend only on the set of segments drawn: the degrees,
  the drawable segments and the mover (defense first, HB-3) all follow from it. The solver keeps
  one value per drawn set (a bit set of candidate ids of the round's :class:`~.paper.Paper`),
  each candidate's ruled-out set precomputed with the rules' own :meth:`Paper.ruled_out`.
* **Placement phase.** The future points depend only on the set of lattice points taken (which
  dot was placed when does not matter to the segments, and the mover follows from the count,
  HB-1); a complete set is valued by its segment phase. Sets equal under a symmetry of the sheet
  (its mirror images, and its quarter turns when it is square) have equal values, so each is
  kept once.

What is in reach: a whole segment phase of 8 dots (``small``: 26 to 28 drawable segments, about
a million positions and some CPU seconds; docs/analysis.md), and a placement phase or a round
before the last one only where the placements left, and a fresh round (needed for ``R``), are
few: the ``tiny`` sheet (3 x 3, 6 dots) is solved whole, from its first dot. On larger sheets
only the last round's segment phase is (earlier, ``R`` would need every placement of a fresh
round). :func:`within_reach` says so for the analysis engine; :func:`solve_state` raises
:class:`~plunder.core.errors.SearchLimitError` at its time or memory limit wherever it is asked.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Callable

from ...core.errors import SearchLimitError
from .actions import HubsAction
from .geometry import Point
from .paper import Paper, paper_for
from .rules import HubsGame, HubsState

#: table entries allowed per MB of ``memory``: a dict entry of an int key and a small int value,
#: with its share of the table, takes about 85 bytes (measured on two million entries)
ENTRIES_PER_MB = 10_000
#: the solver's tables when no ``memory`` is given, in MB
DEFAULT_MEMORY = 256.0
#: nodes between two checks of the clock
CHECK_EVERY = 2048

#: the analysis engine solves a segment phase with at most this many drawable segments ...
REACH_SEGMENTS = 24
#: ... and a placement phase only while at most this many sets of points can complete it (and
#: a round before the last only where a fresh round's sets are that few: its value is needed)
REACH_PLACEMENTS = 200
#: ... of at most this many dots (a fresh 6-dot sheet's segment phase is a few thousand positions)
REACH_DOTS = 6
#: the most sets of points :func:`solve_state` sets out to value (the placements left, and a
#: fresh round's where a later round's value is needed); past it, it refuses at once rather
#: than run to its time limit (``small`` from its first dot: C(96, 8), about 1.3e11)
MAX_PLACEMENTS = 100_000


def _point_sets(state: HubsState) -> tuple[int, int]:
    """The sets of points valuing ``state`` needs valued: those that complete its placement (0
    past it), and a fresh round's (0 in the last round: no later round's value is needed)."""
    game = state.game
    points = game.width * game.height
    left = math.comb(points - len(state.dots), game.dots - len(state.dots)) if state.placing else 0
    return left, math.comb(points, game.dots) if state.round < game.rounds - 1 else 0


@dataclass(frozen=True)
class HubsSolution:
    """What :func:`solve_state` found: ``value`` is the final score margin of the player to act
    under best play on both sides (at the end of the match: the margin of the seat that moved
    last); ``best_action`` an action achieving it (``None`` at the end); ``nodes`` the positions
    searched (not found in the tables); ``seconds`` the wall time."""

    value: float
    best_action: HubsAction | None
    nodes: int
    seconds: float


class _Budget:
    """Counts the nodes searched and stops the search at its deadline or its table size."""

    __slots__ = ("nodes", "deadline", "entries", "tables")

    def __init__(self, time_limit: float | None, entries: int, tables: Callable[[], int]) -> None:
        self.nodes = 0
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.entries = entries
        self.tables = tables

    def tick(self) -> None:
        """One more node; every :data:`CHECK_EVERY` nodes, the limits are checked."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise SearchLimitError(f"hubs solver: out of time after {self.nodes} positions", "time")
            if self.tables() > self.entries:
                raise SearchLimitError(f"hubs solver: tables full after {self.nodes} positions "
                                       f"({self.entries} entries)", "memory")


class _Sheet:
    """One round's dots with each candidate's ruled-out set, and the segment phase's values by
    drawn set (the offense's points still to come)."""

    def __init__(self, dots: tuple[Point, ...]) -> None:
        paper: Paper = paper_for(dots)
        self.paper = paper
        self.size = paper.size
        self.ends: list[tuple[int, int]] = [(int(a), int(b)) for a, b in paper.ends.tolist()]
        every = paper.ids(paper.all_drawable())
        #: the bit set a candidate clears when drawn: itself and every candidate it rules out (HB-2)
        self.clash: list[int] = [paper.bits(paper.ruled_out(k, every)) for k in range(self.size)]
        self.values: dict[int, int] = {}

    def fresh(self, budget: _Budget) -> int:
        """The offense's points in this round's whole segment phase."""
        n = len(self.paper.dots)
        return self.points(0, (1 << self.size) - 1, [0] * n, n, budget)

    def points(self, drawn: int, drawable: int, degree: list[int], short: int, budget: _Budget) -> int:
        """The offense's points still to come once ``drawn`` are drawn (``degree``: segments at
        each dot, ``short``: dots under two), the round not over; ``degree`` is restored."""
        known = self.values.get(drawn)
        if known is not None:
            return known
        budget.tick()
        offense = drawn.bit_count() & 1  # the defense draws first (HB-3)
        best = -1 if offense else 1 << 62
        ends, clash, bits = self.ends, self.clash, drawable
        while bits:
            low = bits & -bits
            bits ^= low
            k = low.bit_length() - 1
            a, b = ends[k]
            da, db = degree[a], degree[b]
            value = da + db  # HB-4
            left = short - (da == 1) - (db == 1)
            after = drawable & ~clash[k]
            if left and after:  # else the round ends (HB-5)
                degree[a] = da + 1
                degree[b] = db + 1
                value += self.points(drawn | low, after, degree, left, budget)
                degree[a] = da
                degree[b] = db
            if (value > best) if offense else (value < best):
                best = value
        self.values[drawn] = best
        return best


def _symmetries(width: int, height: int) -> list[list[int]]:
    """Each symmetry of the sheet as a map of lattice indices (``y * width + x``)."""
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda x, y: (x, y), lambda x, y: (width - 1 - x, y), lambda x, y: (x, height - 1 - y),
        lambda x, y: (width - 1 - x, height - 1 - y)]
    if width == height:
        maps += [lambda x, y: (y, x), lambda x, y: (width - 1 - y, x), lambda x, y: (y, width - 1 - x),
                 lambda x, y: (width - 1 - y, width - 1 - x)]
    out = []
    for m in maps:
        table = []
        for i in range(width * height):
            x, y = m(i % width, i // width)
            table.append(y * width + x)
        out.append(table)
    return out


class _Tables:
    """The values kept for one sheet size and dot count: each placement set's (by its symmetry
    class) and the sheets of the rounds being solved."""

    def __init__(self, game: HubsGame) -> None:
        self.width, self.height, self.dots = game.width, game.height, game.dots
        self.symmetries = _symmetries(self.width, self.height)
        #: the offense's points still to come in a round whose placed points are the key
        self.placed: dict[int, int] = {}
        #: the sheets of segment phases solved, by their dots (the last two)
        self.sheets: dict[tuple[Point, ...], _Sheet] = {}
        #: the complete placement's sheet being valued, if any
        self.scratch: _Sheet | None = None

    def entries(self) -> int:
        """Entries held by every table."""
        scratch = 0 if self.scratch is None else len(self.scratch.values)
        return len(self.placed) + scratch + sum(len(s.values) for s in self.sheets.values())

    def sheet(self, dots: tuple[Point, ...]) -> _Sheet:
        """The kept sheet of ``dots``: the analysis engine asks of one round after another, so a new
        one replaces the older beyond two."""
        found = self.sheets.get(dots)
        if found is None:
            if len(self.sheets) >= 2:
                del self.sheets[next(iter(self.sheets))]
            found = self.sheets[dots] = _Sheet(dots)
        return found

    def canonical(self, taken: int) -> int:
        """The least bit set among the images of ``taken`` under the sheet's symmetries."""
        spots = [i for i in range(self.width * self.height) if taken >> i & 1]
        return min(sum(1 << m[i] for i in spots) for m in self.symmetries)

    def placing(self, taken: int, count: int, budget: _Budget) -> int:
        """The offense's points still to come in a round whose taken points are ``taken`` (``count``
        of them, fewer than the round's dots), both sides placing and drawing best."""
        key = self.canonical(taken)
        known = self.placed.get(key)
        if known is not None:
            return known
        budget.tick()
        offense = count & 1  # the defense places first (HB-1)
        best = -1 if offense else 1 << 62
        for spot in range(self.width * self.height):
            if taken >> spot & 1:
                continue
            value = self.after_placing(taken | 1 << spot, count + 1, budget)
            if (value > best) if offense else (value < best):
                best = value
        self.placed[key] = best
        return best

    def after_placing(self, taken: int, count: int, budget: _Budget) -> int:
        """:meth:`placing`, or the segment phase's value once every dot is down."""
        if count < self.dots:
            return self.placing(taken, count, budget)
        key = self.canonical(taken)
        known = self.placed.get(key)
        if known is None:
            dots = tuple((i % self.width, i // self.width) for i in range(self.width * self.height)
                         if key >> i & 1)
            # a sheet of its own, dropped once valued: its values are not needed again
            self.scratch = _Sheet(dots)
            known = self.placed[key] = self.scratch.fresh(budget)
            self.scratch = None
        return known

    def fresh_round(self, budget: _Budget) -> int:
        """``R``: the offense's points in a fresh round, both sides playing best."""
        return self.placing(0, 0, budget)


_kept: list[_Tables] = []
_kept_lock = threading.Lock()


def _tables(game: HubsGame) -> _Tables:
    """The process's kept tables for ``game``'s sheet and dots (one set at a time)."""
    shape = (game.width, game.height, game.dots)
    if not _kept or (_kept[0].width, _kept[0].height, _kept[0].dots) != shape:
        _kept[:] = [_Tables(game)]
    return _kept[0]


def _round_points(tables: _Tables, state: HubsState, budget: _Budget) -> int:
    """The offense's points still to come in ``state``'s round, both sides playing best."""
    if state.placing:
        width = state.game.width
        taken = sum(1 << (y * width + x) for x, y in state.dots)
        return tables.placing(taken, len(state.dots), budget)
    sheet = tables.sheet(state.dots)
    paper = sheet.paper
    drawn = 0
    for segment in state.segments:
        k = paper.candidate_id(segment)
        assert k is not None, "a drawn segment is a candidate"
        drawn |= 1 << k
    short = sum(d < 2 for d in state.degree)
    return sheet.points(drawn, state.drawable, list(state.degree), short, budget)


def _margin(tables: _Tables, state: HubsState, budget: _Budget) -> int:
    """Player 1's final margin under best play from ``state``, not the end of the match."""
    game = state.game
    margin = state.totals[0] - state.totals[1]
    now = _round_points(tables, state, budget)
    margin += now if state.offense == 0 else -now
    later = sum(1 if game.offense(r) == 0 else -1 for r in range(state.round + 1, game.rounds))
    if later:
        margin += later * tables.fresh_round(budget)
    return margin


def _final(state: HubsState) -> float:
    """The margin of the seat that moved last, at the end of the match: the last round's last
    segment was the defense's when the round had an odd number of segments (HB-3)."""
    game = state.game
    last = game.rounds - 1
    result = state.last_round
    assert result is not None, "a finished match has a last round"
    defense = 1 - game.offense(last)
    mover = defense if result.segments % 2 else 1 - defense
    a, b = state.totals
    return float(a - b if mover == 0 else b - a)


def solve_state(state: HubsState, time_limit: float | None = None, memory: float | None = None) -> HubsSolution:
    """``ENTRY.strength.solve``: ``state`` solved exactly within ``time_limit`` seconds and
    ``memory`` MB of tables (default :data:`DEFAULT_MEMORY`); raises
    :class:`~plunder.core.errors.SearchLimitError` at a limit. The tables are kept between calls
    on games of one sheet and dot count, so the analysis engine's solves of a game's positions
    share them (a fresh round is valued once)."""
    start = time.monotonic()
    entries = int((DEFAULT_MEMORY if memory is None else memory) * ENTRIES_PER_MB)
    if state.is_terminal():
        return HubsSolution(_final(state), None, 0, time.monotonic() - start)
    if (sets := sum(_point_sets(state))) > MAX_PLACEMENTS:
        game = state.game
        raise SearchLimitError(f"hubs solver: valuing this position needs {sets:,} sets of points valued (the "
                               f"placements of {game.dots} dots on the {game.width}x{game.height} sheet), past the "
                               f"{MAX_PLACEMENTS:,} it takes on; here it solves the last round's segment phase", "nodes")
    with _kept_lock:
        tables = _tables(state.game)
        budget = _Budget(time_limit, entries, tables.entries)
        try:
            mover = state.current_player
            sign = 1 if mover == 0 else -1
            best_value: int | None = None
            best_action: HubsAction | None = None
            for action in state.legal_actions():
                after = state.apply(action)
                if after.is_terminal():
                    a, b = after.totals
                    value = sign * (a - b)
                else:
                    value = sign * _margin(tables, after, budget)
                if best_value is None or value > best_value:
                    best_value, best_action = value, action
        except SearchLimitError:
            tables.scratch = None  # a sheet cut off midway: its values are not all there
            if tables.entries() > entries:
                _kept.clear()  # tables past their budget are not kept
            raise
    assert best_value is not None, "a position of an unfinished match has a legal action"
    return HubsSolution(float(best_value), best_action, budget.nodes, time.monotonic() - start)


def within_reach(state: HubsState) -> bool:
    """``ENTRY.analysis.exact``: the solver values ``state`` and its children in well under the
    engine's exact budget (docs/analysis.md, "Exact values, and how early"): a segment phase of
    at most :data:`REACH_SEGMENTS` drawable segments or a placement of at most
    :data:`REACH_DOTS` dots with at most :data:`REACH_PLACEMENTS` ways left to complete it, and
    in a round before the last, a fresh round within the same reach."""
    game = state.game
    if state.round >= game.rounds:
        return True
    left, fresh = _point_sets(state)
    if state.round < game.rounds - 1 and (game.dots > REACH_DOTS or fresh > REACH_PLACEMENTS):
        return False
    if state.placing:
        return game.dots <= REACH_DOTS and left <= REACH_PLACEMENTS
    return state.drawable.bit_count() <= REACH_SEGMENTS

