"""``plunder simulate``: many games, per-agent results."""

from __future__ import annotations

import json
import signal
from typing import Sequence

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..backends import make_backend
from ..core.registry import entry
from ..simulate import histogram_rows, simulate, wilson
from .common import GAME_OPTIONS, RUN_OPTIONS, SEED, agent_specs, load


@click.command("simulate")
@GAME_OPTIONS
@click.option("--agents", required=True, help="comma-separated agents, rotated over the seats")
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=SEED)
@RUN_OPTIONS
@click.option("--json", "as_json", is_flag=True, help="print one JSON object instead of tables")
def simulate_cmd(game_id: str, params: Sequence[str], preset: str | None, agents: str, games: int, seed: int,
                 workers: int, backend_name: str, address: str | None, as_json: bool) -> None:
    """Run many games and print per-agent results (Ctrl-C stops early and prints the games played)."""
    game = load(game_id, preset, params)
    specs = agent_specs(agents, game)
    err = Console(stderr=True)
    interrupted: list[bool] = []

    def interrupt(signum: int, frame: object) -> None:
        if interrupted:
            raise KeyboardInterrupt  # a second Ctrl-C stops at once
        interrupted.append(True)  # the first lets the games being played end, then prints them

    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        with make_backend(backend_name, workers, address) as backend, \
                Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                         console=err, transient=True, disable=as_json or not err.is_terminal) as bar:
            task = bar.add_task(f"{game_id} games", total=games)
            result = simulate(game_id, dict(game.params), specs, games, seed=seed, backend=backend,
                              progress=lambda k: bar.advance(task, k), stop=lambda: bool(interrupted))
    finally:
        signal.signal(signal.SIGINT, previous)
    if not result.games:
        raise click.ClickException("stopped by Ctrl-C before any game ended")
    if interrupted:
        click.echo(f"plunder simulate: stopped by Ctrl-C after {result.games} of {games} games", err=True)
    games = result.games
    summary = result.to_dict()
    if as_json:
        click.echo(json.dumps(summary, indent=1))
        return
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 120)  # piped tables: room for every column
    defaults = {spec.name: spec.default for spec in entry(game_id).game_class.param_specs}
    changed = " ".join(f"{k}={v if len(v) <= 40 else v[:37] + '...'}"
                       for k, v in game.params.items() if defaults.get(k) != v)
    title = f"{game_id} {changed or '(defaults)'}: {games} games, seed {seed}"
    table = Table(title=title, header_style="bold")
    for col in ("agent", "games", "wins", "ties", "losses", "win rate (95% CI)", "mean score", "median", "max"):
        table.add_column(col, justify="left" if col == "agent" else "right", no_wrap=col != "agent", overflow="fold")
    for name, t in result.tallies.items():
        lo, hi = wilson(t.wins, t.games)
        table.add_row(name, str(t.games), str(t.wins), str(t.ties), str(t.losses),
                      f"{t.wins / t.games:.1%} ({lo:.1%}–{hi:.1%})" if t.games else "-",
                      f"{summary['mean_scores'][name]:.2f}", f"{summary['median_scores'][name]:g}",
                      f"{summary['max_scores'][name]:g}")
    console.print(table)
    for name, t in result.tallies.items():
        if t.stats:
            console.print(f"{name}: " + ", ".join(f"mean {k} {v:.2f}" for k, v in summary["stats"][name].items()))
    if summary["game_stats"]:
        console.print("per game: " + ", ".join(f"mean {k} {v:.2f}" for k, v in summary["game_stats"].items()))
    for name, t in result.tallies.items():
        hist = Table(title=f"scores of {name}", box=None, show_header=False)
        hist.add_column(justify="right")
        hist.add_column(justify="right")
        hist.add_column()
        for label, count, bar_text in histogram_rows(t.scores):
            hist.add_row(label, str(count), Text(bar_text, "green"))
        console.print(hist)
