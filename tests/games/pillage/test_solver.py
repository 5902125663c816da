"""The exact solver against a brute-force oracle, known values, its actions and its agent."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import plunder
from plunder.agents import make_agent
from plunder.core.agent import Agent
from plunder.core.errors import ParameterError
from plunder.games.pillage.board import generated
from plunder.games.pillage.contents import (
    OPS, Commodity, Content, Doubloons, Legend, Modifier, content_text, parse_content,
)
from plunder.games.pillage.heuristics import GreedyAgent
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.core.errors import SearchLimitError
from plunder.games.pillage.actions import Choose, Deal, Line
from plunder.games.pillage.solver import Solver, SolverAgent, solve, value_of
from plunder.games.pillage.solver_table import SLOT_BYTES, ArrayTable, Packing
from plunder.games.pillage.solver_valued_compiled import compiled_valued

LEGEND = Legend(("food", "armor"), (3, 2))


def oracle(state: PillageState) -> float:
    """Plain minimax over ``state.apply``: no table, no pruning, no symmetry.

    The final margin of the player to act, each side maximising its own final margin.
    """
    me = state.current_player

    def rec(s: PillageState) -> float:
        if s.is_terminal():
            a, b = s.scores()
            return a - b if me == 0 else b - a
        values = [rec(s.apply(a)) for a in s.legal_actions()]
        return max(values) if s.current_player == me else min(values)

    return rec(state)


def board_spec(tmp_path: Path, shape: str, contents: list[Content], legend: Legend, name: str = "board") -> str:
    """A board file of the generated ``shape`` with ``contents``, as a board parameter."""
    board = generated(shape)
    data = {
        "dots": [[int(x), int(y)] for x, y in board.dots],
        "boxes": [{"dots": list(cycle), "content": content_text(c, legend)} for cycle, c in zip(board.boxes, contents)],
        "legend": dict(zip(legend.kinds, legend.values)),
    }
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return f"file:{path}"


def random_content(rng: random.Random, kinds: int) -> Content:
    r = rng.random()
    if r < 0.3:
        return Doubloons(rng.randint(1, 4))
    if r < 0.65:
        return Commodity(rng.randrange(kinds))
    ops = tuple(o for o in OPS if rng.random() < 0.5) or (rng.choice(OPS),)
    ks = tuple(sorted(rng.sample(range(kinds), rng.randint(1, kinds))))
    return Modifier(ops, rng.randint(0, 4), ks)


def random_position(rng: random.Random, game: PillageGame, undrawn: int) -> PillageState:
    """Random legal play until at most ``undrawn`` lines are left (may stop at a choice)."""
    s = game.new_initial_state()
    while not s.is_terminal() and (len(s.undrawn()) > undrawn or (s.pending and rng.random() < 0.5)):
        s = s.apply(rng.choice(s.legal_actions()))
    return s


SHAPES = [("square:1x1", 4), ("square:1x2", 6), ("triangle:1x1", 5), ("square:1x3", 6), ("square:2x2", 6),
          ("triangle:1x2", 6)]


def test_oracle_agreement_on_random_valued_positions(tmp_path: Path) -> None:
    """Hundreds of positions: doubloons, commodities (negative values too), +/-/x
    modifiers with one or several operations and kinds, with and without a floor."""
    rng = random.Random(2026)
    checked = pending = 0
    for i in range(300):
        shape, most = SHAPES[i % len(SHAPES)]
        board = generated(shape)
        legend = Legend(("food", "armor"), (rng.randint(-2, 5), rng.randint(-2, 5)))
        contents = [random_content(rng, 2) for _ in board.boxes]
        spec = board_spec(tmp_path, shape, contents, legend, name=f"b{i}")
        floor = rng.choice(["none", "none", "0", "1"])
        game = PillageGame.load(board=spec, floor=floor)
        state = random_position(rng, game, rng.randint(2, most))
        if state.is_terminal():
            continue
        result = solve(state)
        assert result.value == oracle(state), (shape, contents, legend, floor, state.summary())
        assert result.best_action in state.legal_actions()
        checked += 1
        pending += bool(state.pending)
    assert checked >= 250 and pending >= 5


def test_oracle_agreement_on_symmetric_boards(tmp_path: Path) -> None:
    """Contents laid out symmetrically, so the tables really share entries between images."""
    rng = random.Random(99)
    mod = Modifier(("+", "-"), 2, (0, 1))
    layouts: list[list[Content]] = [
        [Doubloons(1)] * 4,
        [Commodity(0), Doubloons(2), Doubloons(2), Commodity(0)],
        [mod, Commodity(1), Commodity(1), mod],
        [Commodity(0), Commodity(0), Doubloons(3), Doubloons(3)],
    ]
    for i, contents in enumerate(layouts):
        game = PillageGame.load(board=board_spec(tmp_path, "square:2x2", contents, LEGEND, name=f"y{i}"))
        assert len(Solver(game, game.new_initial_state().contents).perms) >= 2
        for _ in range(8):
            state = random_position(rng, game, 6)
            if not state.is_terminal():
                assert solve(state).value == oracle(state)


def child_value(parent: PillageState, child: PillageState) -> float:
    """The child's solved value seen from the parent's player."""
    v = solve(child).value
    return v if child.mover == parent.mover else -v


def _random_valued(rng: random.Random, tmp_path: Path, i: int, prefix: str,
                   beyond: int = 1) -> tuple[PillageGame, PillageState]:
    """The ``i``-th small board of :data:`SHAPES` with random valued contents, at a random
    position (``random_position``'s bound: the shape's most moves and ``beyond``)."""
    shape, most = SHAPES[i % len(SHAPES)]
    board = generated(shape)
    contents = [random_content(rng, 2) for _ in board.boxes]
    game = PillageGame.load(board=board_spec(tmp_path, shape, contents, LEGEND, name=f"{prefix}{i}"))
    return game, random_position(rng, game, most + beyond)


def test_best_action_achieves_the_value(tmp_path: Path) -> None:
    """Applying best_action and re-solving gives the same value, at lines and at choices."""
    rng = random.Random(7)
    seen_choice = False
    for i in range(60):
        game, state = _random_valued(rng, tmp_path, i, "c")
        while not state.is_terminal():
            result = solve(state)
            assert result.best_action is not None
            seen_choice |= bool(state.pending)
            child = state.apply(result.best_action)
            assert child_value(state, child) == result.value
            state = child
    assert seen_choice


def test_every_action_is_no_better_than_the_value(tmp_path: Path) -> None:
    """The value is the maximum over the children (so no better action was missed)."""
    rng = random.Random(11)
    for i in range(40):
        game, state = _random_valued(rng, tmp_path, i, "d", beyond=2)
        if state.is_terminal():
            continue
        values = [child_value(state, state.apply(a)) for a in state.legal_actions()]
        assert max(values) == solve(state).value


@pytest.mark.parametrize(("board", "value"), [("square:1x1", -1), ("square:1x2", 0), ("square:2x2", 2),
                                               ("square:1x3", -1), ("triangle:1x1", 0)])
def test_unit_values_from_the_start(board: str, value: int) -> None:
    """Plain Dots and Boxes: 1x1 is lost by one for the first player, 2x2 won 3-1."""
    state = PillageGame.load(board=board, contents="unit").new_initial_state()
    assert solve(state).value == value
    assert value_of(state) == value


def test_unit_2x2_agrees_with_the_oracle_mid_game() -> None:
    """The 2x2 start is too big for the plain oracle; five lines in it is not."""
    game = PillageGame.load(board="square:2x2", contents="unit")
    s = game.new_initial_state()
    for t in ["a1-b1", "b2-c2", "a2-a3", "c1-c2", "b1-b2"]:
        s = s.apply_text(t)
    assert solve(s).value == oracle(s)


def test_free_commodity_is_not_forced_while_a_modifier_can_change_it(tmp_path: Path) -> None:
    """A box on the edge of the board is a free extra move only when its worth is fixed.

    Here the food at the left end can be taken without touching another box, but the open
    "-3 food" modifier may still turn every food held to -2, so taking it is no free gain.

        a     b     c     d
     1  •─────•     •     •
        │ F   │ F     -3F │     legend food:1; Player 2 to draw
     2  •     •─────•     •
    """
    legend = Legend(("food",), (1,))
    contents: list[Content] = [Commodity(0), Commodity(0), Modifier(("-",), 3, (0,))]
    game = PillageGame.load(board=board_spec(tmp_path, "square:1x3", contents, legend))
    s = game.new_initial_state()
    for t in ["a1-a2", "a1-b1", "b1-b2", "b2-c2", "d1-d2"]:
        s = s.apply_text(t)
    assert s.current_player == 1
    assert solve(s).value == oracle(s) == 0


def test_declining_a_capture_can_be_best() -> None:
    """Always taking an offered box is wrong: here Player 1 can take the top-right box
    (c2-d2, which hands over the bottom-right one), but the best line declines both.

          a     b     c     d
       1  •     •─────•─────•
          │           │ $1  │
       2  •     •─────•     •
          │           │ $1
       3  •─────•     •─────•
    """
    game = PillageGame.load(board="square:2x3", contents="unit")
    s = game.new_initial_state()
    for t in "a1-a2 b1-c1 c1-c2 b2-c2 c1-d1 d1-d2 a2-a3 a3-b3 c2-c3 c3-d3".split():
        s = s.apply_text(t)
    result = solve(s)
    assert result.value == oracle(s) == 2
    assert result.best_action is not None and game.action_to_text(s, result.best_action) != "c2-d2"
    taking = s.apply_text("c2-d2")
    assert solve(taking).value + 1 < result.value


def test_transpositions_keep_values_no_modifier_can_change_any_more(tmp_path: Path) -> None:
    """Two lines of play can reach one drawn mask with different food values (the food
    modifiers were applied differently); the food box still open is worth different
    amounts, so the table must not share them. A random case found by mutating the key."""
    legend = Legend(("food", "armor"), (2, 3))
    texts = ["+-3 food/armor", "+4 armor", "food", "+-4 food/armor"]
    contents = [parse_content(t, legend) for t in texts]
    game = PillageGame.load(board=board_spec(tmp_path, "triangle:1x2", contents, legend), floor="0")
    s = game.new_initial_state()
    for t in ["a1-b2", "c1-b2", "e1-d2", "d2-f2"]:
        s = s.apply_text(t)
    assert solve(s).value == oracle(s) == 0


def test_unit_3x3_is_minus_three() -> None:
    """The classic 3x3 board: the second player wins 6-3 (about 4 s on 2 shared cores)."""
    state = PillageGame.load(board="square:3x3", contents="unit").new_initial_state()
    assert solve(state).value == -3


def test_internal_line_and_choice_steps_match_apply(tmp_path: Path) -> None:
    """Solver.step_line and choice_outcomes give what PillageState.apply gives."""
    rng = random.Random(5)
    for i in range(40):
        shape = ["square:2x2", "square:1x3", "triangle:1x1"][i % 3]
        board = generated(shape)
        contents = [random_content(rng, 2) for _ in board.boxes]
        game = PillageGame.load(board=board_spec(tmp_path, shape, contents, LEGEND, name=f"s{i}"),
                                 floor=rng.choice(["none", "0"]))
        s = game.new_initial_state()
        solver = Solver(game, s.contents)
        while not s.is_terminal():
            p = s.mover
            hd = tuple(a - b for a, b in zip(s.held[p], s.held[1 - p]))
            before = s.scores()[p] - s.scores()[1 - p]
            if s.pending:
                outcomes = solver.choice_outcomes(s.pending[0], s.values, hd)
                first = [c for c in s.legal_actions() if isinstance(c, Choose) and c.modifier == s.contents[s.pending[0]]]
                assert len(outcomes) == len(first)
                j, values, gain = rng.choice(outcomes)
                t = s.apply(first[j])
                assert t.values == values
            else:
                e = rng.choice(s.undrawn())
                drawn, gain, hd2, mods, keeps = solver.step_line(s.drawn, s.values, hd, e)
                t = s.apply(game.lines[e])
                assert t.drawn == drawn and list(t.pending) == mods and (t.mover == p) == keeps
                assert hd2 == tuple(a - b for a, b in zip(t.held[p], t.held[1 - p]))
            assert t.scores()[p] - t.scores()[1 - p] - before == gain
            s = t


def test_symmetries_preserve_geometry_and_contents(tmp_path: Path) -> None:
    """8 symmetries of a square, 4 of a rectangle, fewer once contents differ; images of a
    mask share one canonical form."""
    def count(board: str, contents: str = "unit") -> int:
        s = PillageGame.load(board=board, contents=contents).new_initial_state()
        return len(Solver(s.game, s.contents).perms)

    assert count("square:3x3") == 8 and count("square:2x3") == 4 and count("square:1x1") == 8
    assert count("triangle:2x2") >= 2 and count("hex:2x2") >= 2
    assert count("square:2x2", "example") == 1  # four different contents: no symmetry survives
    rng = random.Random(1)
    for board in ("square:3x3", "triangle:2x2", "hex:2x2", "octagon:2x2"):
        s = PillageGame.load(board=board, contents="unit").new_initial_state()
        solver = Solver(s.game, s.contents)
        for _ in range(100):
            mask = rng.getrandbits(solver.num_edges)
            key, sym = solver.canon_sym(mask)
            assert key == solver.canon(mask) <= mask
            for perm in solver.perms:
                image = sum(1 << perm[e] for e in range(solver.num_edges) if mask >> e & 1)
                assert solver.canon(image) == key
                # a symmetry maps boxes onto boxes: the image closes as many boxes
                closed = sum(1 for bm in solver.box_mask if mask & bm == bm)
                assert sum(1 for bm in solver.box_mask if image & bm == bm) == closed
    # A lopsided valued board: only content-preserving maps survive.
    contents: list[Content] = [Doubloons(1), Doubloons(1), Doubloons(5), Doubloons(1)]
    game = PillageGame.load(board=board_spec(tmp_path, "square:2x2", contents, LEGEND))
    assert len(Solver(game, game.new_initial_state().contents).perms) == 2


def test_chance_and_terminal_states() -> None:
    """A chance node is refused; a terminal state gives its final margin and no action."""
    game = PillageGame.load(board="square:1x1", contents="random")
    with pytest.raises(ValueError, match="chance"):
        solve(game.new_initial_state())
    s = PillageGame.load(board="square:1x1", contents="unit").new_initial_state()
    for t in ["a1-b1", "a1-a2", "b1-b2", "a2-b2"]:
        s = s.apply_text(t)
    result = solve(s)
    assert result.best_action is None and result.value == 1.0 and s.mover == 1


def test_limits_raise_search_limit_errors_and_the_agent_falls_back() -> None:
    state = PillageGame.load(board="square:3x3", contents="unit").new_initial_state()
    with pytest.raises(SearchLimitError) as timed:
        solve(state, time_limit=0.05)
    assert timed.value.limit == "time"
    with pytest.raises(SearchLimitError) as counted:
        solve(state, node_limit=5000)
    assert counted.value.limit == "nodes"
    agent = SolverAgent(nodes=5000)
    assert agent.choose(state, random.Random(0)) in state.legal_actions()


def test_a_small_table_budget_keeps_the_tables_small_and_the_value_exact() -> None:
    """0.02 MB: the array table of the static search stops at 653 slots (16 bytes each,
    within two thirds of its three quarters of the budget) and is overwritten again and
    again while 2x3 searches some 30,000 positions; the dict tables may hold 21 entries.
    The value is still exact (a lost entry costs time, never exactness). The unit fast
    path gets 95% of the budget for its array table (829 slots) and is exact too."""
    state = PillageGame.load(board="square:2x3", contents="unit").new_initial_state()
    solver = Solver(state.game, state.contents, memory=0.02, unit_rules=None)
    assert solver.timer.capacity == 21
    result = solver.solve(state)
    assert result.value == solve(state).value == -2
    assert isinstance(solver.array, ArrayTable)
    assert solver.array.size == 653 and solver.array.grown == 0
    assert result.nodes > 20 * solver.array.size
    unit = Solver(state.game, state.contents, memory=0.02, compiled=False)
    fast = unit.solve(state)
    assert isinstance(unit.array, ArrayTable)
    assert fast.value == -2 and unit.array.size == 829 and unit.array.grown == 0
    assert fast.nodes > 10 * unit.array.size
    with pytest.raises(ParameterError):
        Solver(state.game, state.contents, memory=0)


def test_the_dict_tables_of_valued_boards_are_trimmed_to_their_budget() -> None:
    """Positions with an open modifier live in dict tables: past their budget they are
    trimmed to half of it, and the value still matches a solver with room to spare."""
    state = PillageGame.load(board="square:2x3", contents="random").new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state = state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    assert sum(isinstance(c, Modifier) for c in state.contents) == 3
    small = Solver(state.game, state.contents, memory=0.05)
    assert small.solve(state).value == solve(state).value == -5
    assert small.timer.trims > 0 and sum(len(t) for t in small.timer.tables) <= small.timer.capacity + 4096


def test_the_array_table_keeps_what_it_can_and_grows_to_its_budget() -> None:
    """Random keys into a table that doubles from its first size: every key still present
    maps to its latest entry, most keys are kept, the table never outgrows its budget."""
    table = ArrayTable(16 << 20, (1 << 24) - 1)
    rng = random.Random(1)
    latest: dict[int, int] = {}
    for _ in range(100_000):
        key, entry = rng.getrandbits(24), rng.getrandbits(40) + 1
        table.put(key, entry)
        latest[key] = entry
    found = {key: table.get(key) for key in latest}
    assert all(got in (0, latest[key]) for key, got in found.items())
    assert sum(1 for got in found.values() if got) > 0.9 * len(latest)
    assert table.grown > 0 and (table.size + 1) * SLOT_BYTES <= (16 << 20) * 2 / 3 + SLOT_BYTES


def test_packing_round_trips_bounds_and_moves() -> None:
    packing = Packing(37)
    for lo, hi, move in ((-37, 37, -1), (0, 0, 0), (-5, 12, 39), (37, 37, 65534)):
        entry = packing.pack(lo, hi, move)
        assert entry > 0 and entry.bit_length() <= packing.bits and packing.unpack(entry) == (lo, hi, move)


def test_progress_reports_name_the_root_line_and_the_best_so_far() -> None:
    """The valued search names its root line; the unit search the value's bounds so far."""
    state = PillageGame.load(board="square:2x3", contents="unit").new_initial_state()
    lines: list[str] = []
    generic = Solver(state.game, state.contents, unit_rules=None)
    assert generic.solve(state, progress=lines.append, every=0.0).value == -2
    assert lines and "positions" in lines[-1] and "root line" in lines[-1] and "of 17" in lines[-1]
    lines.clear()
    assert solve(state, progress=lines.append, every=0.0).value == -2
    assert any("value from -6 to +6, testing >= +0" in line for line in lines), lines


