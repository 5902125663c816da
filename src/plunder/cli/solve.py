"""``plunder solve``: a position solved exactly."""

from __future__ import annotations

from typing import Sequence

import click
from rich.console import Console
from rich.text import Text

from ..core import chance
from ..core.errors import SearchLimitError
from ..core.registry import entry
from .common import PARAM, PRESET, SEED, Seconds, load


#: what ``plunder solve`` allows the solver when no ``--time-limit`` is given, in seconds
DEFAULT_SOLVE_SECONDS = 60.0


@click.command("solve")
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
    game = load(game_id, preset, params)
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
