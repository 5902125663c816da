"""Pillage puzzles: each one found is proven by a fresh exact search, tampering is caught, the
themes name what the position shows, the same seed makes the same puzzles, and a sample of
the shipped set holds."""

from __future__ import annotations

import dataclasses
import random

from plunder.core.puzzle import Puzzle, Step, dumps, loads
from plunder.core.record import replay
from plunder.core.registry import load_game
from plunder.games.pillage import puzzles as P
from plunder.games.pillage.actions import Line
from plunder.games.pillage.rules import PillageGame, PillageState
from plunder.games.pillage.solver import solve
from plunder.games.pillage.solver_symmetry import edge_symmetries
from plunder.match import play
from plunder.puzzles import generate, shipped

#: how many shipped puzzles the suite proves again (all of them: bench/ or `plunder puzzles`)
SAMPLE = 50


def found(params: dict[str, str], seeds: range) -> list[Puzzle]:
    game = load_game("pillage", **params)
    return [p for s in seeds for p in P.find(game, play(game, ["greedy", "random"], s))]


def proven_independently(puzzle: Puzzle) -> None:
    """Every action solved from scratch by :func:`solve`: the key's value is the best, every
    other action as good is its image by a symmetry keeping the drawn lines, the rest is worse."""
    game = load_game("pillage", **puzzle.params)
    assert isinstance(game, PillageGame)
    state = replay(puzzle.record(), game)
    assert isinstance(state, PillageState)
    key = game.parse_action(state, puzzle.line[0].action)
    assert isinstance(key, Line)
    values = {}
    for action in state.legal_actions():
        child = state.apply(action)
        value = solve(child).value
        values[action] = value if child.mover == state.mover else -value
    assert values[key] == puzzle.best == max(values.values())
    keep = [p for p in edge_symmetries(game.board, state.contents)
            if sum(1 << p[e] for e in range(game.num_edges) if state.drawn >> e & 1 != 0) == state.drawn]
    images = {game.lines[p[key.edge]] for p in keep}
    assert {a for a, v in values.items() if v == puzzle.best} <= images
    assert max(v for a, v in values.items() if a not in images) == puzzle.second < puzzle.best


def test_found_puzzles_are_proven_by_a_fresh_search_on_unit_and_valued_boards() -> None:
    for params in P.BOARDS[:3]:
        puzzles = found(params, range(2))
        assert puzzles, params
        for puzzle in puzzles:
            proven_independently(puzzle)
            assert P.verify(puzzle) == []
            assert 1 <= puzzle.difficulty <= 5
            assert puzzle.line[0].solver and puzzle.line[0].values[puzzle.line[0].action] == puzzle.best


def test_verify_names_a_wrong_key_move_or_value() -> None:
    puzzle = found(P.BOARDS[0], range(1))[0]
    first = puzzle.line[0]
    other = next(a for a, v in first.values.items() if v < puzzle.best)
    wrong_key = dataclasses.replace(puzzle, line=[Step(other, True, first.values)])
    assert any("not the one best move" in p for p in P.verify(wrong_key))
    wrong_value = dataclasses.replace(puzzle, best=puzzle.best + 1)
    assert any("are not the stored" in p for p in P.verify(wrong_value))
    wrong_values = dataclasses.replace(puzzle, line=[Step(first.action, True, {**first.values, other: puzzle.best})])
    assert any("stored values differ" in p for p in P.verify(wrong_values))


def closes(state: PillageState, edge: int) -> int:
    drawn = state.drawn | 1 << edge
    return sum(1 for _, m in state.game.edge_box_masks[edge] if drawn & m == m)


def test_themes_name_what_the_key_move_does() -> None:
    """Every theme of the shipped puzzles (where all three occur) against the facts it names."""
    puzzles = shipped("pillage")
    themes = {p.theme for p in puzzles}
    assert {"sacrifice", "double-dealing", "capture order"} <= themes, themes
    for puzzle in puzzles:
        game = load_game("pillage", **puzzle.params)
        state = replay(puzzle.record(), game)
        assert isinstance(state, PillageState)
        key = game.parse_action(state, puzzle.line[0].action)
        assert isinstance(key, Line)
        after = state.apply(key)
        if puzzle.theme == "double-dealing":
            assert any(closes(state, line.edge) for line in state.open_lines) and not closes(state, key.edge)
            assert any(closes(after, line.edge) == 2 for line in after.open_lines)
        elif puzzle.theme == "sacrifice":
            assert not closes(state, key.edge) and any(closes(after, line.edge) for line in after.open_lines)
        elif puzzle.theme == "capture order":
            assert closes(state, key.edge) and puzzle.params["contents"] != "unit"
            assert sum(1 for line in state.open_lines if closes(state, line.edge)) >= 2


def test_the_same_seed_makes_the_same_puzzles_and_another_seed_others() -> None:
    first = dumps(generate("pillage", 3, 11))
    assert first == dumps(generate("pillage", 3, 11))
    assert first != dumps(generate("pillage", 3, 12))
    assert dumps(loads(first)) == first  # the file reads back as written


def test_a_sample_of_the_shipped_puzzles_is_proven_again() -> None:
    puzzles = shipped("pillage")
    assert len(puzzles) >= 100
    assert {p.difficulty for p in puzzles} == {1, 2, 3, 4, 5}
    assert len({p.id for p in puzzles}) == len(puzzles)
    shipped_on = {(p.params["board"], p.params["contents"], p.params["floor"]) for p in puzzles}
    for board in P.BOARDS:  # every board of the list, its contents and floor, the default 4x4 among them
        assert (board["board"], board["contents"], board.get("floor", "none")) in shipped_on, board
    for puzzle in random.Random(40).sample(puzzles, SAMPLE):
        assert P.verify(puzzle) == [], puzzle.id
