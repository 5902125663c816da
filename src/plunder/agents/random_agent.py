"""The uniformly random agent."""

from __future__ import annotations

import random
from typing import Any

from ..core.agent import AgentFactory, AgentOptions
from ..core.game import Action, Game, State


class RandomAgent:
    """Picks uniformly among the legal actions: an agent of any game's state."""

    name = "random"

    def choose(self, state: State[Any], rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(state.legal_actions())


def _make_random(game: Game, options: AgentOptions) -> RandomAgent:
    return RandomAgent()


#: ``random``: every game has it
RANDOM = AgentFactory(_make_random, "a uniformly random legal move")
