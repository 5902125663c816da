"""The compiled unit search (solver_unit_compiled.py) against the Python one (solver_unit.py).

The Python unit search is itself checked against the generic valued search
(test_solver_unit.py), so equal values here tie the compiled rules to a search that uses
none of them. Skipped without numba.
"""

from __future__ import annotations

import random

import pytest

from plunder.core.errors import SearchLimitError
from plunder.games.pillage.rules import PillageGame
from plunder.games.pillage.solver import Solver
from plunder.games.pillage.solver_unit import RULES
from plunder.games.pillage.solver_unit_compiled import CompiledUnitSearch, compiled_search

from .test_solver_unit import random_position, unit_positions

pytestmark = pytest.mark.skipif(compiled_search() is None, reason="numba is not available or PLUNDER_PURE is set")


@pytest.mark.parametrize("rules", [RULES, frozenset({"capture"}), frozenset({"capture", "chains"}),
                                   frozenset({"endgame"}), frozenset()])
def test_compiled_values_equal_the_python_search(rules: frozenset[str]) -> None:
    """Random positions of every board shape the unit path takes, full windows and null
    windows around the value, with and without the chain-ends rule; each rule used where on
    and never where off."""
    rng = random.Random(25)
    checked = 0
    used = {"capture": 0, "chains": 0, "endgame": 0, "chain ends": 0}
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
        used["chain ends"] += fast.pruned
        # the chain-ends rule off: the same value
        assert CompiledUnitSearch(solver.frame, solver.inverse, 1 << 20, rules, chain_ends=False).search(
            drawn, -100, 100) == want
        checked += 1
    assert checked >= 70
    for rule in RULES:
        assert (used[rule] > 20) == (rule in rules), used
    assert (used["chain ends"] > 20) == ({"capture", "chains"} <= rules), used


def test_solve_by_the_compiled_path_gives_the_python_value_and_a_best_line() -> None:
    """``Solver.solve`` without a node limit takes the compiled path; its value is the Python
    path's, and its line leads to a child the Python search values the same."""
    rng = random.Random(4)
    compiled_solves = 0
    for game, state in unit_positions(rng, 28):
        fast = Solver(game, state.contents)
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
    solver = Solver(state.game, state.contents)
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


def test_pure_mode_turns_the_compiled_path_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """``PLUNDER_PURE=1`` (read when first used) means the Python search everywhere."""
    from plunder.games.pillage import solver_unit_compiled

    monkeypatch.setenv("PLUNDER_PURE", "1")
    assert solver_unit_compiled.compiled_search() is None
    state = PillageGame.load(board="square:2x2", contents="unit").new_initial_state()
    solver = Solver(state.game, state.contents)
    assert solver.solve(state).value == 2 and solver.fast is None
