"""The shared conformance check on every Crossroads preset and on the non-default dice/relays."""

from __future__ import annotations

import plunder
import pytest
from plunder.core.conformance import check_game
from plunder.games.crossroads.rules import CrossroadsGame


@pytest.mark.parametrize("preset", sorted(CrossroadsGame.presets))
def test_conformance_on_every_preset(preset: str) -> None:
    report = check_game(plunder.load_game("crossroads", preset=preset), playthroughs=3, full_checks=1)
    assert report.games == 3 and report.illegal_refused > 0


def test_conformance_with_d6_dice_one_relay_and_one_offer() -> None:
    game = plunder.load_game("crossroads", players=3, dice="d6", relays=1, offers=1, target=60)
    report = check_game(game, playthroughs=2, full_checks=1, seed=7)
    assert report.games == 2


def test_presets_are_two_four_and_six_players() -> None:
    assert {p: plunder.load_game("crossroads", preset=p).num_players for p in CrossroadsGame.presets} == {
        "2p": 2,
        "4p": 4,
        "6p": 6,
    }
