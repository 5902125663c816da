"""PP-1: a board file's boxes must be the faces of one plane, connected drawing (issue 11.14)."""

import json
from typing import Any

import pytest

import plunder
from plunder.games.pillage.planar import IntPoint
from plunder.games.pillage.rules import PillageGame


def load(dots: list[Any], boxes: list[Any], **extra: Any) -> PillageGame:
    data = {"dots": dots, "boxes": boxes, **extra}
    return PillageGame.load(board="json:" + json.dumps(data), contents="unit")


def refused(dots: list[Any], boxes: list[Any], words: str) -> None:
    with pytest.raises(plunder.ParameterError, match=words):
        load(dots, boxes)


# 2x2 squares; dots in reading order 0..8:
#
#   0───1───2
#   │   │   │
#   3───4───5
#   │   │   │
#   6───7───8
GRID = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]]
SQUARES = [[0, 1, 4, 3], [1, 2, 5, 4], [3, 4, 7, 6], [4, 5, 8, 7]]


def test_the_plain_grid_is_a_board() -> None:
    assert load(GRID, SQUARES).board.num_boxes == 4


def test_a_box_that_encloses_the_others_is_refused() -> None:
    # the outline 0-1-2-5-8-7-6-3 as a fifth box around the four squares: it lies on the
    # squares' side of every outer line
    refused(GRID, SQUARES + [[0, 1, 2, 5, 8, 7, 6, 3]], r"boxes 0 and 4 lie on the same side.*PP-1")


def test_a_box_with_lines_inside_it_is_refused() -> None:
    #   0─────────1     box 0-1-2, and box 0-3-4 hanging from its corner 0 inside it:
    #   │ 3──4   ╱      the two share only dot 0, no line, yet one encloses the other
    #   │  ╲ │  ╱
    #   │    ╲│╱
    #   2╱
    dots = [[0, 0], [8, 0], [0, 8], [2, 1], [4, 1]]
    refused(dots, [[0, 1, 2], [0, 3, 4]], r"box 0 has a line from its dot a1 inside it.*PP-1")


