"""The caption under a Hubs sheet names the round shown and its offense, also once a round
(or the match) is over and the finished sheet is still shown."""

from __future__ import annotations

from plunder.games.hubs.rules import HubsGame, HubsState
from plunder.games.hubs.svg import round_caption, svg

# a whole round on the tiny 3x3 sheet (the scripted round of test_narrate.py), then the same
# moves again for round 2: Player 1 on offense in round 1, Player 2 in round 2 (HB-6)
ROUND = ["2,0", "1,0", "0,2", "1,1", "2,2", "2,1", "b-c", "b-d", "a-f", "a-b", "d-e", "b-f", "c-e"]


def after_rounds(n: int) -> HubsState:
    """The tiny two-round match after ``n`` rounds of :data:`ROUND`."""
    state = HubsGame.load(preset="tiny").new_initial_state()
    for text in ROUND * n:
        state = state.apply_text(text)
    return state


def test_a_round_being_played_names_its_offense() -> None:
    state = after_rounds(0).apply_text("2,0")
    assert round_caption(state) == ("Round 1 of 2: Player 1 on offense, scoring each segment's dots' "
                                    "earlier segments.")


def test_between_rounds_the_finished_round_and_the_next_are_told() -> None:
    state = after_rounds(1)
    assert round_caption(state) == ("Round 1 of 2 as it ended: Player 1 on offense scored 11. "
                                    "Round 2 starts on a fresh sheet, Player 2 on offense.")


def test_after_the_last_round_no_next_round_and_the_right_offense() -> None:
    state = after_rounds(2)
    assert state.is_terminal()
    caption = round_caption(state)
    assert caption == "Round 2 of 2 as it ended: Player 2 on offense scored 11. That was the last round."
    picture = svg(state)  # the caption is wrapped: one <text> a line
    assert "Player 2 on offense scored 11. That was" in picture and ">the last round.<" in picture
    assert "next round" not in picture and "Player 1 on offense" not in picture
