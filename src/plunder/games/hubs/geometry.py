"""Exact integer geometry for Hubs (HB-2): orientation, touching, overlap, visibility.

Every test here works on whole-number coordinates with exact integer arithmetic, so
two segments that merely graze are never mistaken for disjoint (or the reverse) the
way floating point can. Points are ``(x, y)`` tuples; a segment is a pair of points.

The scalar functions are the reference. :func:`conflict_mask` is the same predicate
vectorised with numpy (int64 is exact here: coordinates stay below 2**20, so every
cross product fits), and :func:`visible_pairs` lists the pairs of dots whose joining
segment passes through no third dot.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import numpy.typing as npt

Point = tuple[int, int]
IntArray = npt.NDArray[np.int64]


def orient(a: Point, b: Point, c: Point) -> int:
    """Sign of the turn a -> b -> c: +1 left (counter-clockwise), -1 right, 0 collinear."""
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (cross > 0) - (cross < 0)


def in_box(p: Point, a: Point, b: Point) -> bool:
    """True when ``p`` lies in the closed bounding box of ``a`` and ``b``."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def on_segment(p: Point, a: Point, b: Point) -> bool:
    """True when ``p`` lies on the closed segment ``a``-``b`` (its ends included)."""
    return orient(a, b, p) == 0 and in_box(p, a, b)


def passes_through(a: Point, b: Point, p: Point) -> bool:
    """True when the segment ``a``-``b`` passes through ``p`` other than at its ends."""
    return p != a and p != b and on_segment(p, a, b)


def segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True when the closed segments ``a``-``b`` and ``c``-``d`` share at least one point.

    Covers proper crossings, an end touching the other segment (a T-junction), shared
    ends and collinear overlap.
    """
    o1, o2 = orient(a, b, c), orient(a, b, d)
    o3, o4 = orient(c, d, a), orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    # Any remaining contact puts one segment's end on the other segment.
    return ((o1 == 0 and in_box(c, a, b)) or (o2 == 0 and in_box(d, a, b))
            or (o3 == 0 and in_box(a, c, d)) or (o4 == 0 and in_box(b, c, d)))


def conflicts(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True when segment ``c``-``d`` may not be drawn beside ``a``-``b`` (HB-2).

    Segments may meet only at a shared end. The same pair twice conflicts; two segments
    from one shared end conflict only if they run the same way along one line (overlap).
    """
    ends = {a, b}
    shared = [p for p in (c, d) if p in ends]
    if len(shared) == 2:
        return True
    if len(shared) == 1:
        s = shared[0]
        u = b if s == a else a
        v = d if s == c else c
        return orient(s, u, v) == 0 and (u[0] - s[0]) * (v[0] - s[0]) + (u[1] - s[1]) * (v[1] - s[1]) > 0
    return segments_meet(a, b, c, d)


def contact(a: Point, b: Point, c: Point, d: Point) -> str | None:
    """How ``c``-``d`` meets ``a``-``b`` in a way HB-2 forbids, in words; ``None`` if allowed."""
    if not conflicts(a, b, c, d):
        return None
    if {a, b} == {c, d}:
        return "joins the same two dots as"
    if orient(a, b, c) == 0 and orient(a, b, d) == 0:
        return "overlaps"
    if orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0:
        return "crosses"
    return "touches"


def visible_pairs(points: Sequence[Point]) -> IntArray:
    """Every index pair ``(i, j)``, ``i < j``, whose segment passes through no other point.

    From each point, the others in one primitive direction (dx/g, dy/g) lie on one ray;
    only the nearest of them is reachable without passing through another, so this is
    O(n^2 log n) instead of testing every third point. Returns a P x 2 array in (i, j)
    order.
    """
    n = len(points)
    xy = np.array(points, dtype=np.int64).reshape(n, 2)
    i, j = np.nonzero(~np.eye(n, dtype=bool))
    dx, dy = xy[j, 0] - xy[i, 0], xy[j, 1] - xy[i, 1]
    step = np.gcd(dx, dy)  # positive: no two points coincide (HB-1)
    ux, uy = dx // step, dy // step
    # Sorted by point, then ray, then distance: the first of each ray is the nearest.
    order = np.lexsort((step, uy, ux, i))
    i, j, ux, uy = i[order], j[order], ux[order], uy[order]
    nearest = np.ones(len(i), dtype=bool)
    nearest[1:] = (i[1:] != i[:-1]) | (ux[1:] != ux[:-1]) | (uy[1:] != uy[:-1])
    i, j = i[nearest], j[nearest]
    # Visibility is symmetric, so each pair appears from both ends; keep it once.
    i, j = i[i < j], j[i < j]
    order = np.lexsort((j, i))
    return np.stack([i[order], j[order]], axis=1).astype(np.int64)


def _orient_many(ax: IntArray | int, ay: IntArray | int, bx: IntArray | int, by: IntArray | int,
                 cx: IntArray | int, cy: IntArray | int) -> IntArray:
    return np.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


def _in_box_many(px: IntArray | int, py: IntArray | int, ax: IntArray | int, ay: IntArray | int,
                 bx: IntArray | int, by: IntArray | int) -> npt.NDArray[np.bool_]:
    return ((np.minimum(ax, bx) <= px) & (px <= np.maximum(ax, bx))
            & (np.minimum(ay, by) <= py) & (py <= np.maximum(ay, by)))


def conflict_mask(i: IntArray, j: IntArray, ci: IntArray, di: IntArray, xy: IntArray) -> npt.NDArray[np.bool_]:
    """Elementwise :func:`conflicts`: does dot pair ``(ci, di)`` conflict with dot pair ``(i, j)``?

    The four index arrays broadcast against each other; ``xy`` holds the dots'
    coordinates (shape N x 2). Ends are compared by index, which is the same as by
    position because no two dots share a lattice point (HB-1).
    """
    ax, ay, bx, by = xy[i, 0], xy[i, 1], xy[j, 0], xy[j, 1]
    cx, cy, dx, dy = xy[ci, 0], xy[ci, 1], xy[di, 0], xy[di, 1]
    o1 = _orient_many(ax, ay, bx, by, cx, cy)
    o2 = _orient_many(ax, ay, bx, by, dx, dy)
    o3 = _orient_many(cx, cy, dx, dy, ax, ay)
    o4 = _orient_many(cx, cy, dx, dy, bx, by)
    meet = ((o1 * o2 < 0) & (o3 * o4 < 0)) \
        | ((o1 == 0) & _in_box_many(cx, cy, ax, ay, bx, by)) \
        | ((o2 == 0) & _in_box_many(dx, dy, ax, ay, bx, by)) \
        | ((o3 == 0) & _in_box_many(ax, ay, cx, cy, dx, dy)) \
        | ((o4 == 0) & _in_box_many(bx, by, cx, cy, dx, dy))
    c_shared = (ci == i) | (ci == j)
    d_shared = (di == i) | (di == j)
    both = c_shared & d_shared
    one = c_shared ^ d_shared
    # With one shared end s, u is the first pair's other end and v the second's.
    sx = np.where(c_shared, cx, dx)
    sy = np.where(c_shared, cy, dy)
    vx = np.where(c_shared, dx, cx)
    vy = np.where(c_shared, dy, cy)
    s_is_a = (sx == ax) & (sy == ay)
    ux = np.where(s_is_a, bx, ax)
    uy = np.where(s_is_a, by, ay)
    same_way = (_orient_many(sx, sy, ux, uy, vx, vy) == 0) & ((ux - sx) * (vx - sx) + (uy - sy) * (vy - sy) > 0)
    return both | (one & same_way) | (~c_shared & ~d_shared & meet)
