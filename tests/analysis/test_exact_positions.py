"""The coach on positions whose exact values are known, and how early it values a game exactly.

The fixed positions are the PP-8 example board (food, weapons, a -5 food/weapons/armor modifier,
armor; every value 5), drawn below as the game draws them; each move's loss was worked out by
plain minimax (test_solver.oracle) and is written here, so a change in the solver, the engine or
the thresholds that moves a mark shows.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from plunder import load_game, play
from plunder.analysis import value as value_module
from plunder.analysis.engine import judged, plan
from plunder.analysis.value import Task, candidates_of, exactly, value_task
from plunder.core.registry import entry
from plunder.games.pillage import hard
from plunder.games.pillage.hard import ANALYSIS_ENDGAME, ANALYSIS_ENDGAME_COMPILED, endgame, solve_state
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.games.pillage.solver import Solver, solve
from plunder.games.pillage.solver_valued_compiled import compiled_valued

#: (lines drawn, the value for the player to move, the exact loss of every legal move)
POSITIONS = [
    #    a     b     c
    # 1  •─────•─────•
    #    │  F  ·  W  ·          Player 1 to draw: +10. Closing nothing on the right or the
    # 2  •· · ·•· · ·•          bottom-left hands the food and the modifier over (loses 20);
    #    ·-5FWA·  A  │          the lines between the boxes keep the +10.
    # 3  •─────•─────•
    (["a1-b1", "b1-c1", "a3-b3", "b3-c3", "a1-a2", "c2-c3"], 10,
     {"b1-b2": 0, "a2-b2": 0, "b2-c2": 0, "b2-b3": 0, "c1-c2": 20, "a2-a3": 20}),
    #    a     b     c
    # 1  •─────•─────•
    #    │  F  ·  W  │          Player 2 to draw: +10 by c2-c3 alone; every line between
    # 2  •· · ·•· · ·•          the boxes loses 20.
    #    │-5FWA·  A  ·
    # 3  •─────•─────•
    (["a1-b1", "b1-c1", "a3-b3", "b3-c3", "a1-a2", "c1-c2", "a2-a3"], 10,
     {"b1-b2": 20, "a2-b2": 20, "b2-c2": 20, "b2-b3": 20, "c2-c3": 0}),
    #    a     b     c
    # 1  •─────•─────•
    #    ·  F  ·  W  ·          Player 2 to draw: 0 by b2-c2; every other line loses 10.
    # 2  •─────•· · ·•
    #    ·-5FWA·  A  ·
    # 3  •─────•─────•
    (["a1-b1", "b1-c1", "a3-b3", "b3-c3", "a2-b2"], 0,
     {"a1-a2": 10, "b1-b2": 10, "c1-c2": 10, "b2-c2": 0, "a2-a3": 10, "b2-b3": 10, "c2-c3": 10}),
]


def _example_after(lines: list[str]) -> tuple[PillageGame, PillageState]:
    """The example board's game, and its position after ``lines``."""
    game = PillageGame.load(preset="example")
    state = game.new_initial_state()
    for line in lines:
        state = state.apply_text(line)
    return game, state


@pytest.mark.parametrize("lines,value,losses", POSITIONS)
def test_the_coach_marks_known_positions_by_their_exact_losses(lines: list[str], value: int,
                                                               losses: dict[str, int]) -> None:
    game, state = _example_after(lines)
    assert solve(state).value == value
    assert sorted(losses) == sorted(game.action_to_text(state, a) for a in state.legal_actions())
    rules = entry("pillage").analysis
    assert rules is not None
    for played, loss in losses.items():
        task = Task(f"known:{played}", state, played, 8, 0, "greedy", 0, True)
        valuation = value_task(task)
        move = judged(0, state.current_player, played, valuation, rules)
        assert move.exact and move.loss == loss and move.mark == rules.mark(loss), (played, move)


@pytest.mark.parametrize("lines,value,losses", [p for p in POSITIONS if sorted(p[2].values())[:2] == [0, 10]
                                                 or sorted(p[2].values())[:2] == [0, 20]])
def test_the_screen_brings_the_exact_best_move_among_few_candidates(lines: list[str], value: int,
                                                                    losses: dict[str, int]) -> None:
    """Where one move alone keeps the value and it comes late in the move list, candidates taken
    in the list's order miss it; Pillage's screen (its fast evaluator's rollouts over every
    move) ranks it among the first."""
    game, state = _example_after(lines)
    pillage = entry("pillage")
    rules = pillage.analysis
    assert rules is not None and rules.screen > 0
    legal = state.legal_actions()
    best = [a for a in legal if losses[game.action_to_text(state, a)] == 0]
    assert len(best) == 1 and best[0] not in legal[:3]
    unscreened = dataclasses.replace(rules, screen=0)
    assert best[0] not in candidates_of(state, legal[0], legal[1], pillage, 3, unscreened, random.Random(0))
    for seed in range(3):
        assert best[0] in candidates_of(state, legal[0], legal[1], pillage, 3, rules, random.Random(seed))


