"""Boards (PP-1, PP-2): generators, board files and their errors, parameters."""

import json
from pathlib import Path
from typing import Any

import pytest

import plunder
from plunder.games.pillage.board import generated
from plunder.games.pillage.rules import PillageGame


@pytest.mark.parametrize(
    "spec, dots, edges, boxes",
    [
        ("square:3x3", 16, 24, 9),
        ("square:2x5", 18, 27, 10),
        ("triangle:2x3", 12, 23, 12),   # 2 strips of 6 triangles
        ("hex:2x2", 16, 19, 4),
        ("octagon:2x2", 24, 28, 5),     # 4 octagons and the square between them
    ],
)
def test_generated_boards_have_euler_consistent_counts(spec: str, dots: int, edges: int, boxes: int) -> None:
    board = generated(spec)
    assert (len(board.dots), board.num_edges, board.num_boxes) == (dots, edges, boxes)
    # Euler for a connected plane graph: V - E + F = 2 (F counts the outer face).
    assert len(board.dots) - board.num_edges + board.num_boxes + 1 == 2
    for e, bs in enumerate(board.edge_boxes):
        assert 1 <= len(bs) <= 2


def test_square_labels_read_like_the_picture() -> None:
    #      a   b
    #   1  •   •
    #   2  •   •
    board = generated("square:1x1")
    assert board.labels == ("a1", "b1", "a2", "b2")
    assert sorted(board.edge_label(e) for e in range(4)) == ["a1-a2", "a1-b1", "a2-b2", "b1-b2"]


def write(tmp_path: Path, data: str | dict[str, Any]) -> str:
    path = tmp_path / "b.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return f"file:{path}"


SQUARE = {"dots": [[0, 0], [1, 0], [0, 1], [1, 1]], "boxes": [{"dots": [0, 1, 3, 2], "content": "7"}]}


def test_board_file_loads_contents_and_legend(tmp_path: Path) -> None:
    data = dict(SQUARE, legend={"gold": 3})
    game = PillageGame.load(board=write(tmp_path, data))
    assert game.contents_mode == "file" and game.legend.kinds == ("gold",)
    s = game.new_initial_state()
    for t in ["a1-b1", "b1-b2", "a2-b2", "a1-a2"]:
        s = s.apply_text(t)
    assert s.scores() == [0.0, 7.0]


def test_board_file_without_contents_deals_random(tmp_path: Path) -> None:
    data = {"dots": SQUARE["dots"], "boxes": [[0, 1, 3, 2]]}
    game = PillageGame.load(board=write(tmp_path, data))
    assert game.new_initial_state().current_player == plunder.CHANCE


@pytest.mark.parametrize(
    "data, words",
    [
        ("{not json", "not valid JSON"),
        ({"dots": [], "boxes": []}, "non-empty 'dots'"),
        ({"dots": [[0, 0], [1, 0], [0, 1]], "boxes": [[0, 1, 7]]}, r"dot 7.*PP-1"),
        ({"dots": [[0, 0], [1, 0], [0, 1], [1, 1]], "boxes": [[0, 1, 3, 2]], "drawn": [[0, 1], [1, 3], [3, 2], [2, 0]]},
         r"close box 0.*PP-2"),
        ({"dots": [[0, 0], [1, 0], [0, 1], [1, 1]], "boxes": [[0, 3, 1, 2]]}, r"cross.*PP-1"),
        ({"dots": [[0, 0], [1, 0], [0, 1], [1, 1]], "boxes": [{"dots": [0, 1, 3, 2], "content": "0"}]}, r"1 or more.*PP-1"),
        ({"dots": [[0, 0], [1, 0], [0, 1], [1, 1]], "boxes": [{"dots": [0, 1, 3, 2], "content": "gold"}]},
         r"not in the legend.*PP-3"),
        ({"dots": [[0, 0], [1, 0], [0, 1], [1, 1]], "boxes": [[0, 1, 3, 2]], "drawn": [[0, 3]]}, r"not an edge.*PP-2"),
    ],
)
def test_bad_board_files_are_refused_with_the_rule(tmp_path: Path, data: str | dict[str, Any], words: str) -> None:
    with pytest.raises(plunder.ParameterError, match=words):
        PillageGame.load(board=write(tmp_path, data))


def test_missing_board_file_says_so() -> None:
    with pytest.raises(plunder.ParameterError, match="cannot open board file"):
        PillageGame.load(board="file:/nonexistent/board.json")


@pytest.mark.parametrize(
    "params, words",
    [
        ({"board": "circle:3x3"}, "unknown board kind"),
        ({"board": "square:0x3"}, "1..12"),
        ({"board": "square:3"}, "must be RxC"),
        ({"contents": "gold"}, "allowed: auto, random"),
        ({"legend": "food=five"}, "PP-3"),
        ({"floor": "low"}, "not a whole number"),
        ({"board": "square:3x3", "contents": "example"}, "square:2x2"),
        ({"colour": "red"}, "no parameter 'colour'"),
    ],
)
def test_bad_parameters_are_named(params: dict[str, str], words: str) -> None:
    with pytest.raises(plunder.ParameterError, match=words):
        PillageGame.load(**params)


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(plunder.ParameterError, match="games are: pillage"):
        plunder.load_game("chess")


def test_records_of_file_boards_carry_the_board(tmp_path: Path) -> None:
    """The record holds the board as json:..., so it replays after the file is gone."""
    data = dict(SQUARE, legend={"gold": 3}, drawn=[["a1", "b1"]])
    path = tmp_path / "b.json"
    path.write_text(json.dumps(data))
    game = PillageGame.load(board=f"file:{path}")
    assert game.params["board"].startswith("json:")
    record = plunder.play(game, ["random", "random"], seed=2)
    path.unlink()
    final = plunder.replay(plunder.Record.from_json(record.to_json()))
    assert isinstance(final.game, PillageGame)
    assert final.scores() == record.scores and final.game.board.predrawn == game.board.predrawn
    again = PillageGame.load(board=game.params["board"])
    assert again.params == game.params and again.legend == game.legend
