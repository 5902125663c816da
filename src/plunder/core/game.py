"""The game API every Plunder game implements.

A :class:`Game` is a ruleset with its parameters fixed; a :class:`State` is an
immutable position. ``state.apply(action)`` returns a new state. Chance is a player
(:data:`CHANCE`) whose outcomes carry probabilities; a finished game's current player
is :data:`TERMINAL`. Actions are small typed values (frozen dataclasses); every action has one
canonical text, given by :meth:`Game.action_to_text` and read back by :meth:`Game.parse_action`,
both through the game's :class:`~.codec.ActionCodec`.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Hashable, Self, Sequence, TypeVar, cast

from .errors import IllegalActionError, InvalidActionError, ParameterError
from .params import Param, resolve

if TYPE_CHECKING:
    from .codec import ActionCodec

#: ``current_player`` of a state where chance acts next.
CHANCE = -1
#: ``current_player`` of a finished game.
TERMINAL = -4

Action = Hashable
#: longest action text any game reads (the longest canonical text is a few dozen characters)
MAX_ACTION_CHARS = 200
#: a game's action type: each game's actions are small typed values (see its ``actions`` module)
A = TypeVar("A", bound=Hashable)


#: games a process has unpickled, kept so that each is built once (:meth:`Game.__reduce__`)
UNPICKLED_GAMES = 16
_unpickled: dict[tuple[type, tuple[tuple[str, str], ...]], "Game[Any]"] = {}


def unpickled(cls: "type[Game[Any]]", params: dict[str, str]) -> "Game[Any]":
    """The game ``cls`` with canonical ``params``, built at its first unpickling in this
    process and shared by every state unpickled after (the :data:`UNPICKLED_GAMES` latest)."""
    key = (cls, tuple(sorted(params.items())))
    game = _unpickled.get(key)
    if game is None:
        if len(_unpickled) >= UNPICKLED_GAMES:
            _unpickled.pop(next(iter(_unpickled)))
        game = _unpickled[key] = cls.load(**params)
    return game


class Game(ABC, Generic[A]):
    """A game with its parameters fixed. Subclasses set the class attributes."""

    #: registry id, e.g. ``"pillage"``
    id: ClassVar[str]
    #: human title
    title: ClassVar[str]
    #: parameter specs
    param_specs: ClassVar[Sequence[Param]]
    #: named parameter sets; every preset must pass the conformance check
    presets: ClassVar[dict[str, dict[str, str]]] = {}

    def __init__(self, values: dict[str, Any], texts: dict[str, str]) -> None:
        self.values = values
        #: canonical text of every parameter, as stored in records
        self.params: dict[str, str] = texts

    def __deepcopy__(self, memo: dict) -> "Game[A]":
        """The game itself: a parameter set does not change, so a copy of anything holding
        it (OpenSpiel clones its states by deep copy) shares it rather than rebuilding its tables."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and canonical parameters, and unpickled as the process's one
        game of those (:func:`unpickled`): a position sent to an AI worker carries its game, and
        a Hubs sheet of 1000 x 1000 caches a million lattice points (15 MB and seconds to
        pickle), which a worker then builds once rather than once a move."""
        return (unpickled, (type(self), dict(self.params)))

    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of seats (1 for solitaires)."""

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (chance included) in any game."""

    @abstractmethod
    def new_initial_state(self) -> "State[A]":
        """The starting position (possibly a chance node)."""

    @property
    @abstractmethod
    def codec(self) -> "ActionCodec[Any, A]":
        """The game's notation (:mod:`.codec`): every action's canonical text and how text is read."""

    def action_to_text(self, state: "State[A]", action: A) -> str:
        """The canonical text of ``action`` in ``state``; :class:`ValueError` for a value that is
        not one of this game's actions."""
        return self.codec.text(state, action)

    def parse_action(self, state: "State[A]", text: str) -> A:
        """Read ``text`` as an action of ``state``; raise :class:`InvalidActionError` if unreadable.

        Text longer than :data:`MAX_ACTION_CHARS`, or not text at all, is refused before the game
        reads it. Parsing does not check legality: a readable but illegal action is returned and
        refused by :meth:`State.apply` with :class:`IllegalActionError`.
        """
        if not isinstance(text, str):
            raise InvalidActionError(repr(text)[:40], "an action is written as text", state.summary())
        if len(text) > MAX_ACTION_CHARS:
            raise state.invalid(text[:40] + "...", f"{len(text)} characters; the limit is {MAX_ACTION_CHARS}")
        return self.codec.parse(state, text)

    @classmethod
    def load(cls, preset: str | None = None, **params: Any) -> Self:
        """This game with ``params`` given as keywords (text or Python values), typed as its class.

        ``preset`` names a parameter set from :attr:`presets`; explicit keywords override it.
        Unknown presets, parameters or bad values raise :class:`ParameterError` naming the
        offender and the allowed choices (:func:`plunder.load_game` is this, by game id).
        """
        given: dict[str, Any] = {}
        if preset is not None:
            if preset not in cls.presets:
                raise ParameterError(
                    f"{cls.id} has no preset {preset!r}; presets are: {', '.join(cls.presets) or 'none'}"
                )
            given.update(cls.presets[preset])
        given.update(params)
        values, texts = resolve(cls.id, cls.param_specs, given)
        return cls(values, texts)

    def seat_name(self, seat: int) -> str:
        """How the rules text calls a seat (``Player 1`` ...)."""
        return f"Player {seat + 1}"

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"<{type(self).__name__} {self.id}({args})>"


