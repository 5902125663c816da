"""Every game as an OpenSpiel Python game: ``pyspiel.load_game("python_plunder_<id>", {"preset": ...})``;
any of the game's parameters may be given too (``{"preset": "2p", "max_rounds": 3}``): numbers as
ints, ``true``/``false`` as bools, the rest as text; a parameter left at the game's default
keeps the preset's value.

Player actions are the indices of the game's fixed action space (:mod:`.encoding`); chance
outcome ``i`` is the ``i``-th of the state's ``chance_outcomes()``. Observation tensors are the
encoding's vectors. A pickled state is rebuilt by replaying its history; ``serialize()`` is
OpenSpiel's form for Python games (the history and a pickle of the state's attributes).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..core.game import CHANCE, TERMINAL, Game, State
from ..core.registry import entry, game_ids
from .encoding import Encoding, encoding
from .render import text_picture

#: most chance outcomes at a chance node (Profiteer's 52 cards; Pillage deals its content distribution)
CHANCE_SLOTS = 64


def chance_slots(game: Game) -> int:
    """How many chance outcome ids ``game`` needs."""
    deals = getattr(getattr(game, "actions", None), "deals", ())
    return max(CHANCE_SLOTS, len(deals))


def short_name(game_id: str) -> str:
    """The name OpenSpiel loads ``game_id`` by."""
    return f"python_plunder_{game_id}"


def _game_type(game_id: str) -> Any:
    """OpenSpiel's type of ``game_id``, as its entry declares it (:class:`~plunder.core.declaration.Declaration`):
    its seat range, whether chance acts, whether a seat sees less than another, whether its
    returns sum to zero."""
    found = entry(game_id)
    declared = found.declaration
    kind = pyspiel.GameType
    return kind(
        short_name=short_name(game_id), long_name=f"Plunder {found.game_class.title}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC if declared.chance else kind.ChanceMode.DETERMINISTIC,
        information=(kind.Information.IMPERFECT_INFORMATION if declared.hidden_information
                     else kind.Information.PERFECT_INFORMATION),
        utility=kind.Utility.ZERO_SUM if declared.zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=declared.max_seats, min_num_players=declared.min_seats,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"preset": next(iter(found.game_class.presets), ""), **_param_defaults(game_id)})


def _param_defaults(game_id: str) -> dict[str, int | bool | str]:
    """Every parameter of the game with its default, typed as OpenSpiel's game strings read
    them back (``3`` is an int there, ``true`` a bool): an int or bool parameter is the
    game's default, any other ``""``; OpenSpiel fills in the defaults, so a parameter at
    its default leaves the preset's value (:func:`_given`)."""
    defaults: dict[str, int | bool | str] = {}
    for param in entry(game_id).game_class.param_specs:
        text = param.default
        if text.lstrip("-").isdigit():
            defaults[param.name] = int(text)
        elif text in ("true", "false"):
            defaults[param.name] = text == "true"
        else:
            defaults[param.name] = ""
    return defaults


def _given(game_id: str, params: dict) -> dict[str, str]:
    """The parameters of ``params`` (OpenSpiel's, defaults filled in) that differ from their
    defaults, as the game's texts."""
    defaults = _param_defaults(game_id)
    return {name: str(value).lower() if isinstance(value, bool) else str(value)
            for name, value in params.items() if name in defaults and value != defaults[name]}


class PlunderGame(pyspiel.Game):
    """One Plunder game with a preset, for OpenSpiel."""

    def __init__(self, game_id: str, params: dict | None = None) -> None:
        self.game_id = game_id
        self.preset_params = dict(params or {})
        preset = (params or {}).get("preset") or None
        self.plunder: Game = entry(game_id).game_class.load(preset, **_given(game_id, params or {}))
        self.encoding: Encoding = encoding(self.plunder)
        declared = entry(game_id).declaration
        info = pyspiel.GameInfo(num_distinct_actions=self.encoding.actions.size,
                                max_chance_outcomes=chance_slots(self.plunder) if declared.chance else 0,
                                num_players=self.plunder.num_players, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0 if declared.zero_sum else None,
                                max_game_length=self.plunder.max_game_length)
        super().__init__(_game_type(game_id), info, params or {})

    def new_initial_state(self) -> "PlunderState":
        """The starting position."""
        return PlunderState(self)

    def __reduce__(self) -> tuple:
        return PlunderGame, (self.game_id, self.preset_params)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "PlunderObserver":
        """The encoding's vector as the observation tensor."""
        return PlunderObserver(self.encoding)


