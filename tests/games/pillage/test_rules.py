"""Scenario tests for PP-1 .. PP-7: captures, extra lines, modifiers, values, errors."""

import json
import random
from pathlib import Path
from typing import Any

import pytest

import plunder
from plunder.games.pillage.actions import Choose, Deal, Line
from plunder.games.pillage.contents import Commodity, Doubloons, Modifier
from plunder.games.pillage.rules import PillageGame


def board_file(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    return f"file:{path}"


# A 1x2 strip whose middle line closes both boxes at once:
#
#      a     b     c
#   1  •─────•─────•
#      │  3  ·  M  │      3 doubloons | modifier "+-2 food/armor"
#   2  •─────•─────•
#
STRIP = {
    "dots": [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]],
    "boxes": [{"dots": [0, 1, 4, 3], "content": "3"}, {"dots": [1, 2, 5, 4], "content": "+-2 food/armor"}],
    "drawn": [["a1", "b1"], ["b1", "c1"], ["a2", "b2"], ["b2", "c2"], ["a1", "a2"], ["c1", "c2"]],
    "legend": {"food": 4, "armor": 1},
}


def test_one_line_closing_two_boxes_captures_both_then_one_choice(tmp_path: Path) -> None:
    """PP-4: both boxes go to the mover; PP-5: tallies first, then the modifier choice."""
    game = PillageGame.load(board=board_file(tmp_path, STRIP))
    state = game.new_initial_state()
    assert state.legal_actions() == [game.parse_action(state, "b1-b2")]
    state = state.apply_text("b1-b2")
    assert state.owner == (0, 0)
    assert state.doubloons == (3, 0)          # tallied before the choice
    assert state.current_player == 0          # the choice is the mover's
    texts = sorted(game.action_to_text(state, a) for a in state.legal_actions())
    assert texts == ["+2 armor", "+2 food", "-2 armor", "-2 food"]
    state = state.apply_text("-2 food")
    assert state.is_terminal() and state.values == (2, 1)


def test_closing_a_box_keeps_the_turn_and_a_quiet_line_passes_it() -> None:
    """PP-4 on a 1x1 board: three quiet lines alternate, the fourth captures."""
    game = PillageGame.load(board="square:1x1", contents="unit")
    s = game.new_initial_state()
    movers = []
    for text in ["a1-b1", "a1-a2", "b1-b2", "a2-b2"]:
        movers.append(s.current_player)
        s = s.apply_text(text)
    assert movers == [0, 1, 0, 1]
    assert s.owner == (1,) and s.scores() == [0.0, 1.0] and s.returns() == [-1.0, 1.0]


def test_drawing_is_never_forced_to_capture() -> None:
    """PP-4: with a box on offer, any undrawn line is still legal."""
    game = PillageGame.load(board="square:1x2", contents="unit")
    s = game.new_initial_state()
    for text in ["a1-b1", "a1-a2", "a2-b2"]:
        s = s.apply_text(text)
    assert s.current_player == 1
    assert len(s.legal_actions()) == 4
    s = s.apply_text("c1-c2")  # declines the box
    assert s.current_player == 0 and s.owner == (-1, -1)


def test_modifier_choice_is_mandatory_even_when_it_hurts() -> None:
    """PP-5: a single-option modifier must be applied; no line may be drawn first."""
    game = PillageGame.load(preset="example")
    s = game.new_initial_state()
    for t in ["a2-b2", "a2-a3", "a3-b3"]:
        s = s.apply_text(t)
    s = s.apply_text("b2-b3")  # Player 2 closes the modifier box (bottom-left)
    assert s.current_player == 1 and s.pending
    with pytest.raises(plunder.IllegalActionError, match=r"PP-5"):
        s.apply_text("a1-b1")
    # the only operation is "-", so the bare commodity name is read as "-5 food"
    assert game.parse_action(s, "food") == game.parse_action(s, "-5 food")


def test_values_go_negative_unless_floored(tmp_path: Path) -> None:
    """PP-6: -2 on a value of 1 gives -1, or 0 with floor=0."""
    data = dict(STRIP, legend={"food": 4, "armor": 1})
    spec = board_file(tmp_path, data)
    for floor, expected in (("none", -1), ("0", 0)):
        game = PillageGame.load(board=spec, floor=floor)
        s = game.new_initial_state().apply_text("b1-b2").apply_text("-2 armor")
        assert s.values == (4, expected)


def test_negative_value_commodities_count_against_their_holder(tmp_path: Path) -> None:
    """PP-7: score = doubloons + count x final value, negative values included."""
    data = {
        "dots": [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]],
        "boxes": [{"dots": [0, 1, 4, 3], "content": "food"}, {"dots": [1, 2, 5, 4], "content": "-9 food"}],
        "legend": {"food": 2},
    }
    game = PillageGame.load(board=board_file(tmp_path, data))
    s = game.new_initial_state()
    # P1: a1-a2, P2: a1-b1, P1: a2-b2 (box 0 three-sided), P2: b1-b2 captures food,
    # then P2 draws on: b1-c1, P1: c1-c2, P2: b2-c2 captures the modifier: -9 food.
    for t in ["a1-a2", "a1-b1", "a2-b2", "b1-b2", "b1-c1", "c1-c2", "b2-c2", "-9 food"]:
        s = s.apply_text(t)
    assert s.is_terminal()
    assert s.values == (-7,)
    assert s.scores() == [0.0, -7.0] and s.returns() == [1.0, -1.0]


