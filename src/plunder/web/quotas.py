"""Limits counted in the store, so that several server processes sharing a PostgreSQL database
together allow what one process allows (``docs/limits.md``, "The web server"; ``docs/web.md``,
"Several server processes").

Two kinds of limit guard what the processes share:

* **rates** (games created, records uploaded, per address): a token bucket per key is a row of
  ``rates``, spent by one conditional upsert (``INSERT ... ON CONFLICT DO UPDATE ... WHERE``
  enough tokens are left): the row's lock orders two processes spending at once, and a bucket
  with no token left is not written, so it refills from when it was last spent;
* **loads** (games in progress on the site): each process keeps its own count in a row of
  ``loads``, renewed while it lives (:data:`LOAD_SECONDS`); a new one is claimed under a
  transaction-scoped advisory lock on the load's kind, against the sum of every live process's
  count, so two processes claiming at once are counted one after the other.

On SQLite (one server process) the same limits are counted in memory (:class:`~.limits.Buckets`,
the process's own tables), as they always were.
"""

from __future__ import annotations

import time

from sqlalchemy import Column, Float, Integer, String, delete, func, select, text
from sqlalchemy import Table as StoredTable
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection, Engine

from .limits import Buckets
from .storage import Storage
from .store import metadata

#: how long a process's count of a load stands without being renewed (it renews it every third
#: of this): a process that dies stops counting once its row is this old
LOAD_SECONDS = 15.0

rates = StoredTable(
    "rates", metadata,
    # the limit's kind and its key, e.g. ``create address 203.0.113.7``
    Column("name", String(300), primary_key=True),
    Column("tokens", Float, nullable=False),
    # when it was last spent (seconds since the epoch)
    Column("at", Float, nullable=False),
    # when it is full again if nothing is spent: a row past it is forgotten (:func:`forget`)
    Column("full_at", Float, nullable=False, index=True),
)

loads = StoredTable(
    "loads", metadata,
    # the process counting (a name of its own, as in :mod:`.leases`)
    Column("holder", String(64), primary_key=True),
    # what is counted, e.g. ``games on``
    Column("kind", String(32), primary_key=True),
    Column("count", Integer, nullable=False),
    # the count stands until then (seconds since the epoch)
    Column("until", Float, nullable=False),
)


def spend(engine: Engine, name: str, rate: float, burst: float, now: float | None = None) -> bool:
    """Spend one of the tokens of the bucket ``name`` (``burst`` tokens, refilled at ``rate`` a
    second), shared by every process: True if it had one (PostgreSQL only)."""
    now = time.time() if now is None else now
    refilled = func.least(burst, rates.c.tokens + (now - rates.c.at) * rate)
    fresh = pg_insert(rates).values(name=name, tokens=burst - 1, at=now, full_at=now + 1 / rate)
    statement = fresh.on_conflict_do_update(
        index_elements=[rates.c.name],
        set_={"tokens": refilled - 1, "at": now, "full_at": now + (burst - (refilled - 1)) / rate},
        # no token left: the row is not written, and refills from when it was last spent
        where=refilled >= 1).returning(rates.c.tokens)
    with engine.begin() as db:
        return db.execute(statement).first() is not None


def forget(engine: Engine, now: float | None = None) -> int:
    """Forget the buckets full again (a new one starts full): how many."""
    now = time.time() if now is None else now
    with engine.begin() as db:
        return db.execute(delete(rates).where(rates.c.full_at < now)).rowcount


def claim(engine: Engine, holder: str, kind: str, mine: int, most: int, now: float | None = None) -> bool:
    """Count one more ``kind`` for ``holder``, which counts ``mine`` now, if every live process's
    count together stays within ``most``: True, and ``holder``'s row says ``mine + 1``; False
    (nothing written) past it. PostgreSQL only."""
    now = time.time() if now is None else now
    with engine.begin() as db:
        # claims of one kind are counted one at a time across processes
        db.execute(text("SELECT pg_advisory_xact_lock(hashtext(:kind))"), {"kind": f"plunder load {kind}"})
        others = db.execute(select(func.coalesce(func.sum(loads.c.count), 0))
                            .where(loads.c.kind == kind, loads.c.holder != holder, loads.c.until >= now)).scalar_one()
        if int(others) + mine + 1 > most:
            return False
        _put(db, holder, kind, mine + 1, now)
        return True


