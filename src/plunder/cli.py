"""The ``plunder`` command: list, rules, play, simulate, report, sweep, tournament, replay, render, solve.

Every command reads untrusted input (parameters, moves, record and board files): a
refusal — a :class:`PlunderError`, a ``ValueError`` or an ``OSError`` — is printed as one
line on stderr and the command exits with status 1, never with a traceback. Limits are
in ``docs/limits.md``.
"""

from __future__ import annotations

import json
import math
import shlex
import signal
import sqlite3
import sys
from collections import deque
from pathlib import Path
from typing import Any, Mapping, Sequence

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .agents import GENERIC, agent_factories, make_agent
from .agents.levels import LEVELS
from .agents.base import split_specs
from .core.agent import AgentFactory
from .core.errors import PlunderError, SearchLimitError
from .core.game import Game
from .core import chance, options
from .core.record import MAX_SEED, read_record, replay, truncated
from .core.registry import broken_games, entry, game_ids, load_game
from .core.words import plural
from .pictures import png_of, positions, svg_of
from .simulate import histogram_rows, simulate, wilson
from .lab.luck import gather as gather_luck, section as luck_section
from .lab.report import build as build_report, write as write_report
from .lab import tournament
from .lab.plots import heatmap, lines as lines_plot
from .backends import BACKENDS, make_backend
from .lab.run import collect
from .lab.store import Run, Store
from .lab.sweep import MEASURES, parse_grid, shown as sweep_shown, sweep, table as sweep_table
from .web.app import default_db_url, serve
from .web.store import check as check_db
from .terminal import PlaySession, default_record_path, invoked_as, result_line, save_record, step_through


