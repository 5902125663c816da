"""``plunder list`` and ``plunder rules``: what is installed, and how to play a game."""

from __future__ import annotations

from typing import Mapping

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..agents import GENERIC, agent_factories
from ..agents.levels import LEVELS
from ..core.agent import AgentFactory
from ..core.registry import broken_games, entry, game_ids, load_game


@click.command("list")
def list_games() -> None:
    """Games, their parameters, presets and agents, with every agent's options.

    Then the games left out, each with why."""
    console = Console()
    console.print(Text("agents of every game (name:option=value,...)", "bold"))
    console.print(_agent_table(GENERIC))
    console.print()
    for gid in game_ids():
        cls, declared = entry(gid).game_class, entry(gid).declaration
        game = load_game(gid)
        default = f", {game.num_players} by default" if declared.min_seats < declared.max_seats else ""
        console.print(Text(f"{gid} — {cls.title} ({declared.seats_text()}{default})", "bold"))
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
    left_out = broken_games(own=True)
    if left_out:
        console.print(Text("games left out", "bold"))
        for line in left_out:
            console.print(Text(line), soft_wrap=True)


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


@click.command("rules")
@click.argument("game_id", metavar="GAME", type=click.Choice(game_ids()))
def rules_cmd(game_id: str) -> None:
    """How to play GAME and how to win, on one screen (full rules: docs/rules/GAME.md)."""
    click.echo(entry(game_id).presentation.how_to_play.rstrip("\n"))
