"""One round's sheet once its dots are placed: candidate segments and what rules them out.

A :class:`Paper` is derived from the dots alone, so the states of one round share it
(it is cached by the dots tuple) and it never takes part in a state's equality.
A candidate is a pair of dots whose segment passes through no third dot (HB-2); its
position in :attr:`Paper.segments` is its candidate id. A state keeps its drawable
candidates as the bits of one int, and drawing a segment clears the bits of the
candidates it rules out -- found among the still-drawable ones only, after a
bounding-box test -- so a move costs time and memory linear in the candidates, never
quadratic. :func:`brute_force_legal` is the plain O(n^2 * (n + m)) definition the tests
and the benchmark compare it with.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from .actions import Segment
from .geometry import IntArray, Point, conflict_mask, conflicts, passes_through, visible_pairs

#: candidate ids (int32 halves what a kept position costs; a round has far fewer than 2**31 candidates)
IdArray = npt.NDArray[np.int32]
#: candidate pairs tested in one numpy pass; bounds the temporaries (about 30 arrays of this length)
PAIR_BLOCK = 1 << 16


class Paper:
    """The dots of a round and their candidate segments, with the geometry to rule them out."""

    def __init__(self, dots: tuple[Point, ...]) -> None:
        n = len(dots)
        self.dots = dots
        self.xy: IntArray = np.array(dots, dtype=np.int64).reshape(n, 2)
        #: dot indices of each candidate's ends in (first, second) order, shape P x 2;
        #: a candidate's row is its id
        self.ends: IntArray = visible_pairs(dots)
        # Segment values are made when first asked for: a search's rollouts set up many
        # sheets and name only the few segments they draw.
        self._segments: list[Segment | None] = [None] * len(self.ends)
        # first * n + second rises with the id, so an id is found by bisection.
        self._codes: IntArray = self.ends[:, 0] * n + self.ends[:, 1]
        ends_xy = self.xy[self.ends]
        self._box_low: IntArray = ends_xy.min(axis=1)
        self._box_high: IntArray = ends_xy.max(axis=1)

    @property
    def size(self) -> int:
        """The number of candidates."""
        return len(self.ends)

    def segment(self, k: int) -> Segment:
        """Candidate ``k`` as an action."""
        made = self._segments[k]
        if made is None:
            made = self._segments[k] = Segment(int(self.ends[k, 0]), int(self.ends[k, 1]))
        return made

    def segments(self, ids: IdArray) -> list[Segment]:
        """Candidates ``ids`` as actions, in that order."""
        made, segment = self._segments, self.segment
        return [made[k] or segment(k) for k in ids.tolist()]

    def all_drawable(self) -> int:
        """The bit set of every candidate: a fresh sheet's drawable segments."""
        return (1 << self.size) - 1

    def candidate_id(self, segment: Segment) -> int | None:
        """The id of ``segment``, or ``None`` when it passes through a third dot (or names no dots)."""
        n = len(self.dots)
        if not 0 <= segment.first < segment.second < n:
            return None
        code = segment.first * n + segment.second
        k = int(np.searchsorted(self._codes, code))
        return k if k < self.size and self._codes[k] == code else None

    def ids(self, bits: int) -> IdArray:
        """The candidate ids whose bits are set in ``bits``, ascending (int32: positions keep them)."""
        raw = np.frombuffer(bits.to_bytes((self.size + 7) // 8, "little"), dtype=np.uint8)
        return np.flatnonzero(np.unpackbits(raw, bitorder="little")[: self.size]).astype(np.int32)

    def bits(self, ids: IdArray) -> int:
        """The bit set of candidate ids ``ids``."""
        flags = np.zeros(self.size, dtype=bool)
        flags[ids] = True
        return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")

    def ruled_out(self, k: int, among: IdArray) -> IdArray:
        """The candidates in ``among`` that may not be drawn beside candidate ``k`` (``k`` included)."""
        found = [among[hit] for hit, _ in self._contacts(np.array([k], dtype=np.int32), among)]
        return np.concatenate(found) if found else np.zeros(0, dtype=among.dtype)

    def blocking(self, rows: IdArray, among: IdArray, weights: IntArray | None = None) -> IntArray:
        """For each candidate in ``rows``: how many candidates of ``among`` it rules out.

        With ``weights`` (one per member of ``among``), the sum of their weights instead.
        """
        total = np.zeros(len(rows), dtype=np.int64)
        for hit, row in self._contacts(rows, among):
            total += np.bincount(row, minlength=len(rows)) if weights is None else \
                np.bincount(row, weights=weights[hit], minlength=len(rows)).astype(np.int64)
        return total

    def _contacts(self, rows: IdArray, among: IdArray) -> Iterator[tuple[IntArray, IntArray]]:
        """Every conflicting (member of ``among``, row) pair, as positions into ``among`` and ``rows``.

        Two segments that touch share a point, so their bounding boxes meet: that cheap
        test picks the pairs worth the exact predicate. Work is done in blocks of at most
        :data:`PAIR_BLOCK` pairs.
        """
        low, high = self._box_low, self._box_high
        for start in range(0, len(among), PAIR_BLOCK):
            part = among[start:start + PAIR_BLOCK]
            step = max(1, PAIR_BLOCK // len(part))
            for first in range(0, len(rows), step):
                block = rows[first:first + step]
                near = ((low[part, None, 0] <= high[None, block, 0]) & (high[part, None, 0] >= low[None, block, 0])
                        & (low[part, None, 1] <= high[None, block, 1]) & (high[part, None, 1] >= low[None, block, 1]))
                member, row = np.nonzero(near)
                a, b = self.ends[part[member]], self.ends[block[row]]
                hit = conflict_mask(b[:, 0], b[:, 1], a[:, 0], a[:, 1], self.xy)
                yield start + member[hit], first + row[hit]


# A round only ever needs its own sheet; a few spare entries serve searches that look
# ahead into other placements. A 700-dot sheet takes tens of megabytes.
@lru_cache(maxsize=4)
def paper_for(dots: tuple[Point, ...]) -> Paper:
    """The shared :class:`Paper` of a round's dots."""
    return Paper(dots)


def brute_force_legal(dots: Sequence[Point], drawn: Sequence[Segment]) -> set[Segment]:
    """Legal segments by the definition (HB-2), checking every pair against every dot and segment."""
    legal = set()
    n = len(dots)
    for i in range(n):
        for j in range(i + 1, n):
            if Segment(i, j) in drawn:
                continue
            a, b = dots[i], dots[j]
            if any(passes_through(a, b, dots[k]) for k in range(n) if k != i and k != j):
                continue
            if any(conflicts(dots[s.first], dots[s.second], a, b) for s in drawn):
                continue
            legal.add(Segment(i, j))
    return legal