def test_make_solver_options() -> None:
    game = PillageGame.load(preset="example")
    def solver(spec: str) -> SolverAgent:
        agent = make_agent(spec, game)
        assert isinstance(agent, SolverAgent)
        return agent

    default = solver("solver")
    assert default.nodes == 2_000_000 and default.seconds is None and default.name == "solver"
    assert solver("solver:nodes=none").nodes is None
    assert solver("solver:seconds=2.5").seconds == 2.5
    assert solver("solver:memory=64").memory == 64
    for bad in ("seconds=soon", "seconds=0", "seconds=nan", "nodes=0", "memory=-1", "depth=3"):
        with pytest.raises(ParameterError):
            make_agent(f"solver:{bad}", game)


@pytest.mark.parametrize("solver_seat", [0, 1])
def test_solver_agent_beats_or_ties_greedy_on_the_example(solver_seat: int) -> None:
    """From the PP-8 start the solver gets at least the game value against greedy."""
    game = PillageGame.load(preset="example")
    state = game.new_initial_state()
    start_value = solve(state).value
    seat_value = start_value if solver_seat == 0 else -start_value
    agents: dict[int, Agent] = {solver_seat: SolverAgent(None), 1 - solver_seat: GreedyAgent()}
    rng = random.Random(3)
    while not state.is_terminal():
        action = agents[state.current_player].choose(state, rng)
        assert isinstance(action, (Line, Choose, Deal))
        state = state.apply(action)
    a, b = state.scores()
    margin = a - b if solver_seat == 0 else b - a
    assert margin >= seat_value
    assert margin >= 0


