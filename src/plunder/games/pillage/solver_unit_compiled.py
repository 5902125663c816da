"""The unit-board search of solver_unit.py compiled with numba: the same rules on int64 masks.

:class:`~.solver_unit.UnitSearch` spends its time in the Python interpreter, not in anything
a faster algorithm would remove: a profile of unit 3x3 (docs/ai.md, "Pillage: the exact
solver") puts most of it in the search's own bytecode, the symmetry reduction and the table's
``get``/``put``. Here the same search -- fail-soft alpha-beta with a principal-variation
null window, the same three rules (safe capture, chains being eaten with the double-deal,
simple loony endgames by the Buzzard-Ciere recursion), the same move order (the table's
best line, then captures, lines handing no box over, the rest, each nearest the centre
first) -- runs as one recursive compiled function over numpy tables built once per frame:

* ``box_edges[b, i]`` the lines of box ``b`` (-1 past its last), ``edge_box[e, 0..1]`` the
  boxes a line borders (-1 for none), ``order`` the lines nearest the centre first;
* ``sym[s, c, v]`` the image under symmetry ``s`` of the value ``v`` of the 12-bit chunk ``c``
  of a mask, ``inverse[s, e]`` the line that symmetry ``s`` maps onto ``e``;
* the transposition table: two int64 columns of a fixed prime size from a memory budget, an
  entry packed as :class:`~.solver_table.Packing` packs it (lower and upper bound and best
  line), a key's two slots at ``key % size`` and the next, a new key replacing the entry
  of its pair with fewer lines left to draw (less work to search again). A lost entry only
  costs time: every entry is a bound.

One rule more than the Python search, *chain ends* (on unless ``chain_ends=False``; it needs
rules 1 and 2): with no box capturable, a line joining two boxes of a chain of three or more
(every box two lines short, not a loop) is not searched, since one of the chain's two end
lines is worth at least as much. Proof: after the end line at end A the opponent's best
reply, by rule 2, is to eat the whole chain or all of it but the two boxes at end B; after a
line inside the chain the opponent can reach the very same two positions (the same lines
drawn, the same boxes taken, the same player to move) by eating both pieces, so they get at
least as much there (and may get more: the two boxes at end A too). Barker and Korf (2012)
prune the same way: a loony move's value does not depend on where the chain is opened.

Values are the same as the Python search's (both are exact); the positions searched and
the best line found among equal ones may differ, since the tables differ (the Python one
grows by doubling, this one is allocated at its size: numpy's zeroed pages cost memory
only once written). ``tests/games/pillage/test_solver_unit_compiled.py`` checks the values,
the best lines' values and each rule against the Python search.

numba is imported on first use, and its compiled code cached on disk, as in compiled.py;
without numba, or under ``PLUNDER_PURE=1``, the solver uses the Python search.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Callable, Collection

import numpy as np

from .compiled import PURE_ENV
from .solver_frame import Frame
from .solver_table import Packing, _prime_below
from .solver_unit import RULES, fits

#: bytes one entry of the compiled table costs: an int64 key and an int64 packed entry
SLOT_BYTES = 16
#: the most lines a frame may have for the compiled search (masks are signed 64-bit ints)
MAX_LINES = 62
#: lines per chunk of a mask in the symmetry lookup tables
_CHUNK = 12
#: the fields of the statistics array the kernel and its caller share
NODES, FORCED, DEALS, ENDGAMES, STOP, STOPPED, FILLED, PRUNED = range(8)
#: a value below every real one
_NONE = -(1 << 30)

_kernel: Callable[..., int] | None = None
_tried = False


def compiled_search() -> Callable[..., int] | None:
    """The compiled search, or ``None`` when numba is missing or ``PLUNDER_PURE`` is set."""
    global _kernel, _tried
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    if not _tried:
        _tried = True
        try:
            _kernel = _build()
        except ImportError:
            _kernel = None
    return _kernel


def usable(frame: Frame) -> bool:
    """Whether the compiled search can take ``frame``: lines border one or two boxes (the
    rules need it) and its masks fit a signed 64-bit int."""
    return fits(frame) and frame.num_edges <= MAX_LINES


class CompiledUnitSearch:
    """The compiled search of one frame with its table; ``search(drawn, alpha, beta)`` as
    :meth:`.solver_unit.UnitSearch.search` (fail-soft future net margin in boxes).

    ``memory`` is the table's budget in bytes. ``stats`` (int64 array, fields :data:`NODES`
    ...) counts positions and rule uses, and carries the stop flag: a search stopped by it
    returns with ``stats[STOPPED]`` set, its value meaningless.
    """

    def __init__(self, frame: Frame, inverse: list[list[int]], memory: float, rules: Collection[str] = RULES,
                 chain_ends: bool = True) -> None:
        kernel = compiled_search()
        if kernel is None:
            raise ImportError("compiled unit search: numba is not available (or PLUNDER_PURE is set)")
        if not usable(frame):
            raise ValueError(f"compiled unit search: a line borders no box or more than two, or more than {MAX_LINES} lines")
        if not set(rules) <= RULES:
            raise ValueError(f"compiled unit search: unknown rules {sorted(set(rules) - RULES)}")
        self.kernel = kernel
        ne, nb = frame.num_edges, frame.num_boxes
        width = max(len(edges) for edges in frame.box_edges)
        self.box_edges = np.full((nb, width), -1, dtype=np.int64)
        for b, edges in enumerate(frame.box_edges):
            self.box_edges[b, :len(edges)] = edges
        self.box_mask = np.array([sum(1 << e for e in edges) for edges in frame.box_edges], dtype=np.int64)
        self.edge_box = np.full((ne, 2), -1, dtype=np.int64)
        for e, boxes in enumerate(frame.edge_boxes):
            self.edge_box[e, :len(boxes)] = boxes
        self.order = np.array(frame.order, dtype=np.int64)
        nchunks = -(-ne // _CHUNK)
        self.sym = np.zeros((len(frame.perms), nchunks, 1 << _CHUNK), dtype=np.int64)
        for s, perm in enumerate(frame.perms):
            for c in range(nchunks):
                for i in range(_CHUNK):
                    e = c * _CHUNK + i
                    if e >= ne:
                        break
                    # every value with bit i set gains the image of line e
                    v = np.arange(1 << _CHUNK)
                    self.sym[s, c, (v >> i) & 1 == 1] |= 1 << perm[e]
        self.inverse = np.array(inverse, dtype=np.int64)
        self.perms = np.array(frame.perms, dtype=np.int64)
        packing = Packing(nb)
        self.packing = packing
        self.size = _prime_below(max(3, int(memory) // SLOT_BYTES - 1))
        self.keys = np.zeros(self.size + 1, dtype=np.int64)
        self.vals = np.zeros(self.size + 1, dtype=np.int64)
        # the packing's bound, lo shift and field mask; then rules 1, 2, 3 and chain ends on (1) or off (0)
        self.params = np.array([packing.bound, packing.shift_lo, packing.mask, "capture" in rules,
                                "capture" in rules and "chains" in rules, "endgame" in rules,
                                chain_ends and "capture" in rules and "chains" in rules], dtype=np.int64)
        self.stats = np.zeros(8, dtype=np.int64)
        # scratch for the endgame rule: chain and loop counts by length, boxes seen
        self.counts = np.zeros((2, nb + 1), dtype=np.int64)

    @property
    def forced(self) -> int:
        """Captures played at once by rule 1."""
        return int(self.stats[FORCED])

    @property
    def deals(self) -> int:
        """Double-deals searched beside taking (rule 2)."""
        return int(self.stats[DEALS])

    @property
    def pruned(self) -> int:
        """Lines inside a long chain left unsearched (the chain-ends rule)."""
        return int(self.stats[PRUNED])

    @property
    def endgames(self) -> int:
        """Positions valued by the loony endgame recursion (rule 3)."""
        return int(self.stats[ENDGAMES])

    def __len__(self) -> int:
        return int(self.stats[FILLED])

    def search(self, drawn: int, alpha: int, beta: int) -> int:
        """Future net margin in boxes for the player to move (fail-soft in (alpha, beta));
        meaningless if ``stats[STOPPED]`` is set after it."""
        return int(self.kernel(np.int64(drawn), np.int64(alpha), np.int64(beta), self.box_edges, self.box_mask,
                               self.edge_box, self.order, self.sym, self.inverse, self.perms, self.keys, self.vals,
                               self.params, self.stats, self.counts))

    def watched(self, drawn: int, alpha: int, beta: int, poll: Callable[[int], bool], every: float) -> int:
        """:meth:`search` in a worker thread while this one calls ``poll(positions)`` every
        ``every`` seconds, and once before it starts; ``poll`` returning True sets the stop flag (the kernel releases the
        GIL, so the two run side by side)."""
        if poll(int(self.stats[NODES])):
            self.stats[STOP] = 1
        out: list[int] = []
        worker = threading.Thread(target=lambda: out.append(self.search(drawn, alpha, beta)), daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(every)
                if worker.is_alive() and poll(int(self.stats[NODES])):
                    self.stats[STOP] = 1
        except BaseException:
            # an interrupt reaches this thread only: stop the search before it goes on
            self.stats[STOP] = 1
            worker.join()
            raise
        return out[0]

    def reset(self) -> None:
        """Zero the counts and the stop flags for a new solve (the table stays)."""
        self.stats[:FILLED] = 0
        self.stats[PRUNED] = 0

    def line_order(self, drawn: int) -> list[int]:
        """The undrawn lines of ``drawn`` in the order the root tries them, as
        :meth:`.solver_unit.UnitSearch.line_order` orders them: the table's best line first,
        then nearest the centre first."""
        key, sym = self.canon(drawn)
        first = -1
        i = key % self.size
        for j in (i, i + 1):
            if self.keys[j] == key and self.vals[j] & 0xFFFF:
                first = int(self.inverse[sym][(int(self.vals[j]) & 0xFFFF) - 1])
                break
        lines = [int(e) for e in self.order if not drawn >> int(e) & 1]
        return sorted(lines, key=lambda e: e != first)

    def canon(self, drawn: int) -> tuple[int, int]:
        """(least image of ``drawn`` under the symmetries, the symmetry giving it)."""
        key, sym = _canon(drawn, self.sym)
        return int(key), int(sym)


def _build() -> Callable[..., int]:
    """Compile (or load from numba's cache) :func:`_search`; ``_search`` and ``_loony`` call
    themselves by their global names, so those are bound to the compiled functions first."""
    import numba

    jit = numba.njit(cache=True, nogil=True)
    for name in ("_popcount", "_loony", "_canon", "_components", "_inside_long_chain", "_search"):
        globals()[name] = jit(globals()[name])
    return globals()["_search"]


def _popcount(x: int) -> int:
    """Set bits of a non-negative int64."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def _loony(counts: Any, nb: int) -> int:
    """:func:`.solver_unit.loony_value` of the chains ``counts[0, k]`` and loops ``counts[1, k]``
    of ``k`` boxes (changed while searching, restored on return)."""
    best = _NONE
    for k in range(1, nb + 1):
        if counts[0, k]:
            counts[0, k] -= 1
            rest = _loony(counts, nb)
            counts[0, k] += 1
            theirs = k + rest if k <= 2 else max(k + rest, k - 4 - rest)
            best = max(best, -theirs)
    for k in range(4, nb + 1):
        if counts[1, k]:
            counts[1, k] -= 1
            rest = _loony(counts, nb)
            counts[1, k] += 1
            best = max(best, -max(k + rest, k - 8 - rest))
    return 0 if best == _NONE else best


def _canon(drawn: int, sym: Any) -> tuple[int, int]:
    """(least image of ``drawn`` under the symmetries, the symmetry giving it)."""
    best = -1
    best_s = 0
    for s in range(sym.shape[0]):
        image = 0
        for c in range(sym.shape[1]):
            image |= sym[s, c, (drawn >> (c * 12)) & 4095]
        if best < 0 or image < best:
            best = image
            best_s = s
    return best, best_s


def _components(undrawn: int, box_edges: Any, box_mask: Any, edge_box: Any, counts: Any) -> bool:
    """Count the chains and loops of the open boxes (every one with two undrawn lines) by
    length into ``counts``; False if a loop is shorter than four (the recursion assumes four)."""
    nb = box_mask.shape[0]
    for k in range(nb + 1):
        counts[0, k] = 0
        counts[1, k] = 0
    seen = 0
    for start in range(nb):
        if not box_mask[start] & undrawn or (seen >> start) & 1:
            continue
        seen |= 1 << start
        # the two undrawn lines of the start box
        first = -1
        second = -1
        for i in range(box_edges.shape[1]):
            e = box_edges[start, i]
            if e >= 0 and (undrawn >> e) & 1:
                if first < 0:
                    first = e
                else:
                    second = e
        length = 1
        loop = False
        for side in range(2):
            line = first if side == 0 else second
            box = start
            while True:
                nxt = edge_box[line, 1] if edge_box[line, 0] == box else edge_box[line, 0]
                if nxt < 0:
                    break
                if nxt == start:
                    loop = True
                    break
                seen |= 1 << nxt
                length += 1
                nline = -1
                for i in range(box_edges.shape[1]):
                    e = box_edges[nxt, i]
                    if e >= 0 and e != line and (undrawn >> e) & 1:
                        nline = e
                line = nline
                box = nxt
            if loop:
                break
        if loop:
            if length < 4:
                return False
            counts[1, length] += 1
        else:
            counts[0, length] += 1
    return True


def _inside_long_chain(m: int, undrawn: int, box_edges: Any, box_mask: Any, edge_box: Any) -> bool:
    """Whether line ``m`` joins two boxes of a chain of three or more boxes (each with two
    undrawn lines) that is not a loop."""
    b0 = edge_box[m, 0]
    b1 = edge_box[m, 1]
    if b1 < 0 or _popcount(box_mask[b0] & undrawn) != 2 or _popcount(box_mask[b1] & undrawn) != 2:
        return False
    length = 2
    for side in range(2):
        box = b0 if side == 0 else b1
        line = m
        while True:
            nline = -1
            for i in range(box_edges.shape[1]):
                e = box_edges[box, i]
                if e >= 0 and e != line and (undrawn >> e) & 1:
                    nline = e
            nxt = edge_box[nline, 1] if edge_box[nline, 0] == box else edge_box[nline, 0]
            if nxt < 0 or _popcount(box_mask[nxt] & undrawn) != 2:
                break
            if nxt == b1 or nxt == b0:
                return False  # a loop
            length += 1
            line = nline
            box = nxt
    return length >= 3


def _search(drawn: int, alpha: int, beta: int, box_edges: Any, box_mask: Any, edge_box: Any, order: Any, sym: Any,
            inverse: Any, perms: Any, keys: Any, vals: Any, params: Any, stats: Any, counts: Any) -> int:
    """:meth:`.solver_unit.UnitSearch.search` compiled (fail-soft future margin in boxes)."""
    nb = box_mask.shape[0]
    ne = order.shape[0]
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
    capture, chains, endgame = params[3], params[4], params[5]
    # One pass over the boxes: open ones, capturable ones (their last line), two-line ones.
    n_open = 0
    twos = 0
    unsafe = 0
    ncaps = 0
    capmask = 0
    head_line = -1
    head_other = -1
    for b in range(nb):
        u = box_mask[b] & undrawn
        if not u:
            continue
        n_open += 1
        rest = u & (u - 1)
        if not rest:
            ncaps += 1
            capmask |= u
        elif not rest & (rest - 1):
            twos += 1
            unsafe |= u
    if ncaps and capture:
        # Rule 1: a capture that makes no other box capturable is played at once (boxes in
        # index order, as the Python search takes them).
        for b in range(nb):
            u = box_mask[b] & undrawn
            if not u or u & (u - 1):
                continue
            line = -1
            for i in range(box_edges.shape[1]):
                e = box_edges[b, i]
                if e >= 0 and (u >> e) & 1:
                    line = e
            o = edge_box[line, 1] if edge_box[line, 0] == b else edge_box[line, 0]
            gain = 1
            if o >= 0:
                left = _popcount(box_mask[o] & undrawn)
                if left == 2:
                    if head_line < 0:
                        head_line = line
                        head_other = o
                    continue
                if left == 1:
                    gain = 2
            stats[FORCED] += 1
            return gain + _search(drawn | (1 << line), alpha - gain, beta - gain, box_edges, box_mask, edge_box, order,
                                  sym, inverse, perms, keys, vals, params, stats, counts)
        if chains:
            # Rule 2: chains being eaten; follow the first from its head.
            line = head_line
            box = head_other
            length = 2
            prev = line
            deal = -1
            capturable_end = False
            while True:
                nxt_line = -1
                for i in range(box_edges.shape[1]):
                    e = box_edges[box, i]
                    if e >= 0 and e != prev and (undrawn >> e) & 1:
                        nxt_line = e
                if deal < 0:
                    deal = nxt_line
                nxt = edge_box[nxt_line, 1] if edge_box[nxt_line, 0] == box else edge_box[nxt_line, 0]
                if nxt < 0:
                    break
                left = _popcount(box_mask[nxt] & undrawn)
                if left == 2:
                    length += 1
                    prev = nxt_line
                    box = nxt
                    continue
                if left == 1:
                    length += 1
                    capturable_end = True
                break
            alone = ncaps == (2 if capturable_end else 1)
            if not alone or length != (4 if capturable_end else 2):
                return 1 + _search(drawn | (1 << line), alpha - 1, beta - 1, box_edges, box_mask, edge_box, order,
                                   sym, inverse, perms, keys, vals, params, stats, counts)
            stats[DEALS] += 1
            best = 1 + _search(drawn | (1 << line), alpha - 1, beta - 1, box_edges, box_mask, edge_box, order,
                               sym, inverse, perms, keys, vals, params, stats, counts)
            if stats[STOPPED]:
                return 0
            if best < beta:
                v = -_search(drawn | (1 << deal), -beta, -max(alpha, best), box_edges, box_mask, edge_box, order,
                             sym, inverse, perms, keys, vals, params, stats, counts)
                if v > best:
                    best = v
            return best
    if not ncaps and endgame and twos == n_open:
        # Rule 3: chains and loops only.
        if _components(undrawn, box_edges, box_mask, edge_box, counts):
            stats[ENDGAMES] += 1
            return _loony(counts, nb)
    if ncaps:
        # without rule 1 every line is searched, in one group past the captures
        unsafe = 0
    # Search every line: the table's first, then captures, lines handing no box over, the rest.
    if n_open <= alpha:
        return n_open
    if -n_open >= beta:
        return -n_open
    bound, shift_lo, wmask = params[0], params[1], params[2]
    key, s = _canon(drawn, sym)
    size = keys.shape[0] - 1
    slot = key % size
    entry = 0
    if keys[slot] == key and vals[slot]:
        entry = vals[slot]
    elif keys[slot + 1] == key and vals[slot + 1]:
        entry = vals[slot + 1]
    first = -1
    lo = -n_open
    hi = n_open
    if entry:
        lo = (entry >> shift_lo) - bound
        hi = ((entry >> 16) & wmask) - bound
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
        move = (entry & 0xFFFF) - 1
        if move >= 0:
            first = inverse[s, move]
    a0 = alpha
    b0 = beta
    best = _NONE
    best_m = -1
    for group in range(4):
        if group == 0:
            if first < 0:
                continue
            todo = 1 << first
        elif group == 1:
            todo = capmask
        elif group == 2:
            todo = undrawn & ~(unsafe | capmask)
        else:
            todo = unsafe & ~capmask
        if group:
            if first >= 0:
                todo &= ~(1 << first)
            if not todo:
                continue
        for i in range(ne):
            m = order[i]
            if not (todo >> m) & 1:
                continue
            if group == 3 and not ncaps and params[6] and _inside_long_chain(m, undrawn, box_edges, box_mask, edge_box):
                stats[PRUNED] += 1
                continue
            after = drawn | (1 << m)
            gain = 0
            if (capmask >> m) & 1:
                for j in range(2):
                    b = edge_box[m, j]
                    if b >= 0 and after & box_mask[b] == box_mask[b]:
                        gain += 1
            if gain:
                v = gain + _search(after, alpha - gain, beta - gain, box_edges, box_mask, edge_box, order, sym,
                                   inverse, perms, keys, vals, params, stats, counts)
            elif best_m >= 0 and beta - alpha > 1:
                # PVS: prove the later lines no better with a null window first.
                v = -_search(after, -alpha - 1, -alpha, box_edges, box_mask, edge_box, order, sym, inverse, perms,
                             keys, vals, params, stats, counts)
                if alpha < v < beta and not stats[STOPPED]:
                    v = -_search(after, -beta, -v, box_edges, box_mask, edge_box, order, sym, inverse, perms, keys,
                                 vals, params, stats, counts)
            else:
                v = -_search(after, -beta, -alpha, box_edges, box_mask, edge_box, order, sym, inverse, perms, keys,
                             vals, params, stats, counts)
            if stats[STOPPED]:
                return 0
            if v > best:
                best = v
                best_m = m
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if best >= beta:
            break
    # merged bounds (solver_table.merged_bounds)
    if best <= a0:
        hi = min(hi, best)
    elif best >= b0:
        lo = max(lo, best)
    else:
        lo = best
        hi = best
    packed = (lo + bound) << shift_lo | (hi + bound) << 16 | (perms[s, best_m] + 1)
    # store: a free slot of the key's two, else the entry with fewer lines left to draw goes
    slot = key % size
    if keys[slot] != key and vals[slot]:
        if keys[slot + 1] == key or not vals[slot + 1]:
            slot += 1
        elif _popcount(keys[slot]) < _popcount(keys[slot + 1]):
            slot += 1
    if not vals[slot]:
        stats[FILLED] += 1
    keys[slot] = key
    vals[slot] = packed
    return best
