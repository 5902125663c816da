"""The unit-board search of solver_unit.py compiled with numba, with two rules more.

:class:`~.solver_unit.UnitSearch` spends its time in the Python interpreter, not in anything
a faster algorithm would remove: a profile of unit 3x3 (docs/ai.md, "Pillage: the exact
solver") puts most of it in the search's own bytecode, the symmetry reduction and the table's
``get``/``put``. Here the same search -- fail-soft alpha-beta with a principal-variation
null window, the same three rules (safe capture, chains being eaten with the double-deal,
simple loony endgames by the Buzzard-Ciere recursion), the same move order (the table's
best line, then captures, lines handing no box over, the rest, each nearest the centre
first) -- runs as one recursive compiled function over numpy tables built once per frame.
The rules themselves are not written here: they are the functions of solver_rules.py, which
the Python search calls as they are and :func:`_build` compiles from the same code. What is
here is what numba needs in its own form: the recursion, its flat table, the symmetry images
carried down the path, the stop flag, and the ground-lines rule (it lives in the table's key):

* ``box_mask[b]`` the lines of box ``b`` as a mask, ``edge_box[e, 0..1]`` the boxes a line
  borders (-1 for none) and ``edge_box[e, 2]`` its ground group (below; -1 for none),
  ``order`` the lines nearest the centre first;
* ``perms[s, e]`` the image of line ``e`` under symmetry ``s`` and ``inverse[s, e]`` the line
  it maps onto ``e``; ``imgs[d, s]`` the image under ``s`` of the position ``d`` lines deep
  on the search's path, each row made from the one above by one line's bit (so a position's
  eight images cost eight ORs, not a walk over its lines);
* the transposition table, one int64 per entry, two entries a set, allocated at its size
  from a memory budget (numpy's zeroed pages cost memory only once written). A key (the
  least image) is mixed one-to-one into (set, check); an entry holds the check, the lower
  and upper bound, the best line and the log2 of the positions its search took. A new key
  takes its own slot of the set, else an empty one, else the one whose search took less
  work. A lost entry only costs time: every entry is a bound. Positions with fewer than
  :data:`TABLE_FROM` open boxes skip the table: they are cheaper to search again than to
  look up.

Two rules more than the Python search, each on unless turned off, both exact:

*One line a chain* (``one_per_chain``, :func:`.solver_rules.chain_keeps`; it needs rules 1
and 2). With no box capturable,
the open boxes two lines short form chains and loops, and only one line of each is
searched: the middle line of a chain of two boxes, the lower-numbered end line of any other
chain, the lowest-numbered line of a loop. Proof, by rules 1 and 2 (which the search already
takes as given): after an end line of a chain of three or more, the opponent eats the whole
chain, or all of it but two and hands those back, which the mover takes; either way every
line of the chain ends up drawn, with the same boxes won and the same player to move,
whichever end was opened. So both ends are worth the same, and a line inside the chain is
worth no more, since after it the opponent can reach those same positions (and more). A
loop is the same, with four handed back; a lone box is taken at once (rule 1) whichever of
its two lines is drawn. Of a chain of two, the middle line leaves two boxes the opponent
takes at once (rule 1), a position they can also reach after an end line, where they have
the double-deal besides. Barker and Korf (2012) use the same reasoning: where a chain is
opened does not change its value.

*Ground lines* (``ground``). Lines bordering only one box (a corner box's two outer lines)
join the same box to the ground: drawing one or the other gives positions that only a
relabelling of lines tells apart, and the rules cannot see labels (Barker and Korf's corner
symmetry). So a position's key counts how many of a box's ground lines are drawn (the
lowest-numbered that many stand for them), and of its undrawn ground lines only the
lowest-numbered is searched.

Values are the same as the Python search's (both are exact); the positions searched and
the best line found among equal ones differ. ``tests/games/pillage/test_solver_unit_compiled.py``
checks the values, the best lines' values and each rule against the Python search.

numba is imported on first use, and its compiled code cached on disk, as in compiled.py;
without numba, or under ``PLUNDER_PURE=1``, the solver uses the Python search.
"""

from __future__ import annotations

import os
import threading
from functools import partial
from typing import Any, Callable, Collection

