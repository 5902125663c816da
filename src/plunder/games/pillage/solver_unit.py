"""The solver's fast path for unit boards: plain Dots and Boxes, every box worth the same.

On a board whose boxes all hold the same pile of doubloons (no commodity, no modifier) a
position's future is its drawn mask alone and every box is interchangeable, so the
classical Dots and Boxes theory applies. It is wrong on valued boxes (a box of 5 is not a
box of 1), which is why :class:`UnitSearch` is used only when :func:`unit_worth` says so.
Values below are in boxes: the future net margin of the player to move (boxes they take
from here on minus boxes the opponent takes). The search is fail-soft alpha-beta with a
principal-variation null window, keyed on the drawn mask reduced over the board's
symmetries, in the bounded :class:`~.solver_table.ArrayTable`.

A box is *capturable* when one of its lines is undrawn; its *last line* ``e``. Three
capture rules replace branching (a strings-and-coins reading: they hold on any board
where every line borders one or two boxes, see :func:`fits`):

1. *Safe capture.* If ``e`` makes no other box capturable (it borders no other box, or
   the other box keeps two or more undrawn lines after ``e``, or ``e`` closes it too),
   draw ``e`` at once: V(P) = k + V(P+e), k the boxes ``e`` closes. This is the "take a box
   unless it is the second-last of a chain" rule (Berlekamp, *The Dots-and-Boxes Game*,
   2000, ch. 2; Barker and Korf, "Solving Dots-And-Boxes", AAAI 2012, which searches
   only the capture in this case). The intuition: such a box stays on offer to whoever
   moves next, and taking it leaves no new offer behind, so leaving it only hands the
   opponent a free box. The narrower case where ``e`` closes every box it borders is
   proved in solver.py's docstring; the wider one is taken from the literature and
   checked by the tests against the generic search, which does not use it.
2. *Chains being eaten.* If every capture makes another box capturable, each capturable
   box heads a chain of boxes with two undrawn lines. When only one such chain is open
   (its far end at the edge of the board, at a box with three or more undrawn lines, or
   at its other capturable end), only two lines are searched: take the head, and -- when
   exactly two boxes are left with one open end, or four with both ends capturable --
   the double-dealing line that hands the last two (two pairs) over and keeps control.
   When several chains are open, their heads are taken (the choice to double-deal comes
   at the last chain). Any other line leaves the opponent every box of the chain and the
   same choice, which is never better (Berlekamp, ch. 3, "all-but-two trick").
3. *Simple loony endgames.* With no capturable box and every open box having exactly two
   undrawn lines, the board is a set of independent chains and loops and its value
   follows from their lengths alone (:func:`loony_value`; Buzzard and Ciere, "Playing
   simple loony Dots-and-Boxes endgames optimally", INTEGERS 14, 2014).

Every rule is checked against the generic exact solver (which uses none of them) on
random positions in ``tests/games/pillage/test_solver_unit.py``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Collection, Sequence

from .board import Board
from .contents import Content, Doubloons
from .solver_frame import Frame
from .solver_table import ArrayTable, DictTable, Packing, merged_bounds

#: a value below every real one (fail-soft searches start from it)
_NONE = -(1 << 30)
#: the rules of the module docstring, by name (all on by default; fewer for measuring)
RULES = frozenset({"capture", "chains", "endgame"})


def unit_worth(contents: Sequence[Content | None]) -> int | None:
    """The common worth of the boxes when every box holds the same pile of doubloons, else None."""
    if not contents or not all(isinstance(c, Doubloons) for c in contents):
        return None
    worths = {c.n for c in contents if isinstance(c, Doubloons)}
    if len(worths) != 1:
        return None
    (worth,) = worths
    return worth if worth > 0 else None


def fits(board: Board | Frame) -> bool:
    """Whether the capture rules apply: every line borders one or two boxes."""
    return all(1 <= len(boxes) <= 2 for boxes in board.edge_boxes)


@lru_cache(maxsize=1 << 16)
def loony_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """Future net margin of the player to move in a simple loony endgame.

    ``chains`` and ``loops`` are sorted component lengths (loops of four or more boxes).
    Every move opens a component, and the opponent then either takes all of it and moves
    next, or takes all but two boxes of a long chain (all but four of a loop) and hands
    those back, keeping control (Buzzard and Ciere, 2014):

    * a chain of one or two boxes is handed over whole (a pair opened in the middle,
      so it cannot be declined): the opponent gets ``k + V(rest)``;
    * a chain of ``k >= 3``: the opponent gets ``max(k + V(rest), k - 4 - V(rest))``;
    * a loop of ``k >= 4``: the opponent gets ``max(k + V(rest), k - 8 - V(rest))``.

    The mover opens the component that leaves the opponent least.
    """
    if not chains and not loops:
        return 0
    best = _NONE
    for i, k in enumerate(chains):
        if i and chains[i - 1] == k:
            continue
        rest = loony_value(chains[:i] + chains[i + 1:], loops)
        theirs = k + rest if k <= 2 else max(k + rest, k - 4 - rest)
        best = max(best, -theirs)
    for i, k in enumerate(loops):
        if i and loops[i - 1] == k:
            continue
        rest = loony_value(chains, loops[:i] + loops[i + 1:])
        best = max(best, -max(k + rest, k - 8 - rest))
    return best


class UnitSearch:
    """Alpha-beta over drawn masks of a unit board, with the capture rules of the module.

    ``search(drawn, alpha, beta)`` returns the future net margin in boxes (fail-soft).
    ``count`` is called with the positions searched every 4096 of them (the solver's
    budget check: it may raise to stop the search). ``rules`` names the rules of the module
    docstring in use (:data:`RULES`; fewer only to measure what each one saves; "chains"
    needs "capture").
    """

    def __init__(self, frame: Frame, table: ArrayTable | DictTable, canon_sym: Callable[[int], tuple[int, int]],
                 perms: Sequence[tuple[int, ...]], inverse: list[list[int]], count: Callable[[int], None],
                 rules: Collection[str] = RULES) -> None:
        if not fits(frame):
            raise ValueError("unit search: a line borders no box or more than two")
        if not set(rules) <= RULES:
            raise ValueError(f"unit search: unknown rules {sorted(set(rules) - RULES)}")
        self.table = table
        self.count = count
        self.capture = "capture" in rules
        self.chains = self.capture and "chains" in rules
        self.endgame = "endgame" in rules
        #: positions searched since the last report to ``count``
        self.pending = 0
        #: times each rule of the module docstring was used: captures played at once (1),
        #: double-deals searched beside taking (2), endgames valued by :func:`loony_value` (3)
        self.forced = self.deals = self.endgames = 0
        self.box_mask = [sum(1 << e for e in edges) for edges in frame.box_edges]
        # line bit -> (box, other box or -1)
        self.ends = {1 << e: (bs[0], bs[1] if len(bs) > 1 else -1) for e, bs in enumerate(frame.edge_boxes)}
        #: the box masks, and line bit -> (its box's mask, the other box's mask or 0)
        self.masks = tuple(self.box_mask)
        self.end_masks = {m: (self.box_mask[a], self.box_mask[b] if b >= 0 else 0) for m, (a, b) in self.ends.items()}
        self.full = (1 << frame.num_edges) - 1
        #: line bits in the order lines are tried within a group (nearest the centre first)
        self.order = [1 << e for e in frame.order]
        self.packing = Packing(frame.num_boxes)
        self.canon_sym = canon_sym
        self.perms = perms
        self.inverse = inverse

    def line_order(self, drawn: int) -> list[int]:
        """The undrawn lines of ``drawn`` (indices) in the order the search tries them: the
        table's best line first, then nearest the centre first."""
        key, sym = self.canon_sym(drawn)
        entry = self.table.get(key, 0)
        first = self.inverse[sym][self.packing.unpack(entry)[2]] if entry and entry & 0xFFFF else -1
        lines = [m.bit_length() - 1 for m in self.order if not drawn & m]
        return sorted(lines, key=lambda e: e != first)

    def components(self, undrawn: int, boxes: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """(chain lengths, loop lengths), sorted, of open ``boxes`` that all have exactly two
        undrawn lines; None if a loop is shorter than four (the endgame rule assumes four)."""
        box_mask, ends = self.box_mask, self.ends
        seen = 0
        chains: list[int] = []
        loops: list[int] = []
        for start in boxes:
            if seen >> start & 1:
                continue
            seen |= 1 << start
            lines = box_mask[start] & undrawn
            first = lines & -lines
            length = 1
            loop = False
            for line in (first, lines ^ first):
                box = start
                while True:
                    a, b = ends[line]
                    nxt = b if a == box else a
                    if nxt < 0:
                        break
                    if nxt == start:
                        loop = True
                        break
                    seen |= 1 << nxt
                    length += 1
                    line = box_mask[nxt] & undrawn & ~line
                    box = nxt
                if loop:
                    break
            if loop:
                if length < 4:
                    return None
                loops.append(length)
            else:
                chains.append(length)
        return tuple(sorted(chains)), tuple(sorted(loops))

    def search(self, drawn: int, alpha: int, beta: int) -> int:
        """Future net margin in boxes for the player to move (fail-soft in (alpha, beta))."""
        undrawn = self.full ^ drawn
        if not undrawn:
            return 0
        self.pending += 1
        if not self.pending & 4095:
            n, self.pending = self.pending, 0
            self.count(n)
        # Boxes by their line masks (no indices: cheaper in the innermost loop).
        caps: list[tuple[int, int]] = []
        n_open = twos = unsafe = 0
        for bm in self.masks:
            u = bm & undrawn
            if u:
                n_open += 1
                rest = u & (u - 1)
                if not rest:
                    caps.append((bm, u))
                elif not rest & (rest - 1):
                    twos += 1
                    unsafe |= u
        if caps:
            if not self.capture:
                return self._branch(drawn, undrawn, alpha, beta, n_open, 0, caps)
            # Rule 1: a capture that makes no other box capturable is played at once.
            ends = self.end_masks
            head = 0
            for bm, line in caps:
                a, o = ends[line]
                if a != bm:
                    o = a
                if o:
                    left = (o & undrawn).bit_count()
                    if left == 2:
                        if not head:
                            head, line0, box = bm, line, o
                        continue
                    gain = 2 if left == 1 else 1
                else:
                    gain = 1
                self.forced += 1
                return gain + self.search(drawn | line, alpha - gain, beta - gain)
            if not self.chains:
                return self._branch(drawn, undrawn, alpha, beta, n_open, 0, caps)
            # Rule 2: chains being eaten; follow the first from its head.
            line = line0
            length = 2
            prev = line
            deal = 0
            capturable_end = False
            while True:
                nxt_line = box & undrawn & ~prev
                if not deal:
                    deal = nxt_line
                a, nxt = ends[nxt_line]
                if a != box:
                    nxt = a
                if not nxt:
                    break
                left = (nxt & undrawn).bit_count()
                if left == 2:
                    length += 1
                    prev, box = nxt_line, nxt
                    continue
                if left == 1:
                    length += 1
                    capturable_end = True
                break
            alone = len(caps) == (2 if capturable_end else 1)
            if not alone or length != (4 if capturable_end else 2):
                return 1 + self.search(drawn | line, alpha - 1, beta - 1)
            self.deals += 1
            best = 1 + self.search(drawn | line, alpha - 1, beta - 1)
            if best < beta:
                v = -self.search(drawn | deal, -beta, -max(alpha, best))
                if v > best:
                    best = v
            return best
        if self.endgame and twos == n_open:
            # Rule 3: chains and loops only.
            parts = self.components(undrawn, [b for b, bm in enumerate(self.box_mask) if bm & undrawn])
            if parts is not None:
                self.endgames += 1
                return loony_value(*parts)
        return self._branch(drawn, undrawn, alpha, beta, n_open, unsafe, [])

    def _branch(self, drawn: int, undrawn: int, alpha: int, beta: int, n_open: int, unsafe: int,
                caps: list[tuple[int, int]]) -> int:
        """Search every line (the table, then lines handing no box over, then the rest)."""
        # No line sequence wins more than every open box nor loses more.
        if n_open <= alpha:
            return n_open
        if -n_open >= beta:
            return -n_open
        packing = self.packing
        key, sym = self.canon_sym(drawn)
        entry = self.table.get(key, 0)
        first = 0
        lo, hi = -n_open, n_open
        if entry:
            lo, hi, move = packing.unpack(entry)
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
            if move >= 0:
                first = 1 << self.inverse[sym][move]
        a0, b0 = alpha, beta
        best, best_m = _NONE, 0
        capmask = 0
        for _, line in caps:
            capmask |= line
        order = self.order
        moves = [first] if first else []
        for group in (capmask, undrawn & ~(unsafe | capmask), unsafe & ~capmask):
            group &= ~first
            if group:
                moves += [m for m in order if m & group]
        for m in moves:
            gain = 0
            if m & capmask:
                after = drawn | m
                for b in self.ends[m]:
                    if b >= 0 and self.box_mask[b] & after == self.box_mask[b]:
                        gain += 1
            if gain:
                v = gain + self.search(drawn | m, alpha - gain, beta - gain)
            elif best_m and beta - alpha > 1:
                # PVS: prove the later lines no better with a null window first.
                v = -self.search(drawn | m, -alpha - 1, -alpha)
                if alpha < v < beta:
                    v = -self.search(drawn | m, -beta, -v)
            else:
                v = -self.search(drawn | m, -beta, -alpha)
            if v > best:
                best, best_m = v, m
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        lo, hi = merged_bounds(best, a0, b0, lo, hi)
        self.table.put(key, packing.pack(lo, hi, self.perms[sym][best_m.bit_length() - 1]))
        return best


__all__ = ["RULES", "UnitSearch", "fits", "loony_value", "unit_worth"]
