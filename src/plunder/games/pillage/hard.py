"""The ``hard`` level for Pillage: MCTS in the opening, the exact solver near the end.

Chain play at the end of Dots and Boxes decides games and is where sampling search is
weakest, so once few lines remain the agent asks the solver for a proven best move; if the
solver runs out of its budget it falls back to the search.

Both budgets count work, not time -- simulations for the search, positions for the solver
-- so a game played by ``hard`` replays move for move from its seed on any machine. The
``seconds`` option adds a clock limit to the solver for interactive use; games played with
it are not reproducible.
"""

from __future__ import annotations

import random
import threading
from typing import cast

from ...core.agent import Agent, AgentFactory, AgentOptions, Analyst, Appraisal, Appraiser
from ...core.errors import SearchLimitError
from ...core.game import Game
from ...core.params import Param, parse_choice, parse_int, parse_or, parse_real
from .actions import PillageAction
from .rules import PillageGame, PillageState
from .solver import DEFAULT_MEMORY, SolveResult, Solver, WindowResult, solve
from .solver_unit import unit_worth
from .solver_valued_compiled import compiled_valued

#: positions of a unit board the solver may search per move before ``hard`` falls back to MCTS
#: (issue 38: at most about half a second of the move's second, under load, for the Python
#: unit search's 220,000 positions a CPU second at a load average of 12 on 2 cores; it was
#: 2,000,000, and one position of unit 3x3 at 22 lines left needed 725,000 of them, 3.3 s)
DEFAULT_NODES = 100_000

#: how many unit positions one position of valued boxes costs: the general search valued about
#: 100,000 positions a CPU second where the unit search did 220,000 (both Python, same load), so
#: a move's budget buys a third as many positions of valued boxes (a 3x3 board of random
#: contents needed 2.0 million and more from 22 lines left: 20 s)
VALUED_COST = 3
#: MCTS simulations per move: the compiled tree's in the CPU the Python tree spent on 3,000
#: (2.2 to 2.7 times as many on positions of 4x4 games with more than 22 lines left:
#: ``bench/hard_sims.py``, docs/ai.md)
DEFAULT_SIMS = 7000
#: the lines of the default board (square 4x4): ``sims`` is the count a move on boards of at most
#: as many lines. A search's cost grows with the lines its playouts draw, so a board of more
#: lines gets proportionally fewer simulations (:func:`board_sims`, the same simulation-lines):
#: at 7,000 the opening of 5x5 (60 lines, the ``big`` preset) took 1.1 to 1.3 CPU s a move
#: (issue 38's target: 1 s at the 95th percentile)
FULL_LINES = 40


