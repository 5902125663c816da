"""The unit-board fast path (solver_unit.py) against the generic exact solver.

The generic valued search uses none of the Dots and Boxes rules, so every value the fast
path gives is checked against a search that does not share its shortcuts.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Iterator

import pytest

from plunder.games.pillage.board import generated
from plunder.games.pillage.contents import Doubloons, Legend
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.games.pillage.solver import Solver, solve
from plunder.games.pillage.solver_rules import components, loony_value
from plunder.games.pillage.solver_unit import RULES, fits, unit_worth

from .test_solver import board_spec, oracle

#: (board, most lines left in a sampled position): the generic solver takes well under a
#: second on each
BOARDS = [("square:2x2", 12), ("square:2x3", 16), ("square:3x2", 16), ("square:2x4", 15), ("square:3x3", 14),
          ("triangle:2x2", 14), ("hex:2x2", 16)]


def generic(state: PillageState) -> float:
    """The value by the generic valued search (no unit rules)."""
    return Solver(state.game, state.contents, unit_rules=None).solve(state).value


def random_position(rng: random.Random, game: PillageGame, left: int) -> PillageState:
    """Random legal play until at most ``left`` lines are undrawn."""
    state = game.new_initial_state()
    while len(state.undrawn()) > left:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def unit_positions(rng: random.Random, count: int) -> Iterator[tuple[PillageGame, PillageState]]:
    """Of ``count`` random positions on the :data:`BOARDS` in turn (unit contents, 3 to the
    board's most lines left), the ones not over."""
    for i in range(count):
        shape, most = BOARDS[i % len(BOARDS)]
        game = PillageGame.load(board=shape, contents="unit")
        state = random_position(rng, game, rng.randint(3, most))
        if not state.is_terminal():
            yield game, state


def open_sides(state: PillageState) -> list[int]:
    """Undrawn lines of each open box."""
    board = state.game.board
    counts = [sum(1 for e in edges if not state.drawn >> e & 1) for edges in board.box_edges]
    return [c for c in counts if c]


@pytest.mark.parametrize("rules", [RULES, frozenset({"capture"}), frozenset({"capture", "chains"}),
                                   frozenset({"endgame"}), frozenset()])
def test_every_rule_set_agrees_with_the_generic_solver(rules: frozenset[str]) -> None:
    """Random positions of square and non-square unit boards, each rule on its own too,
    with many positions where a box is capturable (rules 1 and 2 at the root's children
    and below) and where the rule each set adds was used."""
    rng = random.Random(16)
    checked = 0
    used = {"capture": 0, "chains": 0, "endgame": 0}
    for game, state in unit_positions(rng, 80):
        solver = Solver(game, state.contents, unit_rules=rules, compiled=False)  # the Python search
        assert solver.unit is not None
        result = solver.solve(state)
        assert result.value == generic(state), (game.params["board"], sorted(rules), state.summary())
        assert result.best_action in state.legal_actions()
        used["capture"] += solver.unit.forced
        used["chains"] += solver.unit.deals
        used["endgame"] += solver.unit.endgames
        checked += 1
    assert checked >= 70
    for rule in RULES:
        assert (used[rule] > 20) == (rule in rules), used


def test_best_actions_keep_the_value_on_unit_boards() -> None:
    """The fast path's best action leads to a child the generic solver values the same."""
    rng = random.Random(7)
    for i in range(40):
        shape, most = BOARDS[i % 5]
        game = PillageGame.load(board=shape, contents="unit")
        state = random_position(rng, game, rng.randint(3, most))
        if state.is_terminal():
            continue
        result = solve(state)
        assert result.best_action is not None
        child = state.apply(result.best_action)
        v = generic(child) if not child.is_terminal() else solve(child).value
        assert (v if child.mover == state.mover else -v) == result.value


def loony_positions(rng: random.Random, shape: str) -> PillageState | None:
    """A random simple loony endgame of ``shape``: lines drawn at random while no box gets
    a third side; None unless every box then has exactly two sides undrawn."""
    game = PillageGame.load(board=shape, contents="unit")
    state = game.new_initial_state()
    board = game.board
    while True:
        quiet = [e for e in state.undrawn()
                 if all(sum(1 for f in board.box_edges[b] if state.drawn >> f & 1) < 2 for b in board.edge_boxes[e])]
        if not quiet:
            break
        state = state.apply(game.lines[rng.choice(quiet)])
    return state if set(open_sides(state)) == {2} else None


def test_simple_loony_endgames_agree_with_the_generic_solver() -> None:
    """Boards of chains and loops only (e.g. 3x3 below: a loop of four and a chain of five),
    valued by the recursion alone, against the generic search of the whole position.

    ::

        +--+--+--+
        |        |
        +  +--+  +
        |  |  |  |     (one of the sampled shapes)
        +  +--+  +
        |        |
        +--+--+--+
    """
    rng = random.Random(3)
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for i in range(300):
        state = loony_positions(rng, ["square:3x3", "square:2x4", "square:3x4", "square:2x3"][i % 4])
        if state is None or state.is_terminal() or len(state.undrawn()) > 16:
            continue
        solver = Solver(state.game, state.contents)
        assert solver.unit is not None
        undrawn = solver.full ^ state.drawn
        unit = solver.unit
        assert components(undrawn, unit.box_mask, unit.edge_box, unit.counts)
        nb = unit.nb
        parts = (tuple(k for k in range(nb + 1) for _ in range(unit.counts[k])),
                 tuple(k for k in range(nb + 1) for _ in range(unit.counts[nb + 1 + k])))
        seen.add(parts)
        assert loony_value(*parts) == generic(state), (parts, state.summary())
    # chains of one, two and long ones, and loops, all met
    lengths = {k for chains, _ in seen for k in chains}
    assert {1, 2, 3} <= lengths and any(loops for _, loops in seen) and len(seen) >= 12, seen


def test_loony_values_by_hand() -> None:
    """Three boxes in a chain: the mover opens it and the opponent takes all three; two such
    chains: the opponent takes one, hands two back and keeps control: -2."""
    assert loony_value((), ()) == 0
    assert loony_value((3,), ()) == -3
    assert loony_value((1,), ()) == -1
    assert loony_value((3, 3), ()) == -2   # opponent: max(3 + -3, 3 - 4 + 3) = 2
    assert loony_value((), (4,)) == -4
    assert loony_value((1, 3), ()) == 2    # hand the single box over: -(1 + -3)
    assert loony_value((), (4, 4)) == 0    # opponent: max(4 + -4, 4 - 8 + 4) = 0
    assert loony_value((3,), (4,)) == -1   # open the chain: max(3 - 4, 3 - 4 + 4) = 3; the loop: max(4 - 3, 4 - 8 + 3) = 1


def test_boxes_of_equal_worth_scale_the_unit_value(tmp_path: Path) -> None:
    """Every box worth 3: the fast path is used and values are three times the unit ones."""
    shape = "square:2x3"
    spec = board_spec(tmp_path, shape, [Doubloons(3)] * 6, Legend(("food",), (1,)))
    game = PillageGame.load(board=spec)
    unit = PillageGame.load(board=shape, contents="unit")
    rng = random.Random(5)
    for _ in range(20):
        moves = rng.randint(0, 12)
        state, plain = game.new_initial_state(), unit.new_initial_state()
        while state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
        for _ in range(moves):
            action = rng.choice(plain.legal_actions())
            state, plain = state.apply(game.parse_action(state, action.text())), plain.apply(action)
        if plain.is_terminal():
            continue
        assert Solver(game, state.contents).unit is not None
        assert solve(state).value == 3 * generic(plain)
        if len(plain.undrawn()) <= 8:
            assert solve(state).value == 3 * oracle(plain)


def test_which_boards_take_the_fast_path() -> None:
    """Unit and equal-doubloon contents only; valued boxes never."""
    assert unit_worth([Doubloons(1)] * 4) == 1
    assert unit_worth([Doubloons(2), Doubloons(2)]) == 2
    assert unit_worth([Doubloons(1), Doubloons(2)]) is None
    assert unit_worth([]) is None
    assert fits(generated("square:3x4")) and fits(generated("triangle:2x2"))
    valued = PillageGame.load(board="square:2x2", contents="random", mix="doubloons:50,commodity:50,modifier:0")
    state = valued.new_initial_state()
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[-1][0])
    assert not any(isinstance(c, Doubloons) for c in state.contents)  # commodities: worth their legend value
    assert Solver(valued, state.contents).unit is None


