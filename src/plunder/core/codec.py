"""One notation: how a game's actions are written and read.

Every action is a small typed value (a frozen dataclass) with one canonical text that reads
back as the same action. A game offers its notation as an :class:`ActionCodec` (``Game.codec``,
written in the game's ``actions.py``); :meth:`plunder.core.game.Game.action_to_text` and
:meth:`~plunder.core.game.Game.parse_action` go through it, so every front end reads and writes
actions the same way, with two errors and no others: :class:`~.errors.InvalidActionError` for
text that reads as no action (:meth:`~.game.State.invalid` makes it), and
:class:`~.errors.IllegalActionError` when the rules forbid a readable action now (``apply``).
The conformance check round-trips every action it meets through the codec.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from .game import State

#: the game's state type a codec reads at
S = TypeVar("S", bound="State[Any]", contravariant=True)
#: the game's action type
A = TypeVar("A")


class ActionCodec(Protocol, Generic[S, A]):
    """A game's notation: text of an action, an action of a text, and which values are actions."""

    def text(self, state: S, action: A) -> str:
        """The canonical text of ``action`` at ``state``; :class:`ValueError` for a value that
        is not one of this game's actions (:meth:`is_action` is false)."""
        ...

    def parse(self, state: S, text: str) -> A:
        """The action ``text`` names at ``state``, whether or not it is legal now; text that
        names no action raises ``state.invalid(text, reason)`` with the reason and its ruling."""
        ...

    def is_action(self, state: S, value: object) -> bool:
        """True when ``value`` is one of this game's actions (it may still be illegal now): a
        look-alike value (a tuple with the same fields, another game's action) is not."""
        ...