#: OpenSpiel's ids of chance and of the end
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


class PlunderState(pyspiel.State):
    """A position of a :class:`PlunderGame`.

    OpenSpiel asks a state for its player several times a move (``apply_action``,
    ``is_chance_node``, ``legal_actions`` ...), each a call from C++ into Python: the player
    is worked out once per position, when it is reached."""

    def __init__(self, game: PlunderGame) -> None:
        super().__init__(game)
        self.encoding: Encoding = game.encoding
        self._reach(game.plunder.new_initial_state())
        # the chance outcomes of the position last asked about: OpenSpiel asks for them, then
        # applies one of them by its place
        self._chance: tuple[State | None, list] = (None, [])

    def _reach(self, position: State) -> None:
        self.position = position
        player = position.current_player
        self._player = _CHANCE if player == CHANCE else _TERMINAL if player == TERMINAL else player

    def _outcomes(self) -> list:
        if self._chance[0] is not self.position:
            self._chance = (self.position, self.position.chance_outcomes())
        return self._chance[1]

    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's chance or terminal id."""
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        return self.encoding.actions.indices(self.position)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(slot, probability)`` of each outcome, in the game's order."""
        return [(i, p) for i, (_, p) in enumerate(self._outcomes())]

    def _apply_action(self, action: int) -> None:
        if self._player == _CHANCE:
            self._reach(self.position.apply(self._outcomes()[action][0]))
        else:
            self._reach(self.position.apply(self.encoding.actions.action(self.position, action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            move = self._outcomes()[action][0]
        else:
            move = self.encoding.actions.action(self.position, action)
        return self.position.game.action_to_text(self.position, move)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        """+1 win, 0 tie, -1 loss per seat at the end."""
        return [float(r) for r in self.position.returns()]

    def __str__(self) -> str:
        return text_picture(self.position)

    def __reduce__(self) -> tuple:
        return _replayed, (self.get_game(), self.history())


def _replayed(game: PlunderGame, history: list[int]) -> PlunderState:
    """The state reached from the start by ``history`` (how a pickled state is rebuilt)."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class PlunderObserver:
    """OpenSpiel's Python observer: the encoding's vector from a seat's point of view."""

    def __init__(self, enc: Encoding) -> None:
        self.encoding = enc
        self.tensor = np.zeros(enc.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PlunderState, player: int) -> None:
        """Fill the tensor from ``state`` as ``player`` sees it."""
        self.encoding.observe(state.position, player, self.tensor)

    def string_from(self, state: PlunderState, player: int) -> str:
        """The text picture (there is nothing hidden to leave out)."""
        return str(state)


def _register(game_id: str) -> type[PlunderGame]:
    """A :class:`PlunderGame` class for ``game_id``, registered with OpenSpiel under :func:`short_name`."""

    def init(self: PlunderGame, params: dict | None = None) -> None:
        PlunderGame.__init__(self, game_id, params)

    def reduce(self: PlunderGame) -> tuple:
        return cls, (self.preset_params,)

    cls = type(f"Plunder{game_id.title()}Game", (PlunderGame,), {"__init__": init, "__reduce__": reduce})
    pyspiel.register_game(_game_type(game_id), cls)
    globals()[cls.__name__] = cls  # pickle finds a class by its module and name
    return cls


#: the registered class of each game
GAME_CLASSES: dict[str, type[PlunderGame]] = {}
for _game_id in game_ids():
    if short_name(_game_id) not in pyspiel.registered_names():
        GAME_CLASSES[_game_id] = _register(_game_id)
