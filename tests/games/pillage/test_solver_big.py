"""The solver on boards of more than 64 lines (issue 26): late positions exact, huge ones refused.

Every generated board up to 4x7 has at most 64 lines, and the solver kept its positions as
64-bit keys: 5x6 (71 lines), 8x8 (144) and 12x12 (312) failed with ``OverflowError`` on
unit boards and ``ValueError: negative shift count`` on valued ones, and a solve of a big
board file recursed past Python's limit. The solver now searches the open part of such a
position (solver_frame.py) and refuses more than ``MAX_SOLVE_LINES`` lines left.
"""

from __future__ import annotations

import json
import random
import time

import pytest
from click.testing import CliRunner

import plunder
from plunder.cli import main
from plunder.core.errors import SearchLimitError
from plunder.games.pillage.hard import solve_state
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.games.pillage.solver import MAX_SOLVE_LINES, Solver, SolverAgent, solve
from plunder.games.pillage.solver_frame import KEY_BITS, open_frame
from tests.games.pillage.test_solver import oracle

BIG = ["square:5x6", "square:8x8", "square:12x12"]


def dealt(board: str, contents: str, seed: int) -> PillageState:
    """The start of ``board`` with its contents dealt from ``seed``."""
    game = PillageGame.load(board=board, contents=contents)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state = state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    return state


