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
from plunder.games.pillage.solver_rules import (SHARED, chain_keeps, closes, components, eaten_chain, loony, merged_bounds,
                                                move_groups, scan, walk, window)
from plunder.games.pillage.solver_unit_compiled import CompiledUnitSearch, compiled_kernel_rules, compiled_search

from .test_solver_unit import loony_positions, random_position, unit_positions

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


def test_the_shared_rules_compiled_give_what_they_give_in_python() -> None:
    """Every rule of solver_rules.py that the compiled search compiles, called on the same
    random positions in Python (lists) and compiled (numpy arrays), gives the same result;
    each rule's interesting case is met (a forced capture, a chain, an endgame, a cut)."""
    compiled = compiled_kernel_rules()
    assert set(compiled) == set(SHARED)
    rng = random.Random(12)
    met = {"forced": 0, "head": 0, "endgame": 0, "loop": 0, "cut": 0, "narrowed": 0}
    endgames = [s for s in (loony_positions(rng, shape) for shape in ["square:3x3", "square:2x4", "square:3x4"] * 20)
                if s is not None and not s.is_terminal()]
    # one line more: a chain or loop opened, its boxes being eaten
    opened = [s.apply(rng.choice(s.legal_actions())) for s in endgames]
    for game, state in list(unit_positions(rng, 120)) + [(s.game, s) for s in endgames + opened]:
        solver = Solver(game, state.contents, compiled=False)
        assert solver.frame is not None
        fast = CompiledUnitSearch(solver.frame, solver.inverse, 1 << 16)
        masks, ends = fast.box_mask.tolist(), fast.edge_box.tolist()
        undrawn = solver.full ^ solver.frame.local(state.drawn)
        found = scan(undrawn, masks, ends, True)
        assert compiled["scan"](undrawn, fast.box_mask, fast.edge_box, 1) == found
        assert compiled["scan"](undrawn, fast.box_mask, fast.edge_box, 0) == scan(undrawn, masks, ends, False)
        forced, _, n_open, twos, unsafe, ncaps, capmask, head_line, head_other = found
        met["forced"] += forced >= 0
        if forced < 0 and head_line >= 0:
            met["head"] += 1
            chain = eaten_chain(head_line, head_other, undrawn, masks, ends)
            assert compiled["eaten_chain"](head_line, head_other, undrawn, fast.box_mask, fast.edge_box) == chain
        if not ncaps and n_open and twos == n_open:
            counts = [0] * len(fast.counts)
            whole = components(undrawn, masks, ends, counts)
            assert compiled["components"](undrawn, fast.box_mask, fast.edge_box, fast.counts) == whole
            assert fast.counts.tolist() == counts
            if whole:
                met["endgame"] += 1
                nb = len(masks)
                assert compiled["loony"](fast.counts, nb) == loony(counts, nb)
        for b, mask in enumerate(masks):
            if (mask & undrawn).bit_count() == 2:
                shape = walk(b, undrawn, masks, ends)
                assert compiled["walk"](b, undrawn, fast.box_mask, fast.edge_box) == shape
                met["loop"] += shape[1]
        for e in range(solver.frame.num_edges):
            if undrawn >> e & 1:
                assert compiled["chain_keeps"](e, undrawn, fast.box_mask, fast.edge_box) == chain_keeps(
                    e, undrawn, masks, ends)
                after = (solver.full ^ undrawn) | 1 << e
                assert compiled["closes"](e, after, fast.box_mask, fast.edge_box) == closes(e, after, masks, ends)
        first = rng.choice([-1] + [e for e in range(solver.frame.num_edges) if undrawn >> e & 1])
        assert compiled["move_groups"](first, capmask, undrawn, unsafe) == move_groups(first, capmask, undrawn, unsafe)
        lo = rng.randint(-n_open, n_open)
        hi = rng.randint(lo, n_open)
        alpha = rng.randint(-n_open - 1, n_open)
        beta = rng.randint(alpha + 1, n_open + 1)
        step = window(lo, hi, alpha, beta)
        assert compiled["window"](lo, hi, alpha, beta) == step
        met["cut" if step[0] else "narrowed"] += 1
        best = rng.randint(-n_open, n_open)
        assert compiled["merged_bounds"](best, alpha, beta, lo, hi) == merged_bounds(best, alpha, beta, lo, hi)
    assert all(n >= 5 for n in met.values()), met


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
    """In positions with no box capturable, ``chain_keeps`` (the Python function, and the same
    compiled) keeps exactly one line of each chain and loop of boxes two lines short
    (components found here by a plain flood fill), the middle one of a chain of two, and
    every line that borders no such box."""
    compiled = compiled_kernel_rules()

    def keeps(e: int, undrawn: int, fast: CompiledUnitSearch) -> bool:
        pure = chain_keeps(e, undrawn, fast.box_mask.tolist(), fast.edge_box.tolist())
        assert compiled["chain_keeps"](e, undrawn, fast.box_mask, fast.edge_box) == pure
        return pure

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
            kept = [e for e in lines if keeps(e, undrawn, fast)]
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
                assert keeps(e, undrawn, fast)
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