def test_unit_3x3_from_the_start() -> None:
    """The whole 3x3 game by the fast path: -3 (the second player wins 6-3)."""
    state = PillageGame.load(board="square:3x3", contents="unit").new_initial_state()
    assert solve(state).value == -3


#: a 4x4 position (from an agents' game) with two chains open to eat: a pair running into a
#: box of three undrawn lines (d3-d4, then c3-d3) and four boxes with both ends capturable
#: (a4-b4, b3-b4, b4-c4); the player to move, 5 boxes down with 11 open, hands over the pair
#: (c3-d3) after taking the four and wins the last five: +7 from here, 2 in all. Following
#: the first head, rule 2 once left the four for last and double-dealt them: +3.
TWO_CHAINS = ("a5-b5 c2-d2 a2-b2 d4-e4 a3-a4 b5-c5 a2-a3 b3-c3 d3-e3 c3-c4 a3-b3 b2-b3 c4-c5 c5-d5 a4-a5 "
              "e1-e2 c1-d1 c4-d4 d4-d5 d2-e2 d1-e1 d1-d2 c1-c2 b1-c1 d5-e5 e4-e5 a1-b1 e3-e4 b4-b5").split()


@pytest.mark.parametrize("compiled", [False, True])
def test_with_several_chains_open_the_one_left_to_double_deal_in_is_chosen(compiled: bool) -> None:
    game = PillageGame.load(board="square:4x4", contents="unit")
    state = game.new_initial_state()
    for text in TWO_CHAINS:
        state = state.apply_text(text)
    assert state.doubloons == (0, 5) and len(state.open_lines) == 11 and state.mover == 0
    assert generic(state) == 2.0
    solver = Solver(game, state.contents, compiled=compiled, compiled_from=0)
    assert solver.unit is not None
    result = solver.solve(state)
    assert result.value == 2.0
    assert (solver.fast is not None) == compiled  # the compiled search ran, or the Python one
    assert result.best_action is not None and state.apply(result.best_action).doubloons[0] == 1  # a box taken first
