"""The compiled unit search (solver_unit_compiled.py) against the Python one (solver_unit.py).

The Python unit search is itself checked against the generic valued search
(test_solver_unit.py), so equal values here tie the compiled rules to a search that uses
none of them. Skipped without numba.
"""

from __future__ import annotations

import random
from typing import Iterator

import pytest

from plunder.core.errors import SearchLimitError
from plunder.games.pillage.rules import PillageGame
from plunder.games.pillage.solver import UNIT_SHARE, Solver
from plunder.games.pillage.solver_unit import RULES
from plunder.games.pillage.solver_unit_compiled import CompiledUnitSearch, compiled_search

from .test_solver_unit import random_position, unit_positions

pytestmark = pytest.mark.skipif(compiled_search() is None, reason="numba is not available or PLUNDER_PURE is set")


@pytest.mark.parametrize("rules", [RULES, frozenset({"capture"}), frozenset({"capture", "chains"}),
                                   frozenset({"endgame"}), frozenset()])
def test_compiled_values_equal_the_python_search(rules: frozenset[str]) -> None:
    """Random positions of every board shape the unit path takes, full windows and null
    windows around the value, with and without each of the one-line-a-chain and ground-lines
    rules; each rule used where on and never where off."""
    rng = random.Random(25)
    checked = 0
    used = {"capture": 0, "chains": 0, "endgame": 0, "one line a chain": 0, "ground lines": 0}
    for game, state in unit_positions(rng, 80):
        solver = Solver(game, state.contents, unit_rules=rules, compiled=False)
        assert solver.unit is not None and solver.frame is not None
        drawn = solver.frame.local(state.drawn)
        want = solver.unit.search(drawn, -100, 100)
        fast = CompiledUnitSearch(solver.frame, solver.inverse, 1 << 20, rules)
        assert fast.search(drawn, -100, 100) == want, (game.params["board"], sorted(rules), state.summary())
        # null windows just below and at the value: fail low and high as the value says
        assert fast.search(drawn, want - 1, want) >= want
        assert fast.search(drawn, want, want + 1) <= want
        used["capture"] += fast.forced
        used["chains"] += fast.deals
        used["endgame"] += fast.endgames
        used["one line a chain"] += fast.pruned
        used["ground lines"] += fast.twins
        # each of the two rules the Python search lacks off, and both: the same value
        for one, ground in ((False, True), (True, False), (False, False)):
            alone = CompiledUnitSearch(solver.frame, solver.inverse, 1 << 20, rules, one_per_chain=one, ground=ground)
            assert alone.search(drawn, -100, 100) == want, (one, ground)
            assert alone.pruned == 0 or one
            assert alone.twins == 0 or ground
        checked += 1
    assert checked >= 70
    for rule in RULES:
        assert (used[rule] > 20) == (rule in rules), used
    assert (used["one line a chain"] > 20) == ({"capture", "chains"} <= rules), used
    assert used["ground lines"] > 20, used


def loop_positions() -> Iterator[tuple[PillageGame, int]]:
    """Unit boards with every outer line drawn (and, on 3x3, the centre box's lines):

        2x2: one loop of 4        3x3: one loop of 8
        +---+---+                 +---+---+---+
        |   .   |                 |   .   .   |
        +...+...+                 +...+---+...+
        |   .   |                 |   |   |   |
        +---+---+                 +...+---+...+
                                  |   .   .   |
                                  +---+---+---+
    """
    for shape in ("square:2x2", "square:3x3"):
        game = PillageGame.load(board=shape, contents="unit")
        board = game.board
        drawn = sum(1 << e for e, boxes in enumerate(board.edge_boxes) if len(boxes) == 1)
        if shape == "square:3x3":
            drawn |= sum(1 << e for e in board.box_edges[4])
        yield game, drawn


def test_one_line_of_each_chain_and_loop_is_searched() -> None:
    """In positions with no box capturable, ``_chain_keeps`` keeps exactly one line of each
    chain and loop of boxes two lines short (components found here by a plain flood fill),
    the middle one of a chain of two, and every line that borders no such box."""
    from plunder.games.pillage.solver_unit_compiled import _chain_keeps

    rng = random.Random(31)
    components = {"loop": 0, "two": 0, "other": 0}
    cases = [(game, state.drawn) for game, state in unit_positions(rng, 400)] + list(loop_positions())
    for game, board_drawn in cases:
        solver = Solver(game, game.new_initial_state().contents)
        frame = solver.frame
        assert frame is not None and frame.num_edges == game.num_edges
        fast = CompiledUnitSearch(frame, solver.inverse, 1 << 20)
        undrawn = (1 << frame.num_edges) - 1 & ~frame.local(board_drawn)
        left = [[e for e in edges if undrawn >> e & 1] for edges in frame.box_edges]
        if any(len(lines) == 1 for lines in left):
            continue
        twos = {b for b, lines in enumerate(left) if len(lines) == 2}
        seen: set[int] = set()
        for start in twos:
            if start in seen:
                continue
            boxes, todo = {start}, [start]
            while todo:
                b = todo.pop()
                for e in left[b]:
                    for o in frame.edge_boxes[e]:
                        if o in twos and o not in boxes:
                            boxes.add(o)
                            todo.append(o)
            seen |= boxes
            lines = {e for b in boxes for e in left[b]}
            kept = [e for e in lines if _chain_keeps(e, undrawn, fast.box_edges, fast.box_mask, fast.edge_box)]
            assert len(kept) == 1, (board_drawn, sorted(boxes), kept)
            links = [e for e in lines if len(frame.edge_boxes[e]) == 2 and all(o in boxes for o in frame.edge_boxes[e])]
            if len(links) == len(boxes):
                components["loop"] += 1
                assert kept == [min(lines)]
            elif len(boxes) == 2:
                components["two"] += 1
                assert kept == links
            else:
                components["other"] += 1
        for e in range(frame.num_edges):
            if undrawn >> e & 1 and not any(o in twos for o in frame.edge_boxes[e]):
                assert _chain_keeps(e, undrawn, fast.box_edges, fast.box_mask, fast.edge_box)
    assert components["loop"] == 2 and components["two"] >= 10 and components["other"] >= 50, components
    # the loops' values, searched with their lines pruned to one (the endgame rule off, which
    # would value them without a search), are the Python search's
    for game, board_drawn in loop_positions():
        solver = Solver(game, game.new_initial_state().contents, compiled=False)
        assert solver.frame is not None and solver.unit is not None
        drawn = solver.frame.local(board_drawn)
        fast = CompiledUnitSearch(solver.frame, solver.inverse, 1 << 20, frozenset({"capture", "chains"}))
        assert fast.search(drawn, -100, 100) == solver.unit.search(drawn, -100, 100)
        assert fast.pruned > 0


