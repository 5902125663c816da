"""The Hubs solver against plain minimax over the public rules, on small sheets.

The reference (:func:`oracle`) knows nothing of the solver's shortcuts (rounds valued apart,
segment sets, symmetries): it plays every legal action through ``apply`` to the end of the match
and takes the mover's best final margin, remembering a position by what it holds (its round,
dots, segments as pairs of points, and the totals). Sheets are drawn as text grids: a letter is
the dot of that label (placed in label order), the top row is the highest y.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from plunder.analysis.value import Task, exactly, value_task
from plunder.core.errors import SearchLimitError
from plunder.core.registry import entry
from plunder.games.hubs import solver
from plunder.games.hubs.actions import Dot
from plunder.games.hubs.rules import HubsGame, HubsState
from plunder.games.hubs.solver import solve_state, within_reach


def grid(text: str) -> list[str]:
    """The placements of a sheet drawn as rows of letters and dots (``.``), in label order."""
    rows = [row.split() for row in text.strip().splitlines()]
    found = {cell: (x, len(rows) - 1 - y) for y, row in enumerate(rows) for x, cell in enumerate(row) if cell != "."}
    return [f"dot {found[name][0]},{found[name][1]}" for name in sorted(found)]


def reach(game: HubsGame, moves: list[str]) -> HubsState:
    """The position after ``moves`` from the start."""
    state = game.new_initial_state()
    for text in moves:
        state = state.apply_text(text)
    assert isinstance(state, HubsState)
    return state


def oracle(state: HubsState, table: dict[Any, int] | None = None) -> int:
    """Player 1's final margin under best play (both sides playing for the margin), by minimax
    over ``legal_actions``/``apply`` alone."""
    table = {} if table is None else table
    if state.is_terminal():
        return state.totals[0] - state.totals[1]
    key = (state.round, frozenset(state.dots) if state.placing else state.dots,
           frozenset((state.dots[s.first], state.dots[s.second]) for s in state.segments), state.totals)
    if key not in table:
        values = [oracle(state.apply(a), table) for a in state.legal_actions()]
        table[key] = max(values) if state.current_player == 0 else min(values)
    return table[key]


def mover_value(state: HubsState, table: dict[Any, int]) -> int:
    """The oracle's value for the player to move."""
    margin = oracle(state, table)
    return margin if state.current_player == 0 else -margin


def agrees(state: HubsState, table: dict[Any, int]) -> None:
    """The solver's value of ``state`` is the oracle's, and its best move keeps it."""
    found = solve_state(state, time_limit=120)
    assert found.value == mover_value(state, table)
    assert found.best_action is not None
    after = state.apply(found.best_action)
    child = oracle(after, table)
    assert (child if state.current_player == 0 else -child) == found.value


TINY_LAST_ROUND = [
    # a b c         the bottom row and the middle: many collinear dots, so many segments pass
    # . d .         through a third dot and are not candidates
    # . e f
    ("a b c\n. d .\n. e f", ["seg a-b", "seg b-c"]),
    # a . b         a ring: the middle dot d sees every other dot
    # . d .
    # c e f
    ("a . b\n. d .\n c e f", ["seg a-d"]),
    ("a . b\n. d .\n c e f", ["seg a-d", "seg d-f", "seg b-d", "seg c-d"]),
    # a b .         two rows: d e f below a b
    # . . c
    # d e f
    ("a b .\n. . c\nd e f", ["seg d-e", "seg a-b", "seg c-f"]),
]


def round_one(game: HubsGame, seed: int) -> list[str]:
    """A random round 1 played out, as texts."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves = []
    while state.round == 0:
        action = rng.choice(state.legal_actions())
        moves.append(state.game.action_to_text(state, action))
        state = state.apply(action)
    return moves


@pytest.mark.parametrize("sheet,segments", TINY_LAST_ROUND)
def test_last_round_segment_phase_matches_minimax(sheet: str, segments: list[str]) -> None:
    game = HubsGame.load(preset="tiny")
    state = reach(game, round_one(game, 3) + grid(sheet) + segments)
    assert state.round == 1 and not state.placing
    assert within_reach(state)
    table: dict[Any, int] = {}
    agrees(state, table)
    for action in state.legal_actions():
        child = state.apply(action)
        if not child.is_terminal():
            agrees(child, table)


@pytest.mark.parametrize("params", [{"width": "3", "height": "2", "dots": "4"},
                                    {"width": "2", "height": "2", "dots": "4", "rounds": "4"}])
def test_whole_matches_match_minimax(params: dict[str, str]) -> None:
    """Small sheets solved from the first dot and along a random game, rounds and all."""
    game = HubsGame.load(**params)
    table: dict[Any, int] = {}
    rng = random.Random(7)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        assert within_reach(state)
        agrees(state, table)
        checked += 1
        state = state.apply(rng.choice(state.legal_actions()))
    assert checked >= 2 * game.rounds * game.dots


def test_a_square_sheet_round_matches_minimax() -> None:
    """The last round of a 3 x 3 sheet with 4 dots, two placed: the placement sets are valued by
    their classes under the square's quarter turns and mirror images."""
    game = HubsGame.load(width="3", height="3", dots="4")
    state = reach(game, round_one(game, 5) + grid("a . .\n. . .\n. b ."))
    assert state.round == 1 and len(state.dots) == 2
    table: dict[Any, int] = {}
    for action in state.legal_actions():
        agrees(state.apply(action), table)
    agrees(state, table)


