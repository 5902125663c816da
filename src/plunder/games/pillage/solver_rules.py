"""The Pillage solver's search rules, written once for the Python searches and the compiled one.

Each function here is plain Python over ints and int sequences (``box_mask[b]``, the lines of
box ``b`` as a mask; ``edge_box[e][0..1]``, the boxes line ``e`` borders, -1 for none), so that
the Python searches call it as it is, on lists, and :mod:`.solver_unit_compiled` compiles the
same function with numba, on numpy arrays (:func:`compiled_rules`). A fix to a rule lands once.

* Bounds: :func:`window` (what a table entry's bounds do to a search's window) and
  :func:`merged_bounds` (the entry a fail-soft result leaves), shared by all four searches
  (the valued general and static searches of solver.py, the Python and compiled unit ones).
* The unit-board rules of solver_unit.py's docstring: :func:`scan` (the pass over the boxes,
  with rule 1, the safe capture, on the way), :func:`eaten_chain`, :func:`one_chain` and :func:`double_deal`
  (rule 2), :func:`components` and :func:`loony` (rule 3, the Buzzard-Ciere recursion), and
  the line order :func:`move_groups`, :func:`closes` and :func:`root_order`.
* The compiled search's own rule, one line a chain: :func:`walk` and :func:`chain_keeps`.

What stays apart, because the languages do not share it:

* the recursions themselves, each with its move loop (a line tried with a null window first,
  then the best and the window updated): the Python unit search probes
  :class:`~.solver_table.ArrayTable` through the generated symmetry code of
  solver_symmetry.py; the compiled one its own flat int64 table through the symmetry images
  carried down its path, with the stop flag and the ground-lines rule; numba compiles a
  recursion only as one function calling itself, and a Python callback per line (to share
  the loop) would cost the Python searches a call and a closure a line;
* the valued searches of solver.py (general and static) order their lines otherwise
  (captures by worth first, then the table's line) and prune by their own rules, proved for
  valued boxes; they share the bounds only.

Bits are counted and found by ``int.bit_count`` and ``int.bit_length``, C methods in Python,
which numba does not have: :mod:`.solver_unit_compiled` teaches them to it (a loop, and the
processor's count of leading zeros) before compiling.

``tests/games/pillage/test_solver_unit_compiled.py`` calls each shared rule in Python and
compiled on the same random positions and compares the results.
"""

from __future__ import annotations

import types
from typing import Any, Callable, MutableSequence, Sequence

#: a value below every real one (fail-soft searches start from it)
NONE = -(1 << 30)
#: the functions :func:`compiled_rules` compiles (the rest are for the Python searches only)
SHARED = ("other_box", "scan", "eaten_chain", "one_chain", "double_deal", "walk", "components", "loony", "chain_keeps",
          "window", "merged_bounds", "move_groups", "closes")
#: the :data:`SHARED` functions compiled into their callers: a compiled call returning a tuple
#: measured slower than the loops it stood for (the chain walk's, docs/ai.md)
INLINE = frozenset({"scan", "eaten_chain", "walk", "window", "merged_bounds", "move_groups", "other_box", "closes",
                    "one_chain", "double_deal"})
#: how many endgames :func:`loony_rest` remembers (it forgets them all past that)
_MEMO_SIZE = 1 << 16


def other_box(line: int, box: int, edge_box: Any) -> int:
    """The box across ``line`` from ``box`` (-1 for none)."""
    return edge_box[line][1] if edge_box[line][0] == box else edge_box[line][0]


def window(lo: int, hi: int, alpha: int, beta: int) -> tuple[bool, int, int, int]:
    """What a table entry's bounds ``[lo, hi]`` do to a search in the window (alpha, beta):
    (True, the value, ...) when they settle it (fail-soft), else (False, 0, the window narrowed
    to them)."""
    if lo >= beta:
        return True, lo, alpha, beta
    if hi <= alpha:
        return True, hi, alpha, beta
    if lo == hi:
        return True, lo, alpha, beta
    return False, 0, max(alpha, lo), min(beta, hi)


def merged_bounds(best: int, a0: int, b0: int, lo: int, hi: int) -> tuple[int, int]:
    """The bounds ``(lo, hi)`` of a stored entry narrowed by a fail-soft search's ``best`` in the
    window ``(a0, b0)``: at or below the window an upper bound, at or above it a lower bound,
    inside it the exact value."""
    if best <= a0:
        return lo, min(hi, best)
    if best >= b0:
        return max(lo, best), hi
    return best, best