def test_a_box_around_a_hole_is_refused_but_a_ring_with_a_hole_is_a_board() -> None:
    # 4x4 dots; a ring of 8 unit squares around the missing middle one is fine (a lake),
    # but the big square 0-3-15-12 enclosing the ring is not a face.
    dots = [[c, r] for r in range(4) for c in range(4)]
    ring = [[r * 4 + c, r * 4 + c + 1, r * 4 + c + 5, r * 4 + c + 4] for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    assert load(dots, ring).board.num_boxes == 8
    outline = [0, 1, 2, 3, 7, 11, 15, 14, 13, 12, 8, 4]
    refused(dots, ring + [outline], "same side")


def test_two_triangles_on_one_side_of_a_shared_line_are_refused() -> None:
    #   2            triangle 0-1-2 (tall) and 0-1-3 (flat) share the line 0-1
    #   │╲           and both lie above it: the flat one is inside the tall one.
    #   3 ╲
    #   0───1
    dots = [[0, 0], [4, 0], [1, -4], [1, -1]]
    refused(dots, [[0, 1, 2], [0, 1, 3]], r"boxes 0 and 1 lie on the same side.*PP-1")


def test_the_same_box_twice_is_refused() -> None:
    refused([[0, 0], [1, 0], [0, 1], [1, 1]], [[0, 1, 3, 2], [2, 3, 1, 0]], "same side")


def test_overlapping_triangles_are_refused() -> None:
    #   0───────1       triangles 0-1-2 and 0-3-4 share dot 0 and overlap:
    #   │╲     ╱        line 0-3 crosses line 1-2
    #   │  ╲  ╱  3
    #   │    2
    #   4
    dots = [[0, 0], [4, 0], [2, 3], [4, 2], [1, 3]]
    refused(dots, [[0, 1, 2], [0, 3, 4]], r"cross or overlap.*PP-1")


def test_disconnected_pieces_are_refused() -> None:
    dots = [[0, 0], [1, 0], [0, 1], [5, 5], [6, 5], [5, 6]]
    refused(dots, [[0, 1, 2], [3, 4, 5]], r"more than one piece.*PP-1")


def test_a_dot_in_no_box_is_refused() -> None:
    refused([[0, 0], [1, 0], [0, 1], [9, 9]], [[0, 1, 2]], "more than one piece")


def test_a_piece_floating_inside_a_box_is_refused() -> None:
    # a small triangle inside a big one, joined to nothing
    dots = [[0, 0], [10, 0], [0, 10], [1, 1], [2, 1], [1, 2]]
    refused(dots, [[0, 1, 2], [3, 4, 5]], "more than one piece")


def test_a_zero_area_box_of_collinear_dots_is_refused() -> None:
    refused([[0, 0], [1, 0], [2, 0]], [[0, 1, 2]], r"box 0 has no area.*PP-1")


def test_a_self_crossing_box_is_refused() -> None:
    # the bow tie 0-3-1-2 over the square's dots
    refused(GRID[:2] + GRID[3:5], [[0, 3, 1, 2]], "cross or overlap")


def test_a_dot_on_another_line_is_refused() -> None:
    #            4     dot 1 lies on the line 0-2 of triangle 0-2-3, and triangle
    #   0───1───2      1-3-4 joins at 1 and 3 (a T-junction: lines meet only at ends)
    #     ╲ │ ╱
    #       3
    dots = [[0, 0], [1, 0], [2, 0], [1, 2], [3, -1]]
    refused(dots, [[0, 2, 3], [1, 3, 4]], r"dot b2 lies on line a2-c2.*PP-1")


def test_collinear_overlapping_lines_are_refused() -> None:
    # triangles 0-2-3 and 1-4-3 share dot 3; their lines along y = 0 overlap from x=1 to x=2
    dots = [[0, 0], [1, 0], [2, 0], [0, 2], [3, 0]]
    refused(dots, [[0, 2, 3], [1, 4, 3]], "lies on line|cross or overlap")


def test_concave_boxes_that_fit_together_are_a_board() -> None:
    #   0───────1      an L-shaped box and the square in its notch
    #   │       │
    #   │   3───2
    #   │   │   │
    #   5───4───6
    dots = [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [2, 2]]
    game = load(dots, [[0, 1, 2, 3, 4, 5], [3, 2, 6, 4]])
    assert game.board.num_edges == 8
    # a triangle on the line 3-2 but above it lies inside the L
    refused(dots[:6] + [["1.5", "0.5"]], [[0, 1, 2, 3, 4, 5], [3, 6, 2]], "same side|inside")


def test_the_checks_are_exact_for_fractional_coordinates() -> None:
    # three triangles around dot 3, which sits 10**-6 off the line 0-1: exactness decides it
    dots = [[0, 0], [3, 0], [0, 3], ["1", "0.000001"]]
    assert load(dots, [[0, 1, 3], [1, 2, 3], [0, 3, 2]]).board.num_boxes == 3
    dots[3] = ["1", "0"]
    refused(dots, [[0, 1, 3], [1, 2, 3], [0, 3, 2]], "no area|lies on line")


def test_the_sweep_agrees_with_testing_every_pair() -> None:
    """Small random drawings on a coarse grid (many touching and collinear cases): the
    sweep finds a fault exactly when some pair of lines, or some dot and line, conflict."""
    import random

    from plunder.games.pillage import planar

    def every_pair(points: list[IntPoint], edges: list[tuple[int, int]]) -> bool:
        for i, s in enumerate(edges):
            for t in edges[i + 1 :]:
                if planar._lines_conflict(points, s, t):
                    return True
        return any(d not in (a, b) and planar.cross(points[a], points[b], p) == 0 and planar._within(points[a], points[b], p)
                   for d, p in enumerate(points) for a, b in edges)

    rng = random.Random(7)
    faults = 0
    for _ in range(1500):
        grid = rng.randint(2, 6)
        points = sorted({(rng.randint(0, grid), rng.randint(0, grid)) for _ in range(rng.randint(2, 9))})
        if len(points) < 2:
            continue
        edges = sorted({(min(pair), max(pair)) for pair in (rng.sample(range(len(points)), 2) for _ in range(rng.randint(1, 8)))})
        found = planar.crossing(points, edges) is not None
        assert found == every_pair(points, edges), (points, edges)
        faults += found
    assert 100 < faults < 1400  # both outcomes well represented
