"""Exact checks that a board's boxes are the faces of a planar, connected drawing (PP-1).

The lines are straight segments between dots at integer coordinates (the board's
coordinates times their common denominator), so every test is exact integer arithmetic.
Each check returns a message naming the fault, or ``None``; together they run in
O(E log E) for E lines:

* :func:`crossing` sweeps the dots left to right (Shamos-Hoey) and finds any two lines
  that cross, overlap or touch away from a shared end, and any dot lying on a line;
* :func:`face_fault` orders the lines around every dot by angle and checks that each box
  turns the tightest corner at each of its dots (nothing inside it), with no two boxes on
  one side of a line;
* :func:`component_count` counts the pieces the lines form (a board is one piece).
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import Sequence

IntPoint = tuple[int, int]


def cross(o: IntPoint, a: IntPoint, b: IntPoint) -> int:
    """Twice the signed area of triangle o, a, b: positive when a -> b turns counterclockwise about o."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def twice_area(points: Sequence[IntPoint], cycle: Sequence[int]) -> int:
    """Twice the signed area of the polygon through ``cycle`` (shoelace): positive when counterclockwise."""
    total = 0
    prev = points[cycle[-1]]
    for d in cycle:
        p = points[d]
        total += prev[0] * p[1] - p[0] * prev[1]
        prev = p
    return total


def _within(a: IntPoint, b: IntPoint, c: IntPoint) -> bool:
    """``c`` lies on segment a-b, given that the three are collinear."""
    return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])


def _meet(p1: IntPoint, p2: IntPoint, q1: IntPoint, q2: IntPoint) -> bool:
    """Segments p1-p2 and q1-q2, sharing no end, have a point in common."""
    d1, d2 = cross(q1, q2, p1), cross(q1, q2, p2)
    d3, d4 = cross(p1, p2, q1), cross(p1, p2, q2)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return ((d1 == 0 and _within(q1, q2, p1)) or (d2 == 0 and _within(q1, q2, p2))
            or (d3 == 0 and _within(p1, p2, q1)) or (d4 == 0 and _within(p1, p2, q2)))


def _lines_conflict(points: Sequence[IntPoint], s: tuple[int, int], t: tuple[int, int]) -> bool:
    """Lines ``s`` and ``t`` (dot pairs) meet anywhere but at one shared end."""
    shared = set(s) & set(t)
    if not shared:
        return _meet(points[s[0]], points[s[1]], points[t[0]], points[t[1]])
    (c,) = shared
    a, b = points[s[0] if s[1] == c else s[1]], points[t[0] if t[1] == c else t[1]]
    o = points[c]
    # one shared end: they overlap only if they leave it in the same direction
    return cross(o, a, b) == 0 and (a[0] - o[0]) * (b[0] - o[0]) + (a[1] - o[1]) * (b[1] - o[1]) > 0


