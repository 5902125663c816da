"""The shared conformance check on every Hubs preset.

Placement states list every free lattice point (2,400 on the default sheet), so fully
checked playthroughs are kept to the small sheets; the others sample actions.
"""

import pytest

import plunder
from plunder.core.conformance import check_game
from plunder.games.hubs.rules import HubsGame

# preset -> (playthroughs, fully checked playthroughs)
BUDGET = {"default": (12, 0), "small": (60, 4), "tiny": (80, 10), "long": (25, 1), "sixty": (3, 0)}


def test_every_preset_has_a_budget() -> None:
    assert set(BUDGET) == set(HubsGame.presets)


@pytest.mark.parametrize("preset", sorted(HubsGame.presets))
def test_preset_conforms(preset: str) -> None:
    game = plunder.load_game("hubs", preset=preset)
    games, full = BUDGET[preset]
    report = check_game(game, playthroughs=games, seed=5, full_checks=full)
    assert report.games == games
    assert report.illegal_refused > 0
    assert report.max_length <= game.max_game_length
