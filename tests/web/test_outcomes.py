"""A finished game's verdict is kept once (web/outcomes.py), whichever server process keeps it
first: another process that looked before the first insert and inserts second changes nothing
and meets no error."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import false

from plunder.match import new_seed
from plunder.web import outcomes
from plunder.web.security import new_token
from plunder.web.store import HUMAN, OVER, GameRow, SeatRow, Store


def test_a_verdict_kept_by_another_process_meanwhile_is_no_error(any_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(any_db)
    try:
        game_id = new_token()
        store.create(GameRow(game_id, "pillage", {}, new_seed(), OVER, "x", [SeatRow(HUMAN, token="x")] * 2))
        outcomes.record(store, game_id, "first")
        looked = outcomes.select

        def blind(*columns: Any) -> Any:  # the look made before the other process's insert
            return looked(*columns).where(false())

        monkeypatch.setattr(outcomes, "select", blind)
        outcomes.record(store, game_id, "second")
        monkeypatch.undo()
        assert outcomes.players(store, [game_id])[game_id]["verdict"] == "first"
    finally:
        store.close()
