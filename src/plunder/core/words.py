"""Words for players: counts with the right number ("1 visit", "2 visits")."""

from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun for that many: ``plural(1, "point")`` is ``1 point``, ``plural(3, "box",
    "boxes")`` ``3 boxes`` (``many`` defaults to ``one`` + "s")."""
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"
