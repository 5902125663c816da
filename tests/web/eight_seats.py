"""The games the web tests of seat ranges play: the example Last Stone (``examples/stones``,
2-8 players, installed beside Plunder as Pig is) and a game of it for exactly eight seats,
registered for one test at a time (:func:`registered`).

A test that needs Last Stone fails, saying how to install it, where it is not installed: it is
never skipped."""

from __future__ import annotations

import importlib.util
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from plunder.core.declaration import Declaration
from plunder.core.registry import GameEntry, is_game

#: the example game's folder
STONES = Path(__file__).resolve().parents[2] / "examples" / "stones"


def require_stones() -> None:
    """Fail the test unless the example game Last Stone is installed (its module and its
    ``plunder.games`` entry point)."""
    if importlib.util.find_spec("plunder_stones") is None or not is_game("stones"):
        pytest.fail("the example game examples/stones is not installed: "
                    f"pip install --no-deps --no-build-isolation -e {STONES}", pytrace=False)


def octet_entry() -> GameEntry[Any, Any]:
    """Last Stone fixed at eight seats, without a ``players`` parameter: a game needing more
    seats than any built-in game has."""
    require_stones()
    from plunder_stones import ENTRY, StonesGame

    class OctetGame(StonesGame):
        """Last Stone for exactly eight."""

        id = "octet"
        title = "Last Stone for eight"
        param_specs = [p for p in StonesGame.param_specs if p.name != "players"]
        presets = {"standard": {}}

        @property
        def num_players(self) -> int:
            """Eight."""
            return 8

    return GameEntry(OctetGame, Declaration(min_seats=8, max_seats=8, chance=False, zero_sum=True),
                     presentation=ENTRY.presentation)


@contextmanager
def registered(monkeypatch: pytest.MonkeyPatch, game_id: str, found: GameEntry[Any, Any]) -> Iterator[None]:
    """Within the block the registry lists ``found`` as game ``game_id`` (as an entry point
    would register it); the web app's caches of game pages are emptied before and after."""
    from plunder.core import registry
    from plunder.web import newgame, pages

    real, load = registry._found(), registry._load
    sources = {**real.sources, game_id: f"{__name__}:octet_entry"}
    monkeypatch.setattr(registry, "_found", lambda: registry._Found(sources, real.refused))
    monkeypatch.setattr(registry, "_load", lambda name: found if name == game_id else load(name))
    caches = (pages.card_or_reason, pages.showcase, newgame.form_of)
    for cache in caches:
        cache.cache_clear()
    try:
        yield
    finally:
        for cache in caches:
            cache.cache_clear()
