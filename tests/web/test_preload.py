"""The server process preloads before it serves: every game imported, the import's objects out of the collector's sight."""

from __future__ import annotations

import gc
import sys

from plunder.core.registry import game_ids, load_game
from plunder.web.app import preload


def test_preload_imports_every_game_and_freezes_what_was_made() -> None:
    try:
        preload()
        assert gc.get_freeze_count() > 10_000
        imported = set(sys.modules)
        for game_id in game_ids():
            load_game(game_id).new_initial_state()
        assert set(sys.modules) == imported
        # what a full collection walks is only what was made since: a few objects, not the code
        assert len(gc.get_objects()) < gc.get_freeze_count() / 10
    finally:
        gc.unfreeze()
