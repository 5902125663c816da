"""The ``hard`` level for Pillage: MCTS in the opening, the exact solver near the end.

Chain play at the end of Dots and Boxes decides games and is where sampling search is
weakest, so once few lines remain the agent asks the solver for a proven best move; if the
solver runs out of time it falls back to the search.
"""

from __future__ import annotations

import random
from ...core.agent import Agent, AgentFactory, AgentOptions, Analyst
from ...core.game import Action, Game, State
from ...core.params import Param, parse_int, parse_real
from .rules import PillageGame, PillageState
from .solver import SolveResult, SolveTimeout, Solver, solve


class HardAgent:
    """Solver once at most ``endgame`` lines are undrawn (within ``seconds``), else MCTS."""

    name = "hard"

    def __init__(self, search: Agent, endgame: int = 22, seconds: float = 5.0) -> None:
        self.search = search
        self.endgame = endgame
        self.seconds = seconds
        self._solver: Solver | None = None

    def solver_for(self, state: PillageState) -> Solver:
        """A solver for the state's contents, kept between moves so its tables are reused."""
        if self._solver is None or self._solver.contents != state.contents:
            self._solver = Solver(state.game, state.contents)
        return self._solver

    def _solved(self, state: PillageState) -> SolveResult | None:
        if len(state.undrawn()) > self.endgame:
            return None
        try:
            result = self.solver_for(state).solve(state, time_limit=self.seconds)
        except SolveTimeout:
            return None
        return result if result.best_action is not None else None

    def choose(self, state: State, rng: random.Random) -> Action:
        """The solver's move near the end, the search's move before."""
        assert isinstance(state, PillageState)
        solved = self._solved(state)
        return solved.best_action if solved is not None else self.search.choose(state, rng)

    def analyse(self, state: State, rng: random.Random) -> list[tuple[Action, str]]:
        """The proven best move with its exact margin near the end; the search's ranking before."""
        assert isinstance(state, PillageState)
        solved = self._solved(state)
        if solved is not None:
            return [(solved.best_action, f"final margin {solved.value:+g} with best play on both sides (proven)")]
        if isinstance(self.search, Analyst):
            return self.search.analyse(state, rng)
        return [(self.search.choose(state, rng), "the search's move")]


def make_hard(game: Game, options: AgentOptions) -> HardAgent:
    """``hard`` for Pillage: MCTS with ``sims`` simulations (greedy playouts, four a leaf), the
    solver from ``endgame`` lines left, within ``seconds``."""
    assert isinstance(game, PillageGame)
    search = options.agent(f"mcts:sims={options['sims']},eval=fast,playout=greedy,rollouts=4")
    return HardAgent(search, endgame=options["endgame"], seconds=options["seconds"])


#: ``pillage-hard``: the ``hard`` level of Pillage
HARD = AgentFactory(make_hard, "MCTS in the opening, the exact solver near the end", (
    Param("sims", "3000", parse_int(1), "MCTS simulations per move"),
    Param("endgame", "22", parse_int(0), "lines left from which the solver plays"),
    Param("seconds", "5", parse_real(0, above=True), "solver time per move before the search plays instead"),
))


def solve_state(state: State, time_limit: float | None) -> SolveResult:
    """``ENTRY.solve``: the exact solver on any Pillage position (``plunder solve``)."""
    if not isinstance(state, PillageState):
        raise ValueError(f"not a Pillage position: {state!r}")
    return solve(state, time_limit)
