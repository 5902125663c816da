"""UCT's terms from tables, shared by the pure search (:mod:`.mcts`) and the compiled tree
(:mod:`.tree`), so that both compute a child's value with the same float operations.

A child visited ``n`` times (virtual losses included) with summed return ``r``, under a node
visited ``N`` times, is worth ``(r + c * sqrt(log N) * sqrt(n)) * (1 / n)``: the textbook UCT
value, with the division taken as a product by the reciprocal. Below :data:`VISITS` the three
factors come from a table made once a process per constant ``c``; above, they are worked out
the same way. In a late Pillage search the logarithm alone was a tenth of the time, and the
square root and division a child most of the compiled part (docs/ai.md, "The compiled tree").
"""

from __future__ import annotations

import math

import numpy as np

#: how many visit counts the tables cover (three rows of 8-byte floats: 384 KB a constant)
VISITS = 1 << 14
_tables: dict[float, tuple[np.ndarray, tuple[list[float], list[float], list[float]]]] = {}


def _made(c: float) -> tuple[np.ndarray, tuple[list[float], list[float], list[float]]]:
    """The table of ``c`` as an array (for compiled code) and as lists (for Python), made once."""
    found = _tables.get(c)
    if found is None:
        explore = [0.0] + [c * math.sqrt(math.log(n)) for n in range(1, VISITS)]
        roots = [math.sqrt(n) for n in range(VISITS)]
        inverses = [0.0] + [1.0 / n for n in range(1, VISITS)]
        found = _tables[c] = (np.array([explore, roots, inverses]), (explore, roots, inverses))
    return found


def uct_table(c: float) -> np.ndarray:
    """Rows ``c * sqrt(log n)``, ``sqrt(n)`` and ``1 / n`` for ``n`` below :data:`VISITS` (row 0's
    and 2's first entry unused)."""
    return _made(c)[0]


def uct_lists(c: float) -> tuple[list[float], list[float], list[float]]:
    """:func:`uct_table`'s rows as Python lists (faster to index from Python than an array)."""
    return _made(c)[1]


def explore_term(c: float, visits: int, explore: list[float]) -> float:
    """``c * sqrt(log visits)``, from ``explore`` (:func:`uct_lists`' first row) where it holds it."""
    return explore[visits] if visits < VISITS else c * math.sqrt(math.log(visits))
