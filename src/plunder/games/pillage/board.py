"""Board geometry (PP-1): dots with coordinates, edges, and boxes bounded by edge cycles.

Generators build square, triangular, hexagonal and octagon-and-square (4.8.8) boards.
Dot labels are a column letter and a row number, ranked from the distinct x and y
coordinates (``a1`` is the top-left-most dot), so a person can type a line as ``a1-b1``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from .planar import IntPoint, component_count, cross, crossing, face_fault

Point = tuple[Fraction, Fraction]


class BoardError(ValueError):
    """A board spec or board file that breaks PP-1/PP-2 (the message says which)."""


@dataclass(frozen=True)
class Board:
    """Static geometry: never changes during a game.

    ``edges[e]`` is a pair of dot indices (low, high); ``boxes[b]`` is the box's dot
    cycle; ``box_edges[b]`` its edge indices; ``edge_boxes[e]`` the one or two boxes an
    edge borders; ``predrawn`` the edges drawn before play (PP-2).
    """

    name: str
    dots: tuple[Point, ...]
    labels: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]
    boxes: tuple[tuple[int, ...], ...]
    box_edges: tuple[tuple[int, ...], ...]
    edge_boxes: tuple[tuple[int, ...], ...]
    predrawn: tuple[int, ...] = ()
    #: characters per coordinate unit when drawn as text (x, y); None fits the picture to the dots
    scale: tuple[float, float] | None = None

    @property
    def num_edges(self) -> int:
        """Number of edges (lines that can be drawn)."""
        return len(self.edges)

    @property
    def num_boxes(self) -> int:
        """Number of boxes."""
        return len(self.boxes)

    def edge_label(self, edge: int) -> str:
        """Canonical text of a line: its two dot labels, lower dot index first."""
        a, b = self.edges[edge]
        return f"{self.labels[a]}-{self.labels[b]}"

    def find_edge(self, a: int, b: int) -> int | None:
        """Index of the edge joining dots ``a`` and ``b``, if there is one."""
        return self._edge_index().get((min(a, b), max(a, b)))

    def _edge_index(self) -> dict[tuple[int, int], int]:
        cache = self.__dict__.get("_edge_cache")
        if cache is None:
            cache = {e: i for i, e in enumerate(self.edges)}
            object.__setattr__(self, "_edge_cache", cache)
        return cache

    def dot_index(self, label: str) -> int | None:
        """Index of the dot with ``label`` (case-insensitive), if any."""
        cache = self.__dict__.get("_label_cache")
        if cache is None:
            cache = {lab.lower(): i for i, lab in enumerate(self.labels)}
            object.__setattr__(self, "_label_cache", cache)
        return cache.get(label.lower())


def column_name(rank: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa, ..."""
    name = ""
    rank += 1
    while rank:
        rank, rem = divmod(rank - 1, 26)
        name = chr(ord("a") + rem) + name
    return name


def auto_labels(dots: Sequence[Point]) -> tuple[str, ...]:
    """Column letter from the rank of x, row number from the rank of y."""
    xs = {x: i for i, x in enumerate(sorted({p[0] for p in dots}))}
    ys = {y: i for i, y in enumerate(sorted({p[1] for p in dots}))}
    return tuple(f"{column_name(xs[p[0]])}{ys[p[1]] + 1}" for p in dots)


#: most dots, lines and boxes on a board (a file's board included)
MAX_DOTS = 4000
MAX_EDGES = 6000
MAX_BOXES = 2000
#: largest coordinate magnitude
MAX_COORDINATE = 1_000_000
#: precision: every coordinate is a multiple of 1/D for one D no larger than this
MAX_DENOMINATOR = 1_000_000
#: longest dot label
MAX_LABEL_CHARS = 8

# What a player types back (PP-12): ASCII letters, then ASCII digits.
_LABEL = re.compile(r"[a-zA-Z]+[0-9]+")