def scan(undrawn: int, box_mask: Any, edge_box: Any, capture: int
         ) -> tuple[int, int, int, int, int, int, int, int, int]:
    """One pass over the boxes of a unit board, in index order: (the line rule 1 draws at once
    and the boxes it closes, else -1 and 0; then the open boxes, those two lines short, their
    undrawn lines, the capturable boxes, their last lines, and the first capturable box's last
    line and the box across it, -1 for none). Rule 1 (``capture`` on): the last line of the
    first capturable box that makes no other box capturable (the box across it has no line,
    or none, or more than two lines undrawn) is drawn at once; the pass stops there."""
    n_open = 0
    twos = 0
    unsafe = 0
    ncaps = 0
    capmask = 0
    head_line = -1
    head_other = -1
    for b, mask in enumerate(box_mask):
        u = mask & undrawn
        if not u:
            continue
        n_open += 1
        rest = u & (u - 1)
        if not rest:
            ncaps += 1
            capmask |= u
            if capture:
                line = u.bit_length() - 1
                o = other_box(line, b, edge_box)
                gain = 1
                if o >= 0:
                    left = (box_mask[o] & undrawn).bit_count()
                    if left == 2:
                        if head_line < 0:
                            head_line = line
                            head_other = o
                        continue
                    if left == 1:
                        gain = 2
                return line, gain, n_open, twos, unsafe, ncaps, capmask, head_line, head_other
        elif not rest & (rest - 1):
            twos += 1
            unsafe |= u
    return -1, 0, n_open, twos, unsafe, ncaps, capmask, head_line, head_other


def eaten_chain(line: int, box: int, undrawn: int, box_mask: Any, edge_box: Any) -> tuple[int, bool, int]:
    """Rule 2's walk: the chain whose head's last line is ``line`` and whose next box is ``box``
    (two lines undrawn), followed to its far end: (its boxes, whether the far end is capturable,
    the double-dealing line: the next box's other undrawn line)."""
    length = 2
    prev = line
    deal = -1
    capturable_end = False
    while True:
        nxt_line = (box_mask[box] & undrawn & ~(1 << prev)).bit_length() - 1
        if deal < 0:
            deal = nxt_line
        nxt = other_box(nxt_line, box, edge_box)
        if nxt < 0:
            break
        left = (box_mask[nxt] & undrawn).bit_count()
        if left == 2:
            length += 1
            prev = nxt_line
            box = nxt
            continue
        if left == 1:
            length += 1
            capturable_end = True
        break
    return length, capturable_end, deal


def one_chain(ncaps: int, capturable_end: bool) -> bool:
    """Rule 2 applies: the chain eaten from the first head is the only one open (its
    capturable boxes are all there are: its head, and its far end if that is capturable).
    With several open, which is eaten last -- the one to double-deal in -- changes the value
    (a 4x4 position hands over two boxes or four by that choice), so every line is searched."""
    return ncaps == (2 if capturable_end else 1)


def double_deal(ncaps: int, length: int, capturable_end: bool) -> bool:
    """Rule 2: whether the double-dealing line is searched beside taking the head: the chain
    eaten is the only one open, with two boxes left (one open end) or four (both capturable)."""
    return ncaps == (2 if capturable_end else 1) and length == (4 if capturable_end else 2)


def walk(start: int, undrawn: int, box_mask: Any, edge_box: Any) -> tuple[int, bool, int, int, int, int]:
    """The chain or loop of boxes two lines short through box ``start`` (one of them): its
    boxes, whether it is a loop, its two end lines (-1 for a loop), its lowest-numbered line
    and its boxes as a mask."""
    lines = box_mask[start] & undrawn
    first = (lines & -lines).bit_length() - 1
    second = (lines & (lines - 1)).bit_length() - 1
    length = 1
    least = min(first, second)
    end0 = -1
    end1 = -1
    seen = 1 << start
    for side in range(2):
        line = first if side == 0 else second
        box = start
        while True:
            least = min(least, line)
            nxt = other_box(line, box, edge_box)
            if nxt < 0 or (box_mask[nxt] & undrawn).bit_count() != 2:
                if side == 0:
                    end0 = line
                else:
                    end1 = line
                break
            if nxt == start:
                # a loop: every line of it has been walked
                return length, True, -1, -1, least, seen
            seen |= 1 << nxt
            length += 1
            line = (box_mask[nxt] & undrawn & ~(1 << line)).bit_length() - 1
            box = nxt
    return length, False, end0, end1, least, seen


def components(undrawn: int, box_mask: Any, edge_box: Any, counts: Any) -> bool:
    """Count the chains and loops of the open boxes (every one with two undrawn lines) by
    length into ``counts`` (:func:`loony`'s layout); False if a loop is shorter than four (the
    recursion assumes four)."""
    nb = len(box_mask)
    for k in range(2 * (nb + 1)):
        counts[k] = 0
    seen = 0
    for start in range(nb):
        if not box_mask[start] & undrawn or (seen >> start) & 1:
            continue
        length, loop, _, _, _, boxes = walk(start, undrawn, box_mask, edge_box)
        seen |= boxes
        if loop:
            if length < 4:
                return False
            counts[nb + 1 + length] += 1
        else:
            counts[length] += 1
    return True


