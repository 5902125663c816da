"""The text picture and the SVG: every box's contents shown, size bounded whatever the coordinates."""

import json
import tracemalloc
from fractions import Fraction
from typing import Any

import pytest

import plunder
from plunder.games.pillage.board import Board, build_board, generated
from plunder.games.pillage.contents import parse_mix
from plunder.games.pillage.picture import MAX_COLUMNS, MAX_ROWS, board_grid
from plunder.games.pillage.rules import PillageGame
from plunder.games.pillage.svg import svg


def file_game(dots: list[Any], boxes: list[Any], **params: str) -> PillageGame:
    data = {"dots": dots, "boxes": boxes}
    return PillageGame.load(board="json:" + json.dumps(data), **params)


def test_file_boards_show_the_pile_of_every_box() -> None:
    """Issue 12: the `$` of column-b boxes was dropped (3 columns per unit left no room)."""
    #   a     b     c     d
    #   •· · ·•· · ·•· · ·•
    #   · $3  · $4  · $5  ·
    dots = [[c, r] for r in range(3) for c in range(4)]
    boxes = [{"dots": [r * 4 + c, r * 4 + c + 1, (r + 1) * 4 + c + 1, (r + 1) * 4 + c], "content": str(3 + c)}
             for r in range(2) for c in range(3)]
    text = str(file_game(dots, boxes).new_initial_state())
    content_rows = [line for line in text.splitlines() if "$" in line]
    assert content_rows and all(line.split() == ["·", "$3", "·", "$4", "·", "$5", "·"] for line in content_rows)


def test_generated_boards_draw_at_their_own_scale() -> None:
    #    a     b
    #
    # 1  •· · ·•
    #    · $1  ·
    #    ·     ·
    # 2  •· · ·•
    state = PillageGame.load(board="square:1x1", contents="unit").new_initial_state()
    assert str(state).split("\n\nLegend")[0] == "   a     b\n\n1  •· · ·•\n   · $1  ·\n   ·     ·\n2  •· · ·•"


def direct_game(board: Board) -> PillageGame:
    """A game on a board built without the face checks (pictures must cope with any board)."""
    values = {"board": board, "contents": "unit", "legend": None, "floor": None,
              "mix": parse_mix("doubloons:35,commodity:45,modifier:20")}
    return PillageGame(values, {"board": board.name})


def triangles(*corners: tuple[int | Fraction, int | Fraction]) -> list[tuple[Fraction, Fraction]]:
    return [(Fraction(x), Fraction(y)) for x, y in corners]


@pytest.mark.parametrize(
    "dots",
    [
        # two triangles 10**8 apart
        triangles((0, 0), (1, 0), (0, 1), (10 ** 8, 0), (10 ** 8 + 1, 0), (10 ** 8, 1)),
        # dots a millionth apart beside a unit triangle
        triangles((0, 0), (Fraction(1, 10 ** 6), 0), (0, Fraction(1, 10 ** 6)), (1, 1), (2, 1), (1, 2)),
        # a coordinate of 1e-320 (it raised OverflowError from str(state))
        triangles((0, 0), (Fraction(1, 10 ** 320), 0), (0, 1), (5, 5), (6, 5), (5, 6)),
    ],
)
def test_pictures_stay_small_whatever_the_coordinates(dots: list[tuple[Fraction, Fraction]]) -> None:
    """Issue 11.2: 873 bytes of record made the picture allocate 2.8 GB."""
    board = build_board("far", dots, [(0, 1, 2), (3, 4, 5)], check_geometry=False)
    state = direct_game(board).new_initial_state()
    tracemalloc.start()
    try:
        text = str(state)
        picture = svg(state)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    grid = board_grid(state)
    assert len(grid) <= MAX_ROWS + 4 and max(len(r) for r in grid) <= MAX_COLUMNS + 10
    assert text.count("$1") == 2 and len(picture) < 10_000
    assert peak < 50_000_000


def test_a_file_board_within_the_limits_but_far_flung_is_drawn_in_bounds() -> None:
    # a thin triangle reaching from a millionth to a million, and a unit square beside it
    dots = [[0, 0], ["0.000001", 0], [0, 1000000], [-1, 0], [-1, 1]]
    boxes = [{"dots": [0, 1, 2], "content": "2"}, {"dots": [3, 0, 2, 4], "content": "3"}]
    state = file_game(dots, boxes).new_initial_state()
    grid = board_grid(state)
    assert len(grid) <= MAX_ROWS + 4 and max(len(r) for r in grid) <= MAX_COLUMNS + 10
    assert "$3" in str(state) and "$2" in str(state)


def test_the_largest_generated_board_fits_unsqueezed() -> None:
    board = generated("square:12x12")
    state = direct_game(board).new_initial_state()
    assert str(state).count("$1") == 144
