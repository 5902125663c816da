"""Hypothesis properties of Pillage over random boards, contents and line orders."""

from hypothesis import given, settings
from hypothesis import strategies as st

import plunder
from plunder.games.pillage.actions import Line
from plunder.games.pillage.contents import Commodity, Doubloons
from plunder.games.pillage.rules import PillageGame

BOARDS = ["square:1x1", "square:2x3", "square:3x3", "triangle:2x2", "hex:2x2", "octagon:2x2"]


def play_out(board: str, floor: str, data: st.DataObject) -> list:
    """Random game; returns the list of (state, action, next state)."""
    game = PillageGame.load(board=board, contents="random", floor=floor)
    s = game.new_initial_state()
    steps = []
    while not s.is_terminal():
        a = data.draw(st.sampled_from(s.legal_actions()))
        nxt = s.apply(a)
        steps.append((s, a, nxt))
        s = nxt
    return steps


@settings(max_examples=60, deadline=None)
@given(board=st.sampled_from(BOARDS), floor=st.sampled_from(["none", "0"]), data=st.data())
def test_every_box_is_captured_exactly_once(board: str, floor: str, data: st.DataObject) -> None:
    steps = play_out(board, floor, data)
    final = steps[-1][2]
    assert all(o in (0, 1) for o in final.owner)
    for before, _, after in steps:
        for b, (o1, o2) in enumerate(zip(before.owner, after.owner)):
            assert o1 == -1 or o1 == o2  # a captured box never changes hands


@settings(max_examples=60, deadline=None)
@given(board=st.sampled_from(BOARDS), data=st.data())
def test_turn_passes_exactly_when_a_line_closes_no_box(board: str, data: st.DataObject) -> None:
    for before, action, after in play_out(board, "none", data):
        if before.current_player not in (0, 1) or before.pending or not isinstance(action, Line):
            continue
        captured = sum(1 for o1, o2 in zip(before.owner, after.owner) if o1 != o2)
        assert captured <= 2
        if after.is_terminal():
            continue
        assert (after.mover != before.mover) == (captured == 0)


@settings(max_examples=60, deadline=None)
@given(board=st.sampled_from(BOARDS), floor=st.sampled_from(["none", "0"]), data=st.data())
def test_scores_equal_captured_contents_at_final_values(board: str, floor: str, data: st.DataObject) -> None:
    final = play_out(board, floor, data)[-1][2]
    for p in (0, 1):
        total = 0
        for b, owner in enumerate(final.owner):
            c = final.contents[b]
            if owner == p and isinstance(c, Doubloons):
                total += c.n
            elif owner == p and isinstance(c, Commodity):
                total += final.values[c.kind]
        assert final.scores()[p] == total
    if floor == "0":
        assert min(final.values) >= 0


@settings(max_examples=40, deadline=None)
@given(board=st.sampled_from(BOARDS), data=st.data())
def test_the_undrawn_lines_kept_move_by_move_are_the_undrawn_lines(board: str, data: st.DataObject) -> None:
    """``open_lines``, updated move by move for speed, always equals a scan of the drawn mask;
    ``legal_actions()`` hands out the game's own line objects, never new ones."""
    for _, _, after in play_out(board, "none", data):
        lines = after.game.lines
        assert after.open_lines == tuple(line for line in lines if not after.drawn >> line.edge & 1)
        if after.current_player in (0, 1) and not after.pending:
            assert all(a is lines[a.edge] for a in after.legal_actions())