import numpy as np

from ...core.compiled import built_once
from .solver_frame import Frame
from .solver_rules import (NONE, chain_keeps, closes, compiled_rules, components, double_deal, eaten_chain, loony,
                           merged_bounds, move_groups, one_chain, root_order, scan, window)
from .solver_unit import RULES, fits

#: bytes one set of the compiled table costs: two entries of one int64 each
SET_BYTES = 16
#: the most lines a frame may have for the compiled search (masks are signed 64-bit ints)
MAX_LINES = 62
#: the fields of the statistics array the kernel and its caller share
NODES, FORCED, DEALS, ENDGAMES, STOP, STOPPED, FILLED, PRUNED, TWINS = range(9)
#: positions with fewer open boxes than this are searched without the table (they are quick
#: to search again, and each probe is a wait for memory)
TABLE_FROM = 4
#: the parameters array: the bound (open boxes of the frame), the entry's bound width, rules
#: 1, 2, 3, one line a chain and ground lines on (1) or off (0), the table's first open-box
#: count, its sets and the frame's lines
P_BOUND, P_WIDTH, P_CAPTURE, P_CHAINS, P_ENDGAME, P_ONE, P_GROUND, P_FROM, P_SETS, P_LINES = range(10)
#: an odd multiplier for mixing keys
_MIX = 0x2545F4914F6CDD1D
#: the most ground lines one box may have for the ground-lines rule (more are left out of it)
_GROUP = 4

#: the shared rules of solver_rules.py compiled, by name, once the kernel is built
_rules: dict[str, Callable[..., Any]] = {}


#: the compiled search, or ``None`` when numba is missing or ``PLUNDER_PURE`` is set
compiled_search = built_once(lambda: _build())


def compiled_kernel_rules() -> dict[str, Callable[..., Any]]:
    """The rules of solver_rules.py as the compiled search runs them, by name (for holding
    them to the Python functions they are compiled from); empty without the compiled search."""
    return dict(_rules) if compiled_search() is not None else {}


def usable(frame: Frame) -> bool:
    """Whether the compiled search can take ``frame``: lines border one or two boxes (the
    rules need it) and its masks fit a signed 64-bit int."""
    return fits(frame) and frame.num_edges <= MAX_LINES


def ground_groups(frame: Frame) -> np.ndarray:
    """The ground groups of ``frame``: for each box with two or more lines bordering no
    other box, a row of its ground-line mask, those lines lowest first (-1 past the last,
    :data:`_GROUP` places) and, for ``c`` of them drawn, the mask of the ``c`` lowest.

    Such lines join the same box to the ground, so drawing one or another of them gives
    positions that differ by a relabelling of lines the rules cannot tell apart (Barker
    and Korf's corner symmetry): a position is known by how many of them are drawn."""
    rows = []
    for edges in frame.box_edges:
        ground = sorted(e for e in edges if len(frame.edge_boxes[e]) == 1)[:_GROUP]
        if len(ground) < 2:
            continue
        rows.append([sum(1 << e for e in ground)] + ground + [-1] * (_GROUP - len(ground))
                    + [sum(1 << e for e in ground[:c]) for c in range(_GROUP + 1)])
    return np.array(rows, dtype=np.int64).reshape(len(rows), 1 + 2 * _GROUP + 1)


