"""Puzzles made from agents' games, and a puzzle played move by move.

:func:`generate` plays games with :func:`plunder.match.play` on the boards and agent mixes a
game's :class:`~plunder.core.capabilities.Puzzles` group names, each from a seed derived from
the one given, and keeps the puzzles the game finds in them (each proven by its exact search),
spread evenly over the difficulty levels: the same seed gives the same puzzles.
:func:`from_records` finds them in games already played (people's games kept by the web app).

:class:`PuzzleRun` steps through one puzzle for a front end (the terminal's ``plunder puzzles
play``, the web app's puzzle pages): the position, the player's answer judged by the proven values,
the replies. It knows no game: what it says comes from the puzzle's stored values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .core.capabilities import Puzzles
from .core.errors import ParameterError
from .core.game import Game, State
from .core.puzzle import Puzzle, PuzzleError, Step, loads
from .core.record import Record, replay
from .core.registry import entry, load_game
from .match import play

#: how many puzzles :func:`generate` finds per puzzle asked for, to choose among by difficulty
CANDIDATES = 2
#: how many games per puzzle asked for :func:`generate` may play before it settles for what it found
GAMES_PER_PUZZLE = 20


def puzzles_of(game_id: str) -> Puzzles:
    """The puzzle group of ``game_id``; :class:`ParameterError` for a game that makes none."""
    group = entry(game_id).puzzles
    if group is None:
        raise ParameterError(f"{game_id} makes no puzzles (only games with an exact search do)")
    return group


def game_seed(seed: int, index: int) -> int:
    """The seed of the ``index``-th game played for puzzles from ``seed``."""
    return random.Random(f"puzzles:{seed}:{index}").randrange(1 << 31)


def generate(game_id: str, count: int, seed: int, progress: Callable[[int, int], None] | None = None,
             candidates: int = CANDIDATES) -> list[Puzzle]:
    """``count`` puzzles of ``game_id`` from games played from ``seed``, spread over the levels of
    difficulty.

    Games are played until ``candidates`` times ``count`` puzzles are found (or
    :data:`GAMES_PER_PUZZLE` times ``count`` games are played); the ``i``-th game is on the
    group's ``i``-th board in turn, seated by its mixes in turn. The puzzles kept are then taken
    level by level in turn, each level's in the order found, so every level has as many as it
    can. ``progress(games, found)`` is called after each game."""
    if count < 1 or candidates < 1:
        raise ParameterError(f"--count and --candidates must be at least 1, not {count} and {candidates}")
    group = puzzles_of(game_id)
    found: list[Puzzle] = []
    seen: set[str] = set()
    games: dict[int, Game] = {}
    for index in range(count * GAMES_PER_PUZZLE):
        if len(found) >= count * candidates:
            break
        board = index % len(group.boards)
        mix = group.mixes[index // len(group.boards) % len(group.mixes)]
        game = games.get(board) or games.setdefault(board, load_game(game_id, **group.boards[board]))
        _keep_new(group.find(game, play(game, list(mix), game_seed(seed, index))), seen, found)
        if progress is not None:
            progress(index + 1, len(found))
    return spread(found, count)


def _keep_new(puzzles: Iterable[Puzzle], seen: set[str], found: list[Puzzle]) -> None:
    """Add to ``found`` those of ``puzzles`` whose id is not in ``seen`` (a position met in two
    games is one puzzle)."""
    for puzzle in puzzles:
        if puzzle.id not in seen:
            seen.add(puzzle.id)
            found.append(puzzle)


def spread(found: list[Puzzle], count: int) -> list[Puzzle]:
    """At most ``count`` of ``found``, taken level of difficulty by level in turn, each level's
    in the order found, so every level has as many as it can."""
    by_level: dict[int, list[Puzzle]] = {}
    for puzzle in found:
        by_level.setdefault(puzzle.difficulty, []).append(puzzle)
    queues = [by_level[level][::-1] for level in sorted(by_level)]
    kept: list[Puzzle] = []
    while len(kept) < count and any(queues):
        for queue in queues:
            if queue and len(kept) < count:
                kept.append(queue.pop())
    return kept


def from_records(game_id: str, records: Iterable[Record], count: int,
                 progress: Callable[[int, int], None] | None = None) -> list[Puzzle]:
    """``count`` puzzles of ``game_id`` (at most) found in played games, ``records`` (people's
    games kept by the web app's store, say), spread over the levels of difficulty as
    :func:`generate` spreads them; a record of another game is refused. ``progress(games, found)``
    is called after each game."""
    if count < 1:
        raise ParameterError(f"--count must be at least 1, not {count}")
    group = puzzles_of(game_id)
    found: list[Puzzle] = []
    seen: set[str] = set()
    games: dict[str, Game] = {}
    for index, record in enumerate(records):
        if record.game != game_id:
            raise PuzzleError(f"a record of {record.game} cannot give puzzles of {game_id}")
        key = repr(sorted(record.params.items()))
        game = games.get(key) or games.setdefault(key, load_game(game_id, **record.params))
        _keep_new(group.find(game, record), seen, found)
        if progress is not None:
            progress(index + 1, len(found))
    return spread(found, count)


def load(path: Path) -> list[Puzzle]:
    """The puzzles of the file at ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PuzzleError(f"cannot read puzzle file {path}: {exc.strerror}") from None
    return loads(text)


def shipped(game_id: str) -> list[Puzzle]:
    """The puzzles shipped with ``game_id`` (none if it ships no file)."""
    path = puzzles_of(game_id).shipped
    return [] if path is None or not path.is_file() else load(path)


@dataclass(frozen=True)
class Verdict:
    """The judgement of one answer: ``right`` when it keeps the best value; the values (the
    solver's final margin) of the move played and of the best, the solution's move, and the
    words saying so."""

    right: bool
    played: float
    best: float
    solution: str
    words: str


class PuzzleRun:
    """One puzzle played through: :attr:`state` is the position, :meth:`answer` judges the
    player's move at each of the solver's steps and plays on along the line (the stored
    solution's move, then the replies) until the next step the player must find, or the end."""

    def __init__(self, puzzle: Puzzle, units: str = "points") -> None:
        self.puzzle = puzzle
        self.units = units
        self.game: Game = load_game(puzzle.game, **puzzle.params)
        self.state: State = replay(puzzle.record(), self.game)
        self.solver = self.state.current_player
        self.at = 0
        #: the answers judged so far
        self.verdicts: list[Verdict] = []

    @property
    def done(self) -> bool:
        """Whether the line has been played to its end."""
        return self.at >= len(self.puzzle.line)

    @property
    def step(self) -> Step:
        """The step of the line waiting to be played."""
        return self.puzzle.line[self.at]

    def margin(self, value: float) -> str:
        """A value in words: "win by 5 doubloons", "lose by 2 doubloons", "a draw"."""
        if value == 0:
            return "a draw"
        return f"{'win' if value > 0 else 'lose'} by {self.amount(abs(value))}"

    def amount(self, value: float) -> str:
        """A count in the game's units: "5 doubloons", "1 doubloon"."""
        # "doubloons" names many; one of them is "1 doubloon"
        units = self.units[:-1] if abs(value) == 1 and self.units.endswith("s") else self.units
        return f"{value:g} {units}"

    def answer(self, text: str) -> Verdict:
        """Judge ``text`` (the game's notation) at the current step; an unreadable or illegal move
        raises the game's error and changes nothing. Then the solution's move is played."""
        if self.done or not self.step.solver:
            raise PuzzleError("the puzzle is not waiting for a move")
        action = self.game.parse_action(self.state, text)
        self.state.apply(action)  # refuses an illegal move, with its ruling
        played_text = self.game.action_to_text(self.state, action)
        step = self.step
        best = max(step.values.values())
        played = step.values[played_text]
        right = played == best
        if right:
            image = "" if played_text == step.action else f" (an image of {step.action} by the board's symmetry)"
            words = f"Right: {played_text}{image} is the best move; with best play you {self.margin(best)}."
        else:
            words = (f"Wrong: after {played_text}, best play makes you {self.margin(played)}; "
                     f"{step.action} makes you {self.margin(best)}, and is played: the best move ends "
                     f"{self.amount(best - played)} better for you than yours.")
        verdict = Verdict(right, played, best, step.action, words)
        self.verdicts.append(verdict)
        self._play(step.action)
        return verdict

    def skip(self, steps: int) -> None:
        """Play the line's first ``steps`` steps as stored (an attempt taken up where it was left)."""
        if not 0 <= steps <= len(self.puzzle.line):
            raise PuzzleError(f"puzzle {self.puzzle.id} has {len(self.puzzle.line)} steps, not {steps}")
        while self.at < steps:
            self._play(self.step.action)

    def replies(self) -> list[str]:
        """Play the other side's proven replies up to the next step of the player (or the end);
        their texts."""
        played: list[str] = []
        while not self.done and not self.step.solver:
            played.append(self.step.action)
            self._play(self.step.action)
        return played

    def _play(self, text: str) -> None:
        self.state = self.state.apply_text(text)
        self.at += 1


__all__ = ["CANDIDATES", "GAMES_PER_PUZZLE", "PuzzleRun", "Verdict", "from_records", "game_seed", "generate", "load",
           "puzzles_of", "shipped", "spread"]
