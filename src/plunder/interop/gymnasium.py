"""Single-agent Gymnasium environments: every game, registered when this module is imported
as ``plunder/<Game>-v0`` (:func:`gymnasium_id`): a solitaire
as it is, a game of several seats from seat 0 against the ``random`` agent (``seat=`` and
``opponent=`` keywords change them; :func:`versus` makes one directly). Each id has a vector
entry point too (:mod:`.vector`): ``gymnasium.make_vec(id, num_envs)``.

The observation is the seat's vector (:mod:`.encoding`) in a finite box (the game's bounds);
the legal-action mask is in ``info["action_mask"]`` and from :meth:`PlunderEnv.action_masks`,
which ``env.get_wrapper_attr("action_masks")`` reaches through the wrappers
``gymnasium.make`` adds (as Stable-Baselines3's vector envs and sb3-contrib's
``get_action_masks`` look it up). An index that names no
legal action ends the episode with reward -1 (``info["illegal"]``), so that an agent that
ignores the mask learns to respect it. Otherwise the reward is the game's return for the
seat (+1 win, 0 tie, -1 loss), paid when the game ends. Chance event ``k`` of an episode
draws :func:`plunder.core.chance.uniform` ``(seed, k)`` with the seed given to
:meth:`PlunderEnv.reset` (as PettingZoo's env and a record do), the opponent's choices come
from a ``random.Random`` seeded with it; ``reset()`` without a seed takes one from the env's
``np_random``.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from ..agents import make_agent
from ..core.agent import Agent
from ..core.errors import IllegalActionError
from ..core.game import TERMINAL, Game
from ..core.registry import entry, game_ids
from .encoding import encoding
from .episode import Episode
from .render import RENDER_MODES, Renderer



def gymnasium_id(game_id: str) -> str:
    """The Gymnasium id a game is registered under: ``plunder/<Game>-v0``, the game's id capitalised."""
    return f"plunder/{game_id.capitalize()}-v0"


#: Gymnasium id -> game id of every installed game that offers an observation (``GameEntry.learning``)
GAMES = {gymnasium_id(g): g for g in game_ids() if entry(g).learning.observation is not None}
#: Gymnasium id -> game id of every installed solitaire (one seat with its default parameters)
SOLITAIRES = {i: g for i, g in GAMES.items() if entry(g).game_class.load().num_players == 1}


class PlunderEnv(gymnasium.Env):
    """A game from one seat's chair; any other seats are played by ``opponent`` (an agent spec)."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(self, game_id: str, seat: int = 0, opponent: str = "random", render_mode: str | None = None,
                 preset: str | None = None, **params: Any) -> None:
        game: Game = entry(game_id).game_class.load(preset, **params)
        if not 0 <= seat < game.num_players:
            raise ValueError(f"seat {seat}: {game_id} has seats 0 to {game.num_players - 1}")
        self.game = game
        self.seat = seat
        self.render_mode = render_mode
        self.renderer = Renderer(game, render_mode)
        self.encoding = encoding(game)
        self.episode = Episode(game)
        #: the agent spec playing the other seats (``random``, ``greedy`` ...)
        self.opponent_spec = opponent
        self.opponent: Agent | None = make_agent(opponent, game) if game.num_players > 1 else None
        self.opponent_rng = random.Random(0)
        self._generator: np.random.Generator | None = None
        self._generator_seed: int | None = None
        self.observation_space = spaces.Box(*self.encoding.box(), (self.encoding.size,), np.float32)
        self.action_space = spaces.Discrete(self.encoding.actions.size)

    @property
    def _np_random(self) -> np.random.Generator | None:
        """``gymnasium.Env``'s generator, made from the last seed given to :meth:`reset` when
        first asked for: a numpy generator costs more than a short game's moves, and an
        episode draws nothing from it when it is given its seed."""
        if self._generator is None and self._generator_seed is not None:
            self._generator, self._np_random_seed = seeding.np_random(self._generator_seed)
            self._generator_seed = None
        return self._generator

    @_np_random.setter
    def _np_random(self, generator: np.random.Generator | None) -> None:
        self._generator, self._generator_seed = generator, None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """A new game; with ``seed``, the same game each time for the same actions (and the
        same game as PettingZoo's env and a record with that seed)."""
        self.start(seed)
        return self.observe(), {"action_mask": self.action_masks()}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Play the index ``action`` for the seat, then the opponents until the seat is to move again."""
        reward, over, illegal = self.play(action)
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if illegal:
            info["illegal"] = True
        return self.observe(), reward, over, False, info

    def start(self, seed: int | None) -> None:
        """:meth:`reset` without its observation and info (the vector env writes those into its rows)."""
        seed = self.episode_seed(seed)
        self.episode.start(seed)
        if self.opponent is not None:
            self.opponent_rng = random.Random(seed)
        self._opponents_move()

    def episode_seed(self, seed: int | None) -> int:
        """The seed of the episode :meth:`reset` starts: ``seed``, which also seeds the env's
        generator, or without one the generator's next draw (the generator made from entropy
        if it never was seeded). A vector env's batch starts its copies' games from these."""
        if seed is None:
            return int(self.np_random.integers(2**63))
        # what ``super().reset(seed=seed)`` does, the generator made when first used
        self._generator, self._generator_seed, self._np_random_seed = None, seed, seed
        return seed

    def play(self, action: int) -> tuple[float, bool, bool]:
        """:meth:`step` without its observation and info: the reward, whether the game is
        over, and whether ``action`` named no legal action (which ends it with -1)."""
        try:
            self.episode.play(self.encoding.actions.action(self.episode.state, int(action)))
        except IllegalActionError:
            return -1.0, True, True
        self._opponents_move()
        if self.episode.player == TERMINAL:
            return float(self.episode.state.returns()[self.seat]), True, False
        return 0.0, False, False

    def _opponents_move(self) -> None:
        episode = self.episode
        while episode.player != TERMINAL and episode.player != self.seat:
            assert self.opponent is not None
            episode.play(self.opponent.choose(episode.state, self.opponent_rng))

    def observe(self, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's vector of the position, written into ``out`` when given."""
        return self.encoding.observe(self.episode.state, self.seat, out)

    def action_masks(self, out: np.ndarray | None = None) -> np.ndarray:
        """1 for each legal action index (all 0 once the game is over, and before the first
        ``reset``, when the game has not reached the seat), written into ``out`` when given."""
        if self.episode.player != self.seat:
            if out is None:
                return np.zeros(self.encoding.actions.size, dtype=np.int8)
            out[:] = 0
            return out
        return self.encoding.actions.mask(self.episode.state, out)

    def render(self) -> str | np.ndarray | None:
        """The position's text picture (``render_mode="ansi"``; ``"human"`` prints it and
        returns ``None``) or its SVG picture as an ``H x W x 3`` ``uint8`` array of one size
        for the whole game (``"rgb_array"``)."""
        return self.renderer(self.episode.state)


def versus(game_id: str, opponent: str = "random", seat: int = 0, **kwargs: Any) -> PlunderEnv:
    """``game_id`` played from ``seat`` against ``opponent`` (an agent spec such as ``greedy``)."""
    return PlunderEnv(game_id, seat=seat, opponent=opponent, **kwargs)


for _id, _game in GAMES.items():
    if _id not in gymnasium.registry:
        gymnasium.register(_id, entry_point=f"{__name__}:PlunderEnv", kwargs={"game_id": _game},
                           vector_entry_point="plunder.interop.vector:PlunderVectorEnv")
