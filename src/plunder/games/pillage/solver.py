"""An exact solver for Pillage and Profit positions: negamax alpha-beta on bitmasks.

The value of a position is the final score margin (the player to act's final score minus
the opponent's) when each side maximises its own final margin, i.e. the zero-sum margin
game. Search works on ints, not on :class:`PillageState`: a position is the drawn-line
mask, the commodity values and the commodity holdings difference (mover minus opponent).

What the transposition table keys on, and why it is exact:

* The margin so far never changes the future, so the table stores the *future increment*
  of the margin, and the root adds the current margin.
* Capturing a commodity of kind ``k`` adds its current value; a later change of that value
  by ``d`` adds ``d * holdings_difference[k]``. So the future depends on the values of
  kinds still present in open boxes (commodities or modifiers), and on the holdings
  difference only for kinds that an open modifier can still change.
* Once no modifier box is open the values are frozen and every open box has a fixed
  worth: the position is the drawn mask alone, searched by a leaner loop with one table
  per valuation.
* Masks are canonicalised over the board symmetries that preserve every box's content.

Modifier choices are made inline by the capturer right after the capturing line (the
same player keeps the move, PP-5); two modifiers captured by one line are resolved in
either order (PP-5 amended); outcomes with equal resulting values are merged.

The transposition tables are bounded (``memory``, in MB): every 4096 nodes the solver
counts their entries, and past the budget each table drops its oldest entries, leaving
half the budget. Entries are
stored when a position's search ends, so the older half is mostly deep positions, cheap
to search again, while the positions near the root -- stored last -- stay. A dropped
entry only costs time: every entry is a bound, and the search is exact without it.

Budgets: ``node_limit`` (positions searched) gives the same answer on every machine;
``time_limit`` (seconds) does not, and is for interactive use. Either raises
:class:`SearchLimitError`.

Two reductions are used, both proved for valued boxes. Call a capture line ``e``
*fixed-worth* when the boxes it closes hold doubloons, or commodities of kinds no open
modifier can change, and their total worth ``w`` is >= 0: who takes them then changes
nothing in the future but the margin.

* Free capture: if ``e`` is fixed-worth and closes *every* box it borders, it touches
  nothing else and keeps the turn, so it is an independent extra move worth ``w`` to
  whoever draws it. By induction on the lines left, V(P) = w + V(P+e): any other first
  move m either keeps the turn (the token is still there afterwards) or passes it, and
  then the opponent may take the token, giving at most -w - V(P+e+m) <= w - V(P+e+m).
  So ``e`` is played at once without branching.
* Declining: if ``e`` is fixed-worth, a line ``m`` that closes nothing and is not an edge
  of a box bordering ``e`` is never better than taking ``e`` first. After ``m`` the
  opponent can take ``e`` (same boxes, same worth), so m is worth at most
  -w - V(P+m+e); taking ``e`` and then drawing ``m`` (which still closes nothing) is worth
  w - V(P+e+m), the same position. So such ``m`` are not searched; the lines on the
  neighbouring box (the "double-dealing" declines) are.

The common Dots and Boxes shortcut "take a box when the line makes no other box
three-sided" is NOT used here (on valued boxes a line that adds a side to a neighbouring
box changes the rest of the game), nor is "always take an offered box" (declining can be
best, see the tests). Unit boards -- every box the same pile of doubloons, i.e. plain Dots
and Boxes -- go to :class:`~.solver_unit.UnitSearch` instead, where that shortcut, the
chain rules and the simple loony endgame values hold; there the root value is found by
null-window tests (MTD(f)) before a line reaching it is picked. What a table entry's bounds
do to a window, and the entry a result leaves, are solver_rules.py's, shared by every search.
A solve without a node budget runs the valued searches compiled
(:mod:`.solver_valued_compiled`, the same rules) on frames of :data:`COMPILED_FROM` lines or more.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from functools import partial
from itertools import islice, permutations
from typing import Callable, Collection

import numpy as np

from ...core.agent import AgentFactory, AgentOptions
from ...core.errors import ParameterError, SearchLimitError
from ...core.game import CHANCE, TERMINAL, Game
from ...core.params import Param, parse_int, parse_or, parse_real
from .actions import Choose, PillageAction
from .contents import OPS, Commodity, Doubloons, Modifier, apply_op
from .heuristics import GreedyAgent
from .rules import PillageGame, PillageState
from .solver_frame import KEY_BITS, Frame, open_frame, whole_frame
from .solver_symmetry import edge_symmetries, make_canon
from .solver_rules import merged_bounds, window
from .solver_table import ArrayTable, DictTable, Packing
from .solver_unit import RULES, UnitSearch, fits, unit_worth
from .solver_unit_compiled import NODES, STOPPED, CompiledUnitSearch, compiled_search, usable, watch
from .solver_valued_compiled import CompiledValuedSearch, compiled_valued, usable as valued_usable

# Box content codes in the tables.
_DOUBLOONS, _COMMODITY, _MODIFIER = 0, 1, 2


#: default budget of the transposition tables, in MB (the machine may have far more; a
#: bigger table helps only on boards too big to solve in minutes anyway)
DEFAULT_MEMORY = 512
#: bytes one dict table entry is reckoned to cost: tracemalloc measured 139 on the unit 3x3
#: solve (key, bounds, dict slot); the rest is room for a dict's table growing by doubling
ENTRY_BYTES = 240
#: share of the memory budget for the static search's array table (the rest: dict tables)
ARRAY_SHARE = 0.75
#: the same share on unit boards, whose search uses no dict table
UNIT_SHARE = 0.95
#: the most lines a position may have left to draw for the solver: its search goes one or
#: two Python calls deeper a line, and this keeps it within Python's default limit of 1000
#: calls with room for its callers. No search of that many lines ends anyway (unit 4x4, 40
#: lines, takes the compiled search about 500 CPU s, docs/ai.md); positions with more are
#: refused at once.
MAX_SOLVE_LINES = 200
#: seconds between two looks at the clock (and the progress reports) while the compiled unit
#: search runs: how far past its time limit a solve may go
POLL_SECONDS = 0.05
#: the fewest lines a frame may have for the compiled searches (unit and valued): the Python
#: searches solve smaller ones within a second or two, and the compiled code's first use in an
#: install compiles for about 20 s (the valued search's about 50 s; cached on disk after),
#: during which no time limit is looked at
COMPILED_FROM = 20


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``value`` is the final score margin of the player to act under optimal play (for a
    terminal state: the final margin of the player who moved last, ``state.mover``);
    ``best_action`` an action achieving it (``None`` at a terminal state); ``nodes`` the
    positions searched; ``seconds`` the wall time.
    """

    value: float
    best_action: PillageAction | None
    nodes: int
    seconds: float


