"""Pillage puzzles: endgame positions where one line is proven better than every other.

A position of a played game is a puzzle when, by the exact solver (:mod:`.solver`), exactly
one of its lines -- counted up to the board's symmetries that keep the drawn lines and every
box's content -- reaches the best final margin, every other line reaching strictly less.

The solution line starts with that key move and goes on with the proven play of both sides:
the other side's reply is the solver's best action; at the puzzle solver's later turns the
line goes on only while one action (up to symmetry) is strictly best. The line ends -- the
outcome is *clear* -- at the end of the game, or at the solver's first turn after the key
move where more than one action keeps the proven value (every such action then wins the
same; there is nothing left to find), or after :data:`MAX_LINE` actions.

Difficulty (1 to 5) counts what a plain player misses: how often the greedy agent, asked
:data:`GREEDY_TRIES` times with different random tie-breaks, plays no best move at the key
position (up to 2 points), and how many more exact moves the line asks of the solver (half
a point each after the first, up to 3): ``1 + round(both)``, at most 5.

Themes named, each from a check of the position that cannot misfire:

* ``double-dealing`` -- a box could be taken, the key move takes none, and after it one line
  closes two boxes at once (the two-box handout that keeps control of the chains);
* ``sacrifice`` -- the key move closes nothing and leaves a box the opponent can close;
* ``capture order`` -- on a valued board, two or more lines close boxes and the key move is
  one of them: which box to take first.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Sequence

from ...core.errors import SearchLimitError
from ...core.game import CHANCE, TERMINAL, Game
from ...core.puzzle import Puzzle, PuzzleError, Step
from ...core.registry import load_game
from ...core.record import Record, replay
from .actions import Line, PillageAction
from .contents import Doubloons
from .heuristics import GreedyAgent, closes
from .rules import PillageGame, PillageState
from .solver import Solver

#: a position is looked at once at most this many lines are left to draw
MAX_LINES = 14
#: positions the solver may search for one action's value: past it the position is skipped
#: (a count, not a time, so generation gives the same puzzles on every machine)
NODE_LIMIT = 400_000
#: the most actions of a solution line
MAX_LINE = 24
#: how many times the greedy agent is asked at the key position
GREEDY_TRIES = 8
#: the most puzzles taken from one game (different positions of one game look alike)
PER_GAME = 2
#: the puzzle file shipped with the package
SHIPPED = Path(__file__).parent / "data" / "puzzles.json"

#: the boards the puzzles come from, in turn: the classic unit 3x3, valued boards with modifiers,
#: and the default 4x4 board (unit, valued, valued with a floor)
BOARDS: tuple[dict[str, str], ...] = (
    {"board": "square:3x3", "contents": "unit"},
    {"board": "square:3x3", "contents": "random"},
    {"board": "square:2x3", "contents": "random"},
    {"board": "triangle:3x3", "contents": "random"},
    {"board": "hex:2x3", "contents": "random"},
    {"board": "octagon:2x3", "contents": "random"},
    {"board": "square:3x3", "contents": "random", "floor": "0"},
    {"board": "square:4x4", "contents": "unit"},
    {"board": "square:4x4", "contents": "random"},
    {"board": "square:4x4", "contents": "random", "floor": "0"},
)
#: the agents whose games the puzzles come from, in turn
MIXES: tuple[tuple[str, str], ...] = (("greedy", "random"), ("medium", "greedy"), ("random", "medium"),
                                      ("easy", "greedy"), ("random", "random"))


class _Valuer:
    """The proven value of every action of a position, for the player to act there, with one
    solver (and its tables) per board contents."""

    def __init__(self, game: PillageGame, state: PillageState) -> None:
        self.solver = Solver(game, state.contents)
        self.perms = self.solver.board_perms()

    def value_after(self, state: PillageState, action: PillageAction) -> float:
        """The final margin, for the player to act in ``state``, of ``action`` then best play."""
        child = state.apply(action)
        result = self.solver.solve(child, node_limit=NODE_LIMIT)
        # a solved value is the margin of the child's mover (at the end: who moved last)
        # (+ 0.0 turns a -0.0 into 0.0: the stored values read as margins)
        return (result.value if child.mover == state.mover else -result.value) + 0.0

    def values(self, state: PillageState) -> dict[PillageAction, float]:
        """Every legal action's proven value (raises :class:`SearchLimitError` past the budget)."""
        return {a: self.value_after(state, a) for a in state.legal_actions()}

    def orbit(self, state: PillageState, action: PillageAction) -> set[PillageAction]:
        """``action`` and its images under the symmetries that keep the position."""
        if not isinstance(action, Line):
            return {action}
        lines = state.game.lines
        found: set[PillageAction] = set()
        for perm in self.perms:
            if _image(perm, state.drawn) == state.drawn:
                found.add(lines[perm[action.edge]])
        return found

    def unique_best(self, state: PillageState, values: dict[PillageAction, float]) -> PillageAction | None:
        """The best action when every best action is an image of one another, else ``None``."""
        top = max(values.values())
        best = [a for a, v in values.items() if v == top]
        orbit = self.orbit(state, best[0])
        return best[0] if all(a in orbit for a in best) and len(orbit) < len(values) else None


