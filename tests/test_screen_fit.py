"""Every game's position fits an 80x24 terminal with room for the last move and the prompt."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from plunder import load_game
from plunder.core import chance
from plunder.core.registry import entry

#: rows the drawing may take: the rest of 24 is for the moves told under it and the prompt
BOARD_ROWS = 21

GAMES = [("pillage", {}), ("pillage", {"board": "square:4x4"}), ("pirates", {}), ("profiteer", {}),
         ("crossroads", {}), ("crossroads", {"players": "3"}), ("hubs", {}), ("hubs", {"preset": "sixty"}),
         ("hubs", {"preset": "small"})]


@pytest.mark.parametrize("game_id,params", GAMES, ids=[f"{g}-{'-'.join(p.values())}" for g, p in GAMES])
def test_every_position_of_a_game_fits_80_columns_and_leaves_rows_to_spare(game_id: str, params: dict[str, str]) -> None:
    game = load_game(game_id, **params)  # a "preset" key names a preset
    render = entry(game_id).presentation.render
    assert render is not None
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        state = state.apply(chance.sample_chance(state, rng) if state.is_chance_node()
                            else rng.choice(state.legal_actions()))
        out = io.StringIO()
        Console(file=out, width=80).print(render(state))
        lines = out.getvalue().splitlines()
        assert len(lines) <= BOARD_ROWS, out.getvalue()
        assert max(map(len, lines)) <= 80
