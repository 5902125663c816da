"""Many Pillage games stepped by one compiled call: ``GameEntry.learning.batched``
(:mod:`plunder.core.batched`), which the vector environment uses.

Each copy's position is a row of arrays (lines drawn, boxes' contents and owners, the
modifiers waiting for a choice, tallies, legend values, the mover); one numba call applies
every copy's action index, plays the opponent's replies, and writes rewards, flags,
observations and masks, exactly as :class:`PillageState` and the observation of
:mod:`.observation` would. The opponent is ``random``, the agent that picks
``rng.choice(state.legal_actions())``: each copy carries its ``random.Random``'s Mersenne
Twister state, and the compiled draw takes the same 32-bit words and rejections as
CPython's ``_randbelow``, so it picks the same actions. Other opponents (``greedy``, a
search) are not batched: :func:`batched` answers ``None`` and the vector env steps its copies
one by one. Every board, contents mode, legend and floor is covered (positions arrive
dealt, by :meth:`BatchedPillage.load`).

Without numba, or with ``PLUNDER_PURE=1`` (:data:`.compiled.PURE_ENV`), there is no batch.
"""

from __future__ import annotations

import os
import random
from typing import Any, Callable

import numpy as np

from ...core.game import Game, State
from .compiled import PURE_ENV
from .contents import Commodity, Doubloons, Modifier
from .rules import PillageGame, PillageState

#: operation codes of the compiled step, in :data:`.contents.OPS` spelling
OP_CODES = {"+": 0, "-": 1, "*": 2}
#: the Mersenne Twister's state length (CPython's ``random.Random``)
MT_WORDS = 624

_kernel: Callable[..., None] | None = None
_tried = False


def batched(game: Game[Any], seat: int, opponent: str, copies: int) -> "BatchedPillage | None":
    """``ENTRY.learning.batched``: a batch of ``copies`` games of ``game`` from ``seat``
    against the ``random`` agent; ``None`` for another opponent or without numba."""
    if opponent != "random" or not isinstance(game, PillageGame):
        return None
    kernel = _compiled_step()
    if kernel is None:
        return None
    return BatchedPillage(game, seat, copies, kernel)


def _compiled_step() -> Callable[..., None] | None:
    """The compiled step (compiled once, or loaded from numba's cache), ``None`` without numba."""
    global _kernel, _tried
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    if not _tried:
        _tried = True
        try:
            import numba
        except ImportError:
            return None
        jit = numba.njit(cache=True, nogil=True)
        # the step calls these by their global names, which numba resolves when it compiles
        for name in ("_draw_word", "_below", "_terminal", "_draw_line", "_choose", "_opponent", "_write"):
            globals()[name] = jit(globals()[name])
        _kernel = jit(_step)
    return _kernel


