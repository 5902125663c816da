"""The lab's commands: ``plunder report``, ``plunder sweep`` and ``plunder tournament`` (results
files, tables and plots)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..backends import make_backend
from ..core import options
from ..lab import provenance, tournament
from ..lab.export import export
from ..lab.luck import gather as gather_luck, planned as luck_planned, section as luck_section
from ..lab.plots import heatmap, lines as lines_plot
from ..lab.report import build as build_report, write as write_report
from ..lab.run import collect
from ..lab.store import Run, Store
from ..lab.metrics import METRIC_GAMES, require_analysis, sentences as quality_sentences
from ..lab.sweep import (MEASURES, check_rank, measured, parse_grid, reference, shown as sweep_shown, sweep,
                         table as sweep_table)
from .common import GAME_OPTIONS, RUN_OPTIONS, SEED, Precision, agent_specs, load


@click.command("report")
@GAME_OPTIONS
@click.option("--agents", required=True, help="comma-separated agents, rotated over the seats")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=SEED, help="game i uses seed SEED+i")
@RUN_OPTIONS
@click.option("--out", "out", default=None, type=click.Path(file_okay=False),
              help="folder for report.html and the plots (default: report-GAME)")
@click.option("--store", "store_path", default=None, type=click.Path(dir_okay=False),
              help="SQLite results file, one row per game; games already in it are not replayed "
                   "(default: OUT/games.sqlite)")
@click.option("--luck", "luck_games", default=200, show_default=True, type=click.IntRange(min=0),
              help="luck versus skill: for a solitaire, seeds every agent and the clairvoyant (not a legal "
                   "player) play alike (games of several players use the report's games); and games of a reference "
                   "pair, the game's strong agent and random play; 0 leaves the section out")
@click.option("--clairvoyant", "seer_level", default=1, show_default=True, type=click.IntRange(min=0),
              help="search level of the solitaires' clairvoyant (2 searches deeper, slower)")
@click.option("--quality", "quality_games", default=0, show_default=True, type=click.IntRange(0, METRIC_GAMES),
              help="game-quality metrics (drama, lead changes, decisiveness ...; docs/lab.md) over this many of "
                   "the games, each replayed and analysed; 0 leaves them out")
def report_cmd(game_id: str, params: Sequence[str], preset: str | None, agents: str, games: int, seed: int,
               workers: int, backend_name: str, address: str | None, out: str | None,
               store_path: str | None, luck_games: int, seer_level: int, quality_games: int) -> None:
    """Play games (resuming from the results file) and write an HTML report with plots."""
    game = load(game_id, preset, params)
    specs = agent_specs(agents, game)
    options.lab_games(games)
    if quality_games:
        require_analysis(game_id, "--quality")
    luck_total = luck_planned(game_id, specs, game.num_players, luck_games)
    if luck_total:
        # the luck section's games (each agent and the clairvoyant alone in a solitaire, the reference
        # pair) are kept in memory too
        options.at_most(luck_total, options.MAX_LAB_GAMES, f"--luck {luck_games} games for each agent, the "
                        "clairvoyant and the reference pair:", "MAX_LAB_GAMES: the lab keeps every game's row in memory")
    folder = Path(out or f"report-{game_id}")
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(store_path or folder / "games.sqlite")
    run = Run(game_id, dict(game.params), tuple(specs), seed)
    err = Console(stderr=True)
    try:
        with make_backend(backend_name, workers, address) as backend, \
                Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                         console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task(f"{game_id} games", total=games)
            rows = collect(store, run, games, progress=lambda k: bar.advance(task, k), backend=backend)
            luck = None
            if luck_games:
                task = bar.add_task(f"{game_id} luck versus skill", total=luck_total)
                luck = gather_luck(store, game_id, dict(game.params), specs, rows, luck_games, seed, backend,
                                   seer_level, progress=lambda k: bar.advance(task, k))
    finally:
        store.close()
    report = build_report(game_id, dict(game.params), rows, seed)
    report.made = provenance.made()
    if luck is not None:
        luck_section(report, luck)
    report.summary.extend(quality_sentences(run, rows, quality_games))
    page = write_report(report, folder)
    for line in report.summary:
        click.echo(line)
    click.echo(f"report: {page}")


@click.command("sweep")
@GAME_OPTIONS
@click.option("--grid", "grid", multiple=True, required=True,
              help="NAME=V1,V2,... or NAME=V1;V2;... when values hold commas (repeat for more axes)")
@click.option("--agents", required=True, help="comma-separated agents, rotated over the seats")
@click.option("--rank", "measure", default="win", show_default=True, type=click.Choice(list(MEASURES)),
              help="; ".join(f"{k}: {v}" for k, v in MEASURES.items()))
@click.option("--games", default=2000, show_default=True, type=click.IntRange(min=1), help="most games a variant")
@click.option("--batch", default=200, show_default=True, type=click.IntRange(min=1), help="games a variant per round")
@click.option("--precision", default=0.02, show_default=True, type=Precision(),
              help=f"a variant stops once its 95% interval is this narrow on each side (above 0, at most "
                   f"{options.MAX_PRECISION})")
@click.option("--seed", default=0, show_default=True, type=SEED, help="game i of every variant uses seed SEED+i")
@RUN_OPTIONS
@click.option("--out", "out", default=None, type=click.Path(file_okay=False),
              help="folder for the table, the heat-map and the results file (default: sweep-GAME)")
def sweep_cmd(game_id: str, params: Sequence[str], preset: str | None, grid: Sequence[str], agents: str,
              measure: str, games: int, batch: int, precision: float, seed: int, workers: int,
              backend_name: str, address: str | None, out: str | None) -> None:
    """Play every combination of the grid's values, ranked, spending games where the ranking is in doubt."""
    game = load(game_id, preset, params)
    specs = agent_specs(agents, game)
    axes = parse_grid(grid)
    variants_count = options.at_most(math.prod(len(v) for _, v in axes), options.MAX_VARIANTS, "--grid variants",
                                     "MAX_VARIANTS")
    options.lab_games(games * variants_count, f"--games {games} for each of {variants_count} variants:")
    check_rank(game_id, specs, measure)
    folder = Path(out or f"sweep-{game_id}")
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "games.sqlite")
    err = Console(stderr=True)
    try:
        with make_backend(backend_name, workers, address) as backend, \
                Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                         console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task(f"{game_id} sweep (at most)", total=games * variants_count)
            variants = sweep(store, game_id, dict(game.params), axes, specs, measure, batch, games, precision,
                             seed, progress=lambda k: bar.advance(task, k), backend=backend)
    finally:
        store.close()
    rows = sweep_table(variants, game_id, measure)
    result = Table(title=f"{game_id} sweep ranked by {MEASURES[measure]}", header_style="bold")
    for col in rows[0]:
        result.add_column(col)
    for row in rows:
        result.add_row(*row.values())
    console = Console(width=max(Console().width, 120))
    console.print(result)
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    lines += ["| " + " | ".join(r.values()) + " |" for r in rows]
    (folder / "sweep.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if len(axes) == 2:
        (ry, ys), (rx, xs) = axes
        by = {tuple(v.values.values()): v for v in variants}
        cells: list[list[float]] = []
        halves: list[list[float]] = []
        fmt, title = "{:.0%}", ""
        for y in ys:
            cells.append([])
            halves.append([])
            for x in xs:
                value, fmt, title = sweep_shown(measure, by[(y, x)].rows, game_id, by[(y, x)].run)
                cells[-1].append(value)
                halves[-1].append(measured(measure, by[(y, x)].rows, game_id, by[(y, x)].run).half())
        centre = reference(measure, [c for line in cells for c in line], game.num_players)
        (folder / "heatmap.png").write_bytes(heatmap(ys, xs, cells, title, ry, rx, fmt, halves, centre))
    click.echo(f"table: {folder / 'sweep.md'}")


@click.command("tournament")
@GAME_OPTIONS
@click.option("--agents", required=True, help="comma-separated agents: every mix of them fills the seats")
@click.option("--players", default=None, help="player counts, e.g. 3,4 (default: the game's)")
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1),
              help="games per mix of seats, rounded up to a multiple of the player count (seats rotate)")
