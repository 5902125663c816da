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