class _Budget:
    """Node counter shared by all search loops; every 4096 nodes it checks the node and
    time limits, keeps the dict tables within their memory budget and reports progress."""

    __slots__ = ("nodes", "deadline", "node_limit", "capacity", "tables", "trims", "report", "every", "next_report")

    def __init__(self, capacity: int) -> None:
        self.nodes = 0
        self.deadline: float | None = None
        self.node_limit: int | None = None
        #: entries all dict tables may hold together
        self.capacity = capacity
        self.tables: list[dict] = []
        #: how often the tables were trimmed
        self.trims = 0
        #: called with the positions searched so far, every ``every`` seconds
        self.report: Callable[[int], None] | None = None
        self.every = 10.0
        self.next_report = 0.0

    def tick(self, pending: int = 0) -> None:
        """Raise :class:`SearchLimitError` past a limit; trim the tables past the budget;
        report when due. ``pending`` counts nodes searched but not yet added to :attr:`nodes`."""
        if self.node_limit is not None and self.nodes + pending > self.node_limit:
            raise SearchLimitError(f"pillage solver: node limit {self.node_limit} reached", "nodes")
        if self.deadline is not None or self.report is not None:
            now = time.perf_counter()
            if self.deadline is not None and now > self.deadline:
                raise SearchLimitError("pillage solver: time limit reached", "time")
            if self.report is not None and now >= self.next_report:
                self.next_report = now + self.every
                self.report(self.nodes + pending)
        total = sum(len(t) for t in self.tables)
        if total > self.capacity:
            # each table keeps its newest entries, all together half the budget
            self.trims += 1
            keep = self.capacity / 2 / total
            for table in self.tables:
                for key in list(islice(table, len(table) - int(len(table) * keep))):
                    del table[key]


