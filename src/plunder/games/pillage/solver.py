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
same player keeps the move, PP-5/PP-9), outcomes with equal resulting values merged.

The one forced move used is proved sound for valued boxes: a line whose every bordering
box it closes, holding doubloons or commodities of kinds no open modifier can change, and
worth >= 0 in total, is an independent "free extra move" (it touches nothing else and
keeps the turn), so its owner-to-be can take it at once without loss. The common Dots and
Boxes shortcut "take a box when the line makes no other box three-sided" is NOT used: on
valued boxes it can be wrong (a negative commodity, a modifier, or a change of parity).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, Mapping

from ...core.errors import ParameterError
from ...core.game import CHANCE, TERMINAL, Action, Game, State
from .contents import OPS, Commodity, Doubloons, Modifier, apply_op
from .rules import PillageGame, PillageState
from .solver_symmetry import edge_symmetries, make_canon

# Box content codes in the tables.
_DOUBLOONS, _COMMODITY, _MODIFIER = 0, 1, 2


class SolveTimeout(RuntimeError):
    """The search ran past its time limit; no result (the tables keep what was proved)."""


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``value`` is the final score margin of the player to act under optimal play (for a
    terminal state: the final margin of the player who moved last, ``state.mover``);
    ``best_action`` an action achieving it (``None`` at a terminal state); ``nodes`` the
    positions searched; ``seconds`` the wall time.
    """

    value: float
    best_action: int | None
    nodes: int
    seconds: float


class _Timer:
    """Node counter shared by all search loops; checks the clock every 4096 nodes."""

    __slots__ = ("nodes", "deadline")

    def __init__(self) -> None:
        self.nodes = 0
        self.deadline: float | None = None

    def tick(self) -> None:
        """Raise :class:`SolveTimeout` when past the deadline."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SolveTimeout("pillage solver: time limit reached")


