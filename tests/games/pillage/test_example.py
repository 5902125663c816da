"""PP-8: the worked example of the rule text (Illustrations 1-4) ends in a 5-5 tie."""

import plunder
from plunder.games.pillage.rules import PillageGame

# The example board (contents=example), dots labelled as the picture shows them:
#
#      a     b     c
#   1  •     •     •
#        F     W          F = food, W = weapons
#   2  •     •     •
#       -5FWA  A          -5FWA = "-5 food/weapons/armor", A = armor
#   3  •     •     •
#
# Legend: food 5, weapons 5, armor 5.  The line order below follows the text's notes:
# three quiet moves each, Player 1 takes the armor in move 4 and draws on, Player 2
# takes the weapon and the food in move 4 and draws on, Player 1 closes the modifier
# in move 5 and drops food to 0.
EXAMPLE = [
    ("P1 move 1", "b3-c3"),
    ("P2 move 1", "c2-c3"),
    ("P1 move 2", "a1-b1"),
    ("P2 move 2", "b1-c1"),
    ("P1 move 3", "c1-c2"),
    ("P2 move 3", "b2-b3"),       # armor box now has three sides
    ("P1 move 4", "b2-c2"),       # closes armor
    ("P1 move 4 cont", "a1-a2"),
    ("P2 move 4", "b1-b2"),       # closes weapons
    ("P2 move 4 cont", "a2-b2"),  # closes food
    ("P2 move 4 cont", "a2-a3"),
    ("P1 move 5", "a3-b3"),       # closes the modifier
    ("P1 move 5 choice", "-5 food"),
]


def test_worked_example_ends_in_a_five_all_tie() -> None:
    game = PillageGame.load(preset="example")
    state = game.new_initial_state()
    for label, text in EXAMPLE:
        expected = 0 if label.startswith("P1") else 1
        assert state.current_player == expected, label
        state = state.apply_text(text)
    assert state.is_terminal()
    assert state.values == (0, 5, 5)          # food 0, weapons 5, armor 5
    assert state.held == ((0, 0, 1), (1, 1, 0))
    assert state.scores() == [5.0, 5.0]
    assert state.returns() == [0.0, 0.0]


def test_example_captures_in_the_order_the_notes_give() -> None:
    game = PillageGame.load(preset="example")
    state = game.new_initial_state()
    owners = []
    for _, text in EXAMPLE:
        state = state.apply_text(text)
        owners.append(state.owner)
    # boxes in reading order: food, weapons, modifier, armor
    assert owners[6] == (-1, -1, -1, 0)   # P1 move 4: armor
    assert owners[9] == (1, 1, -1, 0)     # P2 move 4: weapons and food
    assert owners[11] == (1, 1, 0, 0)     # P1 move 5: the modifier


def test_the_modifier_could_have_been_spent_otherwise() -> None:
    """The same game with -5 on armor instead: Player 2 wins 10-0 (PP-5)."""
    game = PillageGame.load(preset="example")
    state = game.new_initial_state()
    for _, text in EXAMPLE[:-1]:
        state = state.apply_text(text)
    options = sorted(game.action_to_text(state, a) for a in state.legal_actions())
    assert options == ["-5 armor", "-5 food", "-5 weapons"]
    end = state.apply_text("-5 armor")
    assert end.scores() == [0.0, 10.0] and end.returns() == [-1.0, 1.0]