def integer_points(dots: Sequence[Point]) -> list[IntPoint]:
    """The dots times their common denominator, after the coordinate limits are checked."""
    common = 1
    for i, (x, y) in enumerate(dots):
        for v in (x, y):
            if abs(v) > MAX_COORDINATE:
                raise BoardError(f"dot {i} has coordinate {float(v):g}; the limit MAX_COORDINATE is {MAX_COORDINATE} (PP-1)")
            common = math.lcm(common, v.denominator)
            if common > MAX_DENOMINATOR:
                raise BoardError(f"dot {i}: the coordinates need a common denominator above {MAX_DENOMINATOR} "
                                 f"(the precision limit MAX_DENOMINATOR) (PP-1)")
    return [(int(x * common), int(y * common)) for x, y in dots]


def check_labels(labels: Sequence[str], n: int) -> None:
    """One label per dot, distinct ignoring case, each ASCII letters then digits (so it can be typed back)."""
    if len(labels) != n or len(set(x.lower() for x in labels)) != n:
        raise BoardError("dot labels must be one per dot and distinct (PP-1)")
    for lab in labels:
        if len(lab) > MAX_LABEL_CHARS or not _LABEL.fullmatch(lab):
            raise BoardError(f"dot label {lab[:20]!r} must be up to {MAX_LABEL_CHARS} ASCII letters then digits, "
                             "like a1, so a line can be typed as a1-b1 (PP-1, PP-12)")


def check_faces(dots: Sequence[Point], labels: Sequence[str], edges: Sequence[tuple[int, int]],
                boxes: Sequence[Sequence[int]]) -> None:
    """PP-1: the lines form one plane piece and the boxes are its faces (see :mod:`.planar`)."""
    points = integer_points(dots)
    for b, cycle in enumerate(boxes):
        first, second = points[cycle[0]], points[cycle[1]]
        if all(cross(first, second, points[d]) == 0 for d in cycle[2:]):
            raise BoardError(f"box {b} has no area: its dots lie on one line; a box is a face (PP-1)")
    if component_count(len(dots), edges) != 1:
        raise BoardError("the board's lines form more than one piece (or a dot is in no box); "
                         "a board is one connected plane graph (PP-1)")
    fault = crossing(points, edges)
    if fault is not None:
        kind, i, j = fault
        if kind == "dot":
            raise BoardError(f"dot {labels[i]} lies on line {_line(labels, edges[j])}; lines meet only at their ends (PP-1)")
        raise BoardError(f"lines {_line(labels, edges[i])} and {_line(labels, edges[j])} cross or overlap; "
                         "a board is planar (PP-1)")
    fault = face_fault(points, edges, boxes)
    if fault is not None:
        kind, i, j = fault
        if kind == "zero":  # a plane box has area; kept so every fault has its message
            raise BoardError(f"box {i} has no area; a box is a face (PP-1)")
        if kind == "side":
            raise BoardError(f"boxes {i} and {j} lie on the same side of a shared line, so they overlap; "
                             "boxes are faces (PP-1)")
        raise BoardError(f"box {i} has a line from its dot {labels[j]} inside it: it encloses or overlaps "
                         "other lines or boxes; boxes are faces (PP-1)")


def _line(labels: Sequence[str], edge: tuple[int, int]) -> str:
    return f"{labels[edge[0]]}-{labels[edge[1]]}"


