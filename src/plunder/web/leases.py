"""Leases in the store: which server process does a game's AI work, so that one does it when
several share a PostgreSQL database (``docs/web.md``, "Several server processes").

A lease is a row per game (its holder, until when): taken with a conditional write that only
succeeds when nobody holds it or the holder's time is up, and renewed by its holder while it
works. A process that dies stops renewing, and another takes the lease once its time is up.
"""

from __future__ import annotations

import time

from sqlalchemy import Column, Float, String, delete, insert, select, update
from sqlalchemy import Table as StoredTable
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from .store import games, metadata

leases = StoredTable(
    "leases", metadata,
    Column("game_id", String(64), primary_key=True),
    # the process holding it (:data:`plunder.web.autoplay.Autoplay.holder`)
    Column("holder", String(64), nullable=False),
    # seconds since the epoch
    Column("until", Float, nullable=False),
)


def take(engine: Engine, game_id: str, holder: str, seconds: float, now: float | None = None,
         version: int | None = None) -> bool:
    """Hold ``game_id``'s lease for ``seconds`` from ``now``: True when ``holder`` holds it (taken,
    or renewed: it held it already), False while another holds it, or, given the ``version`` of
    the game the holder shows, when the stored game has moved past it (a process that has not
    yet heard of the other's last move would think about a turn already played)."""
    now = time.time() if now is None else now
    with engine.begin() as db:
        if version is not None:
            stored = db.execute(select(games.c.version).where(games.c.id == game_id)).scalar()
            if stored is not None and stored != version:
                return False
        done = db.execute(update(leases).where(leases.c.game_id == game_id,
                                               (leases.c.until < now) | (leases.c.holder == holder))
                          .values(holder=holder, until=now + seconds))
        if done.rowcount == 1:
            return True
    try:
        with engine.begin() as db:
            db.execute(insert(leases).values(game_id=game_id, holder=holder, until=now + seconds))
        return True
    except IntegrityError:  # held by another (or taken by another this instant)
        return False


def take_in(db: Connection, game_id: str, holder: str, seconds: float, now: float | None = None) -> None:
    """Hold ``game_id``'s lease for ``seconds`` inside ``db``'s transaction, unless another holds
    it (PostgreSQL: one conditional upsert, which never fails the transaction it is part of). A
    person's move that gives the turn to an AI seat is stored with its lease so: a process that
    dies before its AI starts thinking leaves a lease that runs out, which the site's upkeep finds
    (:mod:`.upkeep`), instead of a turn nobody knows is due."""
    now = time.time() if now is None else now
    upsert = pg_insert(leases).values(game_id=game_id, holder=holder, until=now + seconds)
    db.execute(upsert.on_conflict_do_update(
        index_elements=[leases.c.game_id], set_={"holder": holder, "until": now + seconds},
        where=(leases.c.until < now) | (leases.c.holder == holder)))


def release(engine: Engine, game_id: str, holder: str) -> None:
    """Let go of ``game_id``'s lease if ``holder`` holds it."""
    with engine.begin() as db:
        db.execute(delete(leases).where(leases.c.game_id == game_id, leases.c.holder == holder))


def expired(engine: Engine, now: float | None = None) -> list[str]:
    """The games whose lease ran out unreleased: work their holder was doing when it died (or
    could not reach the store to let go)."""
    now = time.time() if now is None else now
    with engine.connect() as db:
        return list(db.execute(select(leases.c.game_id).where(leases.c.until < now)).scalars())


def clear(engine: Engine, game_id: str, now: float | None = None) -> None:
    """Forget ``game_id``'s lease if it ran out (no work is left behind it)."""
    now = time.time() if now is None else now
    with engine.begin() as db:
        db.execute(delete(leases).where(leases.c.game_id == game_id, leases.c.until < now))