def _params(pairs: Sequence[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="-p")
        out[key.strip()] = value.strip()
    return out


def _load(game_id: str, preset: str | None, pairs: Sequence[str]) -> Game:
    return load_game(game_id, preset=preset, **_params(pairs))


def _agents(text: str, game: Game) -> list[str]:
    """The agent specs of an ``--agents`` list, each checked against ``game`` (one to
    :data:`~plunder.core.options.MAX_AGENTS` of them)."""
    specs = options.agent_list(split_specs(text))
    for spec in dict.fromkeys(specs):
        make_agent(spec, game)
    return specs


#: what ``plunder solve`` allows the solver when no ``--time-limit`` is given, in seconds
DEFAULT_SOLVE_SECONDS = 60.0


class Seconds(click.ParamType):
    """A finite, positive number of seconds (``nan``, ``inf``, zero and negatives are refused)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        """``value`` as seconds, or a usage error saying why not."""
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not (math.isfinite(seconds) and seconds > 0):
            self.fail(f"{value!r} is not a finite positive number of seconds", param, ctx)
        return seconds


class Precision(click.ParamType):
    """A sweep's precision: a finite number in (0, :data:`~plunder.core.options.MAX_PRECISION`]."""

    name = "precision"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        """``value`` as a precision, or a usage error saying why not."""
        try:
            return options.precision(float(value), "")
        except (TypeError, ValueError) as exc:
            self.fail(str(exc) if isinstance(exc, PlunderError) else f"{value!r} is not a number", param, ctx)


class Commands(click.Group):
    """The command group: turns every refusal of bad input into one line on stderr and exit status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a refused input ends it with its message, not a traceback."""
        try:
            return super().invoke(ctx)
        except (PlunderError, ValueError, OSError, sqlite3.Error) as exc:
            command = " ".join(filter(None, ("plunder", ctx.invoked_subcommand)))
            message = " ".join(str(exc).split()) or type(exc).__name__
            click.echo(f"{command}: {message}", err=True)
            sys.exit(1)


PARAM = click.option("-p", "--param", "params", multiple=True, metavar="KEY=VALUE", help="game parameter (repeatable)")
PRESET = click.option("--preset", default=None, help="named parameter set (see plunder list)")
SEED = click.IntRange(0, MAX_SEED)
WORKERS = click.option("--workers", default=1, show_default=True, type=click.IntRange(1, options.MAX_WORKERS),
                       help="local processes (--backend pool) or the CPUs of a local Ray (--backend ray)")
BACKEND = click.option("--backend", "backend_name", default="pool", show_default=True, type=click.Choice(BACKENDS),
                       help="pool: this machine's processes; ray: a Ray cluster (pip install 'plunder[cluster]')")
ADDRESS = click.option("--address", default=None, metavar="ADDR",
                       help="with --backend ray: the cluster's address (HOST:6379, auto, ray://HOST:10001); "
                            "without it a local Ray is started")


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Plunder: five tabletop games of profit."""
    for line in broken_games():  # an installed game that does not load is left out, not fatal
        click.echo(f"plunder: warning: {line}", err=True)


@main.command("list")
def list_games() -> None:
    """Games, their parameters, presets and agents, with every agent's options."""
    console = Console()
    console.print(Text("agents of every game (name:option=value,...)", "bold"))
    console.print(_agent_table(GENERIC))
    console.print()
    for gid in game_ids():
        cls = entry(gid).game_class
        game = load_game(gid)
        console.print(Text(f"{gid} — {cls.title} ({game.num_players} player{'' if game.num_players == 1 else 's'} by default)", "bold"))
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
        table.add_column("parameter")
        table.add_column("default")
        table.add_column("meaning")
        for spec in cls.param_specs:
            choices = f" [{', '.join(spec.choices)}]" if spec.choices else ""
            table.add_row(spec.name, spec.default, spec.help + choices)
        console.print(table)
        if cls.presets:
            console.print("  presets: " + "; ".join(
                f"{name} ({', '.join(f'{k}={v}' for k, v in p.items()) or 'defaults'})" for name, p in cls.presets.items()))
        own = {name: f for name, f in agent_factories(game).items() if name not in GENERIC}
        console.print(_agent_table(own))
        console.print()


def _agent_table(factories: Mapping[str, AgentFactory]) -> Table:
    """Agents with what each does, and under each its options with their defaults and meanings
    (a level's options are those of the agent it stands for, listed there)."""
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for column in ("agent", "option", "default", "meaning"):
        table.add_column(column)
    for name, factory in factories.items():
        table.add_row(name, "", "", factory.help)
        for spec in factory.params if name not in LEVELS else ():
            choices = f" [{', '.join(spec.choices)}]" if spec.choices else ""
            table.add_row("", spec.name, spec.default, spec.help + choices)
    return table


@main.command()
@click.argument("game_id", metavar="GAME", required=False)
@PARAM
@PRESET
@click.option("--vs", "vs", default="greedy", show_default=True,
              help="agent for the other seats, or 'human' for hotseat play")
@click.option("--seat", default=0, show_default=True, help="your seat, 0-based")
@click.option("--players", default=None,
              help="every seat explicitly, e.g. human,greedy,human,random (sets the number of players)")
@click.option("--seed", default=None, type=SEED, help="seed for chance and agents (random if omitted)")
@click.option("--record", "record_path", default=None, type=click.Path(dir_okay=False),
              help="save the game here (it is saved after every move)")
@click.option("--resume", "resume_path", default=None, type=click.Path(exists=True, dir_okay=False),
              help="continue the unfinished game saved in this record (same seats and seed)")
@click.option("--verbose", is_flag=True, help="refused moves get the full message: position and ruling id")
def play(game_id: str | None, params: Sequence[str], preset: str | None, vs: str, seat: int, players: str | None,
         seed: int | None, record_path: str | None, resume_path: str | None, verbose: bool) -> None:
    """Play GAME at the terminal against agents (or other humans); or go on with a saved game (--resume)."""
    resume = None
    if resume_path is not None:
        resume = read_record(resume_path)
        if game_id is not None and game_id != resume.game:
            raise click.UsageError(f"{resume_path} is a game of {resume.game}, not {game_id}")
        if params or preset or players or seed is not None:
            raise click.UsageError("--resume takes the game, players and seed from the record: "
                                   "give no -p, --preset, --players or --seed")
        if resume.returns is not None:
            raise click.UsageError(f"the game in {resume_path} is over (see it with: "
                                   f"{invoked_as()} replay {shlex.quote(resume_path)} --step)")
        game = load_game(resume.game, **resume.params)
        specs = list(resume.players)
        path = Path(record_path or resume_path)
    else:
        if game_id is None:
            raise click.UsageError("name a GAME to play (plunder list shows them), or --resume FILE")
        pairs = list(params)
        if players and not any(p.partition("=")[0].strip() == "players" for p in pairs) \
                and any(spec.name == "players" for spec in entry(game_id).game_class.param_specs):
            # --players human,hard,easy means three players in a game whose size is a parameter
            pairs.append(f"players={len(split_specs(players))}")
        game = _load(game_id, preset, pairs)
        n = game.num_players
        if players:
            specs = split_specs(players)
            if len(specs) != n:
                raise click.UsageError(f"--players needs {n} entries for {game_id}, got {len(specs)}")
        else:
            if not 0 <= seat < n:
                raise click.UsageError(f"--seat must be 0..{n - 1} for {game_id}")
            specs = ["human" if (i == seat or vs == "human") else vs for i in range(n)]
        path = Path(record_path) if record_path else default_record_path(game_id)
    options.writable_file(path, "--record", discard=True)  # a FIFO would block the first write, before the game
    seats = [None if s == "human" else make_agent(s, game) for s in specs]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.open("a").close()  # a path that cannot be written is refused before the game, not after
    console = Console()
    session = PlaySession(game, seats, seed, console, console.input, verbose=verbose,
                          save=lambda record: save_record(path, record), resume=resume)
    record = session.run()
    save_record(path, record)
    shown = shlex.quote(str(path))
    if session.state.is_terminal():
        console.print(Text(f"Game saved to {path} (step through it with: {invoked_as()} replay {shown} --step)"),
                      soft_wrap=True)
    else:
        done = plural(len(record.moves), "move") if record.moves else "no moves yet"
        console.print(Text(f"Game saved to {path} ({done}); continue it with: {invoked_as()} play --resume {shown}"),
                      soft_wrap=True)


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="port to listen on")
@click.option("--db", "db_url", default=None,
              help="database URL: sqlite:///PATH or postgresql://... (default: a SQLite file in the user's data folder)")