def crossing(points: Sequence[IntPoint], edges: Sequence[tuple[int, int]]) -> tuple[str, int, int] | None:
    """The first fault the sweep meets: ``("lines", e, f)`` for lines that meet away from a
    shared end, ``("dot", d, e)`` for dot ``d`` on line ``e``; ``None`` when the drawing is plane.

    Dots are visited in (x, y) order; the lines the sweep crosses are kept ordered from below
    to above. While no fault has been seen, that order is exact and only neighbours can be
    the leftmost fault, so each dot needs O(log E) orientation tests (Shamos-Hoey).
    """
    n = len(points)
    left = [min(a, b, key=lambda d: points[d]) for a, b in edges]
    right = [max(a, b, key=lambda d: points[d]) for a, b in edges]
    starting: list[list[int]] = [[] for _ in range(n)]
    ending: list[list[int]] = [[] for _ in range(n)]
    for e in range(len(edges)):
        starting[left[e]].append(e)
        ending[right[e]].append(e)
    active: list[int] = []  # lines crossing the sweep, lowest first

    def above(e: int, p: IntPoint) -> int:
        """Positive when ``p`` is above line ``e`` (seen from its left end), 0 when on it."""
        return cross(points[left[e]], points[right[e]], p)

    for d in sorted(range(n), key=lambda i: points[i]):
        p = points[d]
        for e in ending[d]:
            active.remove(e)
        lo, hi = 0, len(active)
        while lo < hi:  # first line that p is strictly below
            mid = (lo + hi) // 2
            if above(active[mid], p) >= 0:
                lo = mid + 1
            else:
                hi = mid
        if lo > 0 and above(active[lo - 1], p) == 0:
            return ("dot", d, active[lo - 1])

        def lower_first(a: int, b: int, p: IntPoint = p) -> int:
            return -cross(p, points[right[a]], points[right[b]])

        new = sorted(starting[d], key=cmp_to_key(lower_first))
        for a, b in zip(new, new[1:]):
            if _lines_conflict(points, edges[a], edges[b]):
                return ("lines", a, b)
        below_line = active[lo - 1] if lo > 0 else None
        above_line = active[lo] if lo < len(active) else None
        pairs = [(below_line, new[0] if new else above_line), (new[-1] if new else None, above_line)]
        for s, t in pairs:
            if s is not None and t is not None and s != t and _lines_conflict(points, edges[s], edges[t]):
                return ("lines", s, t)
        active[lo:lo] = new
    return None


def _half(dx: int, dy: int) -> int:
    """0 for directions in [0, 180) degrees, 1 for [180, 360)."""
    return 0 if dy > 0 or (dy == 0 and dx > 0) else 1


def rotations(points: Sequence[IntPoint], edges: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Per dot, its neighbours in counterclockwise order of direction (exact)."""
    around: list[list[int]] = [[] for _ in points]
    for a, b in edges:
        around[a].append(b)
        around[b].append(a)
    for d, others in enumerate(around):
        o = points[d]

        def compare(a: int, b: int, o: IntPoint = o) -> int:
            pa, pb = points[a], points[b]
            ha, hb = _half(pa[0] - o[0], pa[1] - o[1]), _half(pb[0] - o[0], pb[1] - o[1])
            if ha != hb:
                return ha - hb
            return -cross(o, pa, pb)

        others.sort(key=cmp_to_key(compare))
    return around


def face_fault(points: Sequence[IntPoint], edges: Sequence[tuple[int, int]],
               boxes: Sequence[Sequence[int]]) -> tuple[str, int, int] | None:
    """Why the boxes are not faces of the (plane, connected) drawing, or ``None``.

    ``("zero", b, 0)``: box ``b`` has no area; ``("side", b, c)``: boxes ``b`` and ``c`` lie
    on the same side of a shared line; ``("inside", b, d)``: a line leaves dot ``d`` into
    box ``b``'s inside (so ``b`` encloses or overlaps something).
    """
    ccw: list[Sequence[int]] = []
    for b, cycle in enumerate(boxes):
        area = twice_area(points, cycle)
        if area == 0:
            return ("zero", b, 0)
        ccw.append(cycle if area > 0 else cycle[::-1])
    side: dict[tuple[int, int], int] = {}
    for b, cycle in enumerate(ccw):
        prev = cycle[-1]
        for d in cycle:
            other = side.setdefault((prev, d), b)
            if other != b:
                return ("side", other, b)
            prev = d
    around = rotations(points, edges)
    place = [{n: i for i, n in enumerate(others)} for others in around]
    for b, cycle in enumerate(ccw):
        k = len(cycle)
        for i, v in enumerate(cycle):
            u, w = cycle[i - 1], cycle[(i + 1) % k]
            # inside a counterclockwise box, the corner at v runs counterclockwise from v->w to v->u
            others = around[v]
            if others[(place[v][w] + 1) % len(others)] != u:
                return ("inside", b, v)
    return None


def component_count(n: int, edges: Sequence[tuple[int, int]]) -> int:
    """How many connected pieces ``n`` dots and ``edges`` form (union-find)."""
    parent = list(range(n))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    pieces = n
    for a, b in edges:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
            pieces -= 1
    return pieces