def _image(perm: tuple[int, ...], mask: int) -> int:
    out = 0
    e = 0
    while mask:
        if mask & 1:
            out |= 1 << perm[e]
        mask >>= 1
        e += 1
    return out


def _closes(state: PillageState, edge: int) -> int:
    """How many boxes line ``edge`` closes in ``state`` (:func:`.heuristics.closes`)."""
    return len(closes(state, state.drawn, edge))


def theme(state: PillageState, key: PillageAction) -> str:
    """The theme of key move ``key`` at ``state`` (see the module's docstring), or ""."""
    if not isinstance(key, Line):
        return ""
    takers = [line for line in state.open_lines if _closes(state, line.edge)]
    if _closes(state, key.edge):
        valued = any(c != Doubloons(1) for c in state.contents)
        return "capture order" if valued and len(takers) >= 2 else ""
    after = state.apply(key)
    if takers and any(_closes(after, line.edge) == 2 for line in after.open_lines):
        return "double-dealing"
    if any(_closes(after, line.edge) for line in after.open_lines):
        return "sacrifice"
    return ""


def _line(valuer: _Valuer, state: PillageState, key: PillageAction, values: dict[PillageAction, float]
          ) -> list[Step] | None:
    """The solution line from ``state`` (key move ``key`` proven unique), or ``None`` if a
    value along it is out of the solver's budget."""
    game = state.game
    solver_seat = state.mover
    steps = [Step(game.action_to_text(state, key), True, {game.action_to_text(state, a): v for a, v in values.items()})]
    state = state.apply(key)
    while not state.is_terminal() and len(steps) < MAX_LINE:
        try:
            if state.mover != solver_seat:
                result = valuer.solver.solve(state, node_limit=NODE_LIMIT)
                assert result.best_action is not None
                steps.append(Step(game.action_to_text(state, result.best_action), False))
                state = state.apply(result.best_action)
                continue
            here = valuer.values(state)
        except SearchLimitError:
            return None
        best = valuer.unique_best(state, here)
        if best is None:
            break  # several moves keep the value: the outcome is clear
        steps.append(Step(game.action_to_text(state, best), True, {game.action_to_text(state, a): v for a, v in here.items()}))
        state = state.apply(best)
    return steps


def difficulty(state: PillageState, best: set[PillageAction], line: Sequence[Step]) -> int:
    """1 (easy) to 5 (hard): greedy's misses at the key position and the exact moves the line asks."""
    greedy = GreedyAgent()
    misses = sum(greedy.choose(state, random.Random(f"puzzle-greedy:{k}")) not in best for k in range(GREEDY_TRIES))
    more = sum(1 for s in line if s.solver) - 1
    return max(1, min(5, 1 + round(2 * misses / GREEDY_TRIES + min(3.0, more / 2))))