def serve_cmd(host: str, port: int, db_url: str | None) -> None:
    """Play in the browser: serve the web app on http://HOST:PORT (every installed game, against the AI,
    hotseat and online)."""
    check_db(db_url or default_db_url())  # a database that cannot be used is refused before the server starts
    click.echo(f"Plunder is being served on http://{host}:{port}/ (Ctrl-C stops it)")
    serve(host, port, db_url)


@main.command("rules")
@click.argument("game_id", metavar="GAME", type=click.Choice(game_ids()))
def rules_cmd(game_id: str) -> None:
    """How to play GAME and how to win, on one screen (full rules: docs/rules/GAME.md)."""
    click.echo(entry(game_id).presentation.how_to_play.rstrip("\n"))


@main.command("simulate")
@click.argument("game_id", metavar="GAME")
@PARAM
@PRESET
@click.option("--agents", required=True, help="comma-separated agents, rotated over the seats")
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=SEED)
@WORKERS
@BACKEND
@ADDRESS
@click.option("--json", "as_json", is_flag=True, help="print one JSON object instead of tables")
def simulate_cmd(game_id: str, params: Sequence[str], preset: str | None, agents: str, games: int, seed: int,
                 workers: int, backend_name: str, address: str | None, as_json: bool) -> None:
    """Run many games and print per-agent results (Ctrl-C stops early and prints the games played)."""
    game = _load(game_id, preset, params)
    specs = _agents(agents, game)
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


@main.command("report")
@click.argument("game_id", metavar="GAME")
@PARAM
@PRESET
@click.option("--agents", required=True, help="comma-separated agents, rotated over the seats")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=SEED, help="game i uses seed SEED+i")
@WORKERS
@BACKEND
@ADDRESS
@click.option("--out", "out", default=None, type=click.Path(file_okay=False),
              help="folder for report.html and the plots (default: report-GAME)")
