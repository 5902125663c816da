"""Games registered for one test: Pig (``examples/pig``) under another id, with an entry of the
test's making, found by the registry as an installed package's game is."""

from __future__ import annotations

import dataclasses
import sys
import types
from typing import Any, Iterator

import plunder_pig
import pytest

from plunder.core import registry
from plunder.core.registry import GameEntry


def pig_as(game_id: str, **changes: Any) -> GameEntry[Any, Any]:
    """Pig's entry under ``game_id`` (its rules class a subclass of that id), with ``changes``
    to its fields; ``declaration`` may be given as a dict of changes to Pig's."""
    game_class = type(f"Pig_{game_id}", (plunder_pig.PigGame,), {"id": game_id})
    declared = changes.pop("declaration", {})
    declaration = dataclasses.replace(plunder_pig.ENTRY.declaration, **declared)
    return dataclasses.replace(plunder_pig.ENTRY, game_class=game_class, declaration=declaration, **changes)


@pytest.fixture
def register(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``register(entry)``: ``entry`` installed as its game's id for the test, as a package
    registers a game (``plunder.games`` entry point), loaded and checked afresh."""
    real = registry._found()
    sources = dict(real.sources)

    def add(made: GameEntry[Any, Any]) -> None:
        game_id = made.game_class.id
        module = types.ModuleType(f"fake_game_{game_id}")
        setattr(module, "ENTRY", made)
        monkeypatch.setitem(sys.modules, module.__name__, module)
        sources[game_id] = f"{module.__name__}:ENTRY"
        registry._checked.cache_clear()

    monkeypatch.setattr(registry, "_found", lambda: registry._Found(sources, real.refused))
    yield add
    registry._checked.cache_clear()
