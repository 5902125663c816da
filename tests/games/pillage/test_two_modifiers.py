"""PP-5 amended (2026-11-23, supersedes the project's PP-9): when one line closes two modifier
boxes, the capturer chooses which modifier to resolve first, and the order can decide the game."""

import json
from pathlib import Path

import pytest

import plunder
from plunder.games.pillage.actions import Choose
from plunder.games.pillage.fast import replay_order
from plunder.games.pillage.solver import solve
from plunder.games.pillage.rules import PillageGame

# A 1x3 strip, every line drawn but two:
#
#      a     b     c     d
#   1  •─────•─────•─────•
#      ·  F  │  M  ·  N  │     F = food; M and N two modifiers
#   2  •─────•─────•─────•
#
# a1-a2 closes the food box; c1-c2 then closes both modifier boxes at once.


def strip(tmp_path: Path, first: str, second: str, legend: dict[str, int]) -> str:
    data = {
        "dots": [[0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [1, 1], [2, 1], [3, 1]],
        "boxes": [{"dots": [0, 1, 5, 4], "content": "food"},
                  {"dots": [1, 2, 6, 5], "content": first},
                  {"dots": [2, 3, 7, 6], "content": second}],
        "drawn": [["a1", "b1"], ["b1", "c1"], ["c1", "d1"], ["a2", "b2"], ["b2", "c2"], ["c2", "d2"],
                  ["b1", "b2"], ["d1", "d2"]],
        "legend": legend,
    }
    path = tmp_path / "strip.json"
    path.write_text(json.dumps(data))
    return f"file:{path}"


def both_captured(tmp_path, first: str, second: str, floor: str = "none"):  # type: ignore[no-untyped-def]
    game = PillageGame.load(board=strip(tmp_path, first, second, {"food": 3}), floor=floor)
    state = game.new_initial_state().apply_text("a1-a2").apply_text("c1-c2")
    assert state.owner == (0, 0, 0) and state.held[0] == (1,) and state.current_player == 0
    return game, state


@pytest.mark.parametrize("floor, subtract_first, multiply_first", [("none", -4, 1), ("0", 0, 1)])
def test_the_capturer_picks_the_order_and_it_changes_the_result(tmp_path: Path, floor: str, subtract_first: int,
                                                              multiply_first: int) -> None:
    """Food is worth 3 and Player 1 holds one. ``-5`` then ``x2``: (3-5)x2 = -4, or with
    floor 0: max(0, 3-5)x2 = 0. ``x2`` then ``-5``: 3x2-5 = 1. Both orders are on offer."""
    game, state = both_captured(tmp_path, "-5 food", "x2 food", floor)
    texts = [game.action_to_text(state, a) for a in state.legal_actions()]
    assert texts == ["-5 food", "x2 food"]
    low = state.apply_text("-5 food")
    assert low.current_player == 0 and low.legal_actions() == [game.parse_action(low, "x2 food")]
    low = low.apply_text("x2 food")
    high = state.apply_text("x2 food").apply_text("-5 food")
    assert low.is_terminal() and high.is_terminal()
    assert low.values == (subtract_first,) and high.values == (multiply_first,)
    assert low.scores() == [float(subtract_first), 0.0] and high.scores() == [1.0, 0.0]
    assert high.returns() == [1.0, -1.0] and low.returns() == ([-1.0, 1.0] if subtract_first < 0 else [0.0, 0.0])
    # the solver knows both orders: the best is x2 first, worth +1
    result = solve(state)
    assert result.value == 1 and game.action_to_text(state, result.best_action) == "x2 food"
    before = state.game.new_initial_state().apply_text("a1-a2")
    assert solve(before).value == 1


def test_a_choice_both_modifiers_offer_names_its_modifier(tmp_path: Path) -> None:
    """``-2 food`` and ``-2 food/armor`` both offer -2 on food: the texts name the modifier,
    the short text is refused as ambiguous, and the other modifier is still to resolve."""
    game = PillageGame.load(board=strip(tmp_path, "-2 food", "-2 food/armor", {"food": 3, "armor": 4}))
    state = game.new_initial_state().apply_text("a1-a2").apply_text("c1-c2")
    texts = [game.action_to_text(state, a) for a in state.legal_actions()]
    assert texts == ["-2 food of -2 food", "-2 food of -2 food/armor", "-2 armor"]
    # the same moves as the choices they are (what the greedy agent and the solver read)
    assert state.choices() == state.legal_actions() and all(type(c) is Choose for c in state.choices())
    for text in texts:
        assert game.action_to_text(state, game.parse_action(state, text)) == text
    with pytest.raises(plunder.InvalidActionError, match="say which.*PP-5"):
        game.parse_action(state, "-2 food")
    after = state.apply_text("-2 food of -2 food/armor")
    assert after.values == (1, 4) and [game.action_to_text(after, a) for a in after.legal_actions()] == ["-2 food"]
    assert after.apply_text("-2 food").values == (-1, 4) and after.apply_text("-2 food").choices() == []
    choice = game.parse_action(state, "-2 armor")
    assert isinstance(choice, Choose) and game.action_to_text(state, choice) == "-2 armor"


def test_the_playout_kernel_rule_is_one_legal_order(tmp_path: Path) -> None:
    """The batched playouts resolve two modifiers in box order, a choice the capturer may make."""
    game, state = both_captured(tmp_path, "-5 food", "x2 food")
    start = game.new_initial_state()
    end = replay_order(start, [game.parse_action(start, "a1-a2").edge, game.parse_action(start, "c1-c2").edge],
                       [0.0, 0.0])
    assert end.values == (-4,) and end == state.apply_text("-5 food").apply_text("x2 food")
