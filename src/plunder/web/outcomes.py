"""How each finished game ended, kept for the list of replays: its verdict in words, written
once when the game ends (played out, stopped or resigned), so the list needs no replay of a
game to say who won. A table of its own on the store's metadata (created with the others)."""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Column, ForeignKey, String, Table, select
from sqlalchemy.exc import IntegrityError

from .store import AI, Store, metadata, seats

#: the longest verdict kept (a verdict is one sentence; a longer one is cut)
MAX_VERDICT_CHARS = 300

outcomes = Table(
    "outcomes", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("verdict", String(MAX_VERDICT_CHARS), nullable=False),
)


def record(store: Store, game_id: str, verdict: str) -> None:
    """Keep ``verdict`` as how ``game_id`` ended (once: a second call changes nothing, whichever
    server process makes it, at the same time as the first or after)."""
    try:
        with store.engine.begin() as db:
            if db.execute(select(outcomes.c.game_id).where(outcomes.c.game_id == game_id)).first() is None:
                db.execute(outcomes.insert().values(game_id=game_id, verdict=verdict[:MAX_VERDICT_CHARS]))
    except IntegrityError:  # another process kept it between the look and the insert
        pass


def players(store: Store, game_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """For each of ``game_ids``: its seats as ``[(seat, kind, AI level or None)]`` and its
    verdict (``None`` for a game that ended before verdicts were kept)."""
    found: dict[str, dict[str, Any]] = {g: {"seats": [], "verdict": None} for g in game_ids}
    if not game_ids:
        return found
    with store.engine.connect() as db:
        for row in db.execute(select(seats.c.game_id, seats.c.seat, seats.c.kind, seats.c.agent)
                              .where(seats.c.game_id.in_(list(game_ids))).order_by(seats.c.game_id, seats.c.seat)):
            found[row.game_id]["seats"].append((row.seat, row.kind, row.agent if row.kind == AI else None))
        for done in db.execute(select(outcomes.c.game_id, outcomes.c.verdict)
                              .where(outcomes.c.game_id.in_(list(game_ids)))):
            found[done.game_id]["verdict"] = done.verdict
    return found
