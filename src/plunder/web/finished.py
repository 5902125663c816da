"""The finished games of a store as records: what ``plunder puzzles generate --from-db`` reads
to find puzzles in people's games (docs/puzzles.md, "Puzzles from stored games")."""

from __future__ import annotations

from typing import Iterator

from sqlalchemy import select

from ..core.record import Record
from .daily import daily_entries
from .store import OVER, RESIGNED, Store, games, record_players


def finished_ids(store: Store, game_id: str, most: int) -> list[str]:
    """The ids of the last ``most`` games of ``game_id`` played out or resigned, newest first,
    leaving out daily deals (their deal is everyone's: :mod:`.daily`)."""
    with store.engine.connect() as db:
        return [str(i) for i in db.execute(
            select(games.c.id).where(games.c.game == game_id, games.c.status.in_([OVER, RESIGNED]),
                                     games.c.id.not_in(select(daily_entries.c.game_id)))
            .order_by(games.c.updated.desc(), games.c.id).limit(most)).scalars()]


def finished_records(store: Store, game_id: str, most: int) -> Iterator[Record]:
    """The records (with their seeds: the games are over) of :func:`finished_ids`, read one at
    a time; a seat is named by its AI level, or ``human``."""
    for stored in finished_ids(store, game_id, most):
        row = store.load(stored)
        if row is None:  # deleted since it was listed
            continue
        yield Record(row.game, dict(row.params), row.seed, record_players(row.seats), list(row.moves))


__all__ = ["finished_ids", "finished_records"]