def report(engine: Engine, holder: str, kind: str, count: int, now: float | None = None) -> None:
    """Say that ``holder`` counts ``count`` of ``kind`` now (renewing its row for :data:`LOAD_SECONDS`),
    and forget the rows of processes that stopped renewing theirs."""
    now = time.time() if now is None else now
    with engine.begin() as db:
        _put(db, holder, kind, count, now)
        db.execute(delete(loads).where(loads.c.until < now - LOAD_SECONDS))


def alive(engine: Engine, now: float | None = None) -> set[str]:
    """The processes whose counts still stand (renewed within :data:`LOAD_SECONDS`)."""
    now = time.time() if now is None else now
    with engine.connect() as db:
        return set(db.execute(select(loads.c.holder).where(loads.c.until >= now).distinct()).scalars())


def withdraw(engine: Engine, holder: str) -> None:
    """Forget ``holder``'s counts (a process stopping)."""
    with engine.begin() as db:
        db.execute(delete(loads).where(loads.c.holder == holder))


def _put(db: Connection, holder: str, kind: str, count: int, now: float) -> None:
    """Write ``holder``'s count of ``kind``."""
    statement = pg_insert(loads).values(holder=holder, kind=kind, count=count, until=now + LOAD_SECONDS)
    statement = statement.on_conflict_do_update(index_elements=[loads.c.holder, loads.c.kind],
                                                set_={"count": count, "until": now + LOAD_SECONDS})
    db.execute(statement)


class SharedBuckets:
    """A rate limit per key shared by every process on the store (:func:`spend`), with the
    interface of :class:`~.limits.Buckets`' :meth:`~.limits.Buckets.spend`."""

    def __init__(self, storage: Storage, kind: str, rate: float, burst: float) -> None:
        self.storage, self.kind, self.rate, self.burst = storage, kind, rate, burst

    async def spend(self, key: str) -> bool:
        """Spend one of ``key``'s tokens if it has one (on every process)."""
        return await self.storage.db(spend, self.storage.store.engine, f"{self.kind} {key}", self.rate, self.burst)

    def wait(self) -> int:
        """Whole seconds until a refused key has a token again."""
        return Buckets(self.rate, self.burst).wait()


def buckets(storage: Storage, kind: str, rate: float, burst: float) -> Buckets | SharedBuckets:
    """A rate limit per key for the server over ``storage``: shared by every process when
    several may share the store (PostgreSQL), else this process's own."""
    return SharedBuckets(storage, kind, rate, burst) if storage.shared else Buckets(rate, burst)


class Loads:
    """The counts of one process (:func:`claim`, :func:`report`), under a name of its own; on a
    store no other process shares, the process's own count is the site's."""

    def __init__(self, storage: Storage, holder: str) -> None:
        self.storage = storage
        #: this process's name in ``loads``
        self.holder = holder

    async def claim(self, kind: str, mine: int, most: int) -> bool:
        """One more ``kind`` where this process counts ``mine``, if the site stays within ``most``."""
        if not self.storage.shared:
            return mine < most
        return await self.storage.db(claim, self.storage.store.engine, self.holder, kind, mine, most)

    async def report(self, kind: str, count: int) -> None:
        """Say this process counts ``count`` of ``kind`` now (several processes only)."""
        if self.storage.shared:
            await self.storage.db(report, self.storage.store.engine, self.holder, kind, count)

    async def withdraw(self) -> None:
        """Forget this process's counts (several processes only)."""
        if self.storage.shared:
            await self.storage.db(withdraw, self.storage.store.engine, self.holder)
