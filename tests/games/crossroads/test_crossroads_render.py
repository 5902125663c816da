"""The rich picture and move descriptions used by ``plunder play crossroads``."""

from __future__ import annotations

import plunder
from plunder.core.registry import entry
from plunder.games.crossroads.actions import Demand
from plunder.games.crossroads.board import from_rows
from plunder.games.crossroads.rules import CrossroadsGame, Phase
from rich.console import Console

ENTRY = entry("crossroads")


def crossroads(players: int) -> CrossroadsGame:
    return CrossroadsGame.load(players=players)


def text_of(state: plunder.State) -> str:
    console = Console(record=True, width=100, color_system=None)
    assert ENTRY.presentation.render is not None
    console.print(ENTRY.presentation.render(state))
    return console.export_text()


def test_board_shows_both_label_kinds_and_the_lit_cells_roll() -> None:
    # P1 on A3, P2 on D2, a road between (see the text's "Can Trade" picture).
    board = from_rows(["|_|_|_|_|", "|_|R|R|2|", "|1|R|_|_|"])
    state = crossroads(2).position(board, phase=Phase.ROLL, gold=(12, 4))
    state = state.apply_text("roll 2-3").apply_text("col 2 row 3")
    out = text_of(state)
    assert "1 2 3 4 5 1 2 3 4 5" in out
    assert "A B C D E F G H I J" in out
    assert "Last roll: 2 and 3" in out
    assert "P1 <" in out and "13" in out  # 12 + 1 from the activated road B3
    assert "Cities:" in out and "Roads:" in out  # the legal builds are listed


def test_offers_read_as_sentences_for_the_answering_player() -> None:
    board = from_rows(["|R|R|R|_|R|2|", "|R|_|3|_|R|_|", "|1|_|R|R|R|_|"])
    state = crossroads(3).position(board, phase=Phase.TRADE)
    offer = state.apply_text("offer A3-F1 via C2=1 gold 1/1")
    out = text_of(offer)
    assert "P1's A3 trades with P2's F1 through P3's C2 (fee 1): P1 gets 1, P2 gets 1" in out
    assert "P2 answers as partner" in out
    assert ENTRY.presentation.describe is not None
    for action in offer.legal_actions():
        assert ENTRY.presentation.describe(offer, action)
    assert "fee of 2" in ENTRY.presentation.describe(offer.apply_text("accept"), Demand(2))


def test_every_phase_of_a_game_renders_and_describes() -> None:
    game = plunder.load_game("crossroads", players=2, target=30)
    record = plunder.play(game, ["random", "greedy"], seed=3)
    state = game.new_initial_state()
    assert ENTRY.presentation.describe is not None
    for i, move in enumerate(record.moves):
        if i % 7 == 0:
            assert text_of(state)
            for action in state.legal_actions()[:5]:
                assert ENTRY.presentation.describe(state, action)
        state = state.apply_text(move.action)
    assert "Game over" in text_of(state)
    assert str(state).startswith("   1 2 3 4 5 1 2 3 4 5")


def test_a_trading_turn_lists_the_pairs_that_can_trade() -> None:
    board = from_rows(["|R|R|R|_|R|2|", "|R|_|3|_|R|_|", "|1|_|R|R|R|_|"])
    out = text_of(crossroads(3).position(board, phase=Phase.TRADE))
    assert "Pairs (offer A-B [via R=FEE] gold MINE/THEIRS): A3-F1 via C2; A3-C2" in out
