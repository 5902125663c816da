"""The valued search of solver.py compiled with numba: doubloons, commodities and modifiers.

:meth:`.solver.Solver.search` (the general search, positions with a modifier still open) and
its static search (no modifier open, values frozen) spend their time in the interpreter. Here
both run as one recursive compiled function, :func:`_vsearch`, with the same rules, proved in
solver.py's docstring for valued boxes, and nothing else:

* the future increment of the margin is searched, keyed on the drawn mask reduced over the
  board's content-preserving symmetries, the values of the kinds an open commodity or modifier
  box can still use, and the holdings difference of the kinds an open modifier can change;
* *free capture*: a fixed-worth capture (doubloons, or commodities of kinds no open modifier
  can change, worth >= 0) that closes every box it borders is played at once;
* *declining*: beside a fixed-worth capture only the lines on the boxes it borders are searched
  among the lines closing nothing;
* with no modifier open, no line sequence wins more than every open box is worth (the static
  search's bound ``rest``);
* modifier choices are made by the capturer right after the capture (PP-5), two captured by one
  line in either order (PP-5 amended), then the capturer draws again;
* the move order: captures by gain, the table's best line, lines handing no box over, the
  rest, each in line order; the later lines proved no better with a null window first (PVS).

Unlike the Python search it does not merge modifier outcomes with equal resulting values (the
table meets the second one), and it has no separate static tables: one table of full keys
(a key's mask, values and holdings are all compared, so a hash collision costs a slot, never a
wrong value). Two entries a set; a new key takes its own slot, else an empty one, else the one
whose search took less work. A lost entry only costs time: every entry is a bound.

The Python searches stay the reference: ``tests/games/pillage/test_solver_valued_compiled.py``
holds this one to them on random positions of real games on every board shape and mix of
contents. A solve with a budget of positions uses the Python search (the ``solver`` and
``hard`` agents count positions as it counts them, so their games replay with or without
numba); a solve without one, on a frame of at least
:data:`~.solver.COMPILED_FROM` lines, uses this one (:meth:`.solver.Solver.solve`).
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

import numpy as np

from ...core.compiled import built_once
from .contents import OPS
from .solver_frame import Frame
from .solver_unit_compiled import MAX_LINES, NODES, STOP, STOPPED, FILLED

#: the parameters array: the floor on (1) or off, the floor, the table's sets
P_FLOOR_ON, P_FLOOR, P_SETS = range(3)
#: a table row: the key's mask + 1 (0: empty), the bounds, the best line + 1, log2 of the
#: positions its search took, then the key's values and holdings difference
C_KEY, C_LO, C_HI, C_MOVE, C_WORK, C_VALS = range(6)
#: a bound beyond every margin (scores fit in 2**53, PP-7)
BIG = 1 << 60
#: an odd multiplier for hashing keys
_MIX = 0x2545F4914F6CDD1D
#: box content codes, as solver.py numbers them
DOUBLOONS, COMMODITY, MODIFIER = 0, 1, 2



#: the compiled valued search, or ``None`` when numba is missing or ``PLUNDER_PURE`` is set
compiled_valued = built_once(lambda: _build())


def usable(frame: Frame) -> bool:
    """Whether the compiled valued search can take ``frame``: its masks fit a signed 64-bit int
    and no line borders more than two boxes."""
    return frame.num_edges <= MAX_LINES and all(len(boxes) <= 2 for boxes in frame.edge_boxes)


class CompiledValuedSearch:
    """The compiled valued search of one frame with its table.

    ``codes``, ``amounts`` and ``options`` are per frame box as :class:`.solver.Solver` keeps
    them (content code; doubloons or commodity kind; a modifier's (op, amount, kind) options);
    ``kinds`` the legend's kind count, ``floor`` the lowest value (PP-6) or ``None``; ``memory``
    the table's budget in bytes. ``search(drawn, values, holdings, alpha, beta)`` is
    :meth:`.solver.Solver.search`'s future increment (fail-soft). ``stats`` counts positions
    (``stats[NODES]``) and carries the stop flag, as the compiled unit search's does.
    """

    def __init__(self, frame: Frame, inverse: list[list[int]], codes: Sequence[int], amounts: Sequence[int],
                 options: Sequence[tuple[tuple[int, int, int], ...]], kinds: int, floor: int | None,
                 memory: float) -> None:
        kernel = compiled_valued()
        if kernel is None:
            raise ImportError("compiled valued search: numba is not available (or PLUNDER_PURE is set)")
        if not usable(frame):
            raise ValueError(f"compiled valued search: more than {MAX_LINES} lines, or a line borders more than two boxes")
        self.kernel = kernel
        ne, nb = frame.num_edges, frame.num_boxes
        self.kinds = kinds
        self.box_mask = np.array([sum(1 << e for e in edges) for edges in frame.box_edges], dtype=np.int64)
        self.code = np.array(codes, dtype=np.int64)
        self.amount = np.array(amounts, dtype=np.int64)
        # a kind appears once per operation in a modifier's options: a set, not a sum
        self.mod_kinds = np.array([sum(1 << k for k in {k for _, _, k in opts}) for opts in options], dtype=np.int64)
        flat = [o for opts in options for o in opts]
        self.opt_start = np.array(np.cumsum([0] + [len(o) for o in options])[:-1], dtype=np.int64)
        self.opt_count = np.array([len(o) for o in options], dtype=np.int64)
        self.opts = np.array(flat, dtype=np.int64).reshape(len(flat), 3)
        self.edge_box = np.full((ne, 2), -1, dtype=np.int64)
        for e, boxes in enumerate(frame.edge_boxes):
            self.edge_box[e, :len(boxes)] = boxes
        self.borders = np.array([len(boxes) for boxes in frame.edge_boxes], dtype=np.int64)
        self.near = np.zeros(ne, dtype=np.int64)
        for e, boxes in enumerate(frame.edge_boxes):
            for b in boxes:
                self.near[e] |= int(self.box_mask[b])
        self.perms = np.array(frame.perms, dtype=np.int64)
        self.inverse = np.array(inverse, dtype=np.int64)
        # per level of the recursion (a line drawn, or modifier choices made): the values and
        # the holdings difference of the position there, and its captures' lines and gains
        levels = ne + 2 * nb + 4
        self.values = np.zeros((levels, max(kinds, 1)), dtype=np.int64)
        self.holdings = np.zeros((levels, max(kinds, 1)), dtype=np.int64)
        self.caps = np.zeros((levels, 2 * (nb + 1)), dtype=np.int64)
        cols = C_VALS + 2 * kinds
        self.sets = max(int(memory) // (2 * 8 * cols), 1)
        self.table = np.zeros((2 * self.sets, cols), dtype=np.int64)
        self.params = np.array([floor is not None, floor or 0, self.sets], dtype=np.int64)
        self.stats = np.zeros(FILLED + 1, dtype=np.int64)

    def __len__(self) -> int:
        return int(self.stats[FILLED])

    def search(self, drawn: int, values: Sequence[int], holdings: Sequence[int], alpha: int, beta: int) -> int:
        """Future margin increment for the player to move (fail-soft in (alpha, beta));
        meaningless if ``stats[STOPPED]`` is set after it."""
        self.values[0, :self.kinds] = values
        self.holdings[0, :self.kinds] = holdings
        return int(self.kernel(np.int64(drawn), np.int64(0), np.int64(max(alpha, -BIG)), np.int64(min(beta, BIG)),
                               np.int64(-1), np.int64(-1), self.box_mask, self.code, self.amount, self.mod_kinds, self.opt_start,
                               self.opt_count, self.opts, self.edge_box, self.borders, self.near, self.perms,
                               self.inverse, self.values, self.holdings, self.caps, self.table, self.params,
                               self.stats))

    def reset(self) -> None:
        """Zero the counts and the stop flags for a new solve (the table stays)."""
        self.stats[:FILLED] = 0


def _build() -> Callable[..., int]:
    """Compile (or load from numba's cache) :func:`_vsearch` and its helpers, inlined into it;
    it calls them and itself by their global names, so those are bound to the compiled
    functions first. (The bounds rules of solver_rules.py, ``window`` and ``merged_bounds``, are
    written out in the kernel: a kernel calling them, or numba's taught ``int`` methods, came
    back from numba's cache crashing while the cast above was in it, and there was no time left
    to put them back one by one and measure.)"""
    import numba

    # the helpers are inlined: the kernel is then one function calling itself (numba's disk cache
    # gave a crashing kernel back when it also called compiled helpers of this module)
    inline = numba.njit(cache=True, nogil=True, inline="always")
    for name in ("_apply", "_vhash", "_vprobe", "_vstore"):
        globals()[name] = inline(globals()[name])
    globals()["_vsearch"] = numba.njit(cache=True, nogil=True)(_vsearch)
    return globals()["_vsearch"]


def _apply(value: int, op: int, amount: int, params: Any) -> int:
    """:func:`.contents.apply_op` on op index ``op`` (of :data:`.contents.OPS`): +, -, x, then
    the floor (PP-6)."""
    if op == 0:
        value += amount
    elif op == 1:
        value -= amount
    else:
        value *= amount
    if params[P_FLOOR_ON] and value < params[P_FLOOR]:
        value = params[P_FLOOR]
    return value


def _vhash(key: int, vals: Any, hd: Any, vkeyed: int, hkeyed: int) -> int:
    """A hash of a key: its mask, the values of the kinds in ``vkeyed`` and the holdings of
    those in ``hkeyed`` (bit masks of kinds)."""
    h = key * _MIX
    for k in range(vals.shape[0]):
        if (vkeyed >> k) & 1:
            h = (h ^ vals[k]) * _MIX
        if (hkeyed >> k) & 1:
            h = (h ^ (hd[k] + 0x9E37)) * _MIX
    return h ^ (h >> 29)


def _vprobe(key: int, h: int, vals: Any, hd: Any, vkeyed: int, hkeyed: int, table: Any, params: Any) -> int:
    """The row of the key in the table, -1 if it holds none."""
    nk = vals.shape[0]
    base = 2 * ((h & 0x7FFFFFFFFFFFFFFF) % params[P_SETS])
    for slot in range(base, base + 2):
        if table[slot, C_KEY] != key + 1:
            continue
        same = True
        for k in range(nk):
            v = vals[k] if (vkeyed >> k) & 1 else 0
            d = hd[k] if (hkeyed >> k) & 1 else 0
            if table[slot, C_VALS + k] != v or table[slot, C_VALS + nk + k] != d:
                same = False
                break
        if same:
            return slot
    return -1


def _vstore(key: int, h: int, vals: Any, hd: Any, vkeyed: int, hkeyed: int, lo: int, hi: int, move: int, work: int,
            table: Any, params: Any, stats: Any) -> None:
    """Store (lo, hi, best line + 1) for the key, whose search took ``work`` positions: in its
    own slot of its set, else an empty one, else over the entry that took less work."""
    nk = vals.shape[0]
    slot = _vprobe(key, h, vals, hd, vkeyed, hkeyed, table, params)
    log = 0
    while work > 1 and log < 62:
        work >>= 1
        log += 1
    if slot < 0:
        base = 2 * ((h & 0x7FFFFFFFFFFFFFFF) % params[P_SETS])
        if table[base, C_KEY] == 0:
            slot = base
        elif table[base + 1, C_KEY] == 0:
            slot = base + 1
        elif table[base + 1, C_WORK] < table[base, C_WORK]:
            slot = base + 1
        else:
            slot = base
        if table[slot, C_KEY] == 0:
            stats[FILLED] += 1
        table[slot, C_KEY] = key + 1
        for k in range(nk):
            table[slot, C_VALS + k] = vals[k] if (vkeyed >> k) & 1 else 0
            table[slot, C_VALS + nk + k] = hd[k] if (hkeyed >> k) & 1 else 0
    table[slot, C_LO] = lo
    table[slot, C_HI] = hi
    table[slot, C_MOVE] = move
    table[slot, C_WORK] = log


def _vsearch(drawn: int, lvl: int, alpha: int, beta: int, ma: int, mb: int, box_mask: Any, code: Any, amount: Any,
             mod_kinds: Any, opt_start: Any, opt_count: Any, opts: Any, edge_box: Any, borders: Any, near: Any,
             perms: Any, inverse: Any, values: Any, holdings: Any, caps: Any, table: Any, params: Any,
             stats: Any) -> int:
    """:meth:`.solver.Solver.search` compiled: the future margin increment of the mover at a
    line-drawing node whose values and holdings difference are row ``lvl`` (fail-soft); with
    ``ma >= 0``, :meth:`.solver.Solver.choose`'s: the mover first chooses for the modifier boxes
    ``ma`` and ``mb`` (-1: one only), in either order (PP-5 amended), then draws again. (One
    function: numba compiles a recursion only as one function calling itself.)"""
    # the recursive calls pass "no modifier" as a variable of the argument's type: numba's disk
    # cache gives back a crashing kernel when a recursive call's argument is cast (numba issue
    # 6713), and a literal -1 is
    NO_BOX = ma - ma - 1
    if ma >= 0:
        nk = values.shape[1]
        best = -BIG
        orders = 1 if mb < 0 else 2
        for o in range(orders):
            first = ma if o == 0 else mb
            second = mb if o == 0 else ma
            n2 = 1 if second < 0 else opt_count[second]
            for i in range(opt_count[first]):
                for j in range(n2):
                    for k in range(nk):
                        values[lvl + 1, k] = values[lvl, k]
                        holdings[lvl + 1, k] = holdings[lvl, k]
                    gain = 0
                    for step in range(2):
                        box = first if step == 0 else second
                        if box < 0:
                            continue
                        row = opt_start[box] + (i if step == 0 else j)
                        k = opts[row, 2]
                        old = values[lvl + 1, k]
                        new = _apply(old, opts[row, 0], opts[row, 1], params)
                        values[lvl + 1, k] = new
                        gain += (new - old) * holdings[lvl, k]
                    a = alpha if alpha > best else best
                    v = gain + _vsearch(drawn, lvl + 1, a - gain, beta - gain, NO_BOX, NO_BOX, box_mask, code, amount, mod_kinds,
                                        opt_start, opt_count, opts, edge_box, borders, near, perms, inverse, values,
                                        holdings, caps, table, params, stats)
                    if stats[STOPPED]:
                        return 0
                    if v > best:
                        best = v
                        if best >= beta:
                            return best
        return best
    nb = box_mask.shape[0]
    ne = edge_box.shape[0]
    nk = values.shape[1]
    full = (1 << ne) - 1
    undrawn = full ^ drawn
    if not undrawn:
        return 0
    stats[NODES] += 1
    # the stop flag is looked at every 4096 positions
    if not stats[NODES] & 4095 and stats[STOP]:
        stats[STOPPED] = 1
    if stats[STOPPED]:
        return 0
    # One pass over the open boxes: offered captures, lines handing a box over, kinds a
    # modifier may still change, commodity kinds still to be won, and what the boxes are worth.
    capmask = 0
    unsafe = 0
    modk = 0
    live = 0
    rest = 0
    for b in range(nb):
        bm = box_mask[b]
        x = drawn & bm
        if x == bm:
            continue
        c = code[b]
        if c == MODIFIER:
            modk |= mod_kinds[b]
        elif c == COMMODITY:
            live |= 1 << amount[b]
            w = values[lvl, amount[b]]
            rest += w if w >= 0 else -w
        else:
            rest += amount[b]
        left = 0
        u = bm ^ x
        while u and left < 3:
            u &= u - 1
            left += 1
        if left == 1:
            capmask |= bm ^ x
        elif left == 2:
            unsafe |= bm ^ x
    static = modk == 0
    if static:
        # no line sequence wins more than every open box, nor loses more
        if rest <= alpha:
            return rest
        if -rest >= beta:
            return -rest
    # Captures: per line, its gain and the modifier boxes it takes; a fixed-worth one that
    # closes every box it borders is played at once, the others are searched first.
    ncap = 0
    keep = full
    for e in range(ne):
        m = 1 << e
        if not capmask & m:
            continue
        gain = 0
        ma = -1
        mb = -1
        closed = 0
        fixed = True
        for j in range(2):
            b = edge_box[e, j]
            if b < 0 or (drawn | m) & box_mask[b] != box_mask[b]:
                continue
            closed += 1
            c = code[b]
            if c == DOUBLOONS:
                gain += amount[b]
            elif c == COMMODITY:
                gain += values[lvl, amount[b]]
                if (modk >> amount[b]) & 1:
                    fixed = False
            else:
                fixed = False
                if ma < 0:
                    ma = b
                else:
                    mb = b
        if fixed and gain >= 0:
            if closed == borders[e]:
                # free capture (solver.py's docstring): an independent capture of fixed worth
                for k in range(nk):
                    values[lvl + 1, k] = values[lvl, k]
                    holdings[lvl + 1, k] = holdings[lvl, k]
                for j in range(2):
                    b = edge_box[e, j]
                    if b >= 0 and code[b] == COMMODITY:
                        holdings[lvl + 1, amount[b]] += 1
                return gain + _vsearch(drawn | m, lvl + 1, alpha - gain, beta - gain, NO_BOX, NO_BOX, box_mask, code, amount,
                                       mod_kinds, opt_start, opt_count, opts, edge_box, borders, near, perms, inverse,
                                       values, holdings, caps, table, params, stats)
            # declining a fixed-worth capture: only lines on its boxes can beat taking it
            keep &= near[e]
        caps[lvl, 2 * ncap] = e
        caps[lvl, 2 * ncap + 1] = gain
        ncap += 1
    unsafe &= keep & ~capmask
    safe = undrawn & keep & ~(unsafe | capmask)
    # the table: the canonical mask and the symmetry giving it
    key = drawn
    sym = 0
    for s in range(1, perms.shape[0]):
        image = 0
        for e in range(ne):
            if (drawn >> e) & 1:
                image |= 1 << perms[s, e]
        if image < key:
            key = image
            sym = s
    vkeyed = live | modk
    h = _vhash(key, values[lvl], holdings[lvl], vkeyed, modk)
    slot = _vprobe(key, h, values[lvl], holdings[lvl], vkeyed, modk, table, params)
    lo = -BIG
    hi = BIG
    if static:
        lo = -rest
        hi = rest
    first = -1
    if slot >= 0:
        lo = table[slot, C_LO]
        hi = table[slot, C_HI]
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        if table[slot, C_MOVE] > 0:
            first = inverse[sym, table[slot, C_MOVE] - 1]
    start = stats[NODES]
    a0 = alpha
    b0 = beta
    best = -BIG
    best_m = -1
    # captures, the richest first
    done = 0
    while done < ncap:
        pick = done
        for i in range(done + 1, ncap):
            if caps[lvl, 2 * i + 1] > caps[lvl, 2 * pick + 1]:
                pick = i
        e = caps[lvl, 2 * pick]
        gain = caps[lvl, 2 * pick + 1]
        caps[lvl, 2 * pick] = caps[lvl, 2 * done]
        caps[lvl, 2 * pick + 1] = caps[lvl, 2 * done + 1]
        caps[lvl, 2 * done] = e
        caps[lvl, 2 * done + 1] = gain
        done += 1
        m = 1 << e
        for k in range(nk):
            values[lvl + 1, k] = values[lvl, k]
            holdings[lvl + 1, k] = holdings[lvl, k]
        ma = -1
        mb = -1
        for j in range(2):
            b = edge_box[e, j]
            if b < 0 or (drawn | m) & box_mask[b] != box_mask[b]:
                continue
            if code[b] == COMMODITY:
                holdings[lvl + 1, amount[b]] += 1
            elif code[b] == MODIFIER:
                if ma < 0:
                    ma = b
                else:
                    mb = b
        # without a modifier met, ``ma`` and ``mb`` are both -1: no box
        v = gain + _vsearch(drawn | m, lvl + 1, alpha - gain, beta - gain, ma, mb, box_mask, code, amount,
                            mod_kinds, opt_start, opt_count, opts, edge_box, borders, near, perms, inverse, values,
                            holdings, caps, table, params, stats)
        if stats[STOPPED]:
            return 0
        if v > best:
            best = v
            best_m = e
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    if best < beta:
        # the lines closing nothing: the table's first, then those handing no box over, the rest
        quiet = safe | unsafe
        for group in range(3):
            if group == 0:
                todo = (1 << first) & quiet if first >= 0 else 0
            elif group == 1:
                todo = safe & ~(1 << first) if first >= 0 else safe
            else:
                todo = unsafe & ~(1 << first) if first >= 0 else unsafe
            for e in range(ne):
                if not todo or best >= beta:
                    break
                m = 1 << e
                if not todo & m:
                    continue
                todo ^= m
                for k in range(nk):
                    values[lvl + 1, k] = values[lvl, k]
                    holdings[lvl + 1, k] = -holdings[lvl, k]
                if best_m >= 0 and beta - alpha > 1:
                    # PVS: prove the later lines no better with a null window first
                    v = -_vsearch(drawn | m, lvl + 1, -alpha - 1, -alpha, NO_BOX, NO_BOX, box_mask, code, amount, mod_kinds,
                                  opt_start, opt_count, opts, edge_box, borders, near, perms, inverse, values,
                                  holdings, caps, table, params, stats)
                    if alpha < v < beta and not stats[STOPPED]:
                        v = -_vsearch(drawn | m, lvl + 1, -beta, -v, NO_BOX, NO_BOX, box_mask, code, amount, mod_kinds,
                                      opt_start, opt_count, opts, edge_box, borders, near, perms, inverse, values,
                                      holdings, caps, table, params, stats)
                else:
                    v = -_vsearch(drawn | m, lvl + 1, -beta, -alpha, NO_BOX, NO_BOX, box_mask, code, amount, mod_kinds,
                                  opt_start, opt_count, opts, edge_box, borders, near, perms, inverse, values,
                                  holdings, caps, table, params, stats)
                if stats[STOPPED]:
                    return 0
                if v > best:
                    best = v
                    best_m = e
                    if v > alpha:
                        alpha = v
    if best <= a0:
        hi = min(hi, best)
    elif best >= b0:
        lo = max(lo, best)
    else:
        lo = best
        hi = best
    _vstore(key, h, values[lvl], holdings[lvl], vkeyed, modk, lo, hi, perms[sym, best_m] + 1 if best_m >= 0 else 0,
            stats[NODES] - start, table, params, stats)
    return best


#: the op indices the kernel reads, as :data:`.contents.OPS` orders them
assert OPS == ("+", "-", "x")

__all__ = ["CompiledValuedSearch", "compiled_valued", "usable"]
