"""Pillage's rules and leaf values compiled for the MCTS tree (``ENTRY.strength.compiled``).

The compiled tree (:mod:`plunder.agents.tree`) walks positions held in ``int64`` arrays and
calls these functions with no Python between simulations. They are the rules of
:mod:`.rules` (PP-4 drawing and capturing, PP-5 modifier choices, PP-7 the result) and the
leaf values of :class:`.evaluator.KernelEvaluator`, written to take the same random numbers
in the same order and make the same float operations, so a compiled search and the pure
search over the public API (with leaves evaluated one at a time) return the same visits and
values bit for bit: ``tests/agents/test_tree.py`` checks it on Pillage boards with and without
modifiers.

A position's array, for ``E`` lines, ``NB`` boxes and ``K`` commodity kinds: the lines drawn
(``E`` flags and a last one always set, the padding of short boxes), the mover, both
players' doubloons, their commodities (2 x K), the commodity values (K), each box's owner
(-1 open), the pending modifier boxes (a count and two slots: one line closes at most two
boxes), and the lines still undrawn. Actions are line numbers, and ``E + m * W + k`` for
option ``k`` of modifier ``m`` (:class:`.fast.PlayoutKernel`'s modifier ids; ``W`` the most
options a modifier has). The codes :func:`legal` lists come in ``legal_actions()`` order.

numba is imported when :func:`compiled_rules` is first called, and the compiled code is
cached on disk like :mod:`.compiled`'s.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ...core.capabilities import CompiledRules
from ...core.compiled_random import INLINED, mt_below, pcg_ahead, pcg_random, pcg_skip, pcg_state, pcg_words
from ...core.game import Game, TERMINAL
from .compiled import _policy_step
from .evaluator import PLAYOUTS, KernelEvaluator
from .rules import PillageGame, PillageState

# dims[]: the sizes and offsets every function reads
_E, _NB, _K, _W, _HAS_FLOOR, _FLOOR, _POLICY, _ROLLOUTS, _SLOTS, _D, _V, _O, _P, _WIDTH, _MOST = range(15)
#: the playouts by their code in dims[_POLICY]: 0 uniform, else the stepper's (1 capture first)
_POLICIES = ("random", "greedy", "safe")
#: numpy's pairwise sum adds fewer than 9 numbers one after the other; the mean of more
#: rollouts than that would need its blocked order
MOST_ROLLOUTS = 8


def player(state: Any, tables: Any) -> int:
    """The mover while a modifier waits or a line is undrawn, else TERMINAL (PP-7, PP-11)."""
    dims = tables[0]
    p = dims[_P]
    if state[p] > 0 or state[p + 3] > 0:
        return state[dims[_D]]
    return TERMINAL


def legal(state: Any, tables: Any, out: Any) -> int:
    """The options of each distinct pending modifier (PP-5), else the undrawn lines (PP-4)."""
    dims = tables[0]
    mod, mcount = tables[6], tables[7]
    e_count, w, p = dims[_E], dims[_W], dims[_P]
    n = 0
    pending = state[p]
    if pending > 0:
        for j in range(pending):
            m = mod[state[p + 1 + j]]
            seen = False
            for i in range(j):
                if mod[state[p + 1 + i]] == m:
                    seen = True
            if seen:
                continue
            for k in range(mcount[m]):
                out[n] = e_count + m * w + k
                n += 1
        return n
    return _undrawn(state, e_count, out)


def _undrawn(state: Any, e_count: int, out: Any) -> int:
    """The undrawn lines into ``out``, in line order; returns how many."""
    # each line written, the count moved on past the undrawn ones (flags are 0 or 1): no
    # branch on the flags, which mispredicts once an undrawn line
    n = 0
    for e in range(e_count):
        out[n] = e
        n += 1 - state[e]
    return n


def chances(state: Any, tables: Any, out: Any) -> int:
    """No chance node: a position whose contents are not all dealt is never encoded."""
    return 0


def _closed(drawn: Any, box_edges: Any, b: int) -> bool:
    """Every line of box ``b`` is drawn (the padding index counts as drawn)."""
    # every side read, no early exit: a branch on each side's flag mispredicts
    closed = 1
    for w in range(box_edges.shape[1]):
        closed &= drawn[box_edges[b, w]]
    return closed == 1


def _apply_op(value: int, op: int, amount: int, has_floor: bool, floor: int) -> int:
    """A commodity value after a modifier's operation, clamped at the floor (PP-5, PP-6)."""
    if op == 0:
        value = value + amount
    elif op == 1:
        value = value - amount
    else:
        value = value * amount
    if has_floor and value < floor:
        return floor
    return value


