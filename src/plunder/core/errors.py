"""The errors every game raises: bad text, illegal actions, bad parameters, bad records."""

from __future__ import annotations

import re

from typing import Any


class PlunderError(Exception):
    """Base of every error Plunder raises on purpose."""


#: how much of an offending text an error message quotes
QUOTE_CHARS = 80


def quoted(text: str) -> str:
    """``text`` as an error message quotes it: ``repr``, cut to :data:`QUOTE_CHARS` characters."""
    return repr(text) if len(text) <= QUOTE_CHARS else repr(text[: QUOTE_CHARS - 3]) + f"... ({len(text)} characters)"


class InvalidActionError(PlunderError, ValueError):
    """Action text that cannot be parsed into an action of this game.

    ``text`` is what was typed; ``reason`` says what was wrong with it.
    """

    def __init__(self, text: str, reason: str, position: str = "") -> None:
        self.text = text
        self.reason = reason
        self.position = position
        where = f" at {position}" if position else ""
        super().__init__(f"cannot read action {quoted(text)}{where}: {reason}")


class IllegalActionError(PlunderError, ValueError):
    """A well-formed action that the rules forbid in this position.

    The message names the action, the position and the ruling id it breaks
    (``rule``, e.g. ``"PP-4"``).
    """

    def __init__(self, action: str, position: str, reason: str, rule: str) -> None:
        self.action = action
        self.position = position
        self.reason = reason
        self.rule = rule
        super().__init__(f"illegal action {quoted(action)} at {position}: {reason} ({rule})")


class ParameterError(PlunderError, ValueError):
    """An unknown game, an unknown parameter, or a parameter value that is not allowed."""


class RecordError(PlunderError, ValueError):
    """A game record that is malformed or does not replay (tampered or corrupt)."""

    def __init__(self, message: str, index: int | None = None, detail: Any = None) -> None:
        self.index = index
        self.detail = detail
        super().__init__(message)


class SearchLimitError(PlunderError):
    """A search or solver stopped at its budget (time, nodes or memory) before it had an answer.

    ``limit`` names the budget that ran out (``"time"``, ``"nodes"``, ``"memory"``).
    """

    def __init__(self, message: str, limit: str) -> None:
        self.limit = limit
        super().__init__(message)


#: a ruling id as messages cite it: "(PP-4)", "(PF-6, PF-14)", "(PP-5 amended)", "(PF-8, max_rounds)"
_RULING = re.compile(r"\s*\([A-Z]{2}-\d+[^)]*\)")


def without_rulings(text: str) -> str:
    """``text`` in a player's words: the ruling ids it cites removed (the API's errors and
    ``--verbose`` keep them)."""
    return _RULING.sub("", text)


def one_line(exc: BaseException, most: int) -> str:
    """``exc`` as one line of at most ``most`` characters, its type first (``KeyError: 'x'``):
    how a report names what went wrong in a game or check that failed in any way."""
    text = " ".join(str(exc).split())
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= most else text[: most - 3] + "..."
