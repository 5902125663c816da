"""``plunder puzzles``: make puzzles from agents' games or the web app's stored games (``generate``) and solve
them at the terminal (``play``)."""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path
from typing import Callable

import click
from rich.console import Console
from rich.text import Text

from ..core.errors import PlunderError
from ..core.puzzle import Puzzle, PuzzleError, dumps
from ..core.registry import entry, game_ids
from ..puzzles import CANDIDATES, PuzzleRun, Verdict, from_records, generate, load, puzzles_of, shipped
from ..web.finished import finished_records
from ..web.store import Store, check
from .common import SEED

#: the most finished games ``--from-db`` reads by default
FROM_DB_GAMES = 1000


@click.group("puzzles")
def puzzles_cmd() -> None:
    """Puzzles proven by a game's exact search: make them from agents' games, or solve them."""


@puzzles_cmd.command("generate")
@click.argument("game_id", metavar="GAME")
@click.option("--count", default=20, show_default=True, type=click.IntRange(1, 100_000), help="puzzles to make")
@click.option("--seed", default=0, show_default=True, type=SEED, help="seed of the games played (same seed, same puzzles)")
@click.option("--candidates", default=CANDIDATES, show_default=True, type=click.IntRange(1, 100),
              help="puzzles found per puzzle kept, to choose among by difficulty (more: levels more even, more games)")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="puzzle file to write (JSON)")
@click.option("--from-db", "db_url", default=None, metavar="URL",
              help="find them in the finished games of the web app's store at URL (sqlite:///PATH or postgresql://...) "
                   "instead of playing agents' games")
@click.option("--games", default=FROM_DB_GAMES, show_default=True, type=click.IntRange(1, 1_000_000),
              help="with --from-db: the most finished games read, newest first")
def generate_cmd(game_id: str, count: int, seed: int, candidates: int, out: Path, db_url: str | None,
                 games: int) -> None:
    """Play agents' games from SEED (or read the finished games of a store, --from-db), keep COUNT
    puzzles spread over difficulty, prove each again with a fresh exact search, and write them to OUT."""
    group = puzzles_of(game_id)
    start = time.process_time()

    def progress(played: int, found: int) -> None:
        if played % 50 == 0:
            click.echo(f"{played} games, {found} puzzles", err=True)

    if db_url is not None:
        made = _from_store(game_id, db_url, count, games, progress)
    else:
        made = generate(game_id, count, seed, progress, candidates)
    for puzzle in made:
        problems = group.verify(puzzle)
        if problems:
            raise PuzzleError(f"puzzle {puzzle.id} does not hold: {'; '.join(problems)}")
    out.write_text(dumps(made), encoding="utf-8")
    levels = Counter(p.difficulty for p in made)
    themes = Counter(p.theme or "none" for p in made)
    click.echo(f"{len(made)} puzzles written to {out}, each proven twice by the exact search, "
               f"in {time.process_time() - start:.1f} CPU s")
    click.echo("difficulty: " + ", ".join(f"{d}: {levels[d]}" for d in sorted(levels)))
    click.echo("themes: " + ", ".join(f"{t}: {n}" for t, n in themes.most_common()))


def _from_store(game_id: str, db_url: str, count: int, most: int, progress: Callable[[int, int], None]) -> list[Puzzle]:
    """The puzzles found in the last ``most`` finished games of ``game_id`` in the store at ``db_url``."""
    try:
        check(db_url)
    except ValueError as exc:
        raise click.UsageError(str(exc).replace("--db", "--from-db", 1)) from None
    store = Store(db_url)
    try:
        made = from_records(game_id, finished_records(store, game_id, most), count, progress)
    finally:
        store.close()
    if not made:
        raise PuzzleError(f"no puzzle found in the finished {game_id} games of the store "
                          f"(the last {most} read; a puzzle needs a position with one proven best move)")
    return made


