"""One game played through an adapter: the position, and chance resolved from the episode's seed."""

from __future__ import annotations

import random
from typing import Hashable

from ..core import chance
from ..core.game import CHANCE, Game, State


class Episode:
    """A game in progress whose chance moves are made as soon as they come up: chance event
    ``k`` draws :func:`plunder.core.chance.uniform` ``(seed, k)``, as a record's seed does."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seed = 0
        self.chance_events = 0
        self.state: State = game.new_initial_state()
        #: ``state.current_player``, worked out once per position (the adapters ask it often)
        self.player = self.state.current_player

    def start(self, seed: int | None) -> None:
        """A new game with ``seed`` (a fresh one is drawn when ``None``)."""
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self.chance_events = 0
        self._reach(self.game.new_initial_state())

    def play(self, action: Hashable) -> None:
        """Apply a player's ``action`` (checked), then any chance moves."""
        self._reach(self.state.apply(action))

    def _reach(self, state: State) -> None:
        player = state.current_player
        while player == CHANCE:
            state = state.apply(chance.draw(state, self.seed, self.chance_events))
            self.chance_events += 1
            player = state.current_player
        self.state, self.player = state, player
