"""``plunder puzzles``: generate writes proven puzzles reproducibly; play judges scripted answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from plunder.cli import main
from plunder.core.puzzle import Puzzle, PuzzleError, loads
from plunder.core.record import Record
from plunder.games.pillage.puzzles import verify


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Puzzle]]:
    path = tmp_path_factory.mktemp("puzzles") / "p.json"
    result = run("puzzles", "generate", "pillage", "--count", "3", "--seed", "7", "--out", str(path))
    assert result.exit_code == 0, result.output
    assert "3 puzzles written" in result.output and "CPU s" in result.output
    return path, loads(path.read_text())


def test_generate_writes_proven_puzzles_the_same_for_the_same_seed(made: tuple[Path, list[Puzzle]], tmp_path: Path) -> None:
    path, puzzles = made
    assert len(puzzles) == 3
    assert all(verify(p) == [] for p in puzzles)
    again = tmp_path / "again.json"
    assert run("puzzles", "generate", "pillage", "--count", "3", "--seed", "7", "--out", str(again)).exit_code == 0
    assert again.read_text() == path.read_text()


def answers(puzzle: Puzzle, right: bool) -> str:
    """The solver's moves of the line, or at each step a move worse than the best."""
    moves = []
    for step in puzzle.line:
        if step.solver:
            best = max(step.values.values())
            moves.append(step.action if right else next(a for a, v in step.values.items() if v < best))
    return "".join(m + "\n" for m in moves)


def test_play_says_right_and_plays_the_line_to_its_end(made: tuple[Path, list[Puzzle]]) -> None:
    path, puzzles = made
    puzzle = max(puzzles, key=lambda p: len(p.line))
    result = run("puzzles", "play", "pillage", "--file", str(path), "--id", puzzle.id,
                 input="not-a-move\n" + answers(puzzle, True))
    assert result.exit_code == 0, result.output
    assert "Not a move here" in result.output
    solver_steps = sum(s.solver for s in puzzle.line)
    assert result.output.count("Right:") == solver_steps and "Wrong:" not in result.output
    assert f"Solved: {solver_steps} of {solver_steps} moves right" in " ".join(result.output.split())
    replies = [s.action for s in puzzle.line if not s.solver]
    assert all(r in result.output for r in replies)


def test_play_says_wrong_with_both_values_in_words(made: tuple[Path, list[Puzzle]]) -> None:
    path, puzzles = made
    puzzle = puzzles[0]
    result = run("puzzles", "play", "--file", str(path), "--id", puzzle.id, input=answers(puzzle, False))
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Wrong: after" in text and "Right:" not in text and "Not solved: 0 of" in text
    assert f"{puzzle.line[0].action} makes you" in text and ("win by" in text or "lose by" in text or "a draw" in text)


@pytest.mark.parametrize("stop", ["quit\n", "  EXIT \n", ""])
def test_play_stops_cleanly_on_quit_or_end_of_input(made: tuple[Path, list[Puzzle]], stop: str) -> None:
    path, puzzles = made
    puzzle = max(puzzles, key=lambda p: sum(s.solver for s in p.line))
    first = answers(puzzle, True).splitlines()[0]
    result = run("puzzles", "play", "pillage", "--file", str(path), "--id", puzzle.id, input=f"{first}\n{stop}")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert sum(s.solver for s in puzzle.line) > 1  # so the stop comes before the line's end
    assert "Right:" in text and "Puzzle stopped: 1 of 1 moves right so far." in text
    assert "Aborted" not in result.output and "Solved" not in text
    assert f"The line: {', '.join(s.action for s in puzzle.line)}." in text


def test_play_stops_before_the_first_move(made: tuple[Path, list[Puzzle]]) -> None:
    path, puzzles = made
    result = run("puzzles", "play", "pillage", "--file", str(path), "--id", puzzles[0].id, input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Puzzle stopped: 0 of 0 moves right so far." in " ".join(result.output.split())


def test_bad_puzzle_files_and_ids_are_refused_in_one_line(made: tuple[Path, list[Puzzle]], tmp_path: Path) -> None:
    path, _ = made
    missing = run("puzzles", "play", "pillage", "--file", str(path), "--id", "nope")
    assert missing.exit_code == 1 and "no puzzle 'nope'" in missing.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}')
    refused = run("puzzles", "play", "pillage", "--file", str(bad))
    assert refused.exit_code == 1 and "not a puzzle file" in refused.output
    with pytest.raises(PuzzleError, match="malformed"):
        loads('{"format": "plunder-puzzles", "version": 1, "puzzles": [{"id": "x"}]}')
    no_game = run("puzzles", "generate", "pig", "--count", "1", "--out", str(tmp_path / "x.json"))
    assert no_game.exit_code == 1 and "makes no puzzles" in no_game.output


def test_generate_refuses_a_count_or_candidates_below_one(tmp_path: Path) -> None:
    for option in ("--count", "--candidates"):
        refused = run("puzzles", "generate", "pillage", option, "0", "--out", str(tmp_path / "x.json"))
        assert refused.exit_code == 2 and option in refused.output and "0" in refused.output
    assert not (tmp_path / "x.json").exists()


def test_generate_from_a_store_finds_proven_puzzles_in_its_finished_games(tmp_path: Path) -> None:
    from plunder.core.registry import load_game
    from plunder.match import play
    from plunder.puzzles import game_seed, puzzles_of
    from plunder.web.store import AI, HUMAN, ON, OVER, GameRow, SeatRow, Store

    group = puzzles_of("pillage")
    db = f"sqlite:///{tmp_path / 'plunder.db'}"
    store = Store(db)
    game = load_game("pillage", **group.boards[1])
    kept: list[Record] = []
    left: list[Record] = []
    for i in range(4):
        record = play(game, ["greedy", "random"], game_seed(11, i))
        # the third game is still on: it is left out
        status = ON if i == 2 else OVER
        store.create(GameRow(f"game{i}", "pillage", dict(game.params), int(record.seed or 0), status, "creator",
                             [SeatRow(HUMAN, token="t" * 64), SeatRow(AI, agent="random")], list(record.moves)))
        (kept if status == OVER else left).append(record)
    store.close()
    out = tmp_path / "from-db.json"
    result = run("puzzles", "generate", "pillage", "--from-db", db, "--count", "50", "--out", str(out))
    assert result.exit_code == 0, result.output
    puzzles = loads(out.read_text())
    expected = {p.id for r in kept for p in group.find(game, r)}
    assert group.find(game, left[0])  # the game still on had puzzles too, and none was taken
    assert puzzles and {p.id for p in puzzles} == expected
    assert all(verify(p) == [] for p in puzzles)
    assert {p.seed for p in puzzles} <= {r.seed for r in kept}
    assert all(p.players == ["human", "random"] for p in puzzles)
    # a store with no finished game of it, and a URL that is no database: refused in words
    empty = run("puzzles", "generate", "pillage", "--from-db", f"sqlite:///{tmp_path / 'empty.db'}", "--out",
                str(tmp_path / "none.json"))
    assert empty.exit_code != 0 and "no puzzle found in the finished pillage games" in empty.output
    bad = run("puzzles", "generate", "pillage", "--from-db", "nonsense://x", "--out", str(tmp_path / "none.json"))
    assert bad.exit_code != 0 and "--from-db" in bad.output and "Traceback" not in bad.output
