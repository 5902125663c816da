"""A clairvoyant for the solitaires: NOT a legal player, an upper reference for luck versus skill.

A solitaire's chance event ``n`` always draws ``uniform(seed, n)`` (:mod:`plunder.core.chance`), so
whoever knows the seed knows every card and tile to come -- for any line of play, since the
outcome of event ``n`` is picked from the pile of the position reached. The clairvoyant plays with
that knowledge: a nested rollout search (nested Monte Carlo search with a memorised best line,
Cazenave 2009) over the decisions, every rollout played out with the known future by a base
policy (the game's best agent), each line scored by (win, score).

It is not in any game's agents list or levels and cannot be: it reads the seed, which no player
sees (PF-9). It measures how much of a solitaire's result the player controls: the legal agents'
win rate against what perfect foresight can reach. Being a search, not an exhaustive solver, its
win rate is a lower bound on the best foresight play, and never below its base policy's on the same
seed: the base policy's own line is the first one it keeps. Level 2 searches deeper at about
(decisions x choices) times the cost of level 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from ..agents import make_agent
from ..core import chance
from ..core.errors import ParameterError
from ..core.agent import Agent
from ..core.game import CHANCE, Action, Game, State
from ..core.record import Move, Record
from ..core.capabilities import Observer
from ..core.registry import entry, load_game
from ..match import observer_of
from ..simulate import GameResult
from ..backends import Backend, LocalPool

#: how a clairvoyant is named in the results store and the reports, never an agent spec
LABEL = "clairvoyant"

Value = tuple[float, float]
#: what the search maximises: the first win found, or the best score
AIMS = ("win", "score")


def label(level: int, aim: str = "win") -> str:
    """The name of a clairvoyant of ``level`` and ``aim`` in stored rows and reports (not an agent spec)."""
    return f"{LABEL}:level={level}" + ("" if aim == "win" else f",aim={aim}")


@dataclass
class Line:
    """A known-future game under way: the position, the next chance event's index, the decisions taken."""

    state: State
    index: int
    seed: int

    def settle(self) -> None:
        """Draw chance from the seed until a decision or the end (what a clairvoyant foresees)."""
        state, index = self.state, self.index
        while not state.is_terminal() and state.current_player == CHANCE:
            state = state.apply(chance.draw(state, self.seed, index))
            index += 1
        self.state, self.index = state, index

    def then(self, action: Action) -> "Line":
        """The line after the decision ``action``, chance drawn on to the next decision."""
        line = Line(self.state.apply(action), self.index, self.seed)
        line.settle()
        return line


def value(state: State) -> Value:
    """How good an ending is: the result first, then the score (more cards, more booty)."""
    return (state.returns()[0], state.scores()[0])


