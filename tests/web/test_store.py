"""The store's writes: a move appended after the last one stored, an undo's moves replacing the
stored ones from its ply, and a write planned on a version another process moved past refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from plunder.core.record import Move
from plunder.web.store import HUMAN, ON, GameRow, SeatRow, StaleWrite, Store


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A fresh SQLite store holding game ``g`` with no moves."""
    made = Store(f"sqlite:///{tmp_path / 'plunder.db'}")
    made.create(GameRow("g", "pillage", {}, 1, ON, "t", [SeatRow(HUMAN, token="t")] * 2))
    return made


def stored(store: Store) -> list[str]:
    """The actions stored for game ``g``, in order."""
    row = store.load("g")
    assert row is not None
    return [m.action for m in row.moves]


def test_moves_are_appended_and_an_undo_replaces_them_from_its_ply(store: Store) -> None:
    store.append("g", 0, 0, [Move(0, "a1-b1"), Move(1, "a1-a2")], cut=False)
    store.append("g", 1, 2, [Move(0, "b1-b2")], cut=False)
    assert stored(store) == ["a1-b1", "a1-a2", "b1-b2"]
    store.append("g", 2, 1, [Move(1, "c1-c2")])  # an undo back to ply 1, and another move
    assert stored(store) == ["a1-b1", "c1-c2"]


def test_a_move_already_stored_at_its_ply_is_refused_without_a_cut(store: Store) -> None:
    store.append("g", 0, 0, [Move(0, "a1-b1")], cut=False)
    with pytest.raises(StaleWrite):  # another process's version moved on
        store.append("g", 0, 0, [Move(0, "a1-a2")], cut=False)
    with pytest.raises(StaleWrite):  # the version right, the ply taken: never two moves at one ply
        store.append("g", 1, 0, [Move(0, "a1-a2")], cut=False)
    assert stored(store) == ["a1-b1"]