def test_multiplication_is_a_designer_extension(tmp_path: Path) -> None:
    data = dict(STRIP)
    data["boxes"] = [{"dots": [0, 1, 4, 3], "content": "food"}, {"dots": [1, 2, 5, 4], "content": "x3 food"}]
    game = PillageGame.load(board=board_file(tmp_path, data))
    s = game.new_initial_state().apply_text("b1-b2").apply_text("x3 food")
    assert s.values == (12, 1) and s.scores() == [12.0, 0.0]


def test_random_contents_are_dealt_by_chance_box_by_box() -> None:
    game = PillageGame.load(board="square:2x2", contents="random")
    s = game.new_initial_state()
    assert s.current_player == plunder.CHANCE
    outcomes = s.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    texts = {game.action_to_text(s, a): p for a, p in outcomes}
    assert abs(sum(p for t, p in texts.items() if t in ("deal food", "deal weapons", "deal armor")) - 0.45) < 1e-12
    for t in ["deal 3", "deal food", "deal -5 food/weapons/armor", "deal +-1 armor"]:
        s = s.apply_text(t)
    assert s.current_player == 0
    assert s.contents == (Doubloons(3), Commodity(0), Modifier(("-",), 5, (0, 1, 2)), Modifier(("+", "-"), 1, (2,)))


@pytest.mark.parametrize(
    "text, rule",
    [("a1-b1", "PP-4"), ("deal 3", "PP-10"), ("-5 food", "PP-5")],
)
def test_illegal_actions_name_their_ruling(text: str, rule: str) -> None:
    game = PillageGame.load(board="square:2x2", contents="example")
    s = game.new_initial_state().apply_text("a1-b1")
    with pytest.raises(plunder.IllegalActionError) as err:
        s.apply_text(text)
    assert rule in str(err.value) and repr(text) in str(err.value) and "square:2x2" in str(err.value)
    assert err.value.rule == rule


@pytest.mark.parametrize("value", [0, "a1-b1", None, (0, "a1-b1"), Line(0, "b1-c1"), Line(99, "a1-b1"),
                                   Line("0", "a1-b1"), Line([0], "x"), Deal(0, Doubloons(7), "deal 7"),  # type: ignore[arg-type]
                                   Choose(Modifier(("-",), 5, (0,)), "-", 0, "-5 food", "-5 food of -5 food"),
                                   Choose([1], "-", 0, "", "")])  # type: ignore[arg-type]
def test_malformed_action_values_are_illegal_actions(value: object) -> None:
    """apply refuses a value that is not one of this game's actions with IllegalActionError (PP-12)."""
    game = PillageGame.load(board="square:2x2", contents="unit")
    s = game.new_initial_state()
    with pytest.raises(plunder.IllegalActionError, match="PP-12"):
        s.apply(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["-" + "9" * 5000 + " food", "9" * 5000 + " food", "x" * 5000,
                                  "-5 food of " + "9" * 5000, "a" + "1" * 4400 + "-b1", "deal " + "9" * 5000,
                                  "\x00", "food of -5 gold", "-5 food of food"])
def test_any_text_is_read_or_refused_with_an_invalid_action_error(text: str) -> None:
    """Issue 11: parse_action raises InvalidActionError and nothing else, choices pending or not."""
    game = PillageGame.load(preset="example")
    s = game.new_initial_state()
    for t in ["a2-b2", "a2-a3", "a3-b3", "b2-b3"]:
        s = s.apply_text(t)
    assert s.pending
    for state in (s, game.new_initial_state()):
        with pytest.raises(plunder.InvalidActionError):
            game.parse_action(state, text)
    with pytest.raises(plunder.InvalidActionError):
        game.parse_action(s, 5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text, words",
    [("a1-z9", "no dot z9"), ("a1-c3", "not adjacent"), ("hello world", "write a line"), ("-5 gold", "not a commodity"),
     ("bogus", "write a line")],
)
def test_unreadable_text_says_why(text: str, words: str) -> None:
    game = PillageGame.load(board="square:2x2", contents="unit")
    s = game.new_initial_state()
    with pytest.raises(plunder.InvalidActionError, match=words):
        game.parse_action(s, text)


def test_the_game_is_over_when_every_line_is_drawn() -> None:
    game = PillageGame.load(board="square:1x1", contents="unit")
    s = game.new_initial_state()
    for t in ["a1-b1", "a1-a2", "b1-b2", "a2-b2"]:
        s = s.apply_text(t)
    assert s.is_terminal() and s.legal_actions() == []
    with pytest.raises(plunder.IllegalActionError, match="PP-7"):
        s.apply(game.lines[0])


def test_line_text_reads_either_order_and_case() -> None:
    game = PillageGame.load(board="square:2x2", contents="unit")
    s = game.new_initial_state()
    e = game.parse_action(s, "a1-b1")
    assert game.parse_action(s, " B1 - A1 ") == e and game.action_to_text(s, e) == "a1-b1"


def test_hard_level_uses_the_solver_near_the_end() -> None:
    """With few lines left, hard plays a move the solver proves best."""
    from plunder.agents import make_agent
    from plunder.games.pillage.solver import solve

    game = PillageGame.load(preset="example")
    s = game.new_initial_state()
    for t in ["b3-c3", "c2-c3", "a1-b1", "b1-c1", "c1-c2", "b2-b3"]:
        s = s.apply_text(t)
    action = make_agent("hard", game).choose(s, random.Random(0))
    assert isinstance(action, (Line, Choose, Deal))
    after = s.apply(action)
    value = solve(after).value
    assert (value if after.current_player == s.current_player else -value) == solve(s).value