def test_the_first_round_adds_the_fresh_rounds_value() -> None:
    """On ``tiny``, a first-round position is worth its own round's points to come less R, the
    fresh round's value: a symmetric match is level from the start, and a round-1 segment phase
    is worth to its offense what the same sheet is worth to round 2's offense, less R."""
    game = HubsGame.load(preset="tiny")
    assert solve_state(game.new_initial_state()).value == 0
    sheet = grid("a b c\n. d .\n. e f") + ["seg a-b"]
    start = reach(game, round_one(game, 6))  # round 2: Player 1 (its defense) places first
    first, last = reach(game, sheet), reach(game, round_one(game, 6) + sheet)
    assert start.current_player == 0 and first.current_player == 0 and last.current_player == 1  # the offenses
    lead = start.totals[0] - start.totals[1]
    fresh = lead - solve_state(start).value
    to_come = solve_state(last).value + lead
    assert fresh > 0 and to_come > 0
    assert solve_state(first).value == to_come - fresh

def test_the_end_of_the_match_is_the_last_movers_margin() -> None:
    game = HubsGame.load(width="2", height="2", dots="4")
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        mover = state.current_player
        state = state.apply(rng.choice(state.legal_actions()))
    found = solve_state(state)
    a, b = state.totals
    assert found.best_action is None and found.value == (a - b if mover == 0 else b - a)


def test_out_of_reach_raises_the_budget_error() -> None:
    game = HubsGame.load(preset="small")
    start = game.new_initial_state()
    assert not within_reach(start)
    # from the first dot, every placement of a round would need valuing: refused at once
    began = time.process_time()
    with pytest.raises(SearchLimitError) as raised:
        solve_state(start, time_limit=60)
    assert raised.value.limit == "nodes" and "solves the last round's segment phase" in str(raised.value)
    assert time.process_time() - began < 1  # not the minute it was given
    # the last round's whole segment phase is within what it takes on, and its limits hold there
    rng = random.Random(5)
    state: HubsState = start
    while state.placing or state.round < game.rounds - 1:
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.drawable.bit_count() > solver.REACH_SEGMENTS and not within_reach(state)
    with pytest.raises(SearchLimitError) as raised:
        solve_state(state, time_limit=0.05)
    assert raised.value.limit == "time"
    with pytest.raises(SearchLimitError) as raised:
        solve_state(state, memory=1)
    assert raised.value.limit == "memory"
    solver._kept.clear()


def test_reach_by_phase_and_round() -> None:
    """Whole games on ``tiny``; elsewhere only a last round's segment phase of few segments."""
    tiny = HubsGame.load(preset="tiny")
    assert within_reach(tiny.new_initial_state())
    small = HubsGame.load(preset="small")
    state = small.new_initial_state()
    rng = random.Random(2)
    seen = set()
    while not state.is_terminal():
        near = within_reach(state)
        seen.add((state.round, state.placing, near))
        if near:
            assert state.round == 1 and not state.placing
            assert state.drawable.bit_count() <= solver.REACH_SEGMENTS
        state = state.apply(rng.choice(state.legal_actions()))
    assert (1, False, True) in seen and (0, False, False) in seen


def test_the_analysis_values_a_tiny_decision_exactly() -> None:
    """The engine's exact path: the losses are the oracle's, in match points."""
    game = HubsGame.load(preset="tiny")
    state = reach(game, round_one(game, 8) + grid("a b c\n. d .\n. e f") + ["seg a-b", "seg b-c"])
    hubs = entry("hubs")
    analysis = hubs.analysis
    assert analysis is not None and analysis.exact is not None and analysis.exact(state)
    table: dict[Any, int] = {}
    mover = state.current_player

    def after(action: Any) -> int:
        """The mover's value after ``action``, by the oracle."""
        margin = oracle(state.apply(action), table)
        return margin if mover == 0 else -margin

    worst = min(state.legal_actions(), key=after)
    best = mover_value(state, table)
    assert after(worst) < best  # a move that loses: the mark has something to judge
    task = Task("test", state, game.action_to_text(state, worst), 32, 6, "greedy", 0, True)
    valuation = exactly(task, hubs, analysis)
    assert valuation.exact
    assert valuation.best_margins[mover] == best
    assert valuation.played_margins[mover] == after(worst)
    assert value_task(task).exact

def test_a_placement_is_the_solvers_move() -> None:
    game = HubsGame.load(preset="tiny")
    found = solve_state(game.new_initial_state())
    assert isinstance(found.best_action, Dot) and found.nodes > 0
