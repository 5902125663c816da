"""Crossroads narration and the gold-by-source breakdown, on the text's examples and on played games."""

from __future__ import annotations

from plunder.agents import make_agent
from plunder.core.words import plural
from plunder.games.crossroads import ENTRY
from plunder.games.crossroads.board import EMPTY, from_rows
from plunder.games.crossroads.narrate import breakdown, narrate
from plunder.games.crossroads.rules import CrossroadsGame, CrossroadsState, Phase
from plunder.games.crossroads.stats import CrossroadsObserver

from tests.games.narration import moves, told


def test_the_texts_roll_activates_four_cells() -> None:
    # "Player 1 rolls a 2 and a 3 ... picks 2 from the top and 3 on the left": 4 cells activated
    game = CrossroadsGame.load(players=2)
    state = game.position((EMPTY,) * 100, phase=Phase.ROLL)
    _, said = told(narrate, state, "roll 2-3", "col 2 row 3")
    assert said == ["Player 1 rolled 2 and 3", "Player 1 chose column 2, row 3: B3 G3 B8 G8 activated; nobody is paid"]


def test_a_trade_through_a_third_players_city() -> None:
    # The text's relay picture: Players 1 and 2 trade only if Player 3 agrees.
    #   |R|R|R|_|R|2|
    #   |R|_|3|_|R|_|
    #   |1|_|R|R|R|_|
    board = from_rows(["|R|R|R|_|R|2|", "|R|_|3|_|R|_|", "|1|_|R|R|R|_|"])
    state = CrossroadsGame.load(players=3).position(board, phase=Phase.TRADE, gold=(20, 20, 20))
    state, said = told(narrate, state, "offer A3-F1 via C2=0 gold 2/1", "accept", "demand 1", "accept", "accept")
    assert said == [
        "Player 1 offers A3-F1 via C2 (Player 3's, fee 0): Player 1 gets 2, Player 2 gets 1",
        "Player 2 accepts; Player 3 to answer",
        "Player 3 demands a fee of 1 to let the trade through: now A3-F1 via C2 (Player 3's, fee 1): "
        "Player 1 gets 1, Player 2 gets 1; Player 1 to answer",
        "Player 1 accepts; Player 2 to answer",
        "Player 2 accepts: Player 1's offer A3-F1 was accepted: Player 1 +1, Player 2 +1, Player 3 +1",
    ]
    assert breakdown(state, {})[2] == ("Player 3: 0 activation + 0 trades + 1 fees + 20 at the start = 21 gold "
                                   "(1 city, 0 roads, 0 trades)")


def test_every_move_of_played_games_is_told() -> None:
    for players, seed in ((2, 1), (4, 2), (3, 3)):
        game = CrossroadsGame.load(players=players, target=40)
        agents = [make_agent("greedy", game) for _ in range(players)]
        observer = CrossroadsObserver(game)
        for state, action, after in moves(game, agents, seed):
            observer.see(state, action, after)
            said = narrate(state, action, after)
            assert said.startswith("Player ") and "\n" not in said and "CR-" not in said
            state = after
        assert " wins with " in said or " tie" in said
        figures = observer.stats(state)
        trades = figures["trades"]
        assert isinstance(trades, list)
        for seat, line in enumerate(breakdown(state, figures)):
            assert f"= {state.gold[seat]} gold" in line and line.endswith(plural(int(trades[seat]), "trade") + ")")
    assert ENTRY.presentation.narrate is narrate and ENTRY.presentation.breakdown is breakdown