def played(state: PillageState, rng: random.Random, left: int) -> PillageState:
    """Random legal play from ``state`` until at most ``left`` lines are undrawn (it may stop
    at a modifier choice); never a terminal state."""
    while len(state.open_lines) > left or (state.pending and rng.random() < 0.5):
        state = state.apply(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    return state


def square_file(rows: int, cols: int) -> str:
    """A rows x cols square board as an inline board file (its boxes get the game's contents)."""
    dots = [[c, r] for r in range(rows + 1) for c in range(cols + 1)]
    w = cols + 1
    boxes = [[r * w + c, r * w + c + 1, (r + 1) * w + c + 1, (r + 1) * w + c] for r in range(rows) for c in range(cols)]
    return "json:" + json.dumps({"dots": dots, "boxes": boxes})


def test_generated_boards_past_64_lines() -> None:
    """The boards of these tests really are past the array table's 64-bit keys."""
    assert [PillageGame.load(board=b).board.num_edges for b in BIG] == [71, 144, 312]
    assert KEY_BITS == 64


@pytest.mark.parametrize("board", BIG)
def test_late_unit_positions_agree_with_the_generic_search(board: str) -> None:
    """Plain Dots and Boxes with 16 lines left: the unit fast path (which failed with
    OverflowError) and the generic valued search agree, and the best line keeps the value."""
    rng = random.Random(board)
    for seed in range(3):
        state = played(dealt(board, "unit", seed), rng, 16)
        fast = solve(state)
        generic = Solver(state.game, state.contents, unit_rules=None).solve(state)
        assert fast.value == generic.value
        assert fast.best_action in state.legal_actions()
        child = state.apply(fast.best_action)
        after = solve(child).value
        assert (after if child.mover == state.mover else -after) == fast.value


@pytest.mark.parametrize("board", BIG)
def test_late_valued_positions_agree_with_the_oracle(board: str) -> None:
    """Dealt contents (doubloons, commodities, modifiers) with 6 lines left, and modifier
    choices: the value is the plain minimax value (it failed with ValueError: negative shift
    count)."""
    rng = random.Random(board)
    pending = 0
    for seed in range(5):
        state = played(dealt(board, "random", seed), rng, 6)
        # and a modifier choice, where one line closes an open modifier
        choice = next((c for c in map(state.apply, state.legal_actions()) if c.pending), None)
        for position in (state, choice) if choice is not None else (state,):
            result = solve(position)
            assert result.value == oracle(position), (board, seed, position.summary())
            assert result.best_action in position.legal_actions()
            pending += bool(position.pending)
    assert pending >= 3


def test_the_open_part_has_the_value_of_the_whole_board() -> None:
    """The reduction itself, where the oracle is too slow: a valued 3x3 position with 15
    lines left, searched on the whole board and on its open part (as a board of more than
    64 lines is), has one value."""
    rng = random.Random(4)
    checked = 0
    for seed in range(8):
        state = played(dealt("square:3x3", "random", seed), rng, 15)
        whole = Solver(state.game, state.contents)
        part = Solver(state.game, state.contents)
        part._use(open_frame(state.game.board, state.drawn, part.board_perms()))
        assert part.frame is not None and part.frame.num_edges == len(state.open_lines) < whole.num_edges
        assert part.solve(state).value == whole.solve(state).value
        checked += 1
    assert checked == 8


@pytest.mark.parametrize("contents", ["unit", "random"])
def test_the_start_of_4x7_runs_until_its_budget(contents: str) -> None:
    """Issue 26's example: the 4x7 start (67 lines) is searched, with dict tables, until the
    node budget stops it."""
    state = dealt("square:4x7", contents, 1)
    with pytest.raises(SearchLimitError) as stopped:
        solve(state, node_limit=20_000)
    assert stopped.value.limit == "nodes"


@pytest.mark.parametrize("contents", ["unit", "random"])
def test_a_huge_board_is_refused_at_once(contents: str) -> None:
    """A 20x20 board file (840 lines) recursed past Python's limit; it is now refused before
    any search, naming the limit, in well under a second after loading."""
    state = dealt(square_file(20, 20), contents, 2)
    start = time.process_time()
    with pytest.raises(SearchLimitError, match=f"840 lines left to draw, more than the {MAX_SOLVE_LINES}") as refused:
        solve_state(state, time_limit=60)
    assert refused.value.limit == "memory" and "MAX_SOLVE_LINES" in str(refused.value)
    assert time.process_time() - start < 1.0


@pytest.mark.parametrize("contents", ["unit", "random"])
def test_the_deepest_search_allowed_stays_within_the_call_limit(contents: str) -> None:
    """With exactly MAX_SOLVE_LINES lines left the first descent of the search goes to the
    end of the game: it stays within Python's call limit and stops at its node budget; one
    line more is refused."""
    rng = random.Random(contents)
    state = dealt("square:12x12", contents, 3)
    while len(state.open_lines) > MAX_SOLVE_LINES + 1 or state.pending:
        state = state.apply(rng.choice(state.legal_actions()))
    assert len(state.open_lines) == MAX_SOLVE_LINES + 1
    with pytest.raises(SearchLimitError) as refused:
        solve(state, node_limit=5_000)
    assert refused.value.limit == "memory"
    state = state.apply(rng.choice([a for a in state.legal_actions()]))
    assert len(state.open_lines) == MAX_SOLVE_LINES
    with pytest.raises(SearchLimitError) as stopped:
        solve(state, node_limit=5_000)
    assert stopped.value.limit == "nodes"


def test_one_frame_serves_the_rest_of_a_game() -> None:
    """The solver builds the open part once and keeps it (and its tables) for later
    positions of the game; a frame of more than 64 lines gives way to one that fits the
    array table once the position fits."""
    rng = random.Random(8)
    state = played(dealt("square:8x8", "unit", 1), rng, 70)
    solver = Solver(state.game, state.contents)
    assert solver.frame is None
    with pytest.raises(SearchLimitError):
        solver.solve(state, node_limit=2_000)
    wide = solver.frame
    assert wide is not None and wide.num_edges == 70 and not wide.whole
    state = played(state, rng, 18)
    solver.solve(state)
    narrow = solver.frame
    assert narrow is not None and narrow.num_edges == 18 and narrow is not wide
    state = played(state, rng, 12)
    assert solver.solve(state).value == Solver(state.game, state.contents, unit_rules=None).solve(state).value
    assert solver.frame is narrow


def test_the_solver_agent_plays_a_whole_game_on_a_big_board() -> None:
    """The ``solver`` agent on 5x6: greedy's move while its budget runs out, the solver's
    near the end, never an error."""
    game = plunder.load_game("pillage", board="square:5x6", contents="random")
    record = plunder.play(game, ["solver:nodes=3000", "greedy"], seed=4)
    assert len(record.moves) > 71
    agent = SolverAgent(nodes=3000)
    late = played(dealt("square:5x6", "random", 4), random.Random(1), 9)
    assert agent.choose(late, random.Random(0)) == solve(late).best_action


def test_dict_tables_of_a_wide_frame_keep_to_the_budget() -> None:
    """A frame of more than 64 lines keeps every entry in dict tables, which the budget
    trims (0.1 MB holds 421 entries of 67-line keys)."""
    state = dealt("square:4x7", "unit", 1)
    solver = Solver(state.game, state.contents, memory=0.1)
    with pytest.raises(SearchLimitError):
        solver.solve(state, node_limit=100_000)
    assert solver.frame is not None and solver.frame.num_edges == 67
    assert solver.timer.capacity == int(0.1 * (1 << 20)) // (240 + 67 // 7) == 421
    assert solver.timer.trims > 0 and sum(len(t) for t in solver.timer.tables) <= solver.timer.capacity + 4096


def test_plunder_solve_refuses_a_huge_board_in_one_line() -> None:
    """The command prints one line naming the limit, where it printed a RecursionError traceback."""
    result = CliRunner().invoke(main, ["solve", "pillage", "-p", f"board={square_file(20, 20)}", "-p", "contents=random"])
    assert result.exit_code == 1 and not isinstance(result.exception, RecursionError)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "840 lines left to draw" in lines[0] and "MAX_SOLVE_LINES" in lines[0]