def _puzzle_game() -> str:
    """The one installed game that makes puzzles (``GAME`` may be left out then)."""
    making = [g for g in game_ids() if entry(g).puzzles is not None]
    if len(making) != 1:
        raise click.UsageError(f"name the game: {', '.join(making) or 'no installed game'} make puzzles")
    return making[0]


def _chosen(puzzles: list[Puzzle], puzzle_id: str | None, difficulty: int | None, seed: int | None) -> Puzzle:
    if puzzle_id is not None:
        named = [p for p in puzzles if p.id == puzzle_id]
        if not named:
            raise PuzzleError(f"no puzzle {puzzle_id!r} in the file")
        return named[0]
    pool = [p for p in puzzles if difficulty is None or p.difficulty == difficulty]
    if not pool:
        raise PuzzleError(f"no puzzle of difficulty {difficulty} in the file")
    return random.Random(seed).choice(pool)


@puzzles_cmd.command("play")
@click.argument("game_id", metavar="[GAME]", required=False)
@click.option("--file", "path", type=click.Path(dir_okay=False, path_type=Path),
              help="puzzle file (default: the puzzles shipped with the game)")
@click.option("--id", "puzzle_id", default=None, help="the puzzle to play (default: one at random)")
@click.option("--difficulty", default=None, type=click.IntRange(1, 5), help="pick among puzzles of this difficulty")
@click.option("--seed", default=None, type=SEED, help="seed of the random pick")
def play_cmd(game_id: str | None, path: Path | None, puzzle_id: str | None, difficulty: int | None,
             seed: int | None) -> None:
    """Solve a puzzle at the terminal: find the best move; the reply is played and the line goes on to its end."""
    game_id = game_id or _puzzle_game()
    puzzles = load(path) if path is not None else shipped(game_id)
    puzzle = _chosen([p for p in puzzles if p.game == game_id], puzzle_id, difficulty, seed)
    game_entry = entry(game_id)
    units = game_entry.analysis.units if game_entry.analysis is not None else "points"
    run = PuzzleRun(puzzle, units)
    console = Console(highlight=False)
    render = game_entry.presentation.render

    def show() -> None:
        console.print(render(run.state) if render else Text(str(run.state)))

    theme = f" · {puzzle.theme}" if puzzle.theme else ""
    console.print(Text(f"Puzzle {puzzle.id} · difficulty {puzzle.difficulty}{theme}", "bold"))
    who = run.game.seat_name(run.solver)
    first = True
    while True:
        replies = run.replies()
        if replies:
            console.print(f"The reply: {', '.join(replies)}")
        if run.done:
            break
        show()
        console.print(f"{who} to play: find the best move." if first else f"{who} again: the next exact move.")
        first = False
        verdict = _answered(run, console)
        if verdict is None:
            right = sum(v.right for v in run.verdicts)
            console.print(Text(f"Puzzle stopped: {right} of {len(run.verdicts)} moves right so far. "
                               f"The line: {_line(puzzle)}.", "bold"))
            return
        console.print(verdict.words)
    show()
    right = sum(v.right for v in run.verdicts)
    console.print(Text(f"{'Solved' if right == len(run.verdicts) else 'Not solved'}: {right} of "
                       f"{len(run.verdicts)} moves right. The line: {_line(puzzle)}.", "bold"))


def _line(puzzle: Puzzle) -> str:
    """The solution line in the game's notation, comma-separated."""
    return ", ".join(step.action for step in puzzle.line)


def _answered(run: PuzzleRun, console: Console) -> Verdict | None:
    """Ask for a move until one is read and judged; ``None`` when the player stops: ``quit`` or
    ``exit`` typed, end of input or Ctrl-C, as ``plunder play`` takes them."""
    while True:
        try:
            text = click.prompt("Your move (or quit)", prompt_suffix=": ").strip()
        except click.Abort:  # click's word for end of input and Ctrl-C at a prompt
            console.print()
            return None
        if text.lower() in ("quit", "exit"):
            return None
        try:
            return run.answer(text)
        except (PlunderError, ValueError) as exc:
            console.print(f"Not a move here: {' '.join(str(exc).split())}")