def step(state: Any, action: int, tables: Any, out: Any) -> None:
    """The position after ``action``: a line drawn (captures keep the turn, PP-4) or a
    pending modifier resolved (PP-5 amended: the first pending box holding it)."""
    dims = tables[0]
    edge_boxes, box_edges, pile, kind, mod = tables[1], tables[2], tables[4], tables[5], tables[6]
    e_count, nb, k_count, w = dims[_E], dims[_NB], dims[_K], dims[_W]
    d, v, o, p = dims[_D], dims[_V], dims[_O], dims[_P]
    for i in range(state.shape[0]):
        out[i] = state[i]
    if action < e_count:
        out[action] = 1
        out[p + 3] -= 1
        mover = out[d]
        captured = False
        for side in range(2):
            b = edge_boxes[action, side]
            if b >= nb or not _closed(out, box_edges, b):
                continue
            captured = True
            out[o + b] = mover
            if kind[b] >= 0:
                out[d + 3 + mover * k_count + kind[b]] += 1
            elif mod[b] >= 0:
                out[p + 1 + out[p]] = b
                out[p] += 1
            else:
                out[d + 1 + mover] += pile[b]
        if not captured:
            out[d] = 1 - mover
        return
    code = action - e_count
    m = code // w
    option = code % w
    pending = out[p]
    for j in range(pending):
        if mod[out[p + 1 + j]] == m:
            for i in range(j, pending - 1):
                out[p + 1 + i] = out[p + 2 + i]
            out[p + pending] = 0
            out[p] = pending - 1
            break
    target = v + tables[9][m, option]
    out[target] = _apply_op(out[target], tables[8][m, option], tables[10][m], dims[_HAS_FLOOR] == 1, dims[_FLOOR])


def _scores(state: Any, tables: Any) -> tuple[int, int]:
    """Doubloons plus commodities at their current values (PP-7)."""
    dims = tables[0]
    k_count, d, v = dims[_K], dims[_D], dims[_V]
    s0 = state[d + 1]
    s1 = state[d + 2]
    for k in range(k_count):
        s0 += state[d + 3 + k] * state[v + k]
        s1 += state[d + 3 + k_count + k] * state[v + k]
    return s0, s1


def returns(state: Any, tables: Any, out: Any) -> None:
    """+1/-1 to the higher/lower final score, 0 each on a tie (PP-7)."""
    s0, s1 = _scores(state, tables)
    if s0 == s1:
        out[0] = 0.0
        out[1] = 0.0
    elif s0 > s1:
        out[0] = 1.0
        out[1] = -1.0
    else:
        out[0] = -1.0
        out[1] = 1.0


def _stake(state: Any, tables: Any) -> float:
    """What the open boxes are worth, at least 1 (:meth:`.fast.PlayoutKernel.stake`)."""
    dims = tables[0]
    box_edges, pile, kind, mod, amount = tables[2], tables[4], tables[5], tables[6], tables[10]
    total = 0
    o = dims[_O]
    for b in range(dims[_NB]):
        if state[o + b] >= 0:  # an owner: closed (one read, not the box's lines)
            continue
        total += pile[b]
        if kind[b] >= 0:
            total += abs(state[dims[_V] + kind[b]])
        if mod[b] >= 0:
            total += amount[mod[b]]
    return float(max(total, 1))


