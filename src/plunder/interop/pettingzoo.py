"""Every game as a PettingZoo AEC environment: ``env(game_id, **params)``.

Agents are ``player_0`` .. ``player_{n-1}`` in seat order. Each observation is a dict of
``observation`` (the seat's vector, :mod:`.encoding`) and ``action_mask``; actions are
indices of the game's fixed action space. Chance moves are made inside :meth:`step`:
chance event ``k`` of an episode draws :func:`plunder.core.chance.uniform` ``(seed, k)``,
``seed`` being the one given to :meth:`reset` (or one drawn when none is). Rewards are the
game's returns (+1 win, 0 tie, -1 loss), paid when the game ends.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.game import TERMINAL, Game, State
from ..core.registry import entry
from .encoding import Encoding, encoding
from .episode import Episode
from .render import RENDER_MODES, Renderer


def env(game_id: str, render_mode: str | None = None, preset: str | None = None, **params: Any) -> "PlunderAEC":
    """The AEC environment of ``game_id`` with a preset and/or parameters (texts or values)."""
    return PlunderAEC(entry(game_id).game_class.load(preset, **params), render_mode)


class LazyDiscrete(spaces.Discrete):
    """``Discrete`` whose random generator is made when it is first used: every ``reset``
    with a seed seeds the space (so that sampling it is repeatable), and making a numpy
    generator costs more than a short game's moves, most often for no sample at all."""

    def seed(self, seed: int | None = None) -> int | None:  # type: ignore[override]
        """Keep ``seed`` for the generator made at the next sample."""
        self._seed_next, self._np_random = seed, None
        return seed

    @property
    def np_random(self) -> np.random.Generator:
        """The generator, made from the seed last given (or fresh entropy) when first asked for."""
        if self._np_random is None:
            spaces.Discrete.seed(self, getattr(self, "_seed_next", None))
        assert self._np_random is not None
        return self._np_random


class PlunderAEC(AECEnv):
    """A Plunder game as a PettingZoo agent-environment-cycle environment."""

    metadata = {"render_modes": RENDER_MODES, "name": "plunder_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: Game, render_mode: str | None = None) -> None:
        super().__init__()
        self.renderer = Renderer(game, render_mode)
        self.game = game
        self.render_mode = render_mode
        self.encoding: Encoding = encoding(game)
        self.metadata = dict(self.metadata, name=f"plunder_{game.id}_v0")
        self.possible_agents = [f"player_{s}" for s in range(game.num_players)]
        size = self.encoding.actions.size
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(*self.encoding.box(), (self.encoding.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self._action_space: spaces.Discrete = LazyDiscrete(size)
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.action_spaces = {a: self._action_space for a in self.possible_agents}
        self.episode = Episode(game)
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        # the encoding's methods, looked up once (a step calls each once or twice)
        self._observe, self._mask, self._action = self.encoding.observe, self.encoding.actions.mask, self.encoding.actions.action
        self._size = size

    def observation_space(self, agent: str) -> spaces.Space:
        """The same dict space for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(size of the game's action space)``."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; ``seed`` decides its chance events (a fresh one is drawn when ``None``)."""
        if seed is not None:  # (every agent has the one space: seeded once, as it is sampled)
            self._action_space.seed(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.episode.start(seed)
        self.agent_selection = self.agents[self.episode.player]

    @property
    def state_now(self) -> State:
        """The position."""
        return self.episode.state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation vector and, when it is to move, the legal-action mask
        (new arrays each call, so that a stored observation never changes)."""
        seat, episode = self._seats[agent], self.episode
        state = episode.state
        return {"observation": self._observe(state, seat),
                "action_mask": self._mask(state) if episode.player == seat else np.zeros(self._size, dtype=np.int8)}

    def step(self, action: int | None) -> None:
        """Play ``action`` (an index) for the agent to move, then any chance moves."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        episode = self.episode
        episode.play(self._action(episode.state, int(action)))
        if episode.player == TERMINAL:
            returns = episode.state.returns()
            for seat, a in enumerate(self.agents):
                self.rewards[a] = float(returns[seat])
                self.terminations[a] = True
            self._accumulate_rewards()
        else:  # rewards are paid at the end only: they stay 0 until then
            self.agent_selection = self.agents[episode.player]

    def render(self) -> str | np.ndarray | None:
        """The position's text picture (``render_mode="ansi"``) or its SVG picture as an
        ``H x W x 3`` ``uint8`` array of one size for the whole game (``"rgb_array"``)."""
        return self.renderer(self.state_now)

    def close(self) -> None:
        """Nothing to release."""
