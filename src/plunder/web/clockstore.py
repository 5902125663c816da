"""A game's clock in the store (:mod:`.clocks` for its arithmetic), beside the game's row: a
table of its own on the store's metadata, written in the transaction of the change it follows
(a move, a seat taken over), so a restart finds the clock as the last change left it.

Also how a game ends by the clock or by leaving: on time, claimed against an absent player,
aborted. Each is a conditional write on the game's version, like a move's
(:class:`~.store.StaleWrite`): of several server processes seeing one clock run out, exactly
one declares it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Sequence

from sqlalchemy import Column, Float, ForeignKey, Index, String, Text, insert, select, update
from sqlalchemy import Table as StoredTable
from sqlalchemy.engine import Connection, Engine

from .clocks import Clock
from .store import AI, ON, Store, games, metadata, seats
from .transport import Writer

#: how a game ended otherwise than by its rules, as :attr:`Kept.ended`: a seat ran out of time
#: (a resignation in every other respect: the seat that ran out is last)
ON_TIME = "time"
#: an absent player's opponent claimed the win (:data:`.tables.CLAIM_SECONDS`)
CLAIMED = "claim"

clocks = StoredTable(
    "clocks", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # :meth:`plunder.web.clocks.Clock.to_json`
    Column("clock", Text, nullable=False),
    # when the running seat's time runs out (seconds since the epoch); NULL when no clock runs
    Column("deadline", Float),
    # ON_TIME or CLAIMED once the game ended so; NULL otherwise
    Column("ended", String(16)),
    # the seats that left (ran out of time with others playing on: an AI plays them), as a JSON
    # object {seat: AI level}
    Column("gone", Text, nullable=False, default="{}"),
    Index("clocks_deadline", "deadline"),
)


@dataclass
class Kept:
    """What the store keeps of a game's clock."""

    clock: Clock
    ended: str | None = None
    #: the seats that left, each with the AI level that took them over
    gone: dict[int, str] = field(default_factory=dict)


def writer(game_id: str, kept: Kept) -> Writer:
    """What writes ``kept`` as ``game_id``'s clock inside a change's transaction."""
    values = {"clock": kept.clock.to_json(), "deadline": kept.clock.deadline, "ended": kept.ended,
              "gone": json.dumps({str(k): v for k, v in kept.gone.items()})}

    def write(db: Connection) -> None:
        done = db.execute(update(clocks).where(clocks.c.game_id == game_id).values(**values))
        if done.rowcount != 1:
            db.execute(insert(clocks).values(game_id=game_id, **values))
    return write


def start(engine: Engine, game_id: str, kept: Kept) -> bool:
    """Store ``kept``, a clock just started, as ``game_id``'s if its stored clock runs for
    nobody (a seat just taken: once, whichever process sees it first); True if stored."""
    with engine.begin() as db:
        done = db.execute(update(clocks).where(clocks.c.game_id == game_id, clocks.c.deadline.is_(None),
                                               clocks.c.ended.is_(None))
                          .values(clock=kept.clock.to_json(), deadline=kept.clock.deadline))
        return done.rowcount == 1


def load(engine: Engine, game_id: str) -> Kept | None:
    """``game_id``'s clock as stored; ``None`` for a game without one."""
    with engine.connect() as db:
        row = db.execute(select(clocks).where(clocks.c.game_id == game_id)).mappings().first()
    if row is None:
        return None
    return Kept(Clock.from_json(row["clock"]), row["ended"], {int(k): v for k, v in json.loads(row["gone"]).items()})


def due(engine: Engine, now: float, limit: int = 100) -> list[str]:
    """Games in progress whose running clock ran out by ``now`` (the soonest first)."""
    with engine.connect() as db:
        return list(db.execute(select(clocks.c.game_id).join(games, games.c.id == clocks.c.game_id)
                               .where(clocks.c.deadline <= now, games.c.status == ON)
                               .order_by(clocks.c.deadline).limit(limit)).scalars())


def ended(engine: Engine, game_id: str, version: int, status: str, seat: int | None, also: Writer) -> None:
    """Mark ``game_id`` (at ``version``) ended with ``status`` (``seat``: the seat that lost by
    leaving, as a resignation's), ``also`` written in the same transaction; :class:`StaleWrite`
    when the game changed meanwhile (another process declared it, or a move came first)."""
    with engine.begin() as db:
        Store.bump(db, game_id, version, on=True, status=status, resigned_by=seat)
        also(db)


def taken_over(engine: Engine, game_id: str, version: int, gone: Sequence[int], level: str, also: Writer) -> None:
    """Give ``gone`` seats of ``game_id`` (at ``version``) to the AI level ``level`` (their
    player ran out of time; the others play on), ``also`` written in the same transaction;
    :class:`StaleWrite` as :func:`ended`."""
    with engine.begin() as db:
        Store.bump(db, game_id, version, on=True)
        db.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat.in_(list(gone)))
                   .values(kind=AI, agent=level))
        also(db)