@click.option("--generations", default=200, show_default=True, type=click.IntRange(0, options.MAX_GENERATIONS),
              help="generations of the replicator dynamics")
@click.option("--seed", default=0, show_default=True, type=SEED, help="game i of every mix uses seed SEED+i")
@RUN_OPTIONS
@click.option("--out", "out", default=None, type=click.Path(file_okay=False),
              help="folder for the tables, the replicator plot and the results file (default: tournament-GAME)")
def tournament_cmd(game_id: str, params: Sequence[str], preset: str | None, agents: str, players: str | None,
                   games: int, generations: int, seed: int, workers: int, backend_name: str, address: str | None,
                   out: str | None) -> None:
    """Every mix of the agents at the table (Axelrod-style), and which would take over a population."""
    game = load(game_id, preset, params)
    specs = list(dict.fromkeys(agent_specs(agents, game)))
    counts = options.player_counts(players) if players else [game.num_players]
    for k in counts:
        tournament.seated(game_id, dict(game.params), k)  # refuses a count the game cannot seat
        per_mix = -(-options.lab_games(games) // k) * k
        options.lab_games(per_mix * options.mixes(len(specs), k), f"--games {games} over every mix at {k} players:")
    folder = Path(out or f"tournament-{game_id}")
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "games.sqlite")
    err = Console(stderr=True)
    standings = []
    try:
        with make_backend(backend_name, workers, address) as backend, \
                Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                         console=err, transient=True, disable=not err.is_terminal) as bar:
            for k in counts:
                # a multiple of k games puts every agent of a mix in every seat equally often
                per_mix = -(-games // k) * k
                task = bar.add_task(f"{game_id}, {k} players", total=per_mix * len(tournament.mixes(specs, k)))
                tables = tournament.play(store, game_id, dict(game.params), specs, k, per_mix, seed, backend,
                                         progress=lambda n: bar.advance(task, n))
                standings.append(tournament.standing(tables, specs, generations))
    finally:
        store.close()
    (folder / "tournament.md").write_text(tournament.markdown(standings, specs), encoding="utf-8")
    (folder / "replicator.png").write_bytes(lines_plot(
        {f"{s.players} players": {a: [h[i] for h in s.history] for i, a in enumerate(specs)} for s in standings},
        "Replicator dynamics: population shares", "generation", "share of the population"))
    for s in standings:
        for line in tournament.words(s, specs):
            click.echo(line)
    click.echo(f"tables: {folder / 'tournament.md'}; plot: {folder / 'replicator.png'}")


@click.command("export")
@click.argument("store_path", metavar="RESULTS_FILE", type=click.Path(dir_okay=False))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="the Parquet file to write")
def export_cmd(store_path: str, out: str) -> None:
    """Write the games of a results file as Parquet (for pandas, DuckDB, polars)."""
    written = export(store_path, out, warn=lambda line: click.echo(f"plunder export: warning: {line}", err=True))
    click.echo(f"{written} games: {out}")