class State(ABC, Generic[A]):
    """An immutable position. Never mutate one: :meth:`apply` returns a new state.

    States are frozen dataclasses; :meth:`evolve` builds the next one.
    """

    game: Game[A]

    def __deepcopy__(self, memo: dict) -> Self:
        """The state itself: an immutable value needs no copy."""
        return self

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat to act (0..n-1), :data:`CHANCE` or :data:`TERMINAL`."""

    def evolve(self, **changes: Any) -> Self:
        """A copy of this state with ``changes`` to its fields (the way every transition builds its result).

        Derived data cached with ``functools.cached_property`` is not carried over: it is
        recomputed on the new state when asked for.
        """
        if "__slots__" in type(self).__dict__:
            return cast(Self, dataclasses.replace(cast(Any, self), **changes))
        names = _field_names(type(self))
        new = object.__new__(type(self))
        new.__dict__.update({k: v for k, v in self.__dict__.items() if k in names})
        new.__dict__.update(changes)
        return new

    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Legal actions; at a chance node, the outcomes; empty when terminal."""

    def legal_head(self, most: int) -> tuple[list[A], int]:
        """The first ``most`` of :meth:`legal_actions` and how many there are. A game whose
        list can be huge but is cheap to count overrides it, so that a page of the list (the
        web's move list) costs what the page costs: a web server that listed a million
        actions would hold a million objects, which every full garbage collection of its
        event loop's process then walks."""
        actions = self.legal_actions()
        return actions[:most], len(actions)

    def chance_outcomes(self) -> list[tuple[A, float]]:
        """``[(outcome, probability), ...]`` at a chance node; probabilities sum to 1."""
        raise ValueError(f"{self.summary()} is not a chance node")

    @abstractmethod
    def illegal_reason(self, action: A) -> tuple[str, str] | None:
        """``None`` if ``action`` is legal here, else ``(reason, ruling id)``."""

    @abstractmethod
    def _apply(self, action: A) -> "State[A]":
        """Apply a legal action (already checked) and return the new state."""

    def apply(self, action: A) -> Self:
        """Return the state after ``action``; raise :class:`IllegalActionError` if illegal."""
        return self._checked_apply(action, None)

    def apply_unchecked(self, action: A) -> Self:
        """Apply an action taken from :meth:`legal_actions` without re-checking it (for search)."""
        return cast(Self, self._apply(action))

    def apply_text(self, text: str) -> Self:
        """Parse ``text`` (:meth:`Game.parse_action`) and apply it; errors quote ``text`` as typed."""
        return self._checked_apply(self.game.parse_action(self, text), text.strip())

    def _checked_apply(self, action: A, label: str | None) -> Self:
        why = self.illegal_reason(action)
        if why is not None:
            reason, rule = why
            raise IllegalActionError(label or self._action_label(action), self.summary(), reason, rule)
        return cast(Self, self._apply(action))

    def _action_label(self, action: A) -> str:
        try:
            return self.game.action_to_text(self, action)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            try:
                return repr(action)
            except ValueError:  # an integer too long to print, say
                return f"<a {type(action).__name__}>"

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.current_player == TERMINAL

    def is_chance_node(self) -> bool:
        """True when chance acts next."""
        return self.current_player == CHANCE

    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat: +1 win, 0 tie, -1 loss at the end (0s before the end)."""

    @abstractmethod
    def scores(self) -> list[float]:
        """The game's own points per seat, as they stand."""

    @abstractmethod
    def summary(self) -> str:
        """A one-line description of the position, used in error messages."""

    def invalid(self, text: str, reason: str) -> InvalidActionError:
        """An :class:`InvalidActionError` for ``text`` at this position."""
        return InvalidActionError(text, reason, self.summary())


_FIELDS: dict[type, frozenset[str]] = {}


def _field_names(cls: type) -> frozenset[str]:
    """The dataclass field names of a state class, cached per class."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return names