def test_solve_by_the_compiled_path_gives_the_python_value_and_a_best_line() -> None:
    """``Solver.solve`` without a node limit takes the compiled path; its value is the Python
    path's, and its line leads to a child the Python search values the same."""
    rng = random.Random(4)
    compiled_solves = 0
    for game, state in unit_positions(rng, 28):
        fast = Solver(game, state.contents, compiled_from=0)
        result = fast.solve(state)
        compiled_solves += fast.fast is not None and fast.fast.stats[0] > 0
        slow = Solver(game, state.contents, compiled=False)
        assert result.value == slow.solve(state).value
        assert slow.fast is None
        assert result.best_action is not None
        child = state.apply(result.best_action)
        v = Solver(game, child.contents, compiled=False).solve(child).value
        assert (v if child.mover == state.mover else -v) == result.value
    assert compiled_solves >= 20


def test_a_node_budget_keeps_the_python_search() -> None:
    """A solve within a node budget (the agents' way) counts positions as the Python search
    does, so it never takes the compiled path."""
    state = PillageGame.load(board="square:2x3", contents="unit").new_initial_state()
    solver = Solver(state.game, state.contents, compiled_from=0)
    assert solver.solve(state, node_limit=10_000_000).value == -2
    assert solver.fast is None
    assert solver.solve(state).value == -2
    assert solver.fast is not None


def test_the_compiled_path_stops_at_its_time_limit() -> None:
    """Unit 3x4 takes many seconds: a tenth of a second raises the time limit's error, and the
    solver then solves a small position with the same table."""
    state = PillageGame.load(board="square:3x4", contents="unit").new_initial_state()
    solver = Solver(state.game, state.contents, memory=64)
    with pytest.raises(SearchLimitError) as stopped:
        solver.solve(state, time_limit=0.1)
    assert stopped.value.limit == "time" and solver.fast is not None
    late = random_position(random.Random(1), state.game, 12)
    assert solver.solve(late).value == Solver(state.game, state.contents, compiled=False).solve(late).value


def test_a_small_table_budget_keeps_the_compiled_table_small_and_the_value_exact() -> None:
    """0.02 MB: the compiled table stays within the unit path's 95% of it, and 2x3's value
    is still exact (a lost entry costs time, never exactness)."""
    state = PillageGame.load(board="square:2x3", contents="unit").new_initial_state()
    compiled = Solver(state.game, state.contents, memory=0.02, compiled_from=0)
    assert compiled.solve(state).value == -2
    assert compiled.fast is not None and compiled.fast.table.nbytes <= 0.02 * (1 << 20) * UNIT_SHARE


def test_pure_mode_turns_the_compiled_path_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """``PLUNDER_PURE=1`` (read when first used) means the Python search everywhere."""
    from plunder.games.pillage import solver_unit_compiled

    monkeypatch.setenv("PLUNDER_PURE", "1")
    assert solver_unit_compiled.compiled_search() is None
    state = PillageGame.load(board="square:2x2", contents="unit").new_initial_state()
    solver = Solver(state.game, state.contents, compiled_from=0)
    assert solver.solve(state).value == 2 and solver.fast is None


def test_boards_below_twenty_lines_keep_the_python_search() -> None:
    """A unit board of fewer than ``COMPILED_FROM`` (20) lines is solved by the Python search
    (within a second, where the compiled code's first use would compile for some 20 s); from
    20 lines on, and on any board when asked, by the compiled one."""
    from plunder.games.pillage.solver import COMPILED_FROM

    assert COMPILED_FROM == 20
    small = PillageGame.load(board="square:2x3", contents="unit").new_initial_state()
    assert small.game.num_edges == 17
    solver = Solver(small.game, small.contents)
    assert solver.solve(small).value == -2 and solver.fast is None
    asked = Solver(small.game, small.contents, compiled_from=17)
    assert asked.solve(small).value == -2 and asked.fast is not None
    big = PillageGame.load(board="square:2x4", contents="unit").new_initial_state()
    assert big.game.num_edges == 22
    solver = Solver(big.game, big.contents)
    assert solver.solve(big).value == 2 and solver.fast is not None
