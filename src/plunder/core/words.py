"""Words for players: counts with the right number ("1 visit", "2 visits"), and a refused
move told the same way in the terminal and the browser."""

from __future__ import annotations

from typing import Any

from .errors import IllegalActionError, InvalidActionError, PlunderError, without_rulings
from .game import State


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun for that many: ``plural(1, "point")`` is ``1 point``, ``plural(3, "box",
    "boxes")`` ``3 boxes`` (``many`` defaults to ``one`` + "s")."""
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"


#: the longest reason a refusal of unreadable text repeats before its example move: a longer
#: one spells out the notation, which the example shows better
PLAIN_REASON_CHARS = 60


def refusal(exc: PlunderError, state: State[Any], example: str = "For example: {}.") -> str:
    """A refused move in a player's words, for any front end: the reason as one sentence
    without the position or ruling id; for unreadable text, an example of a move that reads,
    in the front end's own words (``example`` with ``{}`` for "a move like b1-c1")."""
    reason = exc.reason if isinstance(exc, (IllegalActionError, InvalidActionError)) else str(exc)
    reason = without_rulings(reason).strip().rstrip(".")
    said = reason[:1].upper() + reason[1:] + "."
    if isinstance(exc, InvalidActionError):
        legal = state.legal_actions()
        move = f"a move like {state.game.action_to_text(state, legal[0])}" if legal else "a move"
        said = (said + " " if len(said) <= PLAIN_REASON_CHARS else "") + example.format(move)
    return said