class BatchedPillage:
    """The positions of ``copies`` Pillage games as arrays, and their compiled step."""

    def __init__(self, game: PillageGame, seat: int, copies: int, kernel: Callable[..., None]) -> None:
        board = game.board
        self.game, self.seat, self.kernel = game, seat, kernel
        edges, boxes, kinds = board.num_edges, board.num_boxes, game.num_kinds
        # edge -> its one or two boxes, padded with a box (index ``boxes``) that never closes
        self.edge_boxes = np.full((edges, 2), boxes, dtype=np.int64)
        for e, bs in enumerate(board.edge_boxes):
            self.edge_boxes[e, :len(bs)] = bs
        self.box_sides = np.array([len(es) for es in board.box_edges], dtype=np.int64)
        # the modifiers of the action table, in its order, and each choice's modifier, op and kind
        self.mod_ids = {mod: m for m, mod in enumerate(game.actions.choices)}
        choices = [c for options in game.actions.choices.values() for c in options]
        self.choice_mod = np.array([self.mod_ids[c.modifier] for c in choices], dtype=np.int64)
        self.choice_op = np.array([OP_CODES[c.op] for c in choices], dtype=np.int64)
        self.choice_kind = np.array([c.kind for c in choices], dtype=np.int64)
        mods = list(game.actions.choices)
        self.mod_amount = np.array([m.amount for m in mods], dtype=np.int64)
        self.mod_first = np.zeros(len(mods) + 1, dtype=np.int64)  # choices of m: [first[m], first[m+1])
        self.mod_first[1:] = np.cumsum([len(game.actions.choices[m]) for m in mods])
        self.floor = 0 if game.floor is None else game.floor
        self.has_floor = game.floor is not None
        n = copies
        self.drawn = np.zeros((n, edges), dtype=np.int8)
        self.missing = np.zeros((n, boxes + 1), dtype=np.int64)  # undrawn sides per box
        self.open = np.zeros(n, dtype=np.int64)
        self.ctype = np.zeros((n, boxes), dtype=np.int64)  # 0 doubloons, 1 commodity, 2 modifier
        self.cval = np.zeros((n, boxes), dtype=np.int64)   # the doubloons, the kind, the modifier id
        self.owner = np.full((n, boxes), -1, dtype=np.int64)
        self.pending = np.zeros((n, boxes), dtype=np.int64)
        self.npending = np.zeros(n, dtype=np.int64)
        self.doubloons = np.zeros((n, 2), dtype=np.int64)
        self.held = np.zeros((n, 2, kinds), dtype=np.int64)
        self.values = np.zeros((n, kinds), dtype=np.int64)
        self.mover = np.zeros(n, dtype=np.int64)
        self.mt = np.zeros((n, MT_WORDS), dtype=np.int64)
        self.mti = np.zeros(n, dtype=np.int64)
        self.loaded = np.zeros(n, dtype=np.bool_)

    def load(self, copy: int, state: State[Any], opponent_rng: random.Random) -> None:
        """Copy ``copy`` becomes the dealt position ``state``; the opponent draws from a copy of
        ``opponent_rng``'s state."""
        assert isinstance(state, PillageState)
        if state.contents and state.contents[-1] is None:
            raise ValueError("a batched Pillage copy starts from a dealt position (PP-10)")
        edges = self.game.num_edges
        i = copy
        drawn = state.drawn
        self.drawn[i] = [drawn >> e & 1 for e in range(edges)]
        self.open[i] = edges - int(self.drawn[i].sum())
        self.missing[i, :-1] = self.box_sides
        for e in np.flatnonzero(self.drawn[i]):
            self.missing[i, self.edge_boxes[e]] -= 1
        self.missing[i, -1] = edges + 1  # the padding box never closes
        for b, content in enumerate(state.contents):
            if type(content) is Doubloons:
                self.ctype[i, b], self.cval[i, b] = 0, content.n
            elif type(content) is Commodity:
                self.ctype[i, b], self.cval[i, b] = 1, content.kind
            else:
                assert isinstance(content, Modifier)
                self.ctype[i, b], self.cval[i, b] = 2, self.mod_ids[content]
        self.owner[i] = state.owner
        self.npending[i] = len(state.pending)
        self.pending[i, :len(state.pending)] = state.pending
        self.doubloons[i] = state.doubloons
        self.held[i] = state.held
        self.values[i] = state.values
        self.mover[i] = state.mover
        words = opponent_rng.getstate()[1]
        self.mt[i] = words[:MT_WORDS]
        self.mti[i] = words[MT_WORDS]
        self.loaded[i] = True

    def step(self, actions: np.ndarray, active: np.ndarray, observations: np.ndarray, masks: np.ndarray,
             rewards: np.ndarray, ended: np.ndarray, illegal: np.ndarray) -> None:
        """One compiled call: every active copy's action, the opponent's replies, and the copy's
        reward, flags, observation and mask (:meth:`plunder.core.batched.BatchedSteps.step`)."""
        if not self.loaded[active].all():
            raise ValueError("a copy was stepped before its game was loaded: call reset first")
        self.kernel(np.asarray(actions, dtype=np.int64), np.asarray(active, dtype=np.bool_), self.seat,
                    self.edge_boxes, self.choice_mod, self.choice_op, self.choice_kind, self.mod_amount,
                    self.mod_first, self.has_floor, self.floor,
                    self.drawn, self.missing, self.open, self.ctype, self.cval, self.owner, self.pending,
                    self.npending, self.doubloons, self.held, self.values, self.mover, self.mt, self.mti,
                    observations, masks, rewards, ended, illegal)


# ---------------------------------------------------------------- compiled (numba) functions
# Written for numba, run as Python only if called directly; numbers are int64 throughout.