def board_sims(sims: int, game: PillageGame) -> int:
    """The simulations a move of ``hard`` set to ``sims`` on ``game``'s board: ``sims`` up to
    :data:`FULL_LINES` lines, ``sims`` times :data:`FULL_LINES` over the lines past it (at least 1)."""
    return sims if game.num_edges <= FULL_LINES else max(1, sims * FULL_LINES // game.num_edges)


class HardAgent:
    """Solver once at most ``endgame`` lines are undrawn (within ``nodes`` positions of a unit
    board or a :data:`VALUED_COST`-th as many of valued boxes, and ``seconds`` if set), else MCTS."""

    name = "hard"

    def __init__(self, search: Agent[PillageState], endgame: int = 22, nodes: int = DEFAULT_NODES,
                 seconds: float | None = None) -> None:
        self.search = search
        self.endgame = endgame
        self.nodes = nodes
        self.seconds = seconds
        self._solver: Solver | None = None

    def solver_for(self, state: PillageState) -> Solver:
        """A solver for the state's contents, kept between moves so its tables are reused."""
        if self._solver is None or self._solver.contents != state.contents:
            self._solver = Solver(state.game, state.contents)
        return self._solver

    def node_limit(self, state: PillageState) -> int:
        """The positions the solver may search this move: :attr:`nodes` when every box holds the
        same pile of doubloons (the unit search's boards: within :attr:`endgame` lines, ever
        fewer than its frames hold), a :data:`VALUED_COST`-th of them (at least one) on valued
        boxes, whose positions cost more."""
        return self.nodes if unit_worth(state.contents) is not None else max(1, self.nodes // VALUED_COST)

    def _solved(self, state: PillageState) -> SolveResult | None:
        if len(state.open_lines) > self.endgame:
            return None
        try:
            result = self.solver_for(state).solve(state, time_limit=self.seconds, node_limit=self.node_limit(state))
        except SearchLimitError:
            return None
        return result if result.best_action is not None else None

    def choose(self, state: PillageState, rng: random.Random) -> PillageAction:
        """The solver's move near the end, the search's move before."""
        solved = self._solved(state)
        if solved is not None and solved.best_action is not None:
            return solved.best_action
        return cast(PillageAction, self.search.choose(state, rng))

    def analyse(self, state: PillageState, rng: random.Random) -> list[tuple[PillageAction, str]]:
        """The proven best move with its exact margin near the end; the search's ranking before."""
        solved = self._solved(state)
        if solved is not None and solved.best_action is not None:
            return [(solved.best_action, f"final margin {solved.value:+g} with best play on both sides (proven)")]
        if isinstance(self.search, Analyst):
            return [(cast(PillageAction, a), why) for a, why in self.search.analyse(state, rng)]
        return [(cast(PillageAction, self.search.choose(state, rng)), "the search's move")]


    def appraise(self, state: PillageState, rng: random.Random) -> list[Appraisal]:
        """The proven best move with its exact margin near the end; the search's judgement before."""
        solved = self._solved(state)
        if solved is not None and solved.best_action is not None:
            value = 1.0 if solved.value > 0 else -1.0 if solved.value < 0 else 0.0
            return [Appraisal(solved.best_action, value, 1, float(solved.value))]
        if isinstance(self.search, Appraiser):
            return self.search.appraise(state, rng)
        return []


def make_hard(game: Game, options: AgentOptions) -> HardAgent:
    """``hard`` for Pillage: MCTS with ``sims`` simulations (greedy playouts, ``rollouts`` a
    leaf; fewer on boards of more than 40 lines: :func:`board_sims`), the solver from
    ``endgame`` lines left, within ``nodes`` positions (and ``seconds``, if set)."""
    assert isinstance(game, PillageGame)
    sims = board_sims(options["sims"], game)
    search = options.agent(f"mcts:sims={sims},eval=fast,playout=greedy,rollouts={options['rollouts']},"
                           f"tree={options['tree']}")
    return HardAgent(search, endgame=options["endgame"], nodes=options["nodes"], seconds=options["seconds"])


def searched(game: Game, option: str, count: int) -> int:
    """The simulations ``hard`` with ``sims`` at ``count`` searches on ``game`` (:func:`board_sims`);
    its other counts as given."""
    assert isinstance(game, PillageGame)
    return board_sims(count, game) if option == "sims" else count


#: ``pillage-hard``: the ``hard`` level of Pillage
HARD = AgentFactory(make_hard, "MCTS in the opening, the exact solver near the end", (
    Param("sims", str(DEFAULT_SIMS), parse_int(1),
          f"MCTS simulations per move on boards of up to {FULL_LINES} lines (on a board of more, "
          f"this times {FULL_LINES} over its lines)"),
    Param("rollouts", "4", parse_int(1), "greedy playouts per MCTS leaf"),
    Param("endgame", "22", parse_int(0), "lines left from which the solver plays"),
    Param("nodes", str(DEFAULT_NODES), parse_int(1),
          f"solver positions per move before the search plays instead (a {VALUED_COST}rd of them on valued boxes)"),
    Param("seconds", "none", parse_or("none", parse_real(0, above=True)),
          "also stop the solver after this many seconds (games then depend on the machine)"),
    Param("tree", "auto", parse_choice(("auto", "python")),
          "the search's tree: auto (compiled where numba is there) or python (the hard of before the compiled "
          "tree, with sims=3000)", choices=("auto", "python")),
), searched)


#: MB of tables for the solver the analysis engine keeps (:func:`solve_state`): the budget the
#: exact reach was measured with (bench/pillage_exact_reach.py, docs/analysis.md)
ANALYSIS_MEMORY = 128
#: the solver :func:`solve_state` keeps between calls (one per process: the analysis worker values
#: the decisions of one game after another), with the lock that keeps it to one caller at a time
_kept: list[Solver] = []
_kept_lock = threading.Lock()


def solve_state(state: PillageState, time_limit: float | None = None, memory: float | None = None) -> SolveResult:
    """``ENTRY.strength.solve``: the exact solver on any Pillage position (``plunder solve``), within
    ``time_limit`` seconds and ``memory`` MB of tables (default :data:`DEFAULT_MEMORY`).

    Without ``memory``, the analysis engine's calls share one solver of :data:`ANALYSIS_MEMORY`
    MB while the game and its contents stay the same: a decision's value and the value after the
    move played, and the next decision's, meet the same positions, so its tables answer them."""
    if memory is not None:
        return solve(state, time_limit, memory)
    with _kept_lock:
        return _kept_for(state).solve(state, time_limit)


def window_state(state: PillageState, cut: float, time_limit: float | None = None) -> WindowResult:
    """``ENTRY.strength.window``: the solver's null-window test "is the value of ``state`` for the
    player to act at least ``cut``?" within ``time_limit`` seconds, on the solver the analysis
    keeps (:func:`solve_state`'s, whose tables the test reads and fills)."""
    with _kept_lock:
        return _kept_for(state).test(state, cut, time_limit)


def _kept_for(state: PillageState) -> Solver:
    """The kept solver, made anew for another game or other contents (the caller holds
    :data:`_kept_lock`)."""
    if not _kept or _kept[0].game.params != state.game.params or _kept[0].contents != state.contents:
        _kept[:] = [Solver(state.game, state.contents, ANALYSIS_MEMORY)]
    return _kept[0]


#: the analysis engine solves a position exactly once at most this many lines are undrawn
#: (docs/analysis.md: a whole 2x3 board, 17 lines, solves in about 2 s; a 4x4 endgame of 18 in well under one)
ANALYSIS_ENDGAME = 18
#: ... and this many where the compiled searches run (numba installed): measured on default 4x4
#: games, docs/analysis.md "Exact values, and how early"
ANALYSIS_ENDGAME_COMPILED = 26


#: doubloons by which a loss found by greedy's playouts was seen to stray from the exact loss
#: (``Analysis.bias``): up to 24 on the playout-valued positions the solver settled offline in
#: 3x4 and 4x4 games with random contents, ``easy`` against ``medium``, seeds 1 to 4 (docs/analysis.md,
#: "Checked against the truth"); greedy never gives up two boxes to keep control, so its
#: playouts misjudge the chains an opening move sets up. With the screen (:data:`SCREEN_ROLLOUTS`)
#: an interval of two standard errors had to widen by up to 23.5 to hold the exact losses of 4x4
#: seeds 1 to 4 (3x4 seeds 1 to 7: 0), so it stays; neither the kernel's ``safe`` nor its
#: ``random`` playouts estimate opening losses closely enough to lower it (docs/analysis.md)
PLAYOUT_BIAS = 25.0


#: rollouts of the fast evaluator's greedy playouts per legal move that rank the moves before
#: the analysis picks its 8 candidates (``Analysis.screen``): the numpy kernel plays them in a
#: batch, a few hundredths of a CPU second a position (docs/analysis.md, "Checked against the
#: truth")
SCREEN_ROLLOUTS = 64


def endgame(state: PillageState) -> bool:
    """``ENTRY.analysis.exact``: few enough lines are left for the solver to value the position
    (fewer without the compiled searches)."""
    reach = ANALYSIS_ENDGAME_COMPILED if compiled_valued() is not None else ANALYSIS_ENDGAME
    return len(state.open_lines) <= reach


#: lines left up to which the analysis still tries the compiled solver past its reach, each solve
#: for ``Analysis.stretch_seconds`` (:data:`STRETCH_SECONDS`) only, on a board with at least a
#: quarter of its lines drawn: on default 4x4 games (tuning seeds 1 to 4) a third of such
#: positions settled within the second, the first try filling the kept tables for the next; on
#: 3x4 boards from 27 lines left (4 drawn) none did, and the tries cost 8 CPU s a game
#: (docs/analysis.md, "Checked against the truth")
ANALYSIS_STRETCH = 30
#: seconds (wall) each solve or null-window test of a stretch position may take, and twice this
#: all of a position's together (``plunder.analysis.value.proven``: the move played solved, then
#: its mark proven by tests of the position). Chosen on tuning seeds' 4x4 openings, 27 to 30 lines
#: left (``bench/stretch_proofs.py --seeds 5-12 --kept --seconds S``, one solver kept through a
#: game as the analysis keeps it): the marks of 14 of 32 decisions proven with S = 2, of 17 with
#: S = 4; each decision on fresh tables (``--seconds 12``, no ``--kept``) 5, 10, 12 and 17 within
#: 1, 2, 3 and 4 s a solve or test, and the proofs' time 5.5 to 18.8 CPU s a game at 4 s
#: (docs/analysis.md, "Checked against the truth")
STRETCH_SECONDS = 4.0


def stretch(state: PillageState) -> bool:
    """``ENTRY.analysis.stretch``: past the compiled solver's reach, still at most
    :data:`ANALYSIS_STRETCH` lines left and at least a quarter of the board's drawn, for a short
    try; never without the compiled searches."""
    left = len(state.open_lines)
    return (compiled_valued() is not None and left <= ANALYSIS_STRETCH
            and 4 * (state.game.num_edges - left) >= state.game.num_edges)
