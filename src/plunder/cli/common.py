"""What the commands share: game parameters and presets, agent lists, seeds, the lab's
workers and backend, and the option types that refuse a bad number in one line."""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence, TypeVar

import click

from ..agents import make_agent
from ..agents.base import split_specs
from ..backends import BACKENDS
from ..core import options
from ..core.errors import PlunderError
from ..core.game import Game
from ..core.record import MAX_SEED
from ..core.registry import load_game


def params(pairs: Sequence[str]) -> dict[str, str]:
    """The game parameters of ``-p KEY=VALUE`` options, by name."""
    out = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="-p")
        out[key.strip()] = value.strip()
    return out


def load(game_id: str, preset: str | None, pairs: Sequence[str]) -> Game:
    """The game ``game_id`` with a preset and ``-p`` parameters."""
    return load_game(game_id, preset=preset, **params(pairs))


def agent_specs(text: str, game: Game) -> list[str]:
    """The agent specs of an ``--agents`` list, each checked against ``game`` (one to
    :data:`~plunder.core.options.MAX_AGENTS` of them)."""
    specs = options.agent_list(split_specs(text))
    for spec in dict.fromkeys(specs):
        make_agent(spec, game)
    return specs


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

#: a command function, as click's decorators take and give it
F = TypeVar("F", bound=Callable[..., Any])


def stacked(*decorators: Callable[[Any], Any]) -> Callable[[F], F]:
    """One decorator applying ``decorators`` as if written one above the other, first on top."""
    def apply(command: F) -> F:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command
    return apply


#: the game a batch command plays (``plunder simulate`` and the lab's commands): GAME, its
#: parameters and preset
GAME_OPTIONS = stacked(click.argument("game_id", metavar="GAME"), PARAM, PRESET)
#: where a batch command's games run: its workers, backend and cluster address
RUN_OPTIONS = stacked(WORKERS, BACKEND, ADDRESS)