def build_board(
    name: str,
    dots: Sequence[Point],
    boxes: Sequence[Sequence[int]],
    predrawn: Sequence[tuple[int, int]] = (),
    labels: Sequence[str] | None = None,
    scale: tuple[float, float] | None = None,
    check_geometry: bool = True,
) -> Board:
    """Derive edges from box cycles and check the board is a proper PP-1/PP-2 board.

    Limits (:data:`MAX_DOTS`, :data:`MAX_EDGES`, :data:`MAX_BOXES`, coordinates) are
    checked before any geometry. ``check_geometry=False`` skips the face checks, for
    generators whose boards are faces by construction (a test checks them all).
    Raises :class:`BoardError` naming the broken rule.
    """
    n = len(dots)
    if n > MAX_DOTS:
        raise BoardError(f"the board has {n} dots; the limit MAX_DOTS is {MAX_DOTS} (PP-1)")
    if len(boxes) > MAX_BOXES:
        raise BoardError(f"the board has {len(boxes)} boxes; the limit MAX_BOXES is {MAX_BOXES} (PP-1)")
    corners = sum(len(c) for c in boxes)
    if corners > 2 * MAX_EDGES:
        raise BoardError(f"the boxes list {corners} corners in all; the limit is 2 * MAX_EDGES = {2 * MAX_EDGES} (PP-1)")
    if len(set(dots)) != n:
        raise BoardError("two dots share one position (PP-1)")
    if labels is None:
        labels = auto_labels(dots)
    check_labels(labels, n)
    if not boxes:
        raise BoardError("a board needs at least one box (PP-1)")
    edge_ids: dict[tuple[int, int], int] = {}
    box_edges: list[tuple[int, ...]] = []
    for b, cycle in enumerate(boxes):
        if len(cycle) < 3 or len(set(cycle)) != len(cycle):
            raise BoardError(f"box {b} must list 3 or more distinct dots (PP-1)")
        for d in cycle:
            if not 0 <= d < n:
                raise BoardError(f"box {b} names dot {d}, but dots are 0..{n - 1} (PP-1)")
        box_edges.append(tuple(
            edge_ids.setdefault((min(d, cycle[i - 1]), max(d, cycle[i - 1])), len(edge_ids)) for i, d in enumerate(cycle)
        ))
    if len(edge_ids) > MAX_EDGES:
        raise BoardError(f"the board has {len(edge_ids)} lines; the limit MAX_EDGES is {MAX_EDGES} (PP-1)")
    edges = sorted(edge_ids, key=lambda pair: edge_ids[pair])
    edge_boxes: list[list[int]] = [[] for _ in edges]
    for b, edge_list in enumerate(box_edges):
        for e in edge_list:
            edge_boxes[e].append(b)
    for e, bs in enumerate(edge_boxes):
        if len(bs) > 2:
            a, c = edges[e]
            raise BoardError(f"line {labels[a]}-{labels[c]} borders {len(bs)} boxes; an edge borders one or two (PP-1)")
    if check_geometry:
        check_faces(dots, labels, edges, boxes)
    drawn: list[int] = []
    for p, q in predrawn:
        key = (min(p, q), max(p, q))
        if key not in edge_ids:
            raise BoardError(f"pre-drawn line {p}-{q} is not an edge of any box (PP-2)")
        drawn.append(edge_ids[key])
    drawn_set = set(drawn)
    for b, edge_list in enumerate(box_edges):
        if all(e in drawn_set for e in edge_list):
            raise BoardError(f"pre-drawn lines already close box {b}; such a board is rejected (PP-2)")
    return Board(
        name=name,
        dots=tuple(dots),
        labels=tuple(labels),
        edges=tuple(edges),
        boxes=tuple(tuple(c) for c in boxes),
        box_edges=tuple(box_edges),
        edge_boxes=tuple(tuple(bs) for bs in edge_boxes),
        predrawn=tuple(sorted(drawn_set)),
        scale=scale,
    )


def _grid(rows: int, cols: int) -> tuple[list[Point], dict[tuple[int, int], int]]:
    dots: list[Point] = []
    index: dict[tuple[int, int], int] = {}
    for r in range(rows):
        for c in range(cols):
            index[(r, c)] = len(dots)
            dots.append((Fraction(c), Fraction(r)))
    return dots, index


def square(rows: int, cols: int) -> Board:
    """``rows`` x ``cols`` unit squares; boxes in reading order."""
    dots, at = _grid(rows + 1, cols + 1)
    boxes = [(at[r, c], at[r, c + 1], at[r + 1, c + 1], at[r + 1, c]) for r in range(rows) for c in range(cols)]
    return build_board(f"square:{rows}x{cols}", dots, boxes, scale=(6.0, 3.0), check_geometry=False)


