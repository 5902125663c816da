"""The compiled valued search (solver_valued_compiled.py) against the Python one (solver.py).

The Python valued search is itself held to a brute-force oracle (test_solver.py), so equal
values here tie the compiled search to plain minimax. Positions come from games played on
(greedy against random play, from several seeds) at every stage the Python search solves in a
moment, on every board shape, with the default mix of random contents and with board files of
doubloons, commodities of negative value and +/-/x modifiers, with and without a floor.
Skipped without numba.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Iterator

import pytest

from plunder.core.errors import SearchLimitError
from plunder.games.pillage import solver_valued_compiled
from plunder.games.pillage.board import generated
from plunder.games.pillage.compiled import warm
from plunder.games.pillage.contents import Legend
from plunder.games.pillage.heuristics import GreedyAgent
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.games.pillage.solver import Solver
from plunder.games.pillage.solver_valued_compiled import CompiledValuedSearch, compiled_valued

from .test_solver import board_spec, oracle, random_content

pytestmark = pytest.mark.skipif(compiled_valued() is None, reason="numba is not available or PLUNDER_PURE is set")

#: (board, the most lines left at which positions are taken: the Python search solves them in
#: well under a second)
SHAPES = [("square:2x3", 15), ("square:3x3", 15), ("square:3x4", 13), ("square:4x4", 12), ("triangle:2x2", 15),
          ("hex:2x2", 15), ("octagon:2x2", 15)]


def played(game: PillageGame, rng: random.Random, left: int) -> PillageState:
    """A position of a game played on by greedy against random play until at most ``left``
    lines are undrawn (a modifier choice may be pending)."""
    greedy = GreedyAgent()
    state = game.new_initial_state()
    while not state.is_terminal() and (len(state.open_lines) > left or (state.pending and rng.random() < 0.5)):
        if state.is_chance_node():
            state = state.apply(rng.choice(state.legal_actions()))
        elif state.current_player == 0:
            state = state.apply(greedy.choose(state, rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    return state


def positions(tmp_path: Path, rng: random.Random, per_shape: int) -> Iterator[tuple[str, PillageState]]:
    """Positions of played games on every shape of :data:`SHAPES`: half with the default mix of
    random contents, half with board files of random contents (test_solver.random_content:
    negative commodity values, +/-/x modifiers of several kinds), floors now and then."""
    for shape, most in SHAPES:
        for i in range(per_shape):
            floor = rng.choice(["none", "none", "0", "1"])
            if i % 2:
                game = PillageGame.load(board=shape, contents="random", floor=floor)
            else:
                board = generated(shape)
                legend = Legend(("food", "armor"), (rng.randint(-2, 5), rng.randint(-2, 5)))
                contents = [random_content(rng, 2) for _ in board.boxes]
                spec = board_spec(tmp_path, shape, contents, legend, name=f"{shape.replace(':', '_')}_{i}")
                game = PillageGame.load(board=spec, floor=floor)
            state = played(game, rng, rng.randint(max(2, most - 6), most))
            if not state.is_terminal():
                yield shape, state


def test_compiled_values_equal_the_python_search(tmp_path: Path) -> None:
    """The value of every position, by the compiled search and by the Python search; the
    compiled one really searched (its positions counted), pending choices at the root too."""
    rng = random.Random(37)
    checked = pending = 0
    shapes = set()
    for shape, state in positions(tmp_path, rng, 10):
        want = Solver(state.game, state.contents, compiled=False).solve(state)
        fast = Solver(state.game, state.contents, compiled_from=0)
        got = fast.solve(state)
        assert fast.valued is not None and fast.unit is None
        assert got.value == want.value, (shape, state.contents, state.summary())
        assert got.nodes > 0
        # the move it names reaches the value
        assert got.best_action in state.legal_actions()
        after = state.apply(got.best_action)
        if after.is_terminal():
            a, b = after.scores()
            reached = a - b if state.current_player == 0 else b - a
        else:
            child = fast.solve(after).value
            reached = child if after.current_player == state.current_player else -child
        assert reached == got.value, (shape, state.summary())
        checked += 1
        pending += bool(state.pending)
        shapes.add(shape)
    assert checked >= 60 and pending >= 1 and shapes == {s for s, _ in SHAPES}


def test_null_windows_fail_on_the_side_the_value_says(tmp_path: Path) -> None:
    """Fail-soft bounds: a window just below the value fails high (at least the value), one
    just above fails low (at most the value), each from a fresh table and from a warm one."""
    rng = random.Random(5)
    checked = 0
    for _, state in positions(tmp_path, rng, 3):
        if state.pending:
            continue
        python = Solver(state.game, state.contents, compiled=False)
        drawn = python._local(state)
        p = state.mover
        hd = tuple(a - b for a, b in zip(state.held[p], state.held[1 - p]))
        want = python.search(drawn, state.values, hd, -(1 << 60), 1 << 60)
        assert python.frame is not None
        for warm in (False, True):
            fast = CompiledValuedSearch(python.frame, python.inverse, python.kind_code, python.amount,
                                        python.options, python.num_kinds, python.floor, 1 << 20)
            if warm:
                assert fast.search(drawn, state.values, hd, -(1 << 60), 1 << 60) == want
            assert fast.search(drawn, state.values, hd, want - 1, want) >= want
            assert fast.search(drawn, state.values, hd, want, want + 1) <= want
        checked += 1
    assert checked >= 15


def test_the_compiled_search_agrees_with_the_oracle_on_tiny_boards(tmp_path: Path) -> None:
    """Plain minimax (no table, no rule) on small boards, every content and a floor: the
    compiled search's value is the oracle's."""
    rng = random.Random(8)
    checked = 0
    for i in range(60):
        shape = ("square:1x3", "square:2x2", "triangle:1x2")[i % 3]
        board = generated(shape)
        legend = Legend(("food", "armor"), (rng.randint(-2, 5), rng.randint(-2, 5)))
        contents = [random_content(rng, 2) for _ in board.boxes]
        game = PillageGame.load(board=board_spec(tmp_path, shape, contents, legend, name=f"t{i}"),
                                floor=rng.choice(["none", "0"]))
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.open_lines) > 6:
            state = state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        solver = Solver(game, state.contents, compiled_from=0)
        assert solver.solve(state).value == oracle(state), (shape, contents, state.summary())
        assert solver.valued is not None
        checked += 1
    assert checked >= 50


def test_the_compiled_search_stops_on_the_clock() -> None:
    """A default 4x4 game after its first line cannot be solved in a hundredth of a second: the
    compiled search stops and says so, and the solver is usable afterwards."""
    game = PillageGame.load()
    state = played(game, random.Random(3), 39)
    solver = Solver(game, state.contents)
    with pytest.raises(SearchLimitError):
        solver.solve(state, time_limit=0.01)
    assert solver.valued is not None
    # the same deals (the same seed), played on to 10 lines left
    late = played(game, random.Random(3), 10)
    assert late.contents == state.contents and not late.is_terminal()
    assert solver.solve(late).value == Solver(game, late.contents, compiled=False).solve(late).value


def test_a_node_budget_keeps_the_python_search() -> None:
    """A solve within a budget of positions is the Python search's (the agents' games replay
    from their seed with or without numba): the compiled search is not made."""
    game = PillageGame.load(board="square:3x3", contents="random")
    state = played(game, random.Random(4), 14)
    solver = Solver(game, state.contents, compiled_from=0)
    solver.solve(state, node_limit=10_000_000)
    assert solver.valued is None


def test_warming_the_game_builds_the_valued_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ENTRY.strength.warm`` (run by the web's workers at start) builds the compiled valued
    search too, so the coach's first exact value does not wait for it."""
    built: list[bool] = []
    real = solver_valued_compiled.compiled_valued

    def recorded() -> object:
        built.append(True)
        return real()

    monkeypatch.setattr(solver_valued_compiled, "compiled_valued", recorded)
    warm()
    assert built == [True]