class Solver:
    """Search tables for one board with its contents dealt; reusable across positions.

    Transposition entries stay valid for any later position of the same game, so an
    agent keeps one Solver for a whole game.
    """

    def __init__(self, game: PillageGame, contents: tuple[Modifier | Doubloons | Commodity | None, ...]) -> None:
        if any(c is None for c in contents):
            raise ValueError("pillage solver: the box contents are not all dealt yet (chance node)")
        board = game.board
        self.game = game
        self.contents = contents
        self.E = board.num_edges
        self.NB = board.num_boxes
        self.K = game.K
        self.floor = game.floor
        self.full = (1 << self.E) - 1
        self.box_mask = [sum(1 << e for e in edges) for edges in board.box_edges]
        self.box_len = [len(edges) for edges in board.box_edges]
        self.edge_boxes = [tuple(bs) for bs in board.edge_boxes]
        self.kind_code: list[int] = []
        self.amount: list[int] = []  # doubloons n, commodity kind, or 0
        self.options: list[tuple[tuple[int, int, int], ...]] = []  # modifier (op, amount, kind)
        for c in contents:
            if isinstance(c, Doubloons):
                self.kind_code.append(_DOUBLOONS)
                self.amount.append(c.n)
                self.options.append(())
            elif isinstance(c, Commodity):
                self.kind_code.append(_COMMODITY)
                self.amount.append(c.kind)
                self.options.append(())
            else:
                assert isinstance(c, Modifier)
                self.kind_code.append(_MODIFIER)
                self.amount.append(0)
                self.options.append(tuple((OPS.index(op), c.amount, k) for op, k in c.options()))
        self.mod_boxes = [b for b in range(self.NB) if self.kind_code[b] == _MODIFIER]
        #: per edge: every edge of the boxes it borders
        self.near = [0] * self.E
        for e in range(self.E):
            for b in self.edge_boxes[e]:
                self.near[e] |= self.box_mask[b]
        self.commodity_kinds = sorted({self.amount[b] for b in range(self.NB) if self.kind_code[b] == _COMMODITY})
        self.perms = edge_symmetries(board, contents)
        self.inverse: list[list[int]] = []
        for perm in self.perms:
            inv = [0] * self.E
            for e, image in enumerate(perm):
                inv[image] = e
            self.inverse.append(inv)
        self.canon, self.canon_sym = make_canon(self.perms, self.E)
        self.timer = _Timer()
        self.general_tt: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[int, int, int]] = {}
        self.static: dict[tuple[int, ...], Callable[[int, int, int, int], int]] = {}

    # ----------------------------------------------------------------- positions

    def open_mods(self, drawn: int) -> list[int]:
        """Modifier boxes not yet closed in ``drawn``."""
        bm = self.box_mask
        return [b for b in self.mod_boxes if drawn & bm[b] != bm[b]]

    def step_line(self, drawn: int, values: tuple[int, ...], hd: tuple[int, ...], e: int
                  ) -> tuple[int, int, tuple[int, ...], list[int], bool]:
        """Draw line ``e``: (new mask, margin gain, new holdings difference, modifier boxes
        captured (choices pending, box order), whether the mover keeps the turn).

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
        """Per option of modifier ``box``: (option index, new values, margin gain)."""
        out = []
        for i, (op, amount, k) in enumerate(self.options[box]):
            new = apply_op(values[k], OPS[op], amount, self.floor)
            vals = values[:k] + (new,) + values[k + 1 :]
            out.append((i, vals, (new - values[k]) * hd[k]))
        return out

    # ------------------------------------------------------------ static search

    def static_search(self, values: tuple[int, ...]) -> Callable[[int, int, int, int], int]:
        """The search for positions with no open modifier, values frozen at ``values``.

        Returns ``search(drawn, alpha, beta, rest)`` -> future margin increment for the
        mover (fail-soft), where ``rest`` is the sum of |worth| of the open boxes.
        """
        key = tuple(values[k] for k in self.commodity_kinds)
        found = self.static.get(key)
        if found is not None:
            return found
        worth = [self.amount[b] if self.kind_code[b] == _DOUBLOONS
                 else values[self.amount[b]] if self.kind_code[b] == _COMMODITY else 0 for b in range(self.NB)]
        # Move generation is per box, not per edge: a box missing one line offers a
        # capture, a box missing two makes both lines hand a box over; the rest are safe.
        binfo = [(self.box_mask[b], worth[b], abs(worth[b]), self.box_len[b]) for b in range(self.NB)]
        borders = {1 << e: len(self.edge_boxes[e]) for e in range(self.E)}
        near = {1 << e: self.near[e] for e in range(self.E)}
        full = self.full
        tt: dict[int, tuple[int, int, int]] = {}
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
                timer.tick()
            key, sym = canon_sym(drawn)
            entry = tt.get(key)
            first = 0
            if entry is not None:
                lo, hi, stored = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                first = 1 << inverse[sym][stored]
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
            # Bounds relative to the window searched, merged with the old entry.
            if best <= a0:
                if best < hi:
                    hi = best
            elif best >= b0:
                if best > lo:
                    lo = best
            else:
                lo = hi = best
            tt[key] = (lo, hi, perms[sym][best_m.bit_length() - 1])
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

    def rest_of(self, drawn: int, values: tuple[int, ...]) -> int:
        """Sum of |worth| of the open boxes (static positions only)."""
        total = 0
        for b in range(self.NB):
            bm = self.box_mask[b]
            if drawn & bm != bm:
                code = self.kind_code[b]
                total += self.amount[b] if code == _DOUBLOONS else abs(values[self.amount[b]]) if code == _COMMODITY else 0
        return total

    # ----------------------------------------------------------- general search

    def search(self, drawn: int, values: tuple[int, ...], hd: tuple[int, ...], alpha: int, beta: int) -> int:
        """Future margin increment for the mover at a line-drawing node (fail-soft)."""
        open_mods = self.open_mods(drawn)
        if not open_mods:
            return self.static_search(values)(drawn, alpha, beta, self.rest_of(drawn, values))
        timer = self.timer
        timer.nodes += 1
        if not timer.nodes & 4095:
            timer.tick()
        # Kinds an open modifier may change: their values and holdings still matter.
        mod_kinds: set[int] = set()
        for b in open_mods:
            mod_kinds.update(k for _, _, k in self.options[b])
        live: set[int] = set(mod_kinds)
        bm_ = self.box_mask
        for b in range(self.NB):
            if self.kind_code[b] == _COMMODITY and drawn & bm_[b] != bm_[b]:
                live.add(self.amount[b])
        kinds = sorted(live)
        mk = sorted(mod_kinds)
        moves: list[tuple[int, int, int, tuple[int, ...], list[int], bool]] = []
        for e in range(self.E):
            if drawn >> e & 1:
                continue
            after, gain, hd2, mods, closed = self.step_line(drawn, values, hd, e)
            if closed and not mods and len(self.edge_boxes[e]) == sum(
                    1 for b in self.edge_boxes[e] if after & bm_[b] == bm_[b]) and gain >= 0 and all(
                    self.kind_code[b] == _DOUBLOONS or self.amount[b] not in mod_kinds for b in self.edge_boxes[e]):
                # Sound forced move: an independent capture whose worth no modifier can change.
                return gain + self.search(after, values, hd2, alpha - gain, beta - gain)
            if closed:
                rank = 3
            else:
                rank = 1 if any((after & bm_[b]).bit_count() == self.box_len[b] - 1 for b in self.edge_boxes[e]) else 2
            moves.append((rank, gain, e, hd2, mods, closed))
        canon, sym = self.canon_sym(drawn)
        key = (canon, tuple(values[k] for k in kinds), tuple(hd[k] for k in mk))
        entry = self.general_tt.get(key)
        lo, hi, first = -(1 << 60), 1 << 60, -1
        if entry is not None:
            lo, hi, stored = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
            first = self.inverse[sym][stored] if stored >= 0 else -1
        a0, b0 = alpha, beta
        moves.sort(key=lambda m: (m[2] != first, -m[0], -m[1]))
        best, best_e = -(1 << 60), -1
        for _, gain, e, hd2, mods, closed in moves:
            after = drawn | 1 << e
            if not closed:
                v = -self.search(after, values, tuple(-x for x in hd), -beta, -alpha)
            elif not mods:
                v = gain + self.search(after, values, hd2, alpha - gain, beta - gain)
            else:
                v = gain + self.choose(after, values, hd2, mods, alpha - gain, beta - gain)
            if v > best:
                best, best_e = v, e
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.general_tt[key] = (lo, hi, self.perms[sym][best_e])
        return best

    def choose(self, drawn: int, values: tuple[int, ...], hd: tuple[int, ...], mods: list[int],
               alpha: int, beta: int) -> int:
        """Future increment for the mover who must now make the choices for ``mods`` (in
        order) and then draw again (fail-soft)."""
        outcomes: dict[tuple[int, ...], int] = {values: 0}
        for b in mods:
            nxt: dict[tuple[int, ...], int] = {}
            for vals, acc in outcomes.items():
                for _, vals2, g in self.choice_outcomes(b, vals, hd):
                    # Equal resulting values mean equal futures; the gain is fixed by them too.
                    if vals2 not in nxt or nxt[vals2] < acc + g:
                        nxt[vals2] = acc + g
            outcomes = nxt
        best = -(1 << 60)
        for vals, g in sorted(outcomes.items(), key=lambda kv: -kv[1]):
            v = g + self.search(drawn, vals, hd, max(alpha, best) - g, beta - g)
            if v > best:
                best = v
                if v >= beta:
                    break
        return best

    # ------------------------------------------------------------------ root

    def solve(self, state: PillageState, time_limit: float | None = None) -> SolveResult:
        """Exact value and a best action of ``state`` (see :func:`solve`)."""
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
        timer = self.timer
        timer.nodes = 0
        timer.deadline = None if time_limit is None else start + time_limit
        try:
            value, action = self._root(state, hd)
        finally:
            timer.deadline = None
        return SolveResult(float(margin + value), action, timer.nodes, time.perf_counter() - start)

    def _root(self, state: PillageState, hd: tuple[int, ...]) -> tuple[int, int]:
        g = self.game
        best, best_a = -(1 << 60), -1
        big = 1 << 60
        if state.pending:
            box, rest = state.pending[0], list(state.pending[1:])
            for i, vals, gain in self.choice_outcomes(box, state.values, hd):
                op, amount, k = self.options[box][i]
                action = g.choice_action(OPS[op], k)
                if rest:
                    v = gain + self.choose(state.drawn, vals, hd, rest, best - gain, big)
                else:
                    v = gain + self.search(state.drawn, vals, hd, best - gain, big)
                if v > best:
                    best, best_a = v, action
            return best, best_a
        # Root lines: captures and safe lines first, as inside the search.
        order = sorted(state.undrawn(), key=lambda e: -self.step_line(state.drawn, state.values, hd, e)[1])
        for e in order:
            after, gain, hd2, mods, closed = self.step_line(state.drawn, state.values, hd, e)
            if not closed:
                v = -self.search(after, state.values, tuple(-x for x in hd), -big, -best)
            elif not mods:
                v = gain + self.search(after, state.values, hd2, best - gain, big)
            else:
                v = gain + self.choose(after, state.values, hd2, mods, best - gain, big)
            if v > best:
                best, best_a = v, e
        return best, best_a


def solve(state: PillageState, time_limit: float | None = None) -> SolveResult:
    """Solve ``state`` exactly: the zero-sum final margin game.

    ``value`` is the current player's final score minus the opponent's under play that
    maximises each side's own final margin; ``best_action`` is a legal action achieving it
    (a modifier-choice action when a choice is pending). A terminal state gives its final
    margin from ``state.mover``'s side and ``best_action=None``. Raises ``ValueError`` at a
    chance node and :class:`SolveTimeout` past ``time_limit`` seconds.
    """
    if not isinstance(state, PillageState):
        raise ValueError(f"pillage solver: not a Pillage state: {state!r}")
    if state.current_player == CHANCE:
        raise ValueError("pillage solver: the position is a chance node (contents not all dealt yet)")
    return Solver(state.game, state.contents).solve(state, time_limit)


def value_of(state: PillageState) -> float:
    """The exact value of ``state`` for the player to act (see :func:`solve`)."""
    return solve(state).value


class SolverAgent:
    """Plays the solver's best action; falls back to greedy when the time runs out.

    Keeps one :class:`Solver` per board contents so that transposition entries carry over
    from move to move.
    """

    name = "solver"

    def __init__(self, time_limit: float | None = None) -> None:
        self.time_limit = time_limit
        self._solver: Solver | None = None

    def choose(self, state: State, rng: random.Random) -> Action:
        """The best action of ``state``, or greedy's move if the search times out."""
        assert isinstance(state, PillageState)
        if self._solver is None or self._solver.contents != state.contents or self._solver.game is not state.game:
            self._solver = Solver(state.game, state.contents)
        try:
            action = self._solver.solve(state, self.time_limit).best_action
        except SolveTimeout:
            from .heuristics import GreedyAgent

            return GreedyAgent().choose(state, rng)
        assert action is not None
        return action


def make_solver(game: Game, options: Mapping[str, str]) -> SolverAgent:
    """Factory for ``solver`` (option ``time=SECONDS`` per move, default none: no limit)."""
    if not isinstance(game, PillageGame):
        raise ParameterError("agent solver plays Pillage and Profit only")
    unknown = set(options) - {"time"}
    if unknown:
        raise ParameterError(f"agent solver takes only the option time=SECONDS, got {', '.join(sorted(unknown))}")
    limit: float | None = None
    if "time" in options:
        try:
            limit = float(options["time"])
        except ValueError:
            raise ParameterError(f"agent option time={options['time']!r} is not a number of seconds") from None
        if limit <= 0:
            raise ParameterError(f"agent option time={limit} must be positive")
    return SolverAgent(limit)


__all__ = ["SolveResult", "SolveTimeout", "Solver", "SolverAgent", "make_solver", "solve", "value_of"]
