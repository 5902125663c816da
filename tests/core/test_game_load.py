"""``Game.load``: a game class loads itself, typed as itself, exactly as ``plunder.load_game`` does."""

import pytest

import plunder
from plunder.core.registry import entry
from plunder.games.pillage import PillageGame, PillageState


@pytest.mark.parametrize("game_id", plunder.game_ids())
def test_load_by_class_equals_load_by_id(game_id: str) -> None:
    cls = entry(game_id).game_class
    for preset in [None, *cls.presets]:
        by_class = cls.load(preset)
        by_id = plunder.load_game(game_id, preset=preset)
        assert type(by_class) is cls and by_class.params == by_id.params


def test_load_is_typed_as_the_class_and_keywords_override_the_preset() -> None:
    game = PillageGame.load("classic", board="square:2x2")
    state = game.new_initial_state()
    # typed: the Pillage state's own fields need no cast
    assert isinstance(state, PillageState) and len(state.contents) == 4
    assert game.params["board"] == "square:2x2" and game.params["contents"] == "unit"
    with pytest.raises(plunder.ParameterError, match="pillage has no preset 'huge'; presets are: default, classic"):
        PillageGame.load("huge")