def test_a_game_without_a_fast_evaluator_keeps_its_move_list_order() -> None:
    game = load_game("crossroads")
    record = play(game, ["medium"] * game.num_players, seed=5)
    crossroads = entry("crossroads")
    assert crossroads.strength.evaluator is None
    rules = crossroads.analysis
    assert rules is not None
    screened = dataclasses.replace(rules, screen=64)
    state: Any = game.new_initial_state()
    checked = 0
    for move in record.moves:
        if move.by is not None and len(state.legal_actions()) > 3:
            legal = state.legal_actions()
            kept = candidates_of(state, legal[0], legal[1], crossroads, 3, screened, random.Random(0))
            assert kept == candidates_of(state, legal[0], legal[1], crossroads, 3)
            checked += 1
        state = state.apply_text(move.action)
    assert checked > 0


@pytest.mark.skipif(compiled_valued() is None, reason="numba is not available or PLUNDER_PURE is set")
def test_a_default_game_is_valued_exactly_from_the_compiled_reach() -> None:
    """A default 4x4 game's decisions with ANALYSIS_ENDGAME_COMPILED lines left or fewer are
    within the exact reach, and valued by the solver (its time limit lifted: no test is timed);
    those with more are not."""
    game = PillageGame.load()
    rules = entry("pillage").analysis
    assert rules is not None
    untimed = dataclasses.replace(rules, exact_seconds=1e9)
    record = play(game, ["greedy", "random"], seed=5)
    made = plan(record)
    checked = 0
    for task in made.tasks:
        state = task.state
        assert isinstance(state, PillageState)
        if not ANALYSIS_ENDGAME_COMPILED - 3 <= len(state.open_lines) <= ANALYSIS_ENDGAME_COMPILED + 1:
            continue
        inside = len(state.open_lines) <= ANALYSIS_ENDGAME_COMPILED
        assert endgame(state) == inside
        if not inside or state.pending:
            continue
        valuation = exactly(task, entry("pillage"), untimed)
        assert valuation.exact
        assert valuation.best_margins[state.current_player] == Solver(game, state.contents).solve(state).value
        checked += 1
    assert checked >= 2


def test_without_the_compiled_search_the_reach_is_the_python_searchs(monkeypatch: pytest.MonkeyPatch) -> None:
    game = PillageGame.load()
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.open_lines) > ANALYSIS_ENDGAME + 1:
        state = state.apply(rng.choice(state.legal_actions()))
    monkeypatch.setattr(hard, "compiled_valued", lambda: None)
    assert not endgame(state)
    state = state.apply(rng.choice(state.legal_actions()))
    if not state.pending:
        assert len(state.open_lines) == ANALYSIS_ENDGAME and endgame(state)


def test_the_analysis_keeps_one_solver_while_the_game_stays_the_same() -> None:
    """solve_state shares one solver between the calls of one game (its tables answer the next
    decision) and makes a new one for other contents; its values are a fresh solve's."""
    game = PillageGame.load(board="square:2x3")
    rng = random.Random(4)
    states = []
    for _ in range(2):
        state = game.new_initial_state()
        while state.is_chance_node() or len(state.open_lines) > 10:
            state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    assert states[0].contents != states[1].contents
    first = solve_state(states[0])
    kept = hard._kept[0]
    later = states[0].apply(states[0].legal_actions()[0])
    if not later.is_terminal():
        assert solve_state(later).value == solve(later).value
        assert hard._kept[0] is kept
    assert first.value == solve(states[0]).value
    assert solve_state(states[1]).value == solve(states[1]).value
    assert hard._kept[0] is not kept
    # an explicit table budget is a solve of its own
    assert solve_state(states[1], memory=8).value == solve(states[1]).value


@pytest.mark.skipif(compiled_valued() is None, reason="numba is not available or PLUNDER_PURE is set")
def test_past_the_reach_a_default_game_tries_the_solver_briefly_up_to_the_stretch() -> None:
    """A default 4x4 game's decisions within the reach get the exact solve's time, those past it
    up to ANALYSIS_STRETCH lines the stretch's short time, those beyond neither; a 3x4 board
    (fewer than a quarter of its lines drawn there) is not stretched."""
    pillage = entry("pillage")
    rules = pillage.analysis
    assert rules is not None and rules.stretch_seconds < rules.exact_seconds
    seen = set()
    for board, seed in (("square:4x4", 5), ("square:3x4", 1)):
        made = plan(play(PillageGame.load(board=board, contents="random"), ["greedy", "random"], seed=seed))
        for task in made.tasks:
            state = task.state
            assert isinstance(state, PillageState)
            left = len(state.open_lines)
            want = (rules.exact_seconds if left <= ANALYSIS_ENDGAME_COMPILED
                    else rules.stretch_seconds if left <= hard.ANALYSIS_STRETCH and board == "square:4x4" else None)
            assert value_module.exact_seconds(task, pillage, rules) == want, (board, left)
            assert value_module.exact_seconds(dataclasses.replace(task, exact=False), pillage, rules) is None
            seen.add((board, want))
    assert ("square:4x4", rules.stretch_seconds) in seen and ("square:3x4", None) in seen


