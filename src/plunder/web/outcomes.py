"""How each finished game ended, kept for the list of replays: its verdict in words, written
once when the game ends (played out, stopped or resigned), so the list needs no replay of a
game to say who won; and the names its seats were played under, so that a rename afterwards
rewrites none of its verdicts, replays or lists. Tables of their own on the store's metadata
(created with the others)."""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Column, ForeignKey, Integer, String, Table, select
from sqlalchemy.exc import IntegrityError

from .store import AI, Store, metadata, seats

#: the longest seat name kept (a person's name, ``the hard AI``, with its seat label)
MAX_PLAYED_NAME_CHARS = 120

#: the longest verdict kept (a verdict is one sentence; a longer one is cut)
MAX_VERDICT_CHARS = 300

outcomes = Table(
    "outcomes", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("verdict", String(MAX_VERDICT_CHARS), nullable=False),
)


played_names = Table(
    "played_names", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    # how the seat was called when the game ended (:attr:`plunder.web.names.Callers.names`)
    Column("name", String(MAX_PLAYED_NAME_CHARS), nullable=False),
)


def record(store: Store, game_id: str, verdict: str, called: Sequence[str] = ()) -> None:
    """Keep ``verdict`` as how ``game_id`` ended and ``called`` as the names its seats were
    played under (each once: a second call changes nothing, whichever server process makes
    it, at the same time as the first or after)."""
    try:
        with store.engine.begin() as db:
            if db.execute(select(outcomes.c.game_id).where(outcomes.c.game_id == game_id)).first() is None:
                db.execute(outcomes.insert().values(game_id=game_id, verdict=verdict[:MAX_VERDICT_CHARS]))
    except IntegrityError:  # another process kept it between the look and the insert
        pass
    try:
        with store.engine.begin() as db:
            if called and db.execute(select(played_names.c.game_id)
                                     .where(played_names.c.game_id == game_id)).first() is None:
                db.execute(played_names.insert(), [{"game_id": game_id, "seat": i, "name": n[:MAX_PLAYED_NAME_CHARS]}
                                                   for i, n in enumerate(called)])
    except IntegrityError:  # as above
        pass


def names_played(store: Store, game_id: str) -> list[str] | None:
    """The names ``game_id``'s seats were played under, in seat order (:func:`record`);
    ``None`` when none were kept (a game still on, or one that ended before names were kept)."""
    with store.engine.connect() as db:
        rows = db.execute(select(played_names.c.name).where(played_names.c.game_id == game_id)
                          .order_by(played_names.c.seat)).all()
    return [str(r.name) for r in rows] or None


def players(store: Store, game_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """For each of ``game_ids``: its seats as ``[(seat, kind, AI level or None)]``, its
    verdict and the names its seats were played under (``None`` and ``[]`` for a game that
    ended before they were kept)."""
    found: dict[str, dict[str, Any]] = {g: {"seats": [], "verdict": None, "names": []} for g in game_ids}
    if not game_ids:
        return found
    with store.engine.connect() as db:
        for row in db.execute(select(seats.c.game_id, seats.c.seat, seats.c.kind, seats.c.agent)
                              .where(seats.c.game_id.in_(list(game_ids))).order_by(seats.c.game_id, seats.c.seat)):
            found[row.game_id]["seats"].append((row.seat, row.kind, row.agent if row.kind == AI else None))
        for done in db.execute(select(outcomes.c.game_id, outcomes.c.verdict)
                              .where(outcomes.c.game_id.in_(list(game_ids)))):
            found[done.game_id]["verdict"] = done.verdict
        for named in db.execute(select(played_names.c.game_id, played_names.c.name)
                                .where(played_names.c.game_id.in_(list(game_ids)))
                                .order_by(played_names.c.game_id, played_names.c.seat)):
            found[named.game_id]["names"].append(named.name)
    return found
