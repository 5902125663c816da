"""Every game's statistics come from its observer (``ENTRY.study.observer``), which
:func:`plunder.match.play_out` shows every move of a game, chance's too."""

from __future__ import annotations

import pytest

from plunder.core.game import Action, State
from plunder.core.registry import entry, load_game
from plunder.match import observer_of, play_out, play_stats

#: a quick preset of each built-in game
PRESETS = {"pillage": "small", "pirates": "channel", "hubs": "tiny", "profiteer": "short", "crossroads": "2p"}


class Witness:
    """An observer that checks each move it is shown follows from the one before, and counts them."""

    def __init__(self) -> None:
        self.moves = 0
        self.last: State | None = None

    def see(self, before: State, action: Action, after: State) -> None:
        assert self.last is None or before is self.last
        assert before.apply(action) == after
        self.moves += 1
        self.last = after

    def stats(self, final: State) -> dict[str, float | list[float]]:
        assert final is self.last
        return {"moves": float(self.moves)}


@pytest.mark.parametrize("game_id", list(PRESETS))
def test_every_game_counts_its_statistics_in_an_observer(game_id: str) -> None:
    assert entry(game_id).study.observer is not None
    game = load_game(game_id, preset=PRESETS[game_id])
    record, final, stats = play_stats(game, ["random"] * game.num_players, seed=5)
    assert stats and final.is_terminal()
    assert observer_of(game) is not observer_of(game)  # a fresh one for every game


@pytest.mark.parametrize("game_id", list(PRESETS))
def test_play_out_shows_the_observer_every_move_chance_included(game_id: str) -> None:
    game = load_game(game_id, preset=PRESETS[game_id])
    witness = Witness()
    record, final = play_out(game, ["random"] * game.num_players, seed=5, observer=witness)
    assert witness.stats(final) == {"moves": float(len(record.moves))}
    # chance's moves are among those seen: every game but Hubs has some
    assert any(m.by is None for m in record.moves) != (game_id == "hubs")