def test_a_stretch_position_the_solver_settles_is_valued_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the game's stretch takes in a position beyond its reach and the solve finishes, the
    values are the solver's (here a solver without a window: with one the mark is proven, below);
    without a stretch the playouts value it."""
    game = PillageGame.load(board="square:2x3")
    rng = random.Random(4)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.open_lines) > 12:
        state = state.apply(rng.choice(state.legal_actions()))
    pillage = entry("pillage")
    rules = pillage.analysis
    assert rules is not None and not state.pending
    played = game.action_to_text(state, state.legal_actions()[0])
    task = Task("stretch", state, played, 8, 0, "greedy", 0, True)
    beyond = dataclasses.replace(rules, exact=lambda s: False, stretch=None)
    stretched = dataclasses.replace(beyond, stretch=lambda s: True, stretch_seconds=1e9)
    windowless = dataclasses.replace(pillage.strength, window=None)
    for analysis, exact in ((beyond, False), (stretched, True)):
        monkeypatch.setattr(value_module, "entry", lambda game_id: dataclasses.replace(
            pillage, analysis=analysis, strength=windowless))
        valuation = value_task(task)
        assert valuation.exact is exact
        if exact:
            assert valuation.best_margins[state.current_player] == solve(state).value


@pytest.mark.parametrize("lines,value,losses", POSITIONS)
def test_a_stretch_position_s_mark_is_proven_by_null_window_tests(monkeypatch: pytest.MonkeyPatch, lines: list[str],
                                                                  value: int, losses: dict[str, int]) -> None:
    """On a stretch position of a game whose solver takes a window, the move played is solved and
    its mark proven: the mark is the exact loss's, the loss shown a bound of the exact one ("at
    least ..." where only a lower bound is proven), the margins after the move exact, and the
    better move named one that keeps at least the value the bound says (the known positions
    above, stretched: no time limit, so no test is timed)."""
    game, state = _example_after(lines)
    pillage = entry("pillage")
    rules = pillage.analysis
    assert rules is not None and pillage.strength.window is not None
    stretched = dataclasses.replace(rules, exact=lambda s: False, stretch=lambda s: True, stretch_seconds=1e6)
    monkeypatch.setattr(value_module, "entry", lambda game_id: dataclasses.replace(pillage, analysis=stretched))
    mover = state.current_player
    for played, loss in losses.items():
        valuation = value_task(Task(f"proven:{played}", state, played, 8, 0, "greedy", 0, True))
        move = judged(0, mover, played, valuation, stretched)
        assert valuation.bounded and not move.exact and move.bounded and valuation.playouts == 0
        assert move.mark == rules.mark(loss), (played, move)
        assert move.loss <= loss and (move.upper is None or loss <= move.upper), (played, move)
        assert valuation.played_margins[mover] == value - loss
        if move.upper is None:
            assert move.loss >= rules.blunder and move.loss_words() == f"at least {move.loss:g}"
        if loss > 0:
            assert move.best != played and losses[move.best] <= loss - move.loss
        else:
            assert move.best == played and move.loss == 0


def test_a_proof_that_runs_past_its_time_leaves_the_position_to_the_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A null-window test past the stretch's time: the playouts value the position, as a solve
    past it does (the test stands in for a solver that never answers in time)."""
    game, state = _example_after(POSITIONS[0][0])
    pillage = entry("pillage")
    rules = pillage.analysis
    assert rules is not None

    def too_slow(state: Any, cut: float, time_limit: float | None = None) -> Any:
        raise value_module.SearchLimitError("pillage solver: time limit reached", "time")

    stretched = dataclasses.replace(rules, exact=lambda s: False, stretch=lambda s: True)
    monkeypatch.setattr(value_module, "entry", lambda game_id: dataclasses.replace(
        pillage, analysis=stretched, strength=dataclasses.replace(pillage.strength, window=too_slow)))
    valuation = value_task(Task("slow", state, "c1-c2", 8, 0, "greedy", 0, True))
    assert not valuation.bounded and not valuation.exact and valuation.playouts > 0
