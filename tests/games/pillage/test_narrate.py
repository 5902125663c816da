"""Pillage narration and the final breakdown, on the text's worked example (PP-8) and on played games."""

from __future__ import annotations

from plunder import load_game
from plunder.games.pillage.actions import Line
from plunder.games.pillage.rules import PillageGame
from plunder.agents import make_agent
from plunder.games.pillage import ENTRY
from plunder.games.pillage.narrate import breakdown, narrate

from tests.games.narration import moves, told

# PP-8's board: food | weapons over modifier | armor.
#
#   a1---b1---c1
#   | food | weapons |
#   a2---b2---c2
#   | -5 fwa | armor |
#   a3---b3---c3
#
# Played as the text's Illustration 4 goes: six quiet lines; Player 1 takes the armor in
# move 4 and draws on; Player 2 takes the weapons and the food in move 4; Player 1 closes
# the modifier in move 5 and cuts food to zero. A 5-5 tie.
EXAMPLE_LINES = ["b1-b2", "a2-b2", "b2-b3", "b2-c2", "c2-c3", "a1-a2",
                 "b3-c3", "c1-c2", "b1-c1", "a1-b1", "a2-a3", "a3-b3", "-5 food"]


def test_the_worked_example_told_move_by_move() -> None:
    game = PillageGame.load("example")
    state = game.new_initial_state()
    told = []
    for text in EXAMPLE_LINES:
        after = state.apply_text(text)
        told.append(narrate(state, game.parse_action(state, text), after))
        state = after
    assert told[0] == "Player 1 drew b1-b2"
    assert told[1] == "Player 2 drew a2-b2"
    assert told[6] == "Player 1 drew b3-c3 and took 1 box (+1 armor); Player 1 draws again"
    assert told[7] == "Player 1 drew c1-c2"
    assert told[8] == "Player 2 drew b1-c1 and took 1 box (+1 weapons); Player 2 draws again"
    assert told[9] == "Player 2 drew a1-b1 and took 1 box (+1 food); Player 2 draws again"
    assert told[11] == ("Player 1 drew a3-b3 and took 1 box (a modifier); "
                        "Player 1 chooses what the modifier -5 food/weapons/armor does")
    assert told[12] == "Player 1 used the modifier -5 food/weapons/armor as -5 food: food 5→0"
    assert state.is_terminal()
    assert breakdown(state, {}) == [
        "Final values: food 0, weapons 5, armor 5",
        "Player 1 (2 boxes): 0 doubloons + armor 1 x 5 = 5",
        "Player 2 (2 boxes): 0 doubloons + food 1 x 0 + weapons 1 x 5 = 5",
    ]


def test_deals_and_doubloons_are_told() -> None:
    game = PillageGame.load(board="square:1x1", contents="random", mix="doubloons:1,commodity:0,modifier:0")
    state = game.new_initial_state()
    deal = state.legal_actions()[0]
    dealt = state.apply(deal)
    n = game.action_to_text(state, deal).removeprefix("deal ")
    assert narrate(state, deal, dealt) == f"Box 1 of 1 holds {n} doubloon{'' if n == '1' else 's'}"
    for text in ("a1-b1", "a2-b2", "a1-a2"):
        dealt = dealt.apply_text(text)
    last = dealt.apply_text("b1-b2")
    said = narrate(dealt, game.parse_action(dealt, "b1-b2"), last)
    assert said == f"Player 2 drew b1-b2 and took 1 box (+{n} doubloon{'' if n == '1' else 's'})"


def test_every_move_of_played_games_is_told() -> None:
    for preset, seed in (("small", 1), ("hex", 2), ("triangle", 3), ("default", 4)):
        game = load_game("pillage", preset=preset)
        agents = [make_agent("greedy", game), make_agent("random", game)]
        for state, action, after in moves(game, agents, seed):
            said = narrate(state, action, after)
            assert said and "\n" not in said
            state = after
        lines = breakdown(state, {})
        assert lines[1].endswith(f"= {state.scores()[0]:g}") and lines[2].endswith(f"= {state.scores()[1]:g}")
    assert ENTRY.presentation.narrate is narrate and ENTRY.presentation.breakdown is breakdown


def test_a_line_is_a_typed_value_never_equal_to_a_plain_tuple() -> None:
    # Lines were NamedTuples: Line(0, "a1-b1") == (0, "a1-b1") held, and a tuple passed for a line
    game = PillageGame.load(board="square:1x1", contents="unit")
    state = game.new_initial_state()
    line = state.legal_actions()[0]
    assert isinstance(line, Line)
    assert line != (line.edge, line.label) and (line.edge, line.label) not in state.legal_actions()
    assert not game.codec.is_action(state, (line.edge, line.label))