class Solver:
    """Search tables for one board with its contents dealt; reusable across positions.

    Transposition entries stay valid for any later position of the same game, so an
    agent keeps one Solver for a whole game.
    """

    def __init__(self, game: PillageGame, contents: tuple[Modifier | Doubloons | Commodity | None, ...],
                 memory: float = DEFAULT_MEMORY, unit_rules: frozenset[str] | None = RULES,
                 compiled: bool = True, compiled_from: int = COMPILED_FROM,
                 compiled_without: Collection[str] = ()) -> None:
        if not memory > 0:
            raise ParameterError(f"pillage solver: memory must be a positive number of MB, not {memory}")
        dealt = [c for c in contents if c is not None]
        if len(dealt) < len(contents):
            raise ValueError("pillage solver: the box contents are not all dealt yet (chance node)")
        self.game = game
        self.contents = contents
        self.memory = memory
        self.unit_rules = unit_rules
        #: whether a solve without a node limit on a unit board may use the compiled search,
        #: and from how many lines of the board
        self.compiled = compiled
        self.compiled_from = compiled_from
        #: the compiled search's own rules turned off: "one" (line a chain), "ground" (lines)
        self.compiled_without = frozenset(compiled_without)
        if not self.compiled_without <= {"one", "ground"}:
            raise ValueError(f"pillage solver: unknown compiled rules {sorted(self.compiled_without - {'one', 'ground'})}")
        self.num_kinds = game.num_kinds
        self.floor = game.floor
        # Per board box: its content as the search reads it.
        self.board_code: list[int] = []
        self.board_amount: list[int] = []  # doubloons n, commodity kind, or 0
        self.board_options: list[tuple[tuple[int, int, int], ...]] = []  # modifier (op, amount, kind)
        for c in dealt:
            if isinstance(c, Doubloons):
                self.board_code.append(_DOUBLOONS)
                self.board_amount.append(c.n)
                self.board_options.append(())
            elif isinstance(c, Commodity):
                self.board_code.append(_COMMODITY)
                self.board_amount.append(c.kind)
                self.board_options.append(())
            else:
                self.board_code.append(_MODIFIER)
                self.board_amount.append(0)
                self.board_options.append(tuple((OPS.index(op), c.amount, k) for op, k in c.options()))
        #: the board's symmetries (computed when a frame first needs them)
        self._board_perms: list[tuple[int, ...]] | None = None
        #: the lines and boxes searched (solver_frame.py): the whole board when its masks fit
        #: the array table's keys, else the open part of the position solved, set by :meth:`solve`
        self.frame: Frame | None = None
        if game.board.num_edges <= KEY_BITS:
            self._use(whole_frame(game.board, self.board_perms()))

    def board_perms(self) -> list[tuple[int, ...]]:
        """The content-preserving symmetries of the whole board (solver_symmetry.py)."""
        if self._board_perms is None:
            self._board_perms = edge_symmetries(self.game.board, self.contents)
        return self._board_perms

    def _use(self, frame: Frame) -> None:
        """Search ``frame`` from now on, with new tables (entries of another frame's numbering
        mean nothing in this one)."""
        self.frame = frame
        self.num_edges = frame.num_edges
        self.num_boxes = frame.num_boxes
        self.full = (1 << self.num_edges) - 1
        self.box_mask = [sum(1 << e for e in edges) for edges in frame.box_edges]
        self.box_len = [len(edges) for edges in frame.box_edges]
        self.edge_boxes = frame.edge_boxes
        self.kind_code = [self.board_code[b] for b in frame.boxes]
        self.amount = [self.board_amount[b] for b in frame.boxes]
        self.options = [self.board_options[b] for b in frame.boxes]
        self.mod_kinds = [frozenset(k for _, _, k in opts) for opts in self.options]
        #: per edge: every edge of the boxes it borders
        self.near = [0] * self.num_edges
        for e in range(self.num_edges):
            for b in self.edge_boxes[e]:
                self.near[e] |= self.box_mask[b]
        self.perms = list(frame.perms)
        self.inverse: list[list[int]] = []
        for perm in self.perms:
            inv = [0] * self.num_edges
            for e, image in enumerate(perm):
                inv[image] = e
            self.inverse.append(inv)
        self.canon, self.canon_sym = make_canon(self.perms, self.num_edges)
        budget = self.memory * (1 << 20)
        contents = [self.contents[b] for b in frame.boxes]
        #: the worth of every box on a unit board searched by :class:`UnitSearch`, else None
        self.unit_worth = unit_worth(contents) if self.unit_rules is not None and fits(frame) else None
        keyed = self.num_edges <= KEY_BITS
        if keyed:
            share = ARRAY_SHARE if self.unit_worth is None else UNIT_SHARE
            self.timer = _Budget(int(budget * (1 - share)) // ENTRY_BYTES)
            #: the static searches' shared table; keys are the canonical mask tagged with the
            #: valuation's number above the edge bits (on unit boards: the canonical mask)
            self.array: ArrayTable | DictTable = ArrayTable(budget * share, self.full)
        else:
            # Keys too wide for the array table: every table is a dict, and the budget is
            # theirs. An int key takes 4 bytes per 30 bits.
            self.timer = _Budget(int(budget) // (ENTRY_BYTES + self.num_edges // 7))
            self.array = DictTable()
            self.timer.tables.append(self.array)
        self.general_tt: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[int, int, int]] = {}
        self.timer.tables.append(self.general_tt)
        self.static: dict[tuple[int | None, ...], Callable[[int, int, int, int], int]] = {}
        #: (root lines searched, root lines, best so far) of the solve under way, for its reports
        self._at = (0, 0, 0)
        #: (lowest, highest, tested) future increment of the unit search's tests under way
        self._bounds: tuple[int, int, int] | None = None
        timer = self.timer

        def count(n: int) -> None:
            timer.nodes += n
            timer.tick()

        #: the unit-board search (solver_unit.py), used for every position when set
        self.unit = None if self.unit_worth is None or self.unit_rules is None else UnitSearch(
            frame, self.array, self.canon_sym, self.perms, self.inverse, count, self.unit_rules)
        #: the compiled unit search of this frame (solver_unit_compiled.py), made when first used
        self.fast: CompiledUnitSearch | None = None
        #: the compiled valued search of this frame (solver_valued_compiled.py), made when first used
        self.valued: CompiledValuedSearch | None = None
        #: the valued search of the solve under way when it is the compiled one, else None
        self._valued_search: Callable[[int, tuple[int, ...], tuple[int, ...], int, int], int] | None = None
        #: the unit search and root line order of the solve under way: the Python search's, or
        #: the compiled one's
        self._unit_search: Callable[[int, int, int], int] | None = None
        self._unit_lines: Callable[[int], list[int]] | None = None
        if self.unit is not None:
            self._unit_search, self._unit_lines = self.unit.search, self.unit.line_order

    def _compiled_unit(self, node_limit: int | None) -> CompiledUnitSearch | None:
        """The compiled unit search for a solve, or None for the Python one: only without a
        node limit (a budget of positions is counted as the Python search counts them, so
        the agents that play within one -- ``solver``, ``pillage-hard`` -- play the same moves
        with or without numba), on a frame it takes of at least ``compiled_from`` lines, with
        numba there and allowed."""
        if self.unit is None or not self.compiled or node_limit is not None:
            return None
        assert self.frame is not None
        if (self.fast is None and self.frame.num_edges >= self.compiled_from and usable(self.frame)
                and compiled_search() is not None):
            assert self.unit_rules is not None
            self.fast = CompiledUnitSearch(self.frame, self.inverse, self.memory * (1 << 20) * UNIT_SHARE,
                                           self.unit_rules, one_per_chain="one" not in self.compiled_without,
                                           ground="ground" not in self.compiled_without)
        return self.fast

    def _compiled_valued(self, node_limit: int | None) -> CompiledValuedSearch | None:
        """The compiled valued search for a solve, or None for the Python one: on the same terms
        as :meth:`_compiled_unit`, on a board that is not a unit board."""
        if self.unit is not None or not self.compiled or node_limit is not None:
            return None
        assert self.frame is not None
        if (self.valued is None and self.frame.num_edges >= self.compiled_from and valued_usable(self.frame)
                and compiled_valued() is not None):
            self.valued = CompiledValuedSearch(self.frame, self.inverse, self.kind_code, self.amount, self.options,
                                               self.num_kinds, self.floor, self.memory * (1 << 20) * ARRAY_SHARE)
        return self.valued

    def _run_compiled(self, stats: np.ndarray, search: Callable[[], int]) -> int:
        """``search()`` (a compiled search sharing ``stats``), watched by the clock and the
        progress reports when the solve has either; raises :class:`SearchLimitError` past the
        time limit."""
        timer = self.timer
        if timer.deadline is None and timer.report is None:
            return search()

        def poll(nodes: int) -> bool:
            now = time.perf_counter()
            if timer.report is not None and now >= timer.next_report:
                timer.next_report = now + timer.every
                timer.report(timer.nodes + nodes)
            return timer.deadline is not None and now > timer.deadline

        value = watch(search, stats, poll, POLL_SECONDS)
        if stats[STOPPED]:
            raise SearchLimitError("pillage solver: time limit reached", "time")
        return value

    def _local(self, state: PillageState) -> int:
        """The drawn mask of ``state`` in the frame searched, choosing a new frame when the
        one in use does not hold every undrawn line, or when fewer lines are left than the
        array table's keys hold and the frame in use has more.

        Raises :class:`SearchLimitError` (``memory``) past :data:`MAX_SOLVE_LINES` undrawn lines."""
        frame = self.frame
        left = len(state.open_lines)
        if frame is None or not frame.covers(state.drawn) or (frame.num_edges > KEY_BITS >= left):
            if left > MAX_SOLVE_LINES:
                raise SearchLimitError(
                    f"pillage solver: {left} lines left to draw, more than the {MAX_SOLVE_LINES} it searches "
                    "(MAX_SOLVE_LINES: its search goes one or two calls deeper a line)", "memory")
            self._use(open_frame(self.game.board, state.drawn, self.board_perms()))
        assert self.frame is not None
        return self.frame.local(state.drawn)

    # ----------------------------------------------------------------- positions

    def step_line(self, drawn: int, values: tuple[int, ...], hd: tuple[int, ...], e: int
                  ) -> tuple[int, int, tuple[int, ...], list[int], bool]:
        """Draw line ``e`` of the frame in its mask ``drawn``: (new mask, margin gain, new
        holdings difference, the frame's modifier boxes captured (choices pending, box
        order), whether the mover keeps the turn). On a whole-board frame these are the
        board's numbers.

        ``hd`` is the mover's holdings minus the opponent's; when the turn passes the
        returned ``hd`` is still from the old mover's side (the caller negates it).
        """
        after = drawn | 1 << e
        gain = 0
        mods: list[int] = []
        new_hd = list(hd)
        closed = False
        for b in self.edge_boxes[e]:
            bm = self.box_mask[b]
            if after & bm == bm:
                closed = True
                code = self.kind_code[b]
                if code == _DOUBLOONS:
                    gain += self.amount[b]
                elif code == _COMMODITY:
                    k = self.amount[b]
                    gain += values[k]
                    new_hd[k] += 1
                else:
                    mods.append(b)
        return after, gain, tuple(new_hd), mods, closed

    def choice_outcomes(self, box: int, values: tuple[int, ...], hd: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], int]]:
        """Per option of the modifier in board box ``box``: (option index, new values, margin gain)."""
        return self.outcomes(self.board_options[box], values, hd)

    def outcomes(self, options: tuple[tuple[int, int, int], ...], values: tuple[int, ...], hd: tuple[int, ...]
                 ) -> list[tuple[int, tuple[int, ...], int]]:
        """Per option (op, amount, kind) of a modifier: (option index, new values, margin gain)."""
        out = []
        for i, (op, amount, k) in enumerate(options):
            new = apply_op(values[k], OPS[op], amount, self.floor)
            vals = values[:k] + (new,) + values[k + 1 :]
            out.append((i, vals, (new - values[k]) * hd[k]))
        return out

    # ------------------------------------------------------------ static search

    def static_search(self, values: tuple[int, ...], live: set[int]) -> Callable[[int, int, int, int], int]:
        """The search for positions with no open modifier, values frozen at ``values``.

        ``live`` holds the commodity kinds with an open box; no position below has others,
        so the values of the other kinds are left out of the key (lines of play that set
        them differently share one table). Returns ``search(drawn, alpha, beta, rest)`` ->
        future margin increment for the mover (fail-soft), where ``rest`` is the sum of
        |worth| of the open boxes.
        """
        key = tuple(values[k] if k in live else None for k in range(self.num_kinds))
        found = self.static.get(key)
        if found is not None:
            return found
        # Boxes of other kinds are closed in every position this search meets: worth 0.
        worth = [self.amount[b] if self.kind_code[b] == _DOUBLOONS
                 else values[self.amount[b]] if self.kind_code[b] == _COMMODITY and self.amount[b] in live
                 else 0 for b in range(self.num_boxes)]
        # Move generation is per box, not per edge: a box missing one line offers a
        # capture, a box missing two makes both lines hand a box over; the rest are safe.
        binfo = [(self.box_mask[b], worth[b], abs(worth[b]), self.box_len[b]) for b in range(self.num_boxes)]
        borders = {1 << e: len(self.edge_boxes[e]) for e in range(self.num_edges)}
        near = {1 << e: self.near[e] for e in range(self.num_edges)}
        full = self.full
        packing = Packing(sum(abs(w) for w in worth))
        tag = len(self.static) << self.num_edges
        tget: Callable[[int, int], int]
        tput: Callable[[int, int], None]
        if packing.bits <= 64 and isinstance(self.array, ArrayTable) and tag + full < 1 << KEY_BITS:
            tget, tput = self.array.get, self.array.put
        else:
            # too wide for the array's 64-bit columns: a dict of its own, trimmed by the budget
            tt: dict[int, int] = {}
            self.timer.tables.append(tt)
            tget, tput = tt.get, tt.__setitem__
        bound, shift_lo, width_mask = packing.bound, packing.shift_lo, packing.mask
        canon_sym = self.canon_sym
        perms = self.perms
        inverse = self.inverse
        timer = self.timer
        count = 0

        def search(drawn: int, alpha: int, beta: int, rest: int) -> int:
            nonlocal count
            if drawn == full:
                return 0
            # No line sequence can win more than every open box nor lose more.
            if rest <= alpha:
                return rest
            if -rest >= beta:
                return -rest
            count += 1
            if not count & 4095:
                timer.tick(count)
            key, sym = canon_sym(drawn)
            key |= tag
            entry = tget(key, 0)
            first = 0
            if entry:
                lo = (entry >> shift_lo) - bound
                hi = ((entry >> 16) & width_mask) - bound
                cut, value, alpha, beta = window(lo, hi, alpha, beta)
                if cut:
                    return value
                first = 1 << inverse[sym][(entry & 0xFFFF) - 1]
            else:
                lo, hi = -rest, rest
            caps: dict[int, list[int]] | None = None
            unsafe = 0
            for bm, w, aw, n in binfo:
                x = drawn & bm
                if x == bm:
                    continue
                c = x.bit_count()
                if c == n - 1:
                    m = bm ^ x
                    if caps is None:
                        caps = {m: [w, aw, 1]}
                    else:
                        got = caps.get(m)
                        if got is None:
                            caps[m] = [w, aw, 1]
                        else:
                            got[0] += w
                            got[1] += aw
                            got[2] += 1
                elif c == n - 2:
                    unsafe |= bm ^ x
            a0, b0 = alpha, beta
            best = -rest - 1
            best_m = 0
            if caps is not None:
                keep = full
                capmask = 0
                for m, (g, a, k) in caps.items():
                    if g >= 0:
                        if k == borders[m]:
                            # Sound forced move (module docstring): an independent
                            # non-negative capture.
                            return g + search(drawn | m, alpha - g, beta - g, rest - a)
                        # Declining a capture: only lines on its boxes can beat taking
                        # it (see the module docstring).
                        keep &= near[m]
                    capmask |= m
                for m in sorted(caps, key=lambda m: -caps[m][0]) if len(caps) > 1 else caps:
                    g, a, k = caps[m]
                    v = g + search(drawn | m, alpha - g, beta - g, rest - a)
                    if v > best:
                        best = v
                        best_m = m
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
                unsafe &= keep & ~capmask
                safe = (full ^ drawn) & keep & ~(unsafe | capmask)
            else:
                safe = (full ^ drawn) & ~unsafe
            if best < beta:
                if first and (safe | unsafe) & first:
                    safe &= ~first
                    unsafe &= ~first
                    v = -search(drawn | first, -beta, -alpha, rest)
                    if v > best:
                        best = v
                        best_m = first
                        if v > alpha:
                            alpha = v
                for moves in (safe, unsafe):
                    while moves and best < beta:
                        m = moves & -moves
                        moves ^= m
                        if best_m and beta - alpha > 1:
                            # PVS: prove the later lines no better with a null window first.
                            v = -search(drawn | m, -alpha - 1, -alpha, rest)
                            if alpha < v < beta:
                                v = -search(drawn | m, -beta, -v, rest)
                        else:
                            v = -search(drawn | m, -beta, -alpha, rest)
                        if v > best:
                            best = v
                            best_m = m
                            if v > alpha:
                                alpha = v
            lo, hi = merged_bounds(best, a0, b0, lo, hi)
            tput(key, (lo + bound) << shift_lo | (hi + bound) << 16 | perms[sym][best_m.bit_length() - 1] + 1)
            return best

        def counted(drawn: int, alpha: int, beta: int, rest: int) -> int:
            nonlocal count
            count = 0
            try:
                return search(drawn, alpha, beta, rest)
            finally:
                timer.nodes += count

        self.static[key] = counted
        return counted

    def live_kinds(self, drawn: int) -> tuple[int, ...]:
        """Kinds whose value still matters in ``drawn``: an open commodity box or an open
        modifier that lists them."""
        live: set[int] = set()
        for b in range(self.num_boxes):
            bm = self.box_mask[b]
            if drawn & bm != bm:
                if self.kind_code[b] == _COMMODITY:
                    live.add(self.amount[b])
                elif self.kind_code[b] == _MODIFIER:
                    live.update(self.mod_kinds[b])
        return tuple(sorted(live))

    def rest_of(self, drawn: int, values: tuple[int, ...]) -> int:
        """Sum of |worth| of the open boxes (static positions only)."""
        total = 0
        for b in range(self.num_boxes):
            bm = self.box_mask[b]
            if drawn & bm != bm:
                code = self.kind_code[b]
                total += self.amount[b] if code == _DOUBLOONS else abs(values[self.amount[b]]) if code == _COMMODITY else 0
        return total

    # ----------------------------------------------------------- general search

    def search(self, drawn: int, values: tuple[int, ...], hd: tuple[int, ...], alpha: int, beta: int) -> int:
        """Future margin increment for the mover at a line-drawing node (fail-soft)."""
        if self.unit is not None:
            # Windows in boxes, rounded outwards: a bound in boxes is a bound in doubloons.
            w = self.unit_worth
            assert w is not None and self._unit_search is not None
            return w * self._unit_search(drawn, alpha // w, -(-beta // w))
        if self._valued_search is not None:
            return self._valued_search(drawn, values, hd, alpha, beta)
        bm_ = self.box_mask
        code_ = self.kind_code
        amount_ = self.amount
        # One pass over the open boxes: offered captures, lines that hand a box over,
        # kinds a modifier may still change, and commodity kinds still to be won.
        caps: dict[int, list[int]] = {}
        unsafe = 0
        mod_kinds: set[int] = set()
        live: set[int] = set()
        for b in range(self.num_boxes):
            bm = bm_[b]
            x = drawn & bm
            if x == bm:
                continue
            code = code_[b]
            if code == _MODIFIER:
                mod_kinds.update(self.mod_kinds[b])
            elif code == _COMMODITY:
                live.add(amount_[b])
            c = x.bit_count()
            n = self.box_len[b]
            if c == n - 1:
                caps.setdefault(bm ^ x, []).append(b)
            elif c == n - 2:
                unsafe |= bm ^ x
        if not mod_kinds:
            return self.static_search(values, live)(drawn, alpha, beta, self.rest_of(drawn, values))
        timer = self.timer
        timer.nodes += 1
        if not timer.nodes & 4095:
            timer.tick()
        # Captures: (gain, bit, new holdings difference, modifiers taken, fixed worth?).
        captures: list[tuple[int, int, tuple[int, ...], list[tuple[tuple[int, int, int], ...]]]] = []
        keep = self.full
        for m, boxes in caps.items():
            gain = 0
            new_hd = list(hd)
            mods: list[tuple[tuple[int, int, int], ...]] = []  # the options of each modifier taken
            fixed = True
            for b in boxes:
                code = code_[b]
                if code == _DOUBLOONS:
                    gain += amount_[b]
                elif code == _COMMODITY:
                    k = amount_[b]
                    gain += values[k]
                    new_hd[k] += 1
                    fixed = fixed and k not in mod_kinds
                else:
                    mods.append(self.options[b])
                    fixed = False
            if fixed and gain >= 0:
                if len(boxes) == len(self.edge_boxes[m.bit_length() - 1]):
                    # Sound forced move: an independent capture of fixed worth (module docstring).
                    return gain + self.search(drawn | m, values, tuple(new_hd), alpha - gain, beta - gain)
                # Declining a fixed-worth capture: only lines on its boxes can beat taking it.
                keep &= self.near[m.bit_length() - 1]
            captures.append((gain, m, tuple(new_hd), mods))
        capmask = sum(caps)
        unsafe &= keep & ~capmask
        safe = (self.full ^ drawn) & keep & ~(unsafe | capmask)
        canon, sym = self.canon_sym(drawn)
        key = (canon, tuple(values[k] for k in sorted(live | mod_kinds)), tuple(hd[k] for k in sorted(mod_kinds)))
        entry = self.general_tt.get(key)
        lo, hi, first = -(1 << 60), 1 << 60, 0
        if entry is not None:
            lo, hi, stored = entry
            cut, value, alpha, beta = window(lo, hi, alpha, beta)
            if cut:
                return value
            first = 1 << self.inverse[sym][stored]
        a0, b0 = alpha, beta
        best, best_m = -(1 << 60), 0
        captures.sort(key=lambda c: -c[0])
        for gain, m, hd2, mods in captures:
            if mods:
                v = gain + self.choose(drawn | m, values, hd2, mods, alpha - gain, beta - gain)
            else:
                v = gain + self.search(drawn | m, values, hd2, alpha - gain, beta - gain)
            if v > best:
                best, best_m = v, m
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if best < beta:
            neg = tuple(-x for x in hd)
            quiet = []
            if first and (safe | unsafe) & first:
                quiet.append(first)
                safe &= ~first
                unsafe &= ~first
            for moves in (safe, unsafe):
                while moves:
                    m = moves & -moves
                    moves ^= m
                    quiet.append(m)
            for m in quiet:
                if best_m and beta - alpha > 1:
                    # PVS: prove the later lines no better with a null window first.
                    v = -self.search(drawn | m, values, neg, -alpha - 1, -alpha)
                    if alpha < v < beta:
                        v = -self.search(drawn | m, values, neg, -beta, -v)
                else:
                    v = -self.search(drawn | m, values, neg, -beta, -alpha)
                if v > best:
                    best, best_m = v, m
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
        lo, hi = merged_bounds(best, a0, b0, lo, hi)
        self.general_tt[key] = (lo, hi, self.perms[sym][best_m.bit_length() - 1])
        return best

    def choose(self, drawn: int, values: tuple[int, ...], hd: tuple[int, ...],
               mods: list[tuple[tuple[int, int, int], ...]], alpha: int, beta: int) -> int:
        """Future increment for the mover who must now make the choices for the modifiers
        whose options are ``mods`` (in any order, PP-5 amended) and then draw again (fail-soft)."""
        outcomes: dict[tuple[int, ...], int] = {}
        for order in permutations(mods) if len(mods) > 1 else (mods,):
            reached: dict[tuple[int, ...], int] = {values: 0}
            for options in order:
                nxt: dict[tuple[int, ...], int] = {}
                for vals, acc in reached.items():
                    for _, vals2, g in self.outcomes(options, vals, hd):
                        # Equal resulting values mean equal futures; the gain is fixed by them too.
                        if vals2 not in nxt or nxt[vals2] < acc + g:
                            nxt[vals2] = acc + g
                reached = nxt
            for vals, g in reached.items():
                if vals not in outcomes or outcomes[vals] < g:
                    outcomes[vals] = g
        # Values of kinds no open box can use any more only changed the margin (counted
        # in the gain): outcomes equal on the live kinds have the same future.
        live = self.live_kinds(drawn)
        merged: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
        for vals, g in outcomes.items():
            relevant = tuple(vals[k] for k in live)
            if relevant not in merged or merged[relevant][0] < g:
                merged[relevant] = (g, vals)
        best = -(1 << 60)
        for g, vals in sorted(merged.values(), key=lambda gv: -gv[0]):
            v = g + self.search(drawn, vals, hd, max(alpha, best) - g, beta - g)
            if v > best:
                best = v
                if v >= beta:
                    break
        return best

    # ------------------------------------------------------------------ root

    def solve(self, state: PillageState, time_limit: float | None = None, node_limit: int | None = None,
              progress: Callable[[str], None] | None = None, every: float = 10.0) -> SolveResult:
        """Exact value and a best action of ``state`` (see :func:`solve`); ``progress``, if
        given, is called every ``every`` seconds with a line saying how far the search is."""
        return self._solve(state, time_limit, node_limit, progress, every, None)

    def test(self, state: PillageState, cut: float, time_limit: float | None = None) -> WindowResult:
        """Whether the value of ``state`` for the player to act (as :meth:`solve` gives it) is
        at least ``cut``, by one null-window search: far cheaper than the value where the value
        is far from ``cut``, since a single line reaching ``cut`` (or a refutation of every
        line) settles it. Raises :class:`SearchLimitError` past ``time_limit`` seconds; a
        terminal state is tested on its final margin."""
        cut = math.ceil(cut)  # values are whole: "at least 2.5" is "at least 3"
        result = self._solve(state, time_limit, None, None, 10.0, cut)
        holds = result.value >= cut
        return WindowResult(holds, result.value, result.best_action if holds else None, result.nodes, result.seconds)

    def _solve(self, state: PillageState, time_limit: float | None, node_limit: int | None,
               progress: Callable[[str], None] | None, every: float, cut: int | None) -> SolveResult:
        """:meth:`solve` (``cut`` ``None``), or :meth:`test`'s search: the root searched in the
        null window just below ``cut``, its fail-soft result a bound (see :class:`WindowResult`)."""
        if state.contents != self.contents:
            raise ValueError("pillage solver: this Solver was built for other box contents")
        start = time.perf_counter()
        player = state.current_player
        if player == CHANCE:
            raise ValueError("pillage solver: the position is a chance node (contents not all dealt yet)")
        p = state.mover
        hd = tuple(a - b for a, b in zip(state.held[p], state.held[1 - p]))
        margin = state.doubloons[p] - state.doubloons[1 - p] + sum(h * v for h, v in zip(hd, state.values))
        if player == TERMINAL:
            return SolveResult(float(margin), None, 0, time.perf_counter() - start)
        drawn = self._local(state)
        timer = self.timer
        timer.nodes = 0
        timer.deadline = None if time_limit is None else start + time_limit
        timer.node_limit = node_limit
        big = 1 << 60
        self._at = (0, 0, -big)
        self._bounds = None
        fast = self._compiled_unit(node_limit) if not state.pending else None
        valued = self._compiled_valued(node_limit)

        def report(nodes: int) -> None:
            assert progress is not None
            seconds = time.perf_counter() - start
            if self._bounds is not None:
                lo, hi, test = self._bounds
                where = f"value from {margin + lo:+d} to {margin + hi:+d}, testing >= {margin + test:+d}"
            else:
                done, lines, best = self._at
                so_far = f"{margin + best:+d}" if best > -big else "?"
                where = f"root line {done + 1} of {lines}, best so far {so_far}"
            progress(f"{seconds:7.0f} s  {nodes:>13,} positions  {nodes / max(seconds, 1e-9):>9,.0f}/s  "
                     f"table {len(fast if fast is not None else valued if valued is not None else self.array):>11,} + {sum(len(t) for t in timer.tables):,}  {where}")

        timer.report = report if progress is not None else None
        timer.every = every
        timer.next_report = start + every
        if fast is not None:
            fast.reset()
            self._unit_search = lambda d, a, b: self._run_compiled(fast.stats, partial(fast.search, d, a, b))
            self._unit_lines = fast.line_order
        if valued is not None:
            valued.reset()
            self._valued_search = lambda d, v, h, a, b: self._run_compiled(
                valued.stats, partial(valued.search, d, v, h, a, b))
        try:
            if cut is not None:
                # a null window: the result is a lower bound where it reaches the cut, else an upper one
                value, action = self._root(state, drawn, hd, cut - margin - 1, cut - margin)
            elif self.unit is not None and not state.pending:
                # The value first, by null-window tests; then a line reaching it.
                value = self._unit_value(drawn)
                self._bounds = None
                found, action = self._root(state, drawn, hd, value - 1, value)
                assert found == value, (found, value)
            else:
                value, action = self._root(state, drawn, hd, -big, big)
        finally:
            timer.deadline = timer.node_limit = timer.report = None
            if self.unit is not None:
                timer.nodes += self.unit.pending
                self.unit.pending = 0
                self._unit_search, self._unit_lines = self.unit.search, self.unit.line_order
            if fast is not None:
                timer.nodes += int(fast.stats[NODES])
            if valued is not None:
                timer.nodes += int(valued.stats[NODES])
                self._valued_search = None
        return SolveResult(float(margin + value), action, timer.nodes, time.perf_counter() - start)

    def _unit_value(self, drawn: int) -> int:
        """The future increment of a unit-board position by MTD(f): null-window tests of
        "at least b?" from b = 0, each narrowing [lo, hi] (a test's result is a bound, and
        the table's bounds carry over from test to test)."""
        search, w = self._unit_search, self.unit_worth
        assert search is not None and w is not None
        open_boxes = sum(1 for bm in self.box_mask if bm & ~drawn & self.full)
        lo, hi, g = -open_boxes, open_boxes, 0
        while lo < hi:
            test = g + 1 if g == lo else g
            self._bounds = (w * lo, w * hi, w * test)
            g = search(drawn, test - 1, test)
            if g < test:
                hi = g
            else:
                lo = g
        return w * g

    def _root(self, state: PillageState, drawn: int, hd: tuple[int, ...], alpha: int, beta: int
              ) -> tuple[int, PillageAction]:
        """(future increment, action) over the legal actions of ``state``, whose drawn mask in
        the frame is ``drawn``, fail-soft in the window (alpha, beta): the action is one
        reaching the value returned."""
        best: int = -(1 << 60)
        best_a: PillageAction | None = None
        if state.pending:
            # Any pending modifier may go first (PP-5 amended): every option of each.
            for action in state.choices():
                box = next(b for b in state.pending if state.contents[b] == action.modifier)
                rest = [self.board_options[b] for b in state.pending if b != box]
                i = state.game.actions.choices[action.modifier].index(action)
                _, vals, gain = self.choice_outcomes(box, state.values, hd)[i]
                a = max(alpha, best)
                if rest:
                    v = gain + self.choose(drawn, vals, hd, rest, a - gain, beta - gain)
                else:
                    v = gain + self.search(drawn, vals, hd, a - gain, beta - gain)
                if v > best:
                    best, best_a = v, action
                    if best >= beta:
                        break
            assert best_a is not None
            return best, best_a
        # Root lines, the richest captures first: an early good value narrows the window
        # for the rest. Every line is searched (no decline pruning here), which is cheap.
        if self._unit_lines is None:
            lines = [e for e in range(self.num_edges) if not drawn >> e & 1]
        else:
            lines = self._unit_lines(drawn)
        order = sorted(lines, key=lambda e: -self.step_line(drawn, state.values, hd, e)[1])
        assert self.frame is not None
        for done, e in enumerate(order):
            self._at = (done, len(order), best)
            after, gain, hd2, mods, closed = self.step_line(drawn, state.values, hd, e)
            a = max(alpha, best)
            if not closed:
                v = -self.search(after, state.values, tuple(-x for x in hd), -beta, -a)
            elif not mods:
                v = gain + self.search(after, state.values, hd2, a - gain, beta - gain)
            else:
                v = gain + self.choose(after, state.values, hd2, [self.options[b] for b in mods], a - gain, beta - gain)
            if v > best:
                best, best_a = v, state.game.lines[self.frame.lines[e]]
                if best >= beta:
                    break
        assert best_a is not None
        return best, best_a


@dataclass(frozen=True)
class WindowResult:
    """What :meth:`Solver.test` found: whether the value reaches the cut (``holds``), and
    ``bound``, the search's fail-soft result -- a lower bound of the value (at least the cut)
    where it holds, an upper bound (below the cut) where not; ``nodes`` and ``seconds`` as in
    :class:`SolveResult`."""

    holds: bool
    bound: float
    #: where it holds, a legal action whose value is at least ``bound`` (else ``None``)
    best_action: PillageAction | None
    nodes: int
    seconds: float


def solve(state: PillageState, time_limit: float | None = None, memory: float = DEFAULT_MEMORY,
          node_limit: int | None = None, progress: Callable[[str], None] | None = None,
          every: float = 10.0) -> SolveResult:
    """Solve ``state`` exactly: the zero-sum final margin game.

    ``value`` is the current player's final score minus the opponent's under play that
    maximises each side's own final margin; ``best_action`` is a legal action achieving it
    (a :class:`Choose` when a modifier choice is pending). A terminal state gives its final
    margin from ``state.mover``'s side and ``best_action=None``. ``memory`` bounds the
    transposition tables (MB). Raises ``ValueError`` at a chance node and
    :class:`SearchLimitError` past ``time_limit`` seconds or ``node_limit`` positions.
    ``progress`` is called every ``every`` seconds with a line on how far the search is.
    """
    if not isinstance(state, PillageState):
        raise ValueError(f"pillage solver: not a Pillage state: {state!r}")
    if state.current_player == CHANCE:
        raise ValueError("pillage solver: the position is a chance node (contents not all dealt yet)")
    return Solver(state.game, state.contents, memory).solve(state, time_limit, node_limit, progress, every)


def value_of(state: PillageState) -> float:
    """The exact value of ``state`` for the player to act (see :func:`solve`)."""
    return solve(state).value


class SolverAgent:
    """Plays the solver's best action; falls back to greedy when the budget runs out.

    ``nodes`` (positions per move) makes its games reproducible on any machine; ``seconds``
    (if set) also stops it on the clock, which is not reproducible. Keeps one :class:`Solver`
    per board contents so that transposition entries carry over from move to move.
    """

    name = "solver"

    def __init__(self, nodes: int | None = None, seconds: float | None = None, memory: float = DEFAULT_MEMORY) -> None:
        self.nodes = nodes
        self.seconds = seconds
        self.memory = memory
        self._solver: Solver | None = None

    def choose(self, state: PillageState, rng: random.Random) -> PillageAction:
        """The best action of ``state``, or greedy's move if the search runs out of budget."""
        if self._solver is None or self._solver.contents != state.contents or self._solver.game is not state.game:
            self._solver = Solver(state.game, state.contents, self.memory)
        try:
            action = self._solver.solve(state, self.seconds, self.nodes).best_action
        except SearchLimitError:
            return GreedyAgent().choose(state, rng)
        assert action is not None
        return action


#: positions per move the ``solver`` agent searches before falling back to greedy
DEFAULT_NODES = 2_000_000


def make_solver(game: Game, options: AgentOptions) -> SolverAgent:
    """Factory for ``solver``: ``nodes`` positions per move (``none`` for no limit, which may
    never finish on a big board), ``seconds`` a clock limit as well (its games do not replay
    from their seed on another machine), ``memory`` MB for the tables."""
    if not isinstance(game, PillageGame):
        raise ParameterError("agent solver plays Pillage and Profit only")
    return SolverAgent(options["nodes"], options["seconds"], options["memory"])


#: ``solver`` for Pillage
SOLVER = AgentFactory(make_solver, "plays the exact solver's best move; greedy's when its budget runs out", (
    Param("nodes", str(DEFAULT_NODES), parse_or("none", parse_int(1)),
          "positions searched per move before falling back to greedy, or none"),
    Param("seconds", "none", parse_or("none", parse_real(0, above=True)),
          "also stop after this many seconds per move (games then depend on the machine)"),
    Param("memory", str(DEFAULT_MEMORY), parse_real(0, above=True), "MB for the solver's tables"),
))


__all__ = ["DEFAULT_MEMORY", "SolveResult", "Solver", "SOLVER", "SolverAgent", "make_solver", "solve", "value_of"]