@click.option("--store", "store_path", default=None, type=click.Path(dir_okay=False),
              help="SQLite results file, one row per game; games already in it are not replayed "
                   "(default: OUT/games.sqlite)")
@click.option("--luck", "luck_games", default=200, show_default=True, type=click.IntRange(min=0),
              help="luck versus skill: for a solitaire, seeds every agent and the clairvoyant (not a legal "
                   "player) play alike; 0 leaves the section out (games of several players use the report's games)")
@click.option("--clairvoyant", "seer_level", default=1, show_default=True, type=click.IntRange(min=0),
              help="search level of the solitaires' clairvoyant (2 searches deeper, slower)")
def report_cmd(game_id: str, params: Sequence[str], preset: str | None, agents: str, games: int, seed: int,
               workers: int, backend_name: str, address: str | None, out: str | None,
               store_path: str | None, luck_games: int, seer_level: int) -> None:
    """Play games (resuming from the results file) and write an HTML report with plots."""
    game = _load(game_id, preset, params)
    specs = _agents(agents, game)
    options.lab_games(games)
    if game.num_players == 1 and luck_games:
        # a solitaire's luck section plays its seeds with each agent and the clairvoyant, all kept in memory
        options.at_most(luck_games * (len(set(specs)) + 1), options.MAX_LAB_GAMES, f"--luck {luck_games} games "
                        "for each agent and the clairvoyant:", "MAX_LAB_GAMES: the lab keeps every game's row in memory")
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
                solo = game.num_players == 1
                task = bar.add_task(f"{game_id} luck versus skill", total=luck_games * (len(specs) + 1) if solo else 0)
                luck = gather_luck(store, game_id, dict(game.params), specs, rows, luck_games, seed, backend,
                                   seer_level, progress=lambda k: bar.advance(task, k))
    finally:
        store.close()
    report = build_report(game_id, dict(game.params), rows, seed)
    if luck is not None:
        luck_section(report, luck)
    page = write_report(report, folder)
    for line in report.summary:
        click.echo(line)
    click.echo(f"report: {page}")


@main.command("sweep")
@click.argument("game_id", metavar="GAME")
@PARAM
@PRESET
@click.option("--grid", "grid", multiple=True, required=True,
              help="NAME=V1,V2,... or NAME=V1;V2;... when values hold commas (repeat for more axes)")
@click.option("--agents", required=True, help="comma-separated agents, rotated over the seats")
@click.option("--rank", "measure", default="win", show_default=True, type=click.Choice(list(MEASURES)),
              help="; ".join(f"{k}: {v}" for k, v in MEASURES.items()))
@click.option("--games", default=2000, show_default=True, type=click.IntRange(min=1), help="most games a variant")
@click.option("--batch", default=200, show_default=True, type=click.IntRange(min=1), help="games a variant per round")
@click.option("--precision", default=0.02, show_default=True, type=Precision(),
              help=f"a variant stops once its 95%% interval is this narrow on each side (above 0, at most "
                   f"{options.MAX_PRECISION})")
@click.option("--seed", default=0, show_default=True, type=SEED, help="game i of every variant uses seed SEED+i")
@WORKERS
@BACKEND
@ADDRESS
@click.option("--out", "out", default=None, type=click.Path(file_okay=False),
              help="folder for the table, the heat-map and the results file (default: sweep-GAME)")
def sweep_cmd(game_id: str, params: Sequence[str], preset: str | None, grid: Sequence[str], agents: str,
              measure: str, games: int, batch: int, precision: float, seed: int, workers: int,
              backend_name: str, address: str | None, out: str | None) -> None:
    """Play every combination of the grid's values, ranked, spending games where the ranking is in doubt."""
    game = _load(game_id, preset, params)
    specs = _agents(agents, game)
    axes = parse_grid(grid)
    variants_count = options.at_most(math.prod(len(v) for _, v in axes), options.MAX_VARIANTS, "--grid variants",
                                     "MAX_VARIANTS")
    options.lab_games(games * variants_count, f"--games {games} for each of {variants_count} variants:")
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
    rows = sweep_table(variants, game_id)
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
        fmt, title = "{:.0%}", ""
        for y in ys:
            cells.append([])
            for x in xs:
                value, fmt, title = sweep_shown(measure, by[(y, x)].rows, game_id)
                cells[-1].append(value)
        if measure == "seat":
            # which way the seat leans matters to a designer: the map shows the first seat's own rate
            title += f" (even share {1 / game.num_players:.0%})"
        (folder / "heatmap.png").write_bytes(heatmap(ys, xs, cells, title, ry, rx, fmt))
    click.echo(f"table: {folder / 'sweep.md'}")