def _playout_scores(state: Any, order: Any, count: int, choice: Any, tables: Any) -> tuple[int, int]:
    """Final scores when the undrawn lines are drawn in ``order[:count]`` and the ``m``-th
    modifier captured takes option ``floor(choice[m] * options)``, modifiers in the order of
    their capture, two closed by one line in box order (:meth:`.fast.PlayoutKernel.scores`)."""
    dims = tables[0]
    edge_boxes, box_edges, pile, kind, mod = tables[1], tables[2], tables[4], tables[5], tables[6]
    mcount, ops, kinds, amounts = tables[7], tables[8], tables[9], tables[10]
    drawn, values, held = tables[15], tables[16], tables[17]
    e_count, nb, k_count = dims[_E], dims[_NB], dims[_K]
    d, v = dims[_D], dims[_V]
    has_floor = dims[_HAS_FLOOR] == 1
    floor = dims[_FLOOR]
    for e in range(e_count + 1):
        drawn[e] = state[e]
    for k in range(k_count):
        values[k] = state[v + k]
    for k in range(2 * k_count):
        held[k] = state[d + 3 + k]
    coins0 = state[d + 1]
    coins1 = state[d + 2]
    mover = state[d]
    m = 0
    for i in range(count):
        e = order[i]
        drawn[e] = 1
        first = edge_boxes[e, 0]
        second = edge_boxes[e, 1]
        if second < first:
            first, second = second, first
        captured = False
        for b in (first, second):
            if b >= nb or not _closed(drawn, box_edges, b):
                continue
            captured = True
            if kind[b] >= 0:
                held[mover * k_count + kind[b]] += 1
            elif mod[b] >= 0:
                which = mod[b]
                pick = min(int(choice[m] * mcount[which]), mcount[which] - 1)
                m += 1
                target = kinds[which, pick]
                values[target] = _apply_op(values[target], ops[which, pick], amounts[which], has_floor, floor)
            elif mover == 0:
                coins0 += pile[b]
            else:
                coins1 += pile[b]
        if not captured:
            mover = 1 - mover
    s0 = coins0
    s1 = coins1
    for k in range(k_count):
        s0 += held[k] * values[k]
        s1 += held[k_count + k] * values[k]
    return s0, s1


def value(state: Any, tables: Any, tree: Any, leaf: Any, out: Any) -> None:
    """The leaf's value as :meth:`.evaluator.KernelEvaluator.evaluate` gives it for one state:
    a waiting modifier resolved at random from the tree's stream (``rng.choice``, on the
    search's ``random.Random`` as :func:`~plunder.core.compiled_random.mt_state` lends it), then
    ``rollouts`` playouts drawing from the leaf stream in numpy's order, each worth win/loss
    blended with the margin over the stake, averaged. Works in the scratch arrays of
    ``tables``, so a leaf allocates nothing."""
    dims = tables[0]
    e_count, nb, p = dims[_E], dims[_NB], dims[_P]
    margin = tables[11][0]
    # the position itself, read only, unless a waiting modifier must be resolved first
    work = state
    if state[p] > 0:
        work = tables[12]
        for i in range(state.shape[0]):
            work[i] = state[i]
        codes = tables[14]
        nxt = tables[13]
        while work[p] > 0:
            n = legal(work, tables, codes)
            step(work, codes[mt_below(tree, n)], tables, nxt)
            for i in range(nxt.shape[0]):
                work[i] = nxt[i]
    if work[p + 3] == 0:
        returns(work, tables, out)
        return
    rollouts = dims[_ROLLOUTS]
    keys = tables[18]
    orders = tables[20]
    policy = dims[_POLICY]
    # numpy draws a value for every line (and, for the stepped playouts, at every step), drawn
    # or not; only the undrawn lines' are read, so the others are jumped over (pcg_ahead)
    cursor = 0
    if policy == 0:
        # each row's undrawn lines by increasing key, equal keys in line order (numpy's stable
        # argsort): a line's place is the count of keys below its own and of equal keys of
        # lines before it, counted without a branch (a sort's comparisons mispredict)
        block = rollouts * e_count
        lines = tables[14]
        n = _undrawn(work, e_count, lines)
        for r in range(rollouts):
            row = orders[r]
            drawn_keys = keys[r]
            for a in range(n):
                i = r * e_count + lines[a]
                drawn_keys[a] = pcg_ahead(leaf, i - cursor + 1)
                cursor = i + 1
            for a in range(n):
                key = drawn_keys[a]
                place = 0
                for b in range(n):
                    other = drawn_keys[b]
                    place += (other < key) | ((other == key) & (b < a))
                row[place] = lines[a]
    else:
        steps = work[p + 3]
        block = steps * rollouts * e_count
        box_edges = tables[2]
        undrawn = tables[21]
        missing = tables[22]
        noise, kind, comp, size, stack = tables[23], tables[24], tables[25], tables[26], tables[27]
        for r in range(rollouts):
            for e in range(e_count):
                undrawn[r, e] = work[e] == 0
            for b in range(nb):
                lacking = 0
                for w in range(box_edges.shape[1]):
                    if work[box_edges[b, w]] == 0:
                        lacking += 1
                missing[r, b] = lacking
            missing[r, nb] = 1 << 20
        for t in range(steps):
            for r in range(rollouts):
                base = (t * rollouts + r) * e_count
                for e in range(e_count):
                    if undrawn[r, e]:
                        noise[e] = pcg_ahead(leaf, base + e - cursor + 1)
                        cursor = base + e + 1
                orders[r, t] = _policy_step(undrawn[r], missing[r], tables[1], box_edges, tables[3], noise, policy == 1,
                                            kind, comp, size, stack)
    pcg_skip(leaf, block - cursor)
    slots = dims[_SLOTS]
    choice = tables[19]
    for r in range(rollouts):
        for s in range(slots):
            choice[r, s] = pcg_random(leaf)
    stake = _stake(work, tables)
    total = 0.0
    for r in range(rollouts):
        s0, s1 = _playout_scores(work, orders[r], work[p + 3], choice[r], tables)
        diff = float(s0) - float(s1)
        one = 1.0 if diff > 0 else (-1.0 if diff < 0 else 0.0)
        if margin != 0.0:
            one = (1 - margin) * one + margin * min(max(diff / stake, -1.0), 1.0)
        total = one if r == 0 else total + one
    mean = total / rollouts
    out[0] = mean
    out[1] = -mean


