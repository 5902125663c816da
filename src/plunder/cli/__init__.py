"""The ``plunder`` command: analyse, check, list, rules, play, puzzles, serve, simulate, report, sweep, tournament, replay, render, solve.

Every command reads untrusted input (parameters, moves, record and board files): a
refusal — a :class:`PlunderError`, a ``ValueError`` or an ``OSError`` — is printed as one
line on stderr and the command exits with status 1, never with a traceback. Limits are
in ``docs/limits.md``.

The group is lazy: each command lives in a module of this package that is imported only when
that command runs (or shows its help), so ``plunder --help`` loads no web framework, plotting
library or SQL toolkit (``bench/cli_startup.py`` measures it).
"""

from __future__ import annotations

import importlib
import sqlite3
import sys
from typing import Any

import click
from click.utils import make_default_short_help

from ..core.errors import PlunderError
from ..core.registry import broken_games

#: every command: name -> ("module:function" in this package, the first line of its help, as
#: ``plunder --help`` lists it; tests/test_cli.py checks it against the command's own help)
COMMANDS: dict[str, tuple[str, str]] = {
    "export": ("lab:export_cmd", "Write the games of a results file as Parquet (for pandas, DuckDB, polars)."),
    "analyse": ("analyse:analyse_cmd", "Value every move of a saved game: its mark (good, inaccuracy, mistake, "
                                       "blunder; unclear where the playouts cannot tell), loss and the better "
                                       "move, a summary per player, and the value curve (--png)."),
    "check": ("check:check_cmd", "Run Plunder's game-independent tests on installed game GAME, for every preset."),
    "list": ("catalogue:list_games", "Games, their parameters, presets and agents, with every agent's options."),
    "play": ("play:play", "Play GAME at the terminal against agents (or other humans); or go on with a saved "
                          "game (--resume)."),
    "puzzles": ("puzzles:puzzles_cmd", "Puzzles proven by a game's exact search: make them from agents' games, "
                                       "or solve them."),
    "render": ("files:render_cmd", "Draw a position of a saved game: in the terminal, or as an SVG or PNG "
                                   "picture; or every position of it as numbered pictures (--all)."),
    "replay": ("files:replay_cmd", "Verify a saved game and print its final position and result; or step "
                                   "through it (--step)."),
    "report": ("lab:report_cmd", "Play games (resuming from the results file) and write an HTML report with "
                                 "plots."),
    "rules": ("catalogue:rules_cmd", "How to play GAME and how to win, on one screen (full rules: "
                                     "docs/rules/GAME.md)."),
    "serve": ("serve:serve_cmd", "Play in the browser: serve the web app on http://HOST:PORT (every installed "
                                 "game, against the AI, hotseat and online)."),
    "simulate": ("simulate:simulate_cmd", "Run many games and print per-agent results (Ctrl-C stops early and "
                                          "prints the games played)."),
    "solve": ("solve:solve_cmd", "Solve a position exactly: its value for the player to move, and a best move."),
    "sweep": ("lab:sweep_cmd", "Play every combination of the grid's values, ranked, spending games where the "
                               "ranking is in doubt."),
    "tournament": ("lab:tournament_cmd", "Every mix of the agents at the table (Axelrod-style), and which "
                                         "would take over a population."),
}


class Commands(click.Group):
    """The command group: loads a command's module only when it is asked for, and turns every refusal
    of bad input into one line on stderr and exit status 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, without loading any."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name``, its module imported now (``None`` for an unknown name)."""
        if cmd_name not in COMMANDS:
            return None
        module, function = COMMANDS[cmd_name][0].split(":")
        command = getattr(importlib.import_module(f"{__name__}.{module}"), function)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``plunder --help``, from :data:`COMMANDS` (no command is loaded)."""
        limit = formatter.width - 6 - max(map(len, COMMANDS))
        rows = [(name, make_default_short_help(COMMANDS[name][1], limit)) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a refused input ends it with its message, not a traceback."""
        try:
            return super().invoke(ctx)
        except (PlunderError, ValueError, OSError, sqlite3.Error) as exc:
            command = " ".join(filter(None, ("plunder", ctx.invoked_subcommand)))
            message = " ".join(str(exc).split()) or type(exc).__name__
            click.echo(f"{command}: {message}", err=True)
            sys.exit(1)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Plunder: five tabletop games of profit."""
    for line in broken_games():  # an installed game that does not load is left out, not fatal
        click.echo(f"plunder: warning: {line}", err=True)