@main.command("tournament")
@click.argument("game_id", metavar="GAME")
@PARAM
@PRESET
@click.option("--agents", required=True, help="comma-separated agents: every mix of them fills the seats")
@click.option("--players", default=None, help="player counts, e.g. 3,4 (default: the game's)")
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1),
              help="games per mix of seats, rounded up to a multiple of the player count (seats rotate)")
@click.option("--generations", default=200, show_default=True, type=click.IntRange(0, options.MAX_GENERATIONS),
              help="generations of the replicator dynamics")
@click.option("--seed", default=0, show_default=True, type=SEED, help="game i of every mix uses seed SEED+i")
@WORKERS
@BACKEND
@ADDRESS
@click.option("--out", "out", default=None, type=click.Path(file_okay=False),
              help="folder for the tables, the replicator plot and the results file (default: tournament-GAME)")
def tournament_cmd(game_id: str, params: Sequence[str], preset: str | None, agents: str, players: str | None,
                   games: int, generations: int, seed: int, workers: int, backend_name: str, address: str | None,
                   out: str | None) -> None:
    """Every mix of the agents at the table (Axelrod-style), and which would take over a population."""
    game = _load(game_id, preset, params)
    specs = list(dict.fromkeys(_agents(agents, game)))
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


@main.command("replay")
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


@main.command("solve")
@click.argument("game_id", metavar="GAME")
@PARAM
@PRESET
@click.option("--moves", default="", help="actions to play first, separated by commas (e.g. 'a1-b1, b1-c1')")
@click.option("--seed", default=0, show_default=True, type=SEED, help="seed for chance before the position")
@click.option("--time-limit", default=DEFAULT_SOLVE_SECONDS, show_default=True, type=Seconds(),
              help="give up after this many seconds")
@click.option("--memory", default=None, type=click.FloatRange(min=1, max=1 << 20), metavar="MB",
              help="MB for the solver's transposition tables (default: the solver's own, see docs/limits.md)")
def solve_cmd(game_id: str, params: Sequence[str], preset: str | None, moves: str, seed: int,
              time_limit: float, memory: float | None) -> None:
    """Solve a position exactly: its value for the player to move, and a best move."""
    game = _load(game_id, preset, params)
    solver = entry(game_id).strength.solve
    if solver is None:
        raise click.UsageError(f"{game_id} has no exact solver")
    draws = chance.stream(seed)
    state = game.new_initial_state()
    for text in filter(None, (m.strip() for m in moves.split(","))):
        while state.is_chance_node():
            state = state.apply(chance.pick(state.chance_outcomes(), draws()))
        state = state.apply_text(text)
    while state.is_chance_node():
        state = state.apply(chance.pick(state.chance_outcomes(), draws()))
    try:
        result = solver(state, time_limit, memory)
    except SearchLimitError as exc:
        raise click.ClickException(f"no result within the solver's {exc.limit} limit: {exc}") from None
    console = Console()
    render = entry(game_id).presentation.render
    console.print(render(state) if render else Text(str(state)))
    if result.best_action is None:
        console.print(f"The game is over: final value {result.value:g}.")
        return
    who = game.seat_name(state.current_player)
    console.print(Text(f"Value for {who}: {result.value:+g} (final score margin with best play on both sides)", "bold"))
    console.print(f"Best move: {game.action_to_text(state, result.best_action)}")
    console.print(f"{result.nodes} positions searched in {result.seconds:.2f} s")


@main.command("render")
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


if __name__ == "__main__":
    main()