def _draw_word(mt: Any, mti: Any, i: int) -> int:
    """The next 32-bit word of copy ``i``'s Mersenne Twister (CPython's ``genrand_uint32``)."""
    if mti[i] >= 624:
        row = mt[i]
        for k in range(624):
            y = (row[k] & 0x80000000) | (row[(k + 1) % 624] & 0x7FFFFFFF)
            v = row[(k + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            row[k] = v
        mti[i] = 0
    y = mt[i, mti[i]]
    mti[i] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


def _below(mt: Any, mti: Any, i: int, n: int) -> int:
    """CPython's ``_randbelow(n)`` for ``n`` below 2**32: ``getrandbits(n.bit_length())``
    until it falls below ``n``."""
    k = 0
    while (n >> k) > 0:
        k += 1
    r = _draw_word(mt, mti, i) >> (32 - k)
    while r >= n:
        r = _draw_word(mt, mti, i) >> (32 - k)
    return r


def _terminal(open_: Any, npending: Any, i: int) -> bool:
    """Every line drawn and every captured modifier resolved (PP-7, PP-11)."""
    return open_[i] == 0 and npending[i] == 0


def _draw_line(i: int, e: int, edge_boxes: Any, drawn: Any, missing: Any, open_: Any, ctype: Any, cval: Any,
               owner: Any, pending: Any, npending: Any, doubloons: Any, held: Any, mover: Any) -> None:
    """Draw line ``e``: capture what it closes and keep the turn, or pass it (PP-4)."""
    drawn[i, e] = 1
    open_[i] -= 1
    p = mover[i]
    captured = False
    for j in range(2):
        b = edge_boxes[e, j]
        missing[i, b] -= 1
        if missing[i, b] != 0:
            continue
        captured = True
        owner[i, b] = p
        t = ctype[i, b]
        if t == 0:
            doubloons[i, p] += cval[i, b]
        elif t == 1:
            held[i, p, cval[i, b]] += 1
        else:
            pending[i, npending[i]] = b
            npending[i] += 1
    if not captured:
        mover[i] = 1 - p


def _choose(i: int, c: int, choice_mod: Any, choice_op: Any, choice_kind: Any, mod_amount: Any, has_floor: bool,
            floor: int, cval: Any, pending: Any, npending: Any, values: Any) -> None:
    """Choice ``c``: the first pending box of its modifier is resolved (PP-5 amended, PP-6)."""
    m = choice_mod[c]
    n = npending[i]
    at = 0
    while cval[i, pending[i, at]] != m:
        at += 1
    for j in range(at, n - 1):
        pending[i, j] = pending[i, j + 1]
    npending[i] = n - 1
    k = choice_kind[c]
    v = values[i, k]
    op = choice_op[c]
    amount = mod_amount[m]
    if op == 0:
        v += amount
    elif op == 1:
        v -= amount
    else:
        v *= amount
    if has_floor and v < floor:
        v = floor
    values[i, k] = v


def _opponent(i: int, mt: Any, mti: Any, edge_boxes: Any, choice_mod: Any, choice_op: Any, choice_kind: Any,
              mod_amount: Any, mod_first: Any, has_floor: bool, floor: int, drawn: Any, missing: Any, open_: Any,
              ctype: Any, cval: Any, owner: Any, pending: Any, npending: Any, doubloons: Any, held: Any,
              values: Any, mover: Any) -> None:
    """One move of the ``random`` agent: ``rng.choice(state.legal_actions())``, the choices of
    the pending modifiers (each modifier once, in pending order) or the undrawn lines."""
    n = npending[i]
    if n > 0:
        total = 0
        for j in range(n):
            m = cval[i, pending[i, j]]
            seen = False
            for q in range(j):
                if cval[i, pending[i, q]] == m:
                    seen = True
            if not seen:
                total += mod_first[m + 1] - mod_first[m]
        k = _below(mt, mti, i, total)
        for j in range(n):
            m = cval[i, pending[i, j]]
            seen = False
            for q in range(j):
                if cval[i, pending[i, q]] == m:
                    seen = True
            if seen:
                continue
            count = mod_first[m + 1] - mod_first[m]
            if k < count:
                _choose(i, mod_first[m] + k, choice_mod, choice_op, choice_kind, mod_amount, has_floor, floor,
                        cval, pending, npending, values)
                return
            k -= count
        return
    k = _below(mt, mti, i, open_[i])
    e = 0
    while True:
        if drawn[i, e] == 0:
            if k == 0:
                break
            k -= 1
        e += 1
    _draw_line(i, e, edge_boxes, drawn, missing, open_, ctype, cval, owner, pending, npending, doubloons, held,
               mover)


def _write(i: int, seat: int, mod_first: Any, drawn: Any, open_: Any, cval: Any, owner: Any, pending: Any,
           npending: Any, doubloons: Any, held: Any, values: Any, mover: Any, observations: Any, masks: Any) -> None:
    """Row ``i`` of the observations and masks, as :mod:`.observation` writes them (the content
    places of each box were written when the copy was loaded and do not change)."""
    edges = drawn.shape[1]
    boxes = owner.shape[1]
    kinds = values.shape[1]
    width = 6 + 2 * kinds
    other = 1 - seat
    row = observations[i]
    for e in range(edges):
        row[e] = drawn[i, e]
    for b in range(boxes):
        base = edges + b * width
        row[base] = 1.0 if owner[i, b] == seat else 0.0
        row[base + 1] = 1.0 if owner[i, b] == other else 0.0
        row[base + 3] = 0.0
    for j in range(npending[i]):
        row[edges + pending[i, j] * width + 3] = 1.0
    t = edges + boxes * width
    for k in range(kinds):
        row[t + k] = values[i, k]
        row[t + kinds + 2 + k] = held[i, seat, k]
        row[t + 2 * kinds + 2 + k] = held[i, other, k]
    row[t + kinds] = doubloons[i, seat]
    row[t + kinds + 1] = doubloons[i, other]
    row[t + 3 * kinds + 2] = 1.0 if mover[i] == seat else 0.0
    mask = masks[i]
    mask[:] = 0
    if _terminal(open_, npending, i):
        return
    if npending[i] > 0:
        for j in range(npending[i]):
            m = cval[i, pending[i, j]]
            for c in range(mod_first[m], mod_first[m + 1]):
                mask[edges + c] = 1
        return
    for e in range(edges):
        mask[e] = 1 - drawn[i, e]


def _step(actions: Any, active: Any, seat: int, edge_boxes: Any, choice_mod: Any, choice_op: Any, choice_kind: Any,
          mod_amount: Any, mod_first: Any, has_floor: bool, floor: int, drawn: Any, missing: Any, open_: Any,
          ctype: Any, cval: Any, owner: Any, pending: Any, npending: Any, doubloons: Any, held: Any, values: Any,
          mover: Any, mt: Any, mti: Any, observations: Any, masks: Any, rewards: Any, ended: Any,
          illegal: Any) -> None:
    """The batch's step (:meth:`BatchedPillage.step`): the seat's index, then the opponent
    until the seat is to move again or the game is over (PP-4, PP-5, PP-7)."""
    edges = drawn.shape[1]
    choices = choice_mod.shape[0]
    for i in range(actions.shape[0]):
        if not active[i]:
            continue
        a = actions[i]
        legal = False
        if 0 <= a < edges:
            legal = npending[i] == 0 and drawn[i, a] == 0
        elif edges <= a < edges + choices:
            m = choice_mod[a - edges]
            for j in range(npending[i]):
                if cval[i, pending[i, j]] == m:
                    legal = True
        if not legal:  # the single env: IllegalActionError ends the episode with -1, nothing played
            rewards[i] = -1.0
            ended[i] = True
            illegal[i] = True
            continue
        if a < edges:
            _draw_line(i, a, edge_boxes, drawn, missing, open_, ctype, cval, owner, pending, npending, doubloons,
                       held, mover)
        else:
            _choose(i, a - edges, choice_mod, choice_op, choice_kind, mod_amount, has_floor, floor, cval, pending,
                    npending, values)
        while not _terminal(open_, npending, i) and mover[i] != seat:
            _opponent(i, mt, mti, edge_boxes, choice_mod, choice_op, choice_kind, mod_amount, mod_first, has_floor,
                      floor, drawn, missing, open_, ctype, cval, owner, pending, npending, doubloons, held, values,
                      mover)
        illegal[i] = False
        if _terminal(open_, npending, i):
            ended[i] = True
            mine = doubloons[i, seat]
            theirs = doubloons[i, 1 - seat]
            for k in range(values.shape[1]):
                mine += held[i, seat, k] * values[i, k]
                theirs += held[i, 1 - seat, k] * values[i, k]
            rewards[i] = 0.0 if mine == theirs else (1.0 if mine > theirs else -1.0)
        else:
            ended[i] = False
            rewards[i] = 0.0
        _write(i, seat, mod_first, drawn, open_, cval, owner, pending, npending, doubloons, held, values, mover,
               observations, masks)