def loony(counts: Any, nb: int) -> int:
    """Future net margin of the player to move in a simple loony endgame of ``counts[k]``
    chains and ``counts[nb + 1 + k]`` loops (of four or more) of ``k`` boxes (changed while
    searching, restored on return); the rest of each line of play is :func:`loony_rest`'s.

    Every move opens a component, and the opponent then either takes all of it and moves
    next, or takes all but two boxes of a long chain (all but four of a loop) and hands
    those back, keeping control (Buzzard and Ciere, 2014):

    * a chain of one or two boxes is handed over whole (a pair opened in the middle,
      so it cannot be declined): the opponent gets ``k + V(rest)``;
    * a chain of ``k >= 3``: the opponent gets ``max(k + V(rest), k - 4 - V(rest))``;
    * a loop of ``k >= 4``: the opponent gets ``max(k + V(rest), k - 8 - V(rest))``.

    The mover opens the component that leaves the opponent least.
    """
    best = NONE
    for k in range(1, nb + 1):
        if counts[k]:
            counts[k] -= 1
            rest = loony_rest(counts, nb)
            counts[k] += 1
            best = max(best, -(k + rest if k <= 2 else max(k + rest, k - 4 - rest)))
    for k in range(4, nb + 1):
        if counts[nb + 1 + k]:
            counts[nb + 1 + k] -= 1
            rest = loony_rest(counts, nb)
            counts[nb + 1 + k] += 1
            best = max(best, -max(k + rest, k - 8 - rest))
    return 0 if best == NONE else best


_memo: dict[tuple[int, ...], int] = {}


def loony_rest(counts: MutableSequence[int], nb: int) -> int:
    """:func:`loony` remembered by its counts (compiled: :func:`loony` itself, which has no
    dict to remember in and is quick enough to search again)."""
    key = tuple(counts)
    value = _memo.get(key)
    if value is None:
        if len(_memo) >= _MEMO_SIZE:
            _memo.clear()
        value = _memo[key] = loony(counts, nb)
    return value


def loony_value(chains: Sequence[int], loops: Sequence[int]) -> int:
    """:func:`loony` of the chain lengths ``chains`` and the loop lengths ``loops`` (four or more)."""
    nb = sum(chains) + sum(loops)
    counts = [0] * (2 * (nb + 1))
    for k in chains:
        counts[k] += 1
    for k in loops:
        counts[nb + 1 + k] += 1
    return loony_rest(counts, nb)


def chain_keeps(m: int, undrawn: int, box_mask: Any, edge_box: Any) -> bool:
    """Whether line ``m``, which borders a box with two undrawn lines, is the one line
    searched of its chain or loop (the one-line-a-chain rule; no box is capturable): the
    middle line of a chain of two boxes, the lower-numbered end line of any other chain,
    the lowest-numbered line of a loop."""
    b0 = edge_box[m][0]
    b1 = edge_box[m][1]
    two0 = b0 >= 0 and (box_mask[b0] & undrawn).bit_count() == 2
    two1 = b1 >= 0 and (box_mask[b1] & undrawn).bit_count() == 2
    if not two0 and not two1:
        return True
    length, loop, end0, end1, least, _ = walk(b0 if two0 else b1, undrawn, box_mask, edge_box)
    if loop:
        return m == least
    if length == 2:
        return two0 and two1
    return m == min(end0, end1)


def move_groups(first: int, capmask: int, undrawn: int, unsafe: int) -> tuple[int, int, int]:
    """The lines a unit search tries after the table's best line ``first`` (-1 for none), as
    three masks in turn: captures, lines handing no box over, the rest (each group is then
    tried nearest the centre first)."""
    rest = ~(1 << first) if first >= 0 else -1
    return capmask & rest, undrawn & ~(unsafe | capmask) & rest, unsafe & ~capmask & rest


def closes(line: int, after: int, box_mask: Any, edge_box: Any) -> int:
    """How many boxes ``line`` closes in the drawn mask ``after`` (which holds it)."""
    gain = 0
    for j in range(2):
        b = edge_box[line][j]
        if b >= 0 and after & box_mask[b] == box_mask[b]:
            gain += 1
    return gain


def root_order(order: Sequence[int], drawn: int, first: int) -> list[int]:
    """The undrawn lines of ``drawn`` in the order a unit search's root tries them: the table's
    best line ``first`` (-1 for none), then the rest in ``order`` (nearest the centre first)."""
    return sorted((e for e in order if not drawn >> e & 1), key=lambda e: e != first)


def compiled_rules(jit: Callable[..., Any]) -> dict[str, Any]:
    """The :data:`SHARED` functions compiled by ``jit(inline=...)`` (``numba.njit`` with its
    options; :data:`INLINE` ones inlined into their callers), by name. Each is the same code as
    here, bound to a copy of this module's names in which the shared functions are the
    compiled ones and :func:`loony_rest` is :func:`loony` itself."""
    names: dict[str, Any] = dict(globals())
    for name in SHARED:
        func = globals()[name]
        names[name] = jit(inline="always" if name in INLINE else "never")(
            types.FunctionType(func.__code__, names, name, func.__defaults__))
    names["loony_rest"] = names["loony"]
    return {name: names[name] for name in SHARED}


__all__ = ["NONE", "chain_keeps", "closes", "compiled_rules", "components", "double_deal", "one_chain",
           "eaten_chain", "loony", "loony_value", "merged_bounds", "move_groups", "other_box",
           "root_order", "scan", "walk", "window"]
