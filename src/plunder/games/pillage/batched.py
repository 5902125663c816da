"""Many Pillage games stepped by one compiled call: ``GameEntry.learning.batched``
(:mod:`plunder.core.batched`), which the vector environment uses.

Each copy's position is a row of arrays (lines drawn, boxes' contents and owners, the
modifiers waiting for a choice, tallies, legend values, the mover). One numba call starts
games (deals every box from the episode's seed as :mod:`plunder.core.chance` does, PP-10), and
one applies every copy's action index, plays the opponent's replies, and writes rewards,
flags, observations and masks, exactly as :class:`PillageState` and :mod:`.observation` would.

The opponent is ``random``, the agent that picks ``rng.choice(state.legal_actions())`` with a
``random.Random`` seeded with the episode's seed: each copy carries that generator's Mersenne
Twister state, seeded and drawn as CPython seeds and draws it (``init_by_array``, 32-bit words,
``_randbelow``'s rejections), so it picks the same actions. Other opponents (``greedy``, a
search) are not batched: :func:`batched` answers ``None`` and the vector env steps its copies
one by one. Every board, contents mode, legend, mix and floor is covered.

Without numba, or with ``PLUNDER_PURE=1`` (:data:`plunder.core.compiled.PURE_ENV`), there is no batch.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from ...core.chance import seed_key
from ...core.compiled import built_once
from ...core.compiled_random import chance_uniform
from ...core.game import Game
from .contents import Commodity, Content, Doubloons, Modifier
from .rules import PillageGame

#: operation codes of the compiled step, in :data:`.contents.OPS` spelling
OP_CODES = {"+": 0, "-": 1, "*": 2}
#: the Mersenne Twister's state length (CPython's ``random.Random``)
MT_WORDS = 624


class _Kernels(NamedTuple):
    """The compiled start and step."""

    start: Callable[..., None]
    step: Callable[..., None]


def batched(game: Game[Any], seat: int, opponent: str, copies: int) -> "BatchedPillage | None":
    """``ENTRY.learning.batched``: a batch of ``copies`` games of ``game`` from ``seat``
    against the ``random`` agent; ``None`` for another opponent or without numba."""
    if opponent != "random" or not isinstance(game, PillageGame):
        return None
    kernels = _compiled()
    if kernels is None:
        return None
    return BatchedPillage(game, seat, copies, kernels)


def _build() -> _Kernels:
    """Compile the start and step (or load them from numba's cache)."""
    import numba

    jit = numba.njit(cache=True, nogil=True)
    # the kernels call these by their global names, which numba resolves when it compiles
    for name in ("_draw_word", "_below", "_terminal", "_draw_line", "_choose", "_told_before", "_opponent", "_write",
                 "_seed_twister", "_reply"):
        globals()[name] = jit(globals()[name])
    return _Kernels(jit(_start), jit(_step))


#: the compiled start and step, ``None`` without numba or with ``PLUNDER_PURE`` set
_compiled = built_once(_build)


def _seed_words(seed: int) -> list[int]:
    """The key ``random.Random(seed)`` seeds its twister with: abs(seed) in 32-bit words, low first (one at least)."""
    n = abs(seed)
    words = []
    while True:
        words.append(n & 0xFFFFFFFF)
        n >>= 32
        if not n:
            return words


def _content_code(content: Content, mod_ids: dict[Modifier, int]) -> tuple[int, int]:
    """(type, value) of a content in the kernels' arrays: (0, doubloons), (1, kind), (2, modifier id)."""
    if type(content) is Doubloons:
        return 0, content.n
    if type(content) is Commodity:
        return 1, content.kind
    assert isinstance(content, Modifier)
    return 2, mod_ids[content]


class BatchedPillage:
    """The positions of ``copies`` Pillage games as arrays, and their compiled start and step
    (:class:`plunder.core.batched.BatchedSteps`)."""

    def __init__(self, game: PillageGame, seat: int, copies: int, kernels: _Kernels) -> None:
        board = game.board
        self.game, self.seat, self.kernels = game, seat, kernels
        edges, boxes, kinds = board.num_edges, board.num_boxes, game.num_kinds
        # edge -> its one or two boxes, padded with a box (index ``boxes``) that never closes
        self.edge_boxes = np.full((edges, 2), boxes, dtype=np.int64)
        for e, bs in enumerate(board.edge_boxes):
            self.edge_boxes[e, :len(bs)] = bs
        # the modifiers of the action table, in its order, and each choice's modifier, op and kind
        mods = list(game.actions.choices)
        mod_ids = {mod: m for m, mod in enumerate(mods)}
        choices = [c for options in game.actions.choices.values() for c in options]
        self.choice_mod = np.array([mod_ids[c.modifier] for c in choices], dtype=np.int64)
        self.choice_op = np.array([OP_CODES[c.op] for c in choices], dtype=np.int64)
        self.choice_kind = np.array([c.kind for c in choices], dtype=np.int64)
        self.mod_amount = np.array([m.amount for m in mods], dtype=np.int64)
        self.mod_kinds = np.zeros((len(mods), kinds), dtype=np.int64)  # 1 for each kind a modifier names
        for m, mod in enumerate(mods):
            self.mod_kinds[m, list(mod.kinds)] = 1
        self.mod_first = np.zeros(len(mods) + 1, dtype=np.int64)  # choices of m: [first[m], first[m+1])
        self.mod_first[1:] = np.cumsum([len(game.actions.choices[m]) for m in mods])
        self.has_floor = game.floor is not None
        self.floor = 0 if game.floor is None else game.floor
        # the start: lines pre-drawn (PP-2), each box's undrawn sides, the legend's values
        self.predrawn = np.zeros(edges, dtype=np.int8)
        self.predrawn[list(board.predrawn)] = 1
        self.initial_missing = np.zeros(boxes + 1, dtype=np.int64)
        self.initial_missing[:-1] = [sum(1 - self.predrawn[e] for e in es) for es in board.box_edges]
        self.initial_missing[-1] = edges + 1  # the padding box never closes
        self.legend_values = np.array(game.legend.values, dtype=np.int64)
        # the contents: fixed ones, or the outcomes a deal draws from (their cumulative weights)
        fixed = [_content_code(c, mod_ids) for c in game.fixed] if game.fixed is not None else [(0, 0)] * boxes
        self.fixed_type = np.array([t for t, _ in fixed], dtype=np.int64)
        self.fixed_val = np.array([v for _, v in fixed], dtype=np.int64)
        # (a game of fixed contents offers the choices of its own modifiers only, and deals none)
        deals = [_content_code(c, mod_ids) for c, _ in game.distribution] if game.fixed is None else [(0, 0)]
        self.deal_type = np.array([t for t, _ in deals], dtype=np.int64)
        self.deal_val = np.array([v for _, v in deals], dtype=np.int64)
        self.cumulative = np.array(list(accumulate(p for _, p in game.distribution)), dtype=np.float64)
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
        self.started = np.zeros(n, dtype=np.bool_)

    def _tables(self) -> tuple[Any, ...]:
        return (self.edge_boxes, self.choice_mod, self.choice_op, self.choice_kind, self.mod_amount, self.mod_first,
                self.has_floor, self.floor)

    def _positions(self) -> tuple[np.ndarray, ...]:
        return (self.drawn, self.missing, self.open, self.ctype, self.cval, self.owner, self.pending, self.npending,
                self.doubloons, self.held, self.values, self.mover, self.mt, self.mti)

    def start(self, copies: np.ndarray, seeds: Sequence[int], observations: np.ndarray, masks: np.ndarray) -> None:
        """New games on ``copies`` with episode seeds ``seeds``: the boxes dealt by chance event
        ``k`` = box ``k`` (:func:`plunder.core.chance.uniform`, PP-10), the opponent's generator
        ``random.Random(seed)``, its opening replies if it moves first, and each copy's
        observation and mask (:meth:`plunder.core.batched.BatchedSteps.start`)."""
        copies = np.asarray(copies, dtype=np.int64)
        boxes = self.game.board.num_boxes
        outcomes = np.zeros((len(copies), boxes), dtype=np.int64)
        if self.game.fixed is None:
            # chance event k of each seed, as :func:`chance.uniform_keyed` draws it, over every
            # copy and box at once
            keys = np.array([seed_key(seed) for seed in seeds], dtype=np.uint64)
            u = chance_uniform(keys[:, None], np.arange(boxes, dtype=np.uint64)[None, :])
            # :func:`chance.pick`: the first cumulative weight above ``u`` times the total
            outcomes[:] = np.minimum(np.searchsorted(self.cumulative, u * self.cumulative[-1], side="right"),
                                     len(self.cumulative) - 1)
        # ``random.Random(seed)`` seeds its Mersenne Twister with the 32-bit words of abs(seed)
        words = [_seed_words(seed) for seed in seeds]
        key = np.zeros((len(copies), max(len(w) for w in words)), dtype=np.int64)
        for j, w in enumerate(words):
            key[j, :len(w)] = w
        lengths = np.array([len(w) for w in words], dtype=np.int64)
        self.started[copies] = True
        self.kernels.start(copies, outcomes, key, lengths, self.seat, self.game.fixed is not None, self.fixed_type,
                           self.fixed_val, self.deal_type, self.deal_val, self.predrawn, self.initial_missing,
                           self.mod_kinds, self.legend_values, *self._tables(), *self._positions(), observations,
                           masks)

    def step(self, actions: np.ndarray, active: np.ndarray, observations: np.ndarray, masks: np.ndarray,
             rewards: np.ndarray, ended: np.ndarray, illegal: np.ndarray) -> None:
        """One compiled call: every active copy's action, the opponent's replies, and the copy's
        reward, flags, observation and mask (:meth:`plunder.core.batched.BatchedSteps.step`)."""
        active = np.asarray(active, dtype=np.bool_)
        if not self.started[active].all():
            raise ValueError("a copy was stepped before its first game started: call reset first")
        self.kernels.step(np.asarray(actions, dtype=np.int64), active, self.seat, *self._tables(),
                          *self._positions(), observations, masks, rewards, ended, illegal)


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


def _told_before(i: int, j: int, cval: Any, pending: Any) -> bool:
    """Whether copy ``i``'s ``j``-th pending modifier is one pending earlier too (its choices are
    offered once)."""
    m = cval[i, pending[i, j]]
    for q in range(j):
        if cval[i, pending[i, q]] == m:
            return True
    return False


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
            if not _told_before(i, j, cval, pending):
                total += mod_first[m + 1] - mod_first[m]
        k = _below(mt, mti, i, total)
        for j in range(n):
            m = cval[i, pending[i, j]]
            if _told_before(i, j, cval, pending):
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


def _reply(i: int, seat: int, mt: Any, mti: Any, edge_boxes: Any, choice_mod: Any, choice_op: Any,
           choice_kind: Any, mod_amount: Any, mod_first: Any, has_floor: bool, floor: int, drawn: Any, missing: Any,
           open_: Any, ctype: Any, cval: Any, owner: Any, pending: Any, npending: Any, doubloons: Any, held: Any,
           values: Any, mover: Any) -> None:
    """The opponent's moves until the seat is to move or the game is over (the single env's
    ``_opponents_move``)."""
    while not _terminal(open_, npending, i) and mover[i] != seat:
        _opponent(i, mt, mti, edge_boxes, choice_mod, choice_op, choice_kind, mod_amount, mod_first, has_floor,
                  floor, drawn, missing, open_, ctype, cval, owner, pending, npending, doubloons, held, values, mover)


def _seed_twister(mt: Any, mti: Any, i: int, key: Any, length: int) -> None:
    """Copy ``i``'s twister seeded as CPython's ``random.Random(seed)`` seeds it: ``init_by_array``
    of the seed's 32-bit words ``key[:length]``."""
    row = mt[i]
    row[0] = 19650218
    for k in range(1, 624):
        row[k] = (1812433253 * (row[k - 1] ^ (row[k - 1] >> 30)) + k) & 0xFFFFFFFF
    a = 1
    b = 0
    for _ in range(max(624, length)):
        row[a] = ((row[a] ^ ((row[a - 1] ^ (row[a - 1] >> 30)) * 1664525)) + key[b] + b) & 0xFFFFFFFF
        a += 1
        b += 1
        if a >= 624:
            row[0] = row[623]
            a = 1
        if b >= length:
            b = 0
    for _ in range(623):
        row[a] = ((row[a] ^ ((row[a - 1] ^ (row[a - 1] >> 30)) * 1566083941)) - a) & 0xFFFFFFFF
        a += 1
        if a >= 624:
            row[0] = row[623]
            a = 1
    row[0] = 0x80000000
    mti[i] = 624


def _write(i: int, seat: int, mod_first: Any, drawn: Any, open_: Any, cval: Any, owner: Any, pending: Any,
           npending: Any, doubloons: Any, held: Any, values: Any, mover: Any, observations: Any, masks: Any) -> None:
    """Row ``i`` of the observations and masks, as :mod:`.observation` writes them (the content
    places of each box are written when its game starts, by :func:`_start`, and do not change)."""
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
        _reply(i, seat, mt, mti, edge_boxes, choice_mod, choice_op, choice_kind, mod_amount, mod_first, has_floor,
               floor, drawn, missing, open_, ctype, cval, owner, pending, npending, doubloons, held, values, mover)
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


def _start(copies: Any, outcomes: Any, key: Any, lengths: Any, seat: int, fixed: bool, fixed_type: Any,
           fixed_val: Any, deal_type: Any, deal_val: Any, predrawn: Any, initial_missing: Any, mod_kinds: Any,
           legend_values: Any, edge_boxes: Any, choice_mod: Any, choice_op: Any, choice_kind: Any, mod_amount: Any,
           mod_first: Any, has_floor: bool, floor: int, drawn: Any, missing: Any, open_: Any, ctype: Any, cval: Any,
           owner: Any, pending: Any, npending: Any, doubloons: Any, held: Any, values: Any, mover: Any, mt: Any,
           mti: Any, observations: Any, masks: Any) -> None:
    """New games on ``copies`` (:meth:`BatchedPillage.start`): the start position (PP-2,
    PP-3) with the fixed contents or deal ``outcomes[j]`` in each box, the opponent's twister
    seeded, its opening replies, and the copy's observation and mask."""
    edges = drawn.shape[1]
    boxes = owner.shape[1]
    kinds = values.shape[1]
    width = 6 + 2 * kinds
    for j in range(copies.shape[0]):
        i = copies[j]
        opened = 0
        for e in range(edges):
            drawn[i, e] = predrawn[e]
            opened += 1 - predrawn[e]
        open_[i] = opened
        missing[i, :] = initial_missing
        owner[i, :] = -1
        npending[i] = 0
        doubloons[i, :] = 0
        held[i, :, :] = 0
        values[i, :] = legend_values
        mover[i] = 0
        row = observations[i]
        row[:] = 0.0
        for b in range(boxes):
            if fixed:
                t = fixed_type[b]
                v = fixed_val[b]
            else:
                t = deal_type[outcomes[j, b]]
                v = deal_val[outcomes[j, b]]
            ctype[i, b] = t
            cval[i, b] = v
            base = edges + b * width
            if t == 0:
                row[base + 4] = v
            elif t == 1:
                row[base + 6 + v] = 1.0
            else:
                row[base + 5] = mod_amount[v]
                for k in range(kinds):
                    row[base + 6 + kinds + k] = mod_kinds[v, k]
        _seed_twister(mt, mti, i, key[j], lengths[j])
        _reply(i, seat, mt, mti, edge_boxes, choice_mod, choice_op, choice_kind, mod_amount, mod_first, has_floor,
               floor, drawn, missing, open_, ctype, cval, owner, pending, npending, doubloons, held, values, mover)
        _write(i, seat, mod_first, drawn, open_, cval, owner, pending, npending, doubloons, held, values, mover,
               observations, masks)
