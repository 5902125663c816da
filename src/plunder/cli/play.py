"""``plunder play``: a game at the terminal, or a saved one continued."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Sequence

import click
from rich.console import Console
from rich.text import Text

from ..agents import make_agent
from ..agents.base import split_specs
from ..core import options
from ..core.record import read_record
from ..core.registry import entry, load_game
from ..core.words import plural
from ..terminal import PlaySession, default_record_path, invoked_as, save_record
from .common import PARAM, PRESET, SEED, load


def default_opponent(game_id: str) -> str:
    """The agent ``plunder play`` seats against a person when ``--vs`` names none: the game's
    ``greedy`` agent, quick and fair, where it has one; else the ``medium`` level, which every
    game has (:mod:`plunder.agents.levels`)."""
    return "greedy" if "greedy" in entry(game_id).strength.agents else "medium"


@click.command("play")
@click.argument("game_id", metavar="GAME", required=False)
@PARAM
@PRESET
@click.option("--vs", "vs", default=None,
              help="agent for the other seats, or 'human' for hotseat play [default: the game's greedy agent, "
                   "else the medium level]")
@click.option("--seat", default=0, show_default=True, help="your seat, 0-based")
@click.option("--players", default=None,
              help="every seat explicitly, e.g. human,greedy,human,random (sets the number of players)")
@click.option("--seed", default=None, type=SEED, help="seed for chance and agents (random if omitted)")
@click.option("--record", "record_path", default=None, type=click.Path(dir_okay=False),
              help="save the game here (it is saved after every move)")
@click.option("--resume", "resume_path", default=None, type=click.Path(exists=True, dir_okay=False),
              help="continue the unfinished game saved in this record (same seats and seed)")
@click.option("--verbose", is_flag=True, help="refused moves get the full message: position and ruling id")
def play(game_id: str | None, params: Sequence[str], preset: str | None, vs: str | None, seat: int, players: str | None,
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
        game = load(game_id, preset, pairs)
        n = game.num_players
        if players:
            specs = split_specs(players)
            if len(specs) != n:
                raise click.UsageError(f"--players needs {n} entries for {game_id}, got {len(specs)}")
        else:
            if not 0 <= seat < n:
                raise click.UsageError(f"--seat must be 0..{n - 1} for {game_id}")
            rival = vs or default_opponent(game_id)
            specs = ["human" if (i == seat or rival == "human") else rival for i in range(n)]
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
