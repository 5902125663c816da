"""HB-2 geometry on its own: exact integer tests for crossing, touching, overlap, dots.

Pictures use y upward; ``o`` marks dots, lines are the segments.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plunder.games.hubs.geometry import (
    conflict_mask,
    conflicts,
    contact,
    on_segment,
    orient,
    passes_through,
    segments_meet,
    visible_pairs,
)


def test_orientation_signs() -> None:
    #   c
    #   |        a -> b -> c turns left (counter-clockwise)
    #   a---b
    assert orient((0, 0), (2, 0), (0, 2)) == 1
    assert orient((0, 0), (2, 0), (0, -2)) == -1
    assert orient((0, 0), (2, 0), (5, 0)) == 0


def test_proper_crossing() -> None:
    #  c     b
    #    \ /
    #     X
    #    / \
    #  a     d
    assert contact((0, 0), (2, 2), (0, 2), (2, 0)) == "crosses"


def test_crossing_at_a_non_lattice_point_is_still_found() -> None:
    # a(0,0)-b(3,1) and c(1,1)-d(2,0) cross at (1.5, 0.5): no float needed to see it.
    #   c . . b
    #   a . d .
    assert segments_meet((0, 0), (3, 1), (1, 1), (2, 0))
    assert conflicts((0, 0), (3, 1), (1, 1), (2, 0))


def test_near_miss_is_not_a_crossing() -> None:
    # a(0,0)-b(100,1) passes just under c(50,1)-d(51,1): the gap is 1/2 unit at x = 50.
    assert not segments_meet((0, 0), (100, 1), (50, 1), (51, 1))
    # The vertical c(50,1)-d(50,0) does meet it, at (50, 1/2).
    assert segments_meet((0, 0), (100, 1), (50, 1), (50, 0))


def test_t_junction_touches() -> None:
    #     c
    #     |
    # a---d---b      c-d ends on the middle of a-b: a T-junction, forbidden
    assert contact((0, 0), (4, 0), (2, 2), (2, 0)) == "touches"


def test_shared_endpoint_is_allowed() -> None:
    #     c
    #    /
    #   a---b        a-b and a-c share the end a: allowed
    assert not conflicts((0, 0), (3, 0), (0, 0), (2, 2))
    assert contact((0, 0), (3, 0), (2, 2), (0, 0)) is None


def test_shared_endpoint_collinear_opposite_ways_is_allowed() -> None:
    # c---a---b      a-b and a-c lie on one line but only meet at a
    assert not conflicts((0, 0), (3, 0), (0, 0), (-2, 0))


def test_shared_endpoint_collinear_same_way_overlaps() -> None:
    # a---c---b      a-c runs along a-b from their shared end: overlap
    assert conflicts((0, 0), (4, 0), (0, 0), (2, 0))
    assert contact((0, 0), (4, 0), (0, 0), (2, 0)) == "overlaps"


def test_collinear_overlap_and_collinear_gap() -> None:
    # a---c===b---d  (c-d overlaps a-b between c and b)
    assert contact((0, 0), (4, 0), (2, 0), (6, 0)) == "overlaps"
    # a---b   c---d  (same line, apart): no contact
    assert not conflicts((0, 0), (2, 0), (3, 0), (5, 0))
    # a---b---d where c = b: end to end on one line, sharing b: allowed
    assert not conflicts((0, 0), (2, 0), (2, 0), (5, 0))


def test_collinear_diagonal_touching_end_to_end_without_sharing() -> None:
    # . . . . d      On the diagonal y = x: a(0,0)-b(2,2) and b(2,2)-d(4,4) meet
    # . . . . .      only at their shared end b: allowed.
    # . . b . .
    # . . . . .
    # a . . . .
    assert not conflicts((0, 0), (2, 2), (2, 2), (4, 4))
    # d(1,1) lies inside a-b: c(1,1)-d(3,3) overlaps it.
    assert conflicts((0, 0), (2, 2), (1, 1), (3, 3))


def test_the_same_pair_twice() -> None:
    assert contact((0, 0), (1, 2), (1, 2), (0, 0)) == "joins the same two dots as"


def test_segment_grazing_a_dot() -> None:
    #   . . . . b
    #   . . p q .      a(0,0)-b(4,2) runs along y = x/2: it passes through p(2,1)
    #   a . . . .      and grazes past q(3,1), half a unit above it.
    assert passes_through((0, 0), (4, 2), (2, 1))
    assert not passes_through((0, 0), (4, 2), (3, 1))
    # The ends themselves are not "passed through".
    assert not passes_through((0, 0), (4, 2), (4, 2))
    assert on_segment((4, 2), (0, 0), (4, 2))


def test_visible_pairs_with_collinear_dots() -> None:
    # a   b   c   on one row, d above b:
    #     d
    # a   b   c      a-c passes through b, so it is no candidate; every other pair is.
    pts = [(0, 0), (2, 0), (4, 0), (2, 2)]
    assert visible_pairs(pts).tolist() == [[0, 1], [0, 3], [1, 2], [1, 3], [2, 3]]


def test_visible_pairs_on_a_full_3x3_lattice() -> None:
    # o o o    every pair except the ones through another lattice point: the 3 rows,
    # o o o    3 columns and 2 diagonals of length 2 each hide one pair (8 in all),
    # o o o    so 36 - 8 = 28 candidates.
    pts = [(x, y) for y in range(3) for x in range(3)]
    assert len(visible_pairs(pts)) == 28


coords = st.integers(-30, 30)
points = st.tuples(coords, coords)


@given(points, points, points, points)
def test_conflicts_is_symmetric(a, b, c, d) -> None:  # type: ignore[no-untyped-def]
    if a == b or c == d:
        return
    assert conflicts(a, b, c, d) == conflicts(c, d, a, b) == conflicts(b, a, d, c)


@given(points, points, points, points, coords, coords)
def test_meeting_is_invariant_under_translation(a, b, c, d, dx, dy) -> None:  # type: ignore[no-untyped-def]
    def move(p):  # type: ignore[no-untyped-def]
        return (p[0] + dx, p[1] + dy)

    assert segments_meet(a, b, c, d) == segments_meet(move(a), move(b), move(c), move(d))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=2, max_size=14, unique=True))
def test_vectorised_mask_matches_the_scalar_predicate(pts) -> None:  # type: ignore[no-untyped-def]
    xy = np.array(pts, dtype=np.int64)
    pairs = [(i, j) for i in range(len(pts)) for j in range(i + 1, len(pts))]
    ends = np.array(pairs, dtype=np.int64)
    for i, j in pairs[:12]:
        row = conflict_mask(np.full(len(pairs), i), np.full(len(pairs), j), ends[:, 0], ends[:, 1], xy)
        expected = [conflicts(pts[i], pts[j], pts[c], pts[d]) for c, d in pairs]
        assert row.tolist() == expected


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), st.integers(0, 5)), min_size=2, max_size=16, unique=True))
def test_visible_pairs_match_the_definition(pts) -> None:  # type: ignore[no-untyped-def]
    expected = [(i, j) for i in range(len(pts)) for j in range(i + 1, len(pts))
                if not any(passes_through(pts[i], pts[j], p) for p in pts)]
    assert [tuple(pair) for pair in visible_pairs(pts).tolist()] == expected


@pytest.mark.parametrize("big", [999])
def test_large_coordinates_stay_exact(big: int) -> None:
    # Nearly parallel long segments a-b and c-d that miss by one lattice step at the far end.
    assert not segments_meet((0, 0), (big, big - 1), (0, 1), (big, big))
    assert segments_meet((0, 0), (big, big), (0, 1), (big, big - 1))
