"""``plunder replay`` and ``plunder render``: a saved game checked, stepped through or drawn."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from ..core import options
from ..core.record import read_record, replay, truncated
from ..core.registry import entry
from ..core.words import plural
from ..pictures import png_of, positions, svg_of
from ..terminal import result_line, step_through


@click.command("replay")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--step", is_flag=True, help="walk through the game move by move (n/p/first/last/q, Enter: next)")
def replay_cmd(path: str, step: bool) -> None:
    """Verify a saved game and print its final position and result; or step through it (--step)."""
    console = Console()
    record = read_record(path)
    if step:
        step_through(record, console, console.input)
        return
    final = replay(record)
    game = final.game
    render = entry(record.game).presentation.render
    console.print(render(final) if render else Text(str(final)))
    seats = ", ".join(f"{game.seat_name(i)}: {name}" for i, name in enumerate(record.players))
    drawn = "chance drawn from the seed" if record.chance == "seed" else "chance not drawn from the seed"
    console.print(Text(f"{record.game}, {plural(len(record.moves), 'move')}, seed {record.seed} ({drawn}); {seats}"))
    if final.is_terminal():
        console.print(Text(result_line(game, final), "bold green"))
    else:
        console.print(Text("The record stops before the end of the game.", "yellow"))


@click.command("render")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--at", "at", default=None, type=int, help="show the position after this many moves (default: the end)")
@click.option("--svg", "svg_path", default=None, type=click.Path(dir_okay=False), help="write an SVG picture here")
@click.option("--png", "png_path", default=None, type=click.Path(dir_okay=False), help="write a PNG picture here")
@click.option("--all", "all_dir", default=None, type=click.Path(file_okay=False),
              help="write one picture per position (move-0000 is the start) into this folder")
@click.option("--format", "all_format", default="svg", show_default=True, type=click.Choice(["svg", "png"]),
              help="the pictures --all writes")
def render_cmd(path: str, at: int | None, svg_path: str | None, png_path: str | None, all_dir: str | None,
               all_format: str) -> None:
    """Draw a position of a saved game: in the terminal, or as an SVG or PNG picture; or every
    position of it as numbered pictures (--all)."""
    for picture_path, option in ((svg_path, "--svg"), (png_path, "--png")):
        if picture_path:
            options.writable_file(picture_path, option, discard=True)  # a FIFO would block the write
    console = Console()
    record = read_record(path)
    if all_dir is not None:
        if at is not None or svg_path or png_path:
            raise click.UsageError("--all draws every position: it takes no --at, --svg or --png")
        folder = Path(all_dir)
        folder.mkdir(parents=True, exist_ok=True)
        count = 0
        for state, shown in positions(record):
            picture = svg_of(state, shown)
            target = folder / f"move-{count:04d}.{all_format}"
            if all_format == "png":
                target.write_bytes(png_of(picture))
            else:
                target.write_text(picture, encoding="utf-8")
            count += 1
        console.print(Text(f"Wrote {count} pictures to {folder} (move-0000.{all_format} is the start)"))
        return
    if at is not None:
        if not 0 <= at <= len(record.moves):
            raise click.UsageError(f"--at must be 0..{len(record.moves)} for this record")
        record = truncated(record, at)
    game_entry = entry(record.game)
    if svg_path or png_path:
        state, shown = deque(positions(record), maxlen=1)[0]  # the last, with its move narrated
        picture = svg_of(state, shown)
        if svg_path:
            Path(svg_path).write_text(picture, encoding="utf-8")
            console.print(Text(f"Wrote {svg_path}"))
        if png_path:
            Path(png_path).write_bytes(png_of(picture))
            console.print(Text(f"Wrote {png_path}"))
        return
    state = replay(record)
    console.print(game_entry.presentation.render(state) if game_entry.presentation.render else Text(str(state)))
