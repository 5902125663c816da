"""The uniformly random agent."""

from __future__ import annotations

import random

from ..core.game import Action, State


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(state.legal_actions())
