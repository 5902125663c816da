"""The shared conformance check on every Pillage preset."""

import pytest

import plunder
from plunder.core.conformance import check_game
from plunder.games.pillage.rules import PillageGame


@pytest.mark.parametrize("preset", sorted(PillageGame.presets))
def test_preset_conforms(preset: str) -> None:
    game = PillageGame.load(preset=preset)
    report = check_game(game, playthroughs=200, seed=11, full_checks=3)
    assert report.games == 200
    assert report.illegal_refused > 0
    assert report.max_length <= game.max_game_length


@pytest.mark.parametrize(("board", "contents"), [("square:5x6", "unit"), ("square:8x8", "random"),
                                                  ("square:12x12", "random")])
def test_boards_past_64_lines_conform(board: str, contents: str) -> None:
    """Every preset has at most 60 lines; these have 71, 144 and 312 (issue 26)."""
    game = PillageGame.load(board=board, contents=contents)
    assert game.board.num_edges > 64
    report = check_game(game, playthroughs=4, seed=12, full_checks=1)
    assert report.games == 4 and report.illegal_refused > 0
    assert report.max_length <= game.max_game_length