class CompiledUnitSearch:
    """The compiled search of one frame with its table; ``search(drawn, alpha, beta)`` as
    :meth:`.solver_unit.UnitSearch.search` (fail-soft future net margin in boxes).

    ``memory`` is the table's budget in bytes. ``stats`` (int64 array, fields :data:`NODES`
    ...) counts positions and rule uses, and carries the stop flag: a search stopped by it
    returns with ``stats[STOPPED]`` set, its value meaningless.
    """

    def __init__(self, frame: Frame, inverse: list[list[int]], memory: float, rules: Collection[str] = RULES,
                 one_per_chain: bool = True, ground: bool = True, table_from: int = TABLE_FROM) -> None:
        kernel = compiled_search()
        if kernel is None:
            raise ImportError("compiled unit search: numba is not available (or PLUNDER_PURE is set)")
        if not usable(frame):
            raise ValueError("compiled unit search: a line borders no box or more than two, "
                             f"or more than {MAX_LINES} lines")
        if not set(rules) <= RULES:
            raise ValueError(f"compiled unit search: unknown rules {sorted(set(rules) - RULES)}")
        self.kernel = kernel
        ne, nb = frame.num_edges, frame.num_boxes
        self.box_mask = np.array([sum(1 << e for e in edges) for edges in frame.box_edges], dtype=np.int64)
        self.edge_box = np.full((ne, 3), -1, dtype=np.int64)
        for e, boxes in enumerate(frame.edge_boxes):
            self.edge_box[e, :len(boxes)] = boxes
        self.groups = ground_groups(frame)
        for g, row in enumerate(self.groups):
            for e in row[1:1 + _GROUP]:
                if e >= 0:
                    self.edge_box[e, 2] = g
        self.order = np.array(frame.order, dtype=np.int64)
        self.inverse = np.array(inverse, dtype=np.int64)
        self.perms = np.array(frame.perms, dtype=np.int64)
        # row d: the images under the symmetries of the position d lines deep on the search's path
        self.imgs = np.zeros((ne + 1, len(frame.perms)), dtype=np.int64)
        # an entry: best line + 1 (6 bits), hi and lo offset by the bound (``width`` bits
        # each), log2 of the positions its search took (5 bits), a bit that is always set,
        # then the key's check; the key is mixed into (set, check) one-to-one, so the two
        # together are the key and the table stores no more of it
        width = (2 * nb + 1).bit_length()
        check_bits = 63 - (13 + 2 * width)
        self.sets = max(int(memory) // SET_BYTES, 1 << max(0, ne - check_bits), 1)
        self.table = np.zeros(2 * self.sets, dtype=np.int64)
        self.params = np.array([nb, width, "capture" in rules, "capture" in rules and "chains" in rules, "endgame" in rules,
                          one_per_chain and "capture" in rules and "chains" in rules, ground, table_from, self.sets, ne], dtype=np.int64)
        self.stats = np.zeros(TWINS + 1, dtype=np.int64)
        # scratch for the endgame rule: chain and loop counts by length (solver_rules.loony's layout)
        self.counts = np.zeros(2 * (nb + 1), dtype=np.int64)

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
        """Lines of a chain or loop left unsearched (the one-line-a-chain rule)."""
        return int(self.stats[PRUNED])

    @property
    def twins(self) -> int:
        """Ground lines left unsearched, each standing for one searched (the ground-lines rule)."""
        return int(self.stats[TWINS])

    @property
    def endgames(self) -> int:
        """Positions valued by the loony endgame recursion (rule 3)."""
        return int(self.stats[ENDGAMES])

    def __len__(self) -> int:
        return int(self.stats[FILLED])

    def search(self, drawn: int, alpha: int, beta: int) -> int:
        """Future net margin in boxes for the player to move (fail-soft in (alpha, beta));
        meaningless if ``stats[STOPPED]`` is set after it."""
        depth = bin(drawn).count("1")
        self.imgs[depth] = self.images(drawn)
        return int(self.kernel(np.int64(drawn), np.int64(alpha), np.int64(beta), np.int64(depth), self.box_mask,
                               self.edge_box, self.groups, self.order, self.imgs, self.inverse, self.perms, self.table,
                               self.params, self.stats, self.counts))

    def reset(self) -> None:
        """Zero the counts and the stop flags for a new solve (the table stays)."""
        self.stats[:FILLED] = 0
        self.stats[PRUNED:] = 0

    def line_order(self, drawn: int) -> list[int]:
        """The undrawn lines of ``drawn`` in the order the root tries them, as
        :meth:`.solver_unit.UnitSearch.line_order` orders them: the table's best line first,
        then nearest the centre first."""
        key, sym = self.canon(drawn)
        entry = int(_probe(key, self.table, self.params))
        return root_order(self.order.tolist(), drawn,
                          int(_stored_line(entry, sym, drawn, self.inverse, self.edge_box, self.groups, self.params)))

    def canon(self, drawn: int) -> tuple[int, int]:
        """(least image of ``drawn`` under the symmetries, the symmetry giving it)."""
        key, sym = _canon(self.images(drawn), self.groups, self.params)
        return int(key), int(sym)

    def images(self, drawn: int) -> np.ndarray:
        """The images of ``drawn`` under the symmetries."""
        lines = [e for e in range(len(self.order)) if drawn >> e & 1]
        return np.array([sum(1 << int(perm[e]) for e in lines) for perm in self.perms], dtype=np.int64)


def watch(search: Callable[[], int], stats: np.ndarray, poll: Callable[[int], bool], every: float) -> int:
    """``search()`` (a compiled search sharing ``stats``) in a worker thread while this one calls
    ``poll(positions)`` every ``every`` seconds, and once before it starts; ``poll`` returning
    True sets the stop flag ``stats[STOP]`` (the kernels release the GIL, so the two run side
    by side)."""
    if poll(int(stats[NODES])):
        stats[STOP] = 1
    out: list[int] = []
    worker = threading.Thread(target=lambda: out.append(search()), daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(every)
            if worker.is_alive() and poll(int(stats[NODES])):
                stats[STOP] = 1
    except BaseException:
        # an interrupt reaches this thread only: stop the search before it goes on
        stats[STOP] = 1
        worker.join()
        raise
    return out[0]


def _build() -> Callable[..., int]:
    """Compile (or load from numba's cache) :func:`_search` and the shared rules it calls
    (solver_rules.py, compiled from the same code the Python search runs); ``_search`` calls
    itself and them by their global names, so those are bound to the compiled functions first."""
    import numba

    _teach_int_methods()
    _rules.update(compiled_rules(partial(numba.njit, cache=True, nogil=True)))
    globals().update(_rules)
    jit = numba.njit(cache=True, nogil=True)
    for name in ("_mix", "_probe", "_store", "_push", "_canon", "_lowest_undrawn", "_stored_line", "_search"):
        globals()[name] = jit(globals()[name])
    return globals()["_search"]


def _teach_int_methods() -> None:
    """Give numba's integers the two ``int`` methods the shared rules use: ``bit_count`` (set
    bits of a non-negative int, by a loop) and ``bit_length`` (by the processor's count of
    leading zeros)."""
    from numba.core import types as nb_types
    from numba.cpython.unsafe import numbers
    from numba.extending import overload_method

    # an intrinsic: compiled code calls it with the value alone (its typing context is numba's)
    leading_zeros: Any = numbers.leading_zeros

    def bit_count(x: Any) -> Callable[[int], int]:
        def impl(x: Any) -> int:
            n = 0
            while x:
                x &= x - 1
                n += 1
            return n
        return impl

    def bit_length(x: Any) -> Callable[[int], int]:
        width = x.bitwidth

        def impl(x: Any) -> int:
            return width - leading_zeros(x)
        return impl

    overload_method(nb_types.Integer, "bit_count")(bit_count)
    overload_method(nb_types.Integer, "bit_length")(bit_length)


def _mix(key: int, lines: int) -> int:
    """``key`` mixed one-to-one within its ``lines`` bits (xor-shifts and odd multipliers
    are bijections modulo a power of two): every bit of the key reaches the low bits that
    pick its set."""
    full = (1 << lines) - 1
    r = lines // 2 + 1
    h = key ^ (key >> r)
    h = (h * _MIX) & full
    h ^= h >> r
    h = (h * _MIX) & full
    return h ^ (h >> r)


def _probe(key: int, table: Any, params: Any) -> int:
    """The entry of ``key`` in the table, 0 if it holds none."""
    h = _mix(key, params[P_LINES])
    base = 2 * (h % params[P_SETS])
    check = h // params[P_SETS]
    shift = 13 + 2 * params[P_WIDTH]
    for slot in range(base, base + 2):
        e = table[slot]
        if e and (e >> shift) == check:
            return e
    return 0


def _store(key: int, lo: int, hi: int, move: int, work: int, table: Any, params: Any, stats: Any) -> None:
    """Store (lo, hi, best line + 1) for ``key``, whose search took ``work`` positions: in
    its own slot of its set, else an empty one, else over the entry that took less work."""
    h = _mix(key, params[P_LINES])
    base = 2 * (h % params[P_SETS])
    check = h // params[P_SETS]
    width = params[P_WIDTH]
    shift = 13 + 2 * width
    log = 0
    while work > 1 and log < 31:
        work >>= 1
        log += 1
    bound = params[P_BOUND]
    entry = (check << shift | 1 << (shift - 1) | log << (6 + 2 * width) | (lo + bound) << (6 + width)
             | (hi + bound) << 6 | move)
    slot = base
    e0 = table[base]
    e1 = table[base + 1]
    if e0 and (e0 >> shift) != check:
        if (e1 and (e1 >> shift) == check) or not e1:
            slot = base + 1
        elif ((e1 >> (6 + 2 * width)) & 31) < ((e0 >> (6 + 2 * width)) & 31):
            slot = base + 1
    if not table[slot]:
        stats[FILLED] += 1
    table[slot] = entry


def _push(imgs: Any, depth: int, line: int, perms: Any) -> None:
    """Row ``depth + 1`` of ``imgs``: the images of row ``depth`` with ``line`` drawn."""
    for s in range(imgs.shape[1]):
        imgs[depth + 1, s] = imgs[depth, s] | (1 << perms[s, line])


def _canon(images: Any, groups: Any, params: Any) -> tuple[int, int]:
    """(least of a position's ``images`` under the symmetries, the symmetry giving it); with
    the ground-lines rule on, each image counts only how many of a box's ground lines are
    drawn (the lowest-numbered that many stand for them)."""
    best = -1
    best_s = 0
    for s in range(images.shape[0]):
        image = images[s]
        if params[P_GROUND]:
            for g in range(groups.shape[0]):
                gm = groups[g, 0]
                image = (image & ~gm) | groups[g, 1 + _GROUP + (image & gm).bit_count()]
        if best < 0 or image < best:
            best = image
            best_s = s
    return best, best_s


def _lowest_undrawn(g: int, undrawn: int, groups: Any) -> int:
    """The lowest-numbered undrawn line of ground group ``g`` (-1 if none)."""
    for i in range(1, 1 + _GROUP):
        e = groups[g, i]
        if e >= 0 and (undrawn >> e) & 1:
            return e
    return -1


def _stored_line(entry: int, s: int, drawn: int, inverse: Any, edge_box: Any, groups: Any, params: Any) -> int:
    """The best line of a table ``entry`` found under symmetry ``s``, in the frame of
    ``drawn`` (-1 if none): with the ground-lines rule, a line of a ground group stands for
    the group, so it becomes the group's lowest undrawn line."""
    move = (entry & 63) - 1
    if move < 0:
        return -1
    line = inverse[s, move]
    if params[P_GROUND] and edge_box[line, 2] >= 0:
        line = _lowest_undrawn(edge_box[line, 2], ((1 << inverse.shape[1]) - 1) ^ drawn, groups)
    return line


def _search(drawn: int, alpha: int, beta: int, depth: int, box_mask: Any, edge_box: Any, groups: Any, order: Any,
            imgs: Any, inverse: Any, perms: Any, table: Any, params: Any, stats: Any, counts: Any) -> int:
    """:meth:`.solver_unit.UnitSearch.search` compiled (fail-soft future margin in boxes), with
    the rules of solver_rules.py compiled from the same code."""
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
    forced, gain, n_open, twos, unsafe, ncaps, capmask, head_line, head_other = scan(
        undrawn, box_mask, edge_box, params[P_CAPTURE])
    if forced >= 0:
        # Rule 1: a capture that makes no other box capturable is played at once.
        stats[FORCED] += 1
        _push(imgs, depth, forced, perms)
        return gain + _search(drawn | (1 << forced), alpha - gain, beta - gain, depth + 1, box_mask, edge_box, groups,
                              order, imgs, inverse, perms, table, params, stats, counts)
    if ncaps and params[P_CHAINS]:
        # Rule 2: the one chain open being eaten; follow it from its head (several open: every
        # line is searched below, captures first).
        length, capturable_end, deal = eaten_chain(head_line, head_other, undrawn, box_mask, edge_box)
        if one_chain(ncaps, capturable_end):
            _push(imgs, depth, head_line, perms)
            best = 1 + _search(drawn | (1 << head_line), alpha - 1, beta - 1, depth + 1, box_mask, edge_box, groups,
                               order, imgs, inverse, perms, table, params, stats, counts)
            if not double_deal(ncaps, length, capturable_end):
                return best
            stats[DEALS] += 1
            if stats[STOPPED]:
                return 0
            if best < beta:
                _push(imgs, depth, deal, perms)
                v = -_search(drawn | (1 << deal), -beta, -max(alpha, best), depth + 1, box_mask, edge_box, groups,
                             order, imgs, inverse, perms, table, params, stats, counts)
                if v > best:
                    best = v
            return best
    if not ncaps and params[P_ENDGAME] and twos == n_open:
        # Rule 3: chains and loops only.
        if components(undrawn, box_mask, edge_box, counts):
            stats[ENDGAMES] += 1
            return loony(counts, nb)
    if ncaps:
        # without rule 1 every line is searched, in one group past the captures
        unsafe = 0
    # Search every line: the table's first, then captures, lines handing no box over, the rest.
    if n_open <= alpha:
        return n_open
    if -n_open >= beta:
        return -n_open
    tabled = n_open >= params[P_FROM]
    key = 0
    s = 0
    entry = 0
    start = 0
    if tabled:
        key, s = _canon(imgs[depth], groups, params)
        entry = _probe(key, table, params)
        start = stats[NODES]
    first = -1
    lo = -n_open
    hi = n_open
    if entry:
        bound = params[P_BOUND]
        wmask = (1 << params[P_WIDTH]) - 1
        hi = ((entry >> 6) & wmask) - bound
        lo = ((entry >> (6 + params[P_WIDTH])) & wmask) - bound
        cut, value, alpha, beta = window(lo, hi, alpha, beta)
        if cut:
            return value
        first = _stored_line(entry, s, drawn, inverse, edge_box, groups, params)
        if first >= 0 and params[P_ONE] and (unsafe >> first) & 1 and not chain_keeps(first, undrawn, box_mask,
                                                                                   edge_box):
            first = -1
    a0 = alpha
    b0 = beta
    best = NONE
    best_m = -1
    caps, safe, rest = move_groups(first, capmask, undrawn, unsafe)
    for group in range(4):
        if group == 0:
            todo = 1 << first if first >= 0 else 0
        elif group == 1:
            todo = caps
        elif group == 2:
            todo = safe
        else:
            todo = rest
        if not todo:
            continue
        for i in range(ne):
            m = order[i]
            if not (todo >> m) & 1:
                continue
            if params[P_GROUND] and edge_box[m, 2] >= 0 and _lowest_undrawn(edge_box[m, 2], undrawn, groups) != m:
                # a ground line standing for one searched already
                stats[TWINS] += 1
                continue
            if group == 3 and params[P_ONE] and not chain_keeps(m, undrawn, box_mask, edge_box):
                stats[PRUNED] += 1
                continue
            after = drawn | (1 << m)
            _push(imgs, depth, m, perms)
            gain = closes(m, after, box_mask, edge_box) if (capmask >> m) & 1 else 0
            if gain:
                v = gain + _search(after, alpha - gain, beta - gain, depth + 1, box_mask, edge_box, groups, order, imgs,
                                   inverse, perms, table, params, stats, counts)
            elif best_m >= 0 and beta - alpha > 1:
                # PVS: prove the later lines no better with a null window first.
                v = -_search(after, -alpha - 1, -alpha, depth + 1, box_mask, edge_box, groups, order, imgs, inverse,
                             perms, table, params, stats, counts)
                if alpha < v < beta and not stats[STOPPED]:
                    v = -_search(after, -beta, -v, depth + 1, box_mask, edge_box, groups, order, imgs, inverse, perms,
                                 table, params, stats, counts)
            else:
                v = -_search(after, -beta, -alpha, depth + 1, box_mask, edge_box, groups, order, imgs, inverse, perms,
                             table, params, stats, counts)
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
    if not tabled:
        return best
    lo, hi = merged_bounds(best, a0, b0, lo, hi)
    _store(key, lo, hi, perms[s, best_m] + 1 if best_m >= 0 else 0, stats[NODES] - start, table, params, stats)
    return best
