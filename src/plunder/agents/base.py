"""The agent protocol and agent specs such as ``greedy`` or ``mcts:sims=500``."""

from __future__ import annotations

import random
from typing import Mapping, Protocol, runtime_checkable

from ..core.errors import ParameterError
from ..core.game import Action, State


@runtime_checkable
class Agent(Protocol):
    """Anything that picks an action for the player to move."""

    name: str

    def choose(self, state: State, rng: random.Random) -> Action:
        """Return a legal action of ``state`` (a decision node of this agent's seat)."""
        ...


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,key=value`` into the name and its options."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ParameterError(f"agent option {part!r} in {spec!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    return name.strip(), options


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, keeping each spec's own options together.

    ``mcts:sims=40,c=0.7,greedy`` -> ``["mcts:sims=40,c=0.7", "greedy"]``: a part with ``=`` and
    no ``:`` continues the spec before it (agent names never contain ``=``).
    """
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def option_int(options: Mapping[str, str], key: str, default: int, low: int = 1) -> int:
    """Read a whole-number agent option, with a clear error."""
    text = options.get(key)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ParameterError(f"agent option {key}={text!r} is not a whole number") from None
    if value < low:
        raise ParameterError(f"agent option {key}={value} is below the minimum {low}")
    return value