def triangle(rows: int, cols: int) -> Board:
    """``rows`` strips of ``2*cols`` triangles on a triangular lattice (rows alternately offset)."""
    dots: list[Point] = []
    at: dict[tuple[int, int], int] = {}
    for r in range(rows + 1):
        for c in range(cols + 1):
            at[(r, c)] = len(dots)
            dots.append((Fraction(2 * c + r % 2), Fraction(2 * r)))
    boxes = []
    for r in range(rows):
        # Merge the two rows by x: consecutive triples are the strip's triangles.
        strip = sorted([(dots[at[r, c]][0], at[r, c]) for c in range(cols + 1)] + [(dots[at[r + 1, c]][0], at[r + 1, c]) for c in range(cols + 1)])
        for i in range(len(strip) - 2):
            boxes.append((strip[i][1], strip[i + 1][1], strip[i + 2][1]))
    return build_board(f"triangle:{rows}x{cols}", dots, boxes, scale=(4.0, 2.0), check_geometry=False)


def hexagon(rows: int, cols: int) -> Board:
    """``rows`` x ``cols`` pointy-top hexagons, odd rows shifted half a hex right."""
    offsets = [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)]
    index: dict[Point, int] = {}
    dots: list[Point] = []
    boxes = []
    for r in range(rows):
        for c in range(cols):
            cx, cy = 2 * c + r % 2 + 1, 3 * r + 2
            cycle = []
            for dx, dy in offsets:
                p = (Fraction(cx + dx), Fraction(cy + dy))
                if p not in index:
                    index[p] = len(dots)
                    dots.append(p)
                cycle.append(index[p])
            boxes.append(tuple(cycle))
    return build_board(f"hex:{rows}x{cols}", dots, boxes, scale=(4.0, 1.0), check_geometry=False)


def octagon(rows: int, cols: int) -> Board:
    """A 4.8.8 tiling: ``rows`` x ``cols`` octagons with square boxes in the gaps between four."""
    index: dict[Point, int] = {}
    dots: list[Point] = []

    def dot(x: int, y: int) -> int:
        p = (Fraction(x), Fraction(y))
        if p not in index:
            index[p] = len(dots)
            dots.append(p)
        return index[p]

    boxes = []
    for r in range(rows):
        for c in range(cols):
            x, y = 3 * c, 3 * r
            boxes.append(tuple(dot(x + dx, y + dy) for dx, dy in [(1, 0), (2, 0), (3, 1), (3, 2), (2, 3), (1, 3), (0, 2), (0, 1)]))
    for r in range(rows - 1):
        for c in range(cols - 1):
            x, y = 3 * c + 3, 3 * r + 3
            boxes.append((dot(x, y - 1), dot(x + 1, y), dot(x, y + 1), dot(x - 1, y)))
    return build_board(f"octagon:{rows}x{cols}", dots, boxes, scale=(4.0, 2.0), check_geometry=False)


GENERATORS = {"square": square, "triangle": triangle, "hex": hexagon, "octagon": octagon}
#: the largest generated board side, to keep boards playable
MAX_SIDE = 12


def generated(spec: str) -> Board:
    """Build ``KIND:RxC`` (``square:3x3``, ``triangle:2x4``, ``hex:3x3``, ``octagon:2x2``)."""
    kind, _, size = spec.partition(":")
    if kind not in GENERATORS:
        raise BoardError(f"unknown board kind {kind!r}; kinds are {', '.join(GENERATORS)} or file:PATH (PP-1)")
    m = re.fullmatch(r"(\d+)x(\d+)", size)
    if not m:
        raise BoardError(f"board size {size!r} must be RxC, like {kind}:3x3 (PP-1)")
    rows, cols = int(m.group(1)), int(m.group(2))
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise BoardError(f"board size {rows}x{cols}: rows and columns must be 1..{MAX_SIDE} (PP-1)")
    return GENERATORS[kind](rows, cols)
