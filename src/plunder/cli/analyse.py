"""``plunder analyse``: every move of a saved game valued, marked, and summed up per player."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..analysis import GameAnalysis, Settings, analyse
from ..analysis.curve import curve_png
from ..analysis.engine import MAX_DEPTH, MAX_SIMS, MoveAnalysis
from ..core import options
from ..core.record import read_record
from .common import SEED, WORKERS

#: how each mark is shown
MARK_STYLES = {"good": "", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red", "unclear": "dim"}


@click.command("analyse")
@click.argument("path", type=click.Path(dir_okay=False))
@WORKERS
@click.option("--sims", default=None, type=click.IntRange(1, MAX_SIMS),
              help="playouts per position (default: the game's, docs/analysis.md)")
@click.option("--depth", default=None, type=click.IntRange(0, MAX_DEPTH),
              help="cut playouts after this many actions (default: the game's; 0: play to the end)")
@click.option("--seed", default=0, show_default=True, type=SEED, help="the analysis seed (playouts' chance)")
@click.option("--no-exact", is_flag=True, help="value by playouts even where the game's solver could")
@click.option("--cache", default=None, type=click.Path(dir_okay=False), help="keep values in this SQLite file between runs")
@click.option("--png", "png_path", default=None, type=click.Path(dir_okay=False), help="write the value curve here")
@click.option("--highlight", default=0, show_default=True, type=click.IntRange(0),
              help="the seat drawn strong in the curve of a game of more than two seats (the others faint)")
@click.option("--all-moves", is_flag=True, help="list every decision, not only the marked ones")
def analyse_cmd(path: str, workers: int, sims: int | None, depth: int | None, seed: int, no_exact: bool,
                cache: str | None, png_path: str | None, highlight: int, all_moves: bool) -> None:
    """Value every move of a saved game: its mark (good, inaccuracy, mistake, blunder; unclear
    where the playouts cannot tell), loss and the better move, a summary per player, and the
    value curve (--png)."""
    for file, option in ((png_path, "--png"), (cache, "--cache")):
        if file:
            options.writable_file(file, option, discard=option == "--png")  # a FIFO would block, after the work
    record = read_record(path)
    if highlight >= len(record.players):
        raise click.BadParameter(f"seat {highlight} is not a seat of this {len(record.players)}-seat game",
                                 param_hint="--highlight")
    err = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task(f"analysing {record.game}", total=None)
        result = analyse(record, Settings(sims, depth, seed, not no_exact), workers,
                         lambda done, total: bar.update(task, completed=done, total=total), cache)
    show(result, all_moves)
    if png_path:
        Path(png_path).write_bytes(curve_png(result, highlight))
        click.echo(f"value curve written to {png_path}")


def how(move: MoveAnalysis) -> str:
    """What valued ``move``: the solver's exact figure, a bound it proved, or the playouts."""
    if move.exact:
        return "solver"
    return "solver, a bound" if move.bounded else f"playouts, {move.candidates} moves"


def show(result: GameAnalysis, all_moves: bool) -> None:
    """Print the judged moves and the summary per player."""
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 140)  # piped tables: room for every column
    game = result.game
    units = result.units
    table = Table(title=f"{game.title}: {len(result.moves)} decisions valued (loss in {units})", header_style="bold")
    for col in ("move", "player", "played", "mark", "loss", "win % lost", "better move", "how"):
        table.add_column(col, justify="right" if col in ("move", "loss", "win % lost") else "left")
    for m in result.moves:
        if m.mark == "good" and not all_moves:
            continue
        style = MARK_STYLES[m.mark]
        table.add_row(str(m.position), game.seat_name(m.seat), m.played, f"[{style}]{m.mark}[/]" if style else m.mark,
                      m.loss_words(), "-" if m.win_loss is None else f"{100 * m.win_loss:.0f}",
                      "" if m.best == m.played else m.best, how(m))
    console.print(table)
    summary = Table(title="Per player", header_style="bold")
    for col in ("player", "agent", "decisions", f"average loss ({units})", "inaccuracies", "mistakes", "blunders",
                "unclear", "worst moves"):
        summary.add_column(col)
    for s in result.summary():
        worst = ", ".join(f"{m.position}. {m.played} (-{m.loss_words()})" for m in s.worst) or "-"
        summary.add_row(game.seat_name(s.seat), s.name, str(s.decisions), f"{s.average_loss:.2f}",
                        str(s.marks["inaccuracy"]), str(s.marks["mistake"]), str(s.marks["blunder"]),
                        str(s.marks["unclear"]), worst)
    console.print(summary)