_NAMES = ("player", "_undrawn", "legal", "chances", "_closed", "_apply_op", "step", "_scores", "returns", "_stake",
          "_playout_scores", "value")
_built = False


def _build() -> None:
    """Compile the functions above (or load them from numba's cache), binding the names they
    call to the compiled versions first."""
    global _built
    if _built:
        return
    import numba

    from ...core import compiled_random
    from .compiled import compiled_policy

    streams = compiled_random.compiled()
    if compiled_policy() is None:
        raise ImportError("the compiled playout stepper is off")
    from . import compiled

    names = globals()
    names.update(mt_below=streams.mt_below, pcg_random=streams.pcg_random, pcg_ahead=streams.pcg_ahead,
                 pcg_skip=streams.pcg_skip, _policy_step=compiled._policy_step)
    # these functions allocate nothing (their scratch is in the tables): compiled without
    # reference counting, taking an array out of the tables costs no atomic operations; and
    # taken in whole by their callers (the tree's search among them), a call handing over the
    # tables costs nothing either
    jit = numba.njit(cache=True, nogil=True, **INLINED)
    for name in _NAMES:
        names[name] = jit(names[name])
    _built = True


class _Binding:
    """Tables per deal and the leaf stream of one evaluator setting."""

    def __init__(self, game: PillageGame, rollouts: int, playout: str) -> None:
        self.game = game
        self.evaluator = KernelEvaluator(game, rollouts, policy=playout)
        self.kernel = self.evaluator.kernel
        self.policy = _POLICIES.index(playout)
        self.rollouts = rollouts
        self._tables: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self._last: tuple[Any, tuple[Any, ...]] = ((), ())
        self._seed: tuple[int, int] | None = None
        self._gen: np.random.Generator | None = None
        self._words = np.zeros(0, dtype=np.uint64)

    def tables(self, state: PillageState) -> tuple[Any, ...] | None:
        """The arrays of ``state``'s deal, made once per deal; ``None`` while dealing."""
        if state.contents[-1] is None:
            return None
        if state.contents is self._last[0]:  # states of one game share their contents: no hashing
            return self._last[1]
        found = self._tables.get(state.contents)
        if found is None:
            found = self._tables[state.contents] = self._make(state)
        self._last = (state.contents, found)
        return found

    def _make(self, state: PillageState) -> tuple[Any, ...]:
        g, kernel = self.game, self.kernel
        pile, kind, mod = kernel._content_rows(state.contents)
        count, ops, kinds, amounts = kernel._modifier_tables()
        e_count, nb, k_count = g.num_edges, g.board.num_boxes, g.num_kinds
        width = int(ops.shape[1])
        d, v, o, p = self._offsets()
        most = max(e_count, int(count.max()) * 2)
        dims = np.array([e_count, nb, k_count, width, g.floor is not None, g.floor or 0, self.policy, self.rollouts,
                         kernel.modifier_slots([state]), d, v, o, p, p + 4, most], dtype=np.int64)
        r, slots = self.rollouts, int(dims[_SLOTS])
        # scratch for :func:`value`, so that a leaf allocates nothing (a binding serves one agent)
        scratch = (np.zeros(p + 4, dtype=np.int64), np.zeros(p + 4, dtype=np.int64), np.zeros(most, dtype=np.int64),
                   np.zeros(e_count + 1, dtype=np.int64), np.zeros(k_count, dtype=np.int64),
                   np.zeros(2 * k_count, dtype=np.int64), np.zeros((r, e_count)), np.zeros((r, slots)),
                   np.zeros((r, e_count), dtype=np.int64), np.zeros((r, e_count), dtype=np.bool_),
                   np.zeros((r, nb + 1), dtype=np.int64), np.zeros(e_count), np.zeros(e_count, dtype=np.int8), np.zeros(nb + 1, dtype=np.int64), np.zeros(nb + 1, dtype=np.int64),
                   np.zeros(nb + 1, dtype=np.int64))
        return (dims, kernel.edge_boxes, kernel.box_edges, kernel.box_nbr, pile, kind, mod, count, ops, kinds,
                amounts, np.array([self.evaluator.margin]), *scratch)

    def _offsets(self) -> tuple[int, int, int, int]:
        """Where the mover, the values, the owners and the pending boxes start in a position's array."""
        d = self.game.num_edges + 1
        v = d + 3 + 2 * self.game.num_kinds
        o = v + self.game.num_kinds
        return d, v, o, o + self.game.board.num_boxes

    def encode(self, state: PillageState) -> np.ndarray:
        """The position's array."""
        e_count, k_count = self.game.num_edges, self.game.num_kinds
        d, v, o, p = self._offsets()
        out = np.zeros(p + 4, dtype=np.int64)
        out[: e_count + 1] = 1
        for line in state.open_lines:
            out[line.edge] = 0
        out[d] = state.mover
        out[d + 1 : d + 3] = state.doubloons
        out[d + 3 : d + 3 + k_count] = state.held[0]
        out[d + 3 + k_count : v] = state.held[1]
        out[v : o] = state.values
        out[o : p] = state.owner
        out[p] = len(state.pending)
        out[p + 1 : p + 1 + len(state.pending)] = state.pending
        out[p + 3] = len(state.open_lines)
        return out

    def leaf_stream(self, rng: random.Random) -> np.ndarray:
        """The evaluator's playout stream for ``rng`` (its seed drawn from ``rng`` on first use,
        or its numpy generator where the pure search made one) as words, the same words while
        ``rng`` is the same: the compiled search moves them on in place, as the evaluator's
        playouts move its generator on. Made from the seed, not through numpy: the browser
        hands every move a new ``rng``."""
        seed, gen = self.evaluator.stream(rng)
        if seed is not self._seed or gen is not self._gen:
            # jumps as long as the gap between two draws :func:`value` reads: one row's end to the next's
            jumps = 2 * self.game.num_edges
            self._seed, self._gen = seed, gen
            self._words = pcg_words(*seed, jumps) if gen is None else pcg_state(gen, jumps)
        return self._words


def compiled_rules(game: Game, rollouts: int, playout: str) -> CompiledRules[PillageState] | None:
    """``ENTRY.strength.compiled``: the rules and :func:`.evaluator.make_evaluator`'s leaf
    values compiled, or ``None`` without numba (or with ``PLUNDER_PURE`` set), and for more than
    :data:`MOST_ROLLOUTS` rollouts a leaf."""
    assert isinstance(game, PillageGame)
    playout = playout or PLAYOUTS[0]
    if playout not in PLAYOUTS or rollouts > MOST_ROLLOUTS:
        return None
    try:
        _build()
    except ImportError:
        return None
    binding = _Binding(game, rollouts, playout)
    return CompiledRules(
        key="pillage", sources=_sources(), tables=binding.tables, encode=binding.encode,
        player=player, legal=legal, chances=chances, step=step, returns=returns, value=value,
        most=max(game.num_edges, 2 * max((len(m.options()) for m in game.actions.choices), default=0)),
        leaf_stream=binding.leaf_stream)


def _sources() -> tuple[str, ...]:
    """The files whose code the compiled functions hold."""
    from ...core import compiled_random
    from . import compiled

    return (__file__, compiled.__file__, compiled_random.__file__)