def _puzzle(game: PillageGame, record: Record, index: int, state: PillageState, valuer: _Valuer) -> Puzzle | None:
    if state.current_player in (CHANCE, TERMINAL) or state.pending or len(state.open_lines) > MAX_LINES:
        return None
    try:
        values = valuer.values(state)
    except SearchLimitError:
        return None
    key = valuer.unique_best(state, values)
    if key is None:
        return None
    orbit = valuer.orbit(state, key)
    best = values[key]
    second = max(v for a, v in values.items() if a not in orbit)
    line = _line(valuer, state, key, values)
    if line is None:
        return None
    seed = record.seed if record.seed is not None else 0
    return Puzzle(puzzle_id(game, seed, index), game.id, dict(game.params), seed,
                  list(record.players), list(record.moves[:index]), line, best, second,
                  difficulty(state, orbit, line), theme(state, key))


def puzzle_id(game: PillageGame, seed: int, index: int) -> str:
    """A puzzle's name: board, contents, floor if any, the game's seed and the position's move number."""
    floor = "" if game.floor is None else f"-floor{game.floor}"
    return f"{game.params['board'].replace(':', '')}-{game.contents_mode}{floor}-{seed}-{index}"


def find(game: Game[Any], record: Record) -> list[Puzzle]:
    """The puzzles in one played game of Pillage: at most :data:`PER_GAME`, the earliest."""
    if not isinstance(game, PillageGame):
        raise PuzzleError(f"Pillage finds puzzles in its own games, not in {game.id}")
    found: list[Puzzle] = []
    state = game.new_initial_state()
    valuer: _Valuer | None = None
    for index, move in enumerate(record.moves):
        if len(state.open_lines) <= MAX_LINES and state.current_player not in (CHANCE, TERMINAL):
            valuer = valuer or _Valuer(game, state)
            puzzle = _puzzle(game, record, index, state, valuer)
            if puzzle is not None:
                found.append(puzzle)
                if len(found) >= PER_GAME:
                    break
        state = state.apply(game.parse_action(state, move.action))
    return found


def verify(puzzle: Puzzle) -> list[str]:
    """What does not hold when ``puzzle`` is solved again by a fresh solver: empty if the
    position replays, its key move is the one best move up to symmetry, the values are as
    stored, and every step of the line is proven (the solver's the one best, the replies best)."""
    game = _game(puzzle)
    state = replay(puzzle.record(), game)
    assert isinstance(state, PillageState)
    problems: list[str] = []
    valuer = _Valuer(game, state)
    solver_seat = state.mover
    for i, step in enumerate(puzzle.line):
        if state.is_terminal():
            return problems + [f"step {i} {step.action!r}: the game is already over"]
        action = game.parse_action(state, step.action)
        if step.solver != (state.mover == solver_seat):
            problems.append(f"step {i} {step.action!r}: marked as {'the solver' if step.solver else 'a reply'}'s, "
                            f"but the other side is to act")
        if state.mover == solver_seat:
            values = valuer.values(state)
            texts = {game.action_to_text(state, a): v for a, v in values.items()}
            if texts != step.values:
                problems.append(f"step {i}: the stored values differ from the solver's {texts}")
            best = valuer.unique_best(state, values)
            if best is None or action not in valuer.orbit(state, best):
                problems.append(f"step {i} {step.action!r} is not the one best move")
            if i == 0:
                orbit = valuer.orbit(state, action)
                second = max((v for a, v in values.items() if a not in orbit), default=None)
                if values[action] != puzzle.best or second != puzzle.second:
                    problems.append(f"best {values[action]} and second {second} are not the stored "
                                    f"{puzzle.best} and {puzzle.second}")
        else:
            result = valuer.solver.solve(state)
            if valuer.value_after(state, action) != result.value:
                problems.append(f"step {i} {step.action!r} is not a best reply")
        state = state.apply(action)
    return problems


def _game(puzzle: Puzzle) -> PillageGame:
    game = load_game(puzzle.game, **puzzle.params)
    if not isinstance(game, PillageGame):
        raise PuzzleError(f"puzzle {puzzle.id} is of {puzzle.game}, not of Pillage")
    return game


__all__ = ["BOARDS", "MIXES", "SHIPPED", "difficulty", "find", "puzzle_id", "theme", "verify"]