def _tested(solver: Solver, state: PillageState, value: float) -> None:
    """Every null-window test of ``state`` around its ``value`` answers as the value does: it
    holds exactly where the value reaches the cut, its bound lies on the cut's side the value
    does, and where it holds, its action's value reaches the bound."""
    for cut in (value - 7, value - 1, value, value + 0.5, value + 1, value + 6):
        found = solver.test(state, cut)
        assert found.holds == (value >= cut), (cut, value, found)
        if found.holds:
            assert value >= found.bound >= cut and found.best_action is not None
            assert child_value(state, state.apply(found.best_action)) >= found.bound
        else:
            assert value <= found.bound < cut and found.best_action is None


def test_a_null_window_test_bounds_the_value_on_the_cut_s_side(tmp_path: Path) -> None:
    """``Solver.test`` (the analysis' proofs of a mark, docs/analysis.md) on random valued
    positions of small boards, choices pending among them, and on unit boards."""
    rng = random.Random(23)
    seen_choice = False
    for i in range(30):
        game, state = _random_valued(rng, tmp_path, i, "t")
        kept = Solver(game, state.contents)
        while not state.is_terminal():  # along a best line, so that choices come up
            result = solve(state)
            seen_choice |= bool(state.pending)
            _tested(kept, state, result.value)
            assert result.best_action is not None
            state = state.apply(result.best_action)
    assert seen_choice
    for board in ("square:2x2", "square:1x3"):
        game = PillageGame.load(board=board)
        state = random_position(rng, game, 9)
        _tested(Solver(game, state.contents), state, oracle(state))


@pytest.mark.skipif(compiled_valued() is None, reason="numba is not available or PLUNDER_PURE is set")
def test_a_null_window_test_of_the_compiled_search_bounds_the_value() -> None:
    """The same on positions the compiled valued search takes: 4x4 games of random contents at
    22 lines left, one solver kept for each game as the analysis keeps it."""
    for seed in (1, 2):
        game = PillageGame.load(board="square:4x4", contents="random")
        state = game.new_initial_state()
        rng = random.Random(seed)
        while state.is_chance_node() or len(state.open_lines) > 22 or state.pending:
            state = state.apply(rng.choice(state.legal_actions()))
        kept = Solver(game, state.contents, memory=64)
        _tested(kept, state, solve(state).value)
