"""Puzzles: positions of real games where one move is proven better than every other.

A :class:`Puzzle` is game-neutral data: the game and its parameters, the seed and the moves
from the start (so the position replays exactly, chance included, through
:func:`plunder.core.record.replay`), and the solution line the game's exact search proved.
A game that makes puzzles fills :class:`plunder.core.capabilities.Puzzles`; what a puzzle
guarantees is in ``docs/puzzles.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import PlunderError
from .record import Move, Record

#: the ``format`` field of a puzzle file
PUZZLE_FORMAT = "plunder-puzzles"
#: the version of that format
PUZZLE_VERSION = 1


class PuzzleError(PlunderError):
    """A puzzle file or puzzle that cannot be read, or whose solution does not hold."""


@dataclass(frozen=True)
class Step:
    """One action of a solution line: its text, whether the puzzle's solver plays it (``True``)
    or it is the proven reply of the other side, and, at the solver's steps, the proven value
    of every legal action there (action text -> the solver's final score margin)."""

    action: str
    solver: bool
    values: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position (``game``, ``params``, ``seed``, the ``players`` whose game it
    comes from and the ``moves`` from the start), the ``line`` (the key move first), the
    proven value of the ``best`` move and of the ``second``-best (the best of the moves that are
    no image of it under the board's symmetry), a ``difficulty`` from 1 (easy) to 5, and a
    ``theme`` ("" when none can be named)."""

    id: str
    game: str
    params: dict[str, str]
    seed: int
    players: list[str]
    moves: list[Move]
    line: list[Step]
    best: float
    second: float
    difficulty: int
    theme: str = ""

    def record(self) -> Record:
        """The position as a record (no result): :func:`~plunder.core.record.replay` gives its state."""
        return Record(self.game, dict(self.params), self.seed, list(self.players), list(self.moves))

    def to_data(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data."""
        return {
            "id": self.id, "game": self.game, "params": self.params, "seed": self.seed, "players": self.players,
            "moves": [["chance" if m.by is None else m.by, m.action] for m in self.moves],
            "line": [{"action": s.action, "solver": s.solver, **({"values": s.values} if s.solver else {})}
                     for s in self.line],
            "best": self.best, "second": self.second, "difficulty": self.difficulty, "theme": self.theme,
        }

    @classmethod
    def from_data(cls, data: Any) -> "Puzzle":
        """A puzzle from :meth:`to_data`'s form; :class:`PuzzleError` names a missing or wrong field."""
        try:
            moves = [Move(None if by == "chance" else int(by), str(text)) for by, text in data["moves"]]
            line = [Step(str(s["action"]), bool(s["solver"]),
                         {str(k): float(v) for k, v in s.get("values", {}).items()}) for s in data["line"]]
            puzzle = cls(str(data["id"]), str(data["game"]), {str(k): str(v) for k, v in data["params"].items()},
                         int(data["seed"]), [str(p) for p in data["players"]], moves, line,
                         float(data["best"]), float(data["second"]), int(data["difficulty"]), str(data.get("theme", "")))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            name = data.get("id", "?") if isinstance(data, dict) else "?"
            raise PuzzleError(f"puzzle {name} is malformed: {type(exc).__name__} {exc}") from None
        if not line or not line[0].solver:
            raise PuzzleError(f"puzzle {puzzle.id}: its line must start with the solver's move")
        return puzzle


def dumps(puzzles: list[Puzzle]) -> str:
    """A puzzle file's text: one puzzle per line, so diffs read well."""
    body = ",\n".join(json.dumps(p.to_data(), ensure_ascii=False, sort_keys=True) for p in puzzles)
    return (f'{{"format": "{PUZZLE_FORMAT}", "version": {PUZZLE_VERSION}, "puzzles": [\n'
            + body + ("\n" if body else "") + "]}\n")


def loads(text: str) -> list[Puzzle]:
    """The puzzles of a puzzle file's text; :class:`PuzzleError` for a file that is not one."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise PuzzleError(f"puzzle file is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != PUZZLE_FORMAT:
        raise PuzzleError(f"not a puzzle file (its format must be {PUZZLE_FORMAT!r})")
    if data.get("version") != PUZZLE_VERSION:
        raise PuzzleError(f"puzzle file version {data.get('version')!r} is not {PUZZLE_VERSION}")
    puzzles = data.get("puzzles")
    if not isinstance(puzzles, list):
        raise PuzzleError("puzzle file has no list of puzzles")
    return [Puzzle.from_data(p) for p in puzzles]
