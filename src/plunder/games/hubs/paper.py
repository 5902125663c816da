"""One round's sheet once its dots are placed: candidate segments and what blocks what.

A :class:`Paper` is derived from the dots alone, so states of one round share it (it
is cached by the dots tuple) and it never takes part in a state's equality. The legal
segments of a position are the candidate pairs (joining two dots through no third,
HB-2) minus every pair that conflicts with a drawn segment; drawing one more segment
only removes its own conflict row, which is what makes the generator incremental.
:func:`brute_force_legal` is the plain O(n^2 * (n + m)) definition the tests and the
benchmark compare it with.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np
import numpy.typing as npt

from .geometry import Point, conflict_row, conflict_rows, conflicts, passes_through, visible_pairs

#: rows per numpy pass when building a larger matrix (bounds the temporaries)
CHUNK = 128


class Paper:
    """The dots of a round, their candidate pairs and (computed lazily) conflict rows."""

    def __init__(self, dots: tuple[Point, ...]) -> None:
        self.dots = dots
        self.xy = np.array(dots, dtype=np.int64).reshape(len(dots), 2)
        #: candidate pairs (i < j) in sorted order; a pair's position is its pair id
        self.pairs: list[tuple[int, int]] = visible_pairs(dots)
        self.index: dict[tuple[int, int], int] = {p: k for k, p in enumerate(self.pairs)}
        #: ``i * n + j`` of each pair: its segment action less the game's segment base
        self.codes: list[int] = [i * len(dots) + j for i, j in self.pairs]
        self.ends = np.array(self.pairs, dtype=np.int64).reshape(len(self.pairs), 2)
        self._rows: dict[int, frozenset[int]] = {}
        self._matrix: npt.NDArray[np.bool_] | None = None

    def conflicts(self, k: int) -> frozenset[int]:
        """Pair ids that may no longer be drawn once pair ``k`` is drawn (``k`` included)."""
        row = self._rows.get(k)
        if row is None:
            if self._matrix is not None:
                hits = self._matrix[k]
            else:
                i, j = self.pairs[k]
                hits = conflict_row(i, j, self.xy, self.ends)
            row = frozenset(np.flatnonzero(hits).tolist())
            self._rows[k] = row
        return row

    def matrix(self) -> npt.NDArray[np.bool_]:
        """The whole P x P conflict matrix, for agents that look at every candidate.

        A random round asks for a few dozen rows, far fewer than P, so the rules fetch
        rows one at a time and only agents build the matrix.
        """
        if self._matrix is None:
            p = len(self.pairs)
            out = np.zeros((p, p), dtype=bool)
            for start in range(0, p, CHUNK):
                part = self.ends[start:start + CHUNK]
                out[start:start + CHUNK] = conflict_rows(part[:, 0], part[:, 1], self.xy, self.ends)
            self._matrix = out
        return self._matrix


# A round only ever needs its own sheet; a few spare entries serve searches that
# look ahead into other placements. Matrices of 60-dot sheets take megabytes each.
@lru_cache(maxsize=8)
def paper_for(dots: tuple[Point, ...]) -> Paper:
    """The shared :class:`Paper` of a round's dots."""
    return Paper(dots)


def brute_force_legal(dots: Sequence[Point], drawn: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """Legal pairs by the definition (HB-2), checking every pair against every dot and segment."""
    done = {(min(p), max(p)) for p in drawn}
    legal = set()
    n = len(dots)
    for i in range(n):
        for j in range(i + 1, n):
            if (i, j) in done:
                continue
            a, b = dots[i], dots[j]
            if any(passes_through(a, b, dots[k]) for k in range(n) if k != i and k != j):
                continue
            if any(conflicts(dots[p], dots[q], a, b) for p, q in drawn):
                continue
            legal.add((i, j))
    return legal