class Clairvoyant:
    """The nested rollout search with the known future of one seed (see the module doc)."""

    def __init__(self, game: Game, seed: int, level: int = 1, policy: str | None = None, aim: str = "win") -> None:
        """``policy``: the agent spec of the rollouts (default: the game's ``Strength.policy``); ``aim``:
        ``win`` follows the first winning line found (enough for a win-rate bound, and cheap),
        ``score`` searches on for the highest score among wins (or losses)."""
        if game.num_players != 1:
            raise ParameterError(f"the clairvoyant plays solitaires only; {game.id} has {game.num_players} players")
        if level < 0:
            raise ParameterError(f"clairvoyant level {level} is below 0")
        if aim not in AIMS:
            raise ParameterError(f"clairvoyant aim {aim!r} is not one of {', '.join(AIMS)}")
        self.game, self.seed, self.level, self.aim = game, seed, level, aim
        self.policy: Agent = make_agent(policy or entry(game.id).strength.rollout_policy(), game)
        self.rollouts = 0

    def rollout(self, line: Line) -> tuple[Value, list[Action]]:
        """Play ``line`` out with the base policy; its value and the decisions it took."""
        self.rollouts += 1
        rng = random.Random(f"clairvoyant:{self.seed}")
        taken: list[Action] = []
        while not line.state.is_terminal():
            action = self.policy.choose(line.state, rng)
            taken.append(action)
            line = line.then(action)
        return value(line.state), taken

    def search(self, line: Line, level: int) -> tuple[Value, list[Action]]:
        """The best (value, decisions) found from ``line`` by a search of ``level``.

        At each decision every legal choice is tried with a search one level lower; the best
        line found so far is kept and followed, so the result never falls below a plain rollout.
        """
        if level == 0:
            return self.rollout(line)
        best: tuple[Value, list[Action]] | None = None
        taken: list[Action] = []
        while not line.state.is_terminal():
            choices = line.state.legal_actions()
            won = best is not None and best[0][0] > 0 and self.aim == "win"
            if (len(choices) > 1 and not won) or best is None:
                for action in choices:
                    v, rest = self.search(line.then(action), level - 1)
                    if best is None or v > best[0]:
                        best = (v, [action, *rest])
                        if v[0] > 0 and self.aim == "win":
                            break
            assert best is not None
            action = best[1][0]
            best = (best[0], best[1][1:])
            taken.append(action)
            line = line.then(action)
        return value(line.state), taken

    def play(self, observer: Observer | None = None) -> tuple[State, Record]:
        """The whole game with the known future: the final position and its record; ``observer``
        sees every move.

        The record is an ordinary one (chance drawn from the seed), so ``plunder replay`` checks
        and shows the clairvoyant's game move by move.
        """
        game = self.game
        start = Line(game.new_initial_state(), 0, self.seed)
        start.settle()
        _, decisions = self.search(start, self.level)
        record = Record(game.id, dict(game.params), self.seed, [label(self.level, self.aim)])
        state = game.new_initial_state()
        draws = chance.stream(self.seed)
        for action in [*decisions, None]:
            while not state.is_terminal() and state.current_player == CHANCE:
                drawn = chance.pick(state.chance_outcomes(), draws())
                record.moves.append(Move(None, game.action_to_text(state, drawn)))
                state = _step(state, drawn, observer)
            if action is not None:
                record.moves.append(Move(0, game.action_to_text(state, action)))
                state = _step(state, action, observer)
        record.returns, record.scores = list(state.returns()), list(state.scores())
        return state, record


def _step(state: State, action: Action, observer: Observer | None) -> State:
    """``state`` after ``action``, the move shown to ``observer``."""
    after = state.apply(action)
    if observer is not None:
        observer.see(state, action, after)
    return after


def play(game: Game, seed: int, level: int = 1, policy: str | None = None, aim: str = "win") -> State:
    """The final position of the clairvoyant's game of ``game`` with ``seed`` (see :class:`Clairvoyant`)."""
    return Clairvoyant(game, seed, level, policy, aim).play()[0]


Job = tuple[str, dict[str, str], list[int], int, int, str | None, str]


def play_many(job: Job) -> list[tuple[int, GameResult]]:
    """Games ``indices`` (seed ``base + i``) of a game's clairvoyant, as rows for the results store."""
    game_id, params, indices, base, level, policy, aim = job
    game = load_game(game_id, **params)
    out: list[tuple[int, GameResult]] = []
    for i in indices:
        observer = observer_of(game)
        final = Clairvoyant(game, base + i, level, policy, aim).play(observer)[0]
        out.append((i, ([label(level, aim)], list(final.returns()), list(final.scores()), observer.stats(final))))
    return out


def run_games(game_id: str, params: dict[str, str], indices: Sequence[int], seed: int = 0, level: int = 1,
              policy: str | None = None, aim: str = "win", workers: int = 1, backend: Backend | None = None
              ) -> Iterator[list[tuple[int, GameResult]]]:
    """Clairvoyant games ``indices`` on ``backend`` (else ``workers`` local processes), a chunk of
    results at a time.

    Each game depends on its seed alone, so results are the same for any backend or ``workers``.
    """
    game = load_game(game_id, **params)
    Clairvoyant(game, seed, level, policy, aim)  # refuses a bad game, level or policy before any work
    if backend is None:
        with LocalPool(workers) as pool:
            yield from run_games(game_id, params, indices, seed, level, policy, aim, backend=pool)
        return
    size = max(1, min(20, len(indices) // (4 * backend.slots()) or 1))
    jobs: list[Job] = [(game_id, dict(game.params), list(indices[s:s + size]), seed, level, policy, aim)
                       for s in range(0, len(indices), size)]
    yield from backend.map(play_many, jobs)


def stats_of(results: Sequence[tuple[int, GameResult]]) -> dict[str, Any]:
    """Wins, games and mean score of clairvoyant results (for a quick look from Python)."""
    wins = sum(1 for _, (_, returns, _, _) in results if returns[0] > 0)
    scores = [scores[0] for _, (_, _, scores, _) in results]
    return {"wins": wins, "games": len(results), "mean_score": sum(scores) / len(scores) if scores else 0.0}
