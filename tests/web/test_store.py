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


def test_a_store_made_before_sessions_expired_is_upgraded_and_its_sessions_end(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, text

    from plunder.web import identities
    from plunder.web.store import upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = create_engine(url)
    with old.begin() as db:  # the table as the version before made it, with a signed-in browser
        db.execute(text("CREATE TABLE passkey_sessions (token VARCHAR(64) PRIMARY KEY, "
                        "identity VARCHAR(64) NOT NULL, created FLOAT NOT NULL)"))
        db.execute(text("INSERT INTO passkey_sessions VALUES ('s' , 'anna', 1.0)"))
    old.dispose()
    store = Store(url)
    try:
        with store.engine.connect() as db:
            rows = db.execute(text("SELECT token, identity, created, expires FROM passkey_sessions")).all()
        assert [tuple(r) for r in rows] == [("s", "anna", 1.0, identities.SIGNED_OUT)]
        # it acts for nobody now (signing in again needs the passkey), and nothing fails
        assert identities.session_of(store, "s", 1000.0) == identities.ENDED
        assert upgrade(store.engine) == []  # once upgraded, nothing more to add
    finally:
        store.close()


def test_a_column_that_cannot_be_filled_stops_the_store_saying_so(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, text

    url = f"sqlite:///{tmp_path / 'other.db'}"
    old = create_engine(url)
    with old.begin() as db:  # a games table of some other version: no status column
        db.execute(text("CREATE TABLE games (id VARCHAR(32) PRIMARY KEY)"))
    old.dispose()
    with pytest.raises(RuntimeError, match="games has no column"):
        Store(url)
    from plunder.web.store import check
    with pytest.raises(ValueError, match="cannot be used: the store's table games has no column"):
        check(url)  # plunder serve's check says it in one line before starting
