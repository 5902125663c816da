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
   Any other line leaves the opponent every box of the chain and the same choice, which is
   never better (Berlekamp, ch. 3, "all-but-two trick"). When several chains are open the
   rule does not apply and every line is searched (captures first): which chain is eaten
   last, the one to double-deal in, changes the value (taking the first head each time, as
   the rule once did, a 4x4 position was valued +3 where handing over a pair instead of two
   pairs makes +7: ``tests/games/pillage/test_solver_unit.py``).
3. *Simple loony endgames.* With no capturable box and every open box having exactly two
   undrawn lines, the board is a set of independent chains and loops and its value
   follows from their lengths alone (:func:`.solver_rules.loony`; Buzzard and Ciere, "Playing
   simple loony Dots-and-Boxes endgames optimally", INTEGERS 14, 2014).

The rules, the line order and the bounds are written once, in solver_rules.py, as plain
functions over ints and int lists that :class:`UnitSearch` calls and the compiled search
(solver_unit_compiled.py) compiles from the same code; this module holds the Python recursion
around them. Every rule is checked against the generic exact solver (which uses none of them)
on random positions in ``tests/games/pillage/test_solver_unit.py``.
"""

from __future__ import annotations

from typing import Callable, Collection, Sequence

from .board import Board
from .contents import Content, Doubloons
from .solver_frame import Frame
from .solver_rules import (NONE, closes, components, double_deal, eaten_chain, loony_rest, merged_bounds, move_groups,
                           one_chain, root_order, scan, window)
from .solver_table import ArrayTable, DictTable, Packing
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
        #: double-deals searched beside taking (2), endgames valued by :func:`.solver_rules.loony` (3)
        self.forced = self.deals = self.endgames = 0
        self.box_mask = [sum(1 << e for e in edges) for edges in frame.box_edges]
        #: per line: (its box, the other box or -1)
        self.edge_box = [(bs[0], bs[1] if len(bs) > 1 else -1) for bs in frame.edge_boxes]
        self.full = (1 << frame.num_edges) - 1
        #: the lines in the order they are tried within a group (nearest the centre first)
        self.order = list(frame.order)
        self.nb = frame.num_boxes
        #: scratch for rule 3: chain and loop counts by length (solver_rules.loony's layout)
        self.counts = [0] * (2 * (frame.num_boxes + 1))
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
        return root_order(self.order, drawn, first)

    def search(self, drawn: int, alpha: int, beta: int) -> int:
        """Future net margin in boxes for the player to move (fail-soft in (alpha, beta))."""
        undrawn = self.full ^ drawn
        if not undrawn:
            return 0
        self.pending += 1
        if not self.pending & 4095:
            n, self.pending = self.pending, 0
            self.count(n)
        forced, gain, n_open, twos, unsafe, ncaps, capmask, head_line, head_other = scan(
            undrawn, self.box_mask, self.edge_box, self.capture)
        if forced >= 0:
            # Rule 1: a capture that makes no other box capturable is played at once.
            self.forced += 1
            return gain + self.search(drawn | 1 << forced, alpha - gain, beta - gain)
        if ncaps and self.chains:
            # Rule 2: the one chain open being eaten; follow it from its head (several open:
            # every line is searched below, captures first).
            length, capturable_end, deal = eaten_chain(head_line, head_other, undrawn, self.box_mask, self.edge_box)
            if one_chain(ncaps, capturable_end):
                best = 1 + self.search(drawn | 1 << head_line, alpha - 1, beta - 1)
                if not double_deal(ncaps, length, capturable_end):
                    return best
                self.deals += 1
                if best < beta:
                    v = -self.search(drawn | 1 << deal, -beta, -max(alpha, best))
                    if v > best:
                        best = v
                return best
        if not ncaps and self.endgame and twos == n_open:
            # Rule 3: chains and loops only.
            if components(undrawn, self.box_mask, self.edge_box, self.counts):
                self.endgames += 1
                return loony_rest(self.counts, self.nb)
        # without rule 1 every line is searched, in one group past the captures
        return self._branch(drawn, undrawn, alpha, beta, n_open, 0 if ncaps else unsafe, capmask)

    def _branch(self, drawn: int, undrawn: int, alpha: int, beta: int, n_open: int, unsafe: int, capmask: int) -> int:
        """Search every line (the table's, then captures, lines handing no box over, the rest)."""
        # No line sequence wins more than every open box nor loses more.
        if n_open <= alpha:
            return n_open
        if -n_open >= beta:
            return -n_open
        packing = self.packing
        key, sym = self.canon_sym(drawn)
        entry = self.table.get(key, 0)
        first = -1
        lo, hi = -n_open, n_open
        if entry:
            lo, hi, move = packing.unpack(entry)
            cut, value, alpha, beta = window(lo, hi, alpha, beta)
            if cut:
                return value
            if move >= 0:
                first = self.inverse[sym][move]
        a0, b0 = alpha, beta
        best, best_m = NONE, -1
        order = self.order
        moves = [first] if first >= 0 else []
        for group in move_groups(first, capmask, undrawn, unsafe):
            if group:
                moves += [e for e in order if group >> e & 1]
        for m in moves:
            after = drawn | 1 << m
            gain = closes(m, after, self.box_mask, self.edge_box) if capmask >> m & 1 else 0
            if gain:
                v = gain + self.search(after, alpha - gain, beta - gain)
            elif best_m >= 0 and beta - alpha > 1:
                # PVS: prove the later lines no better with a null window first.
                v = -self.search(after, -alpha - 1, -alpha)
                if alpha < v < beta:
                    v = -self.search(after, -beta, -v)
            else:
                v = -self.search(after, -beta, -alpha)
            if v > best:
                best, best_m = v, m
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        lo, hi = merged_bounds(best, a0, b0, lo, hi)
        self.table.put(key, packing.pack(lo, hi, self.perms[sym][best_m]))
        return best


__all__ = ["RULES", "UnitSearch", "fits", "unit_worth"]
