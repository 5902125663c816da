"""The transport of several server processes on one PostgreSQL database: every event is stored
(table ``events``, numbered per channel) and announced with ``NOTIFY``; each process
``LISTEN`` s on one connection of its own and reads from the store the events of the channels
it follows that it has not delivered yet.

So nothing is lost and nothing comes twice: an event is stored before anyone hears of it
(with the change it tells, in one transaction: :meth:`PgTransport.writer`); a notification
says "channel C has event n" and carries the event when it fits (a NOTIFY payload is limited
to 8000 bytes: a larger event is read from the store, as is any event after a gap in the
numbers); a process delivers a channel's events in order from the last it delivered, so a
notification lost while its listening connection was down (a restart of the database, a
network cut) is made up when it connects again: it reads every followed channel's events
past the last it delivered. Numbers are given per channel under a transaction-scoped
advisory lock, so a channel's events are committed in the order of their numbers and a reader
never skips one still being written.

Events are kept :data:`KEPT_SECONDS`, long enough for any listener's reconnection; a game's
state is in its own tables, not in its events.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Awaitable, Callable, Mapping

from sqlalchemy import BigInteger, Column, Float, Index, String, Text, delete, func, select, text
from sqlalchemy import Table as StoredTable
from sqlalchemy.engine import Connection, Engine, make_url

from .store import metadata
from .transport import Delivery, Event, Writer

log = logging.getLogger("plunder.web")


#: the PostgreSQL notification channel every server process listens on
NOTIFY_CHANNEL = "plunder_events"
#: how long events are kept (seconds)
KEPT_SECONDS = 3600.0
#: how often (seconds) a process deletes the events older than :data:`KEPT_SECONDS`
PRUNE_SECONDS = 300.0
#: how long a listener waits before connecting again after its connection was lost (seconds)
RECONNECT_SECONDS = 0.5
#: the longest notification that carries its event whole (PostgreSQL's limit is 8000 bytes); a
#: larger event is announced by its number and read from the store
MAX_PAYLOAD_BYTES = 7900

events = StoredTable(
    "events", metadata,
    # game:<id>, or site
    Column("channel", String(80), primary_key=True),
    # the event's number on its channel: 1, 2, 3 ... with no gap
    Column("seq", BigInteger, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    # the event's data, as JSON
    Column("data", Text, nullable=False),
    # seconds since the epoch
    Column("at", Float, nullable=False),
    Index("events_at", "at"),
)


#: an event's row and its notification, in one statement (after the channel's lock): its number
#: is the channel's last plus one, and the notification starts with it
_STORE_AND_NOTIFY = text(
    "WITH stored AS (INSERT INTO events (channel, seq, kind, data, at) "
    "SELECT CAST(:channel AS VARCHAR), coalesce(max(seq), 0) + 1, CAST(:kind AS VARCHAR), CAST(:data AS TEXT), "
    "CAST(:at AS DOUBLE PRECISION) FROM events WHERE channel = CAST(:channel AS VARCHAR) "
    "RETURNING seq) "
    "SELECT seq, pg_notify(CAST(:name AS TEXT), CAST(seq AS TEXT) || CAST(:rest AS TEXT)) FROM stored")


def write_event(db: Connection, channel: str, kind: str, data: Mapping[str, Any]) -> int:
    """Store an event on ``channel`` and announce it once committed; its number. Inside ``db``'s
    transaction, under the channel's advisory lock (held until the commit), so numbers are given
    and committed in order: the lock in a statement of its own, so that the next reads the
    channel's last number as committed by the lock's previous holder."""
    db.execute(text("SELECT pg_advisory_xact_lock(hashtext(:channel))"), {"channel": channel})
    told = json.dumps(data)
    rest = f" {channel} {kind} {told}"
    if len(rest.encode()) + 20 > MAX_PAYLOAD_BYTES:  # 20: the longest number
        rest = f" {channel}"  # read from the store
    row = db.execute(_STORE_AND_NOTIFY, {"channel": channel, "kind": kind, "data": told, "at": time.time(),
                                         "name": NOTIFY_CHANNEL, "rest": rest}).one()
    return int(row[0])


def heard(payload: str, wanted: Mapping[str, int]) -> tuple[str, int, Event | None]:
    """A notification's channel, event number and, when it carries it whole and it is of a
    channel in ``wanted`` past the number there, the event (every process hears every
    notification: the others' are not decoded)."""
    number, _, rest = payload.partition(" ")
    channel, _, rest = rest.partition(" ")
    n = int(number)
    if n <= wanted.get(channel, n):
        return channel, n, None
    kind, _, told = rest.partition(" ")
    return channel, n, Event(channel, n, kind, json.loads(told)) if kind else None


def last_seq(engine: Engine, channel: str) -> int:
    """The number of ``channel``'s last stored event (0: none)."""
    with engine.connect() as db:
        return int(db.execute(select(func.coalesce(func.max(events.c.seq), 0))
                              .where(events.c.channel == channel)).scalar_one())


def events_after(engine: Engine, channel: str, seq: int) -> list[Event]:
    """``channel``'s stored events after number ``seq``, in order."""
    with engine.connect() as db:
        rows = db.execute(select(events.c.seq, events.c.kind, events.c.data)
                          .where(events.c.channel == channel, events.c.seq > seq).order_by(events.c.seq)).all()
    return [Event(channel, int(n), kind, json.loads(data)) for n, kind, data in rows]


def prune(engine: Engine, before: float) -> int:
    """Delete the events stored before ``before`` (seconds since the epoch); how many."""
    with engine.begin() as db:
        return int(db.execute(delete(events).where(events.c.at < before)).rowcount)


def libpq_url(sqlalchemy_url: str) -> str:
    """The ``postgresql://`` URL psycopg connects with, from the store's SQLAlchemy URL."""
    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)


class PgTransport(Delivery):
    """Events through the store and ``LISTEN``/``NOTIFY`` (see the module). ``run`` runs a
    blocking store call off the event loop (:meth:`plunder.web.storage.Storage.db`)."""

    name = "PostgreSQL LISTEN/NOTIFY (several server processes may share the database)"

    def __init__(self, engine: Engine, url: str, run: Callable[..., Awaitable[Any]]) -> None:
        super().__init__()
        self.engine = engine
        self.url = libpq_url(url)
        self.run = run
        #: the number of the last event delivered, by followed channel
        self.delivered: dict[str, int] = {}
        #: channels with events to deliver, each delivered by one task at a time
        self._reading: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        #: events that came whole with their notification, by channel and number
        self._inbox: dict[str, dict[int, Event]] = {}
        #: channels whose store must be read (an event announced without its data, or a reconnection)
        self._stale: set[str] = set()
        #: events read from the store rather than taken from their notification (tests look)
        self.read_from_store = 0
        self._listener: asyncio.Task[None] | None = None
        self._pruner: asyncio.Task[None] | None = None
        #: set while the listening connection is up (tests wait for it)
        self.listening = asyncio.Event()
        #: times the listening connection was made (1 after the start; more after losses)
        self.connections = 0

    async def start(self) -> None:
        """Listen, and delete old events now and then; returns once listening."""
        await self.follow_site()
        self._listener = asyncio.create_task(self._listen())
        self._pruner = asyncio.create_task(self._prune())
        await self.listening.wait()

    async def follow_site(self) -> None:
        """Follow the site's channel from its last event."""
        for channel in self.followed:
            if channel not in self.delivered:
                self.delivered[channel] = await self.run(last_seq, self.engine, channel)

    async def close(self) -> None:
        """Stop listening and reading."""
        for task in [self._listener, self._pruner, *self._reading.values()]:
            if task is not None:
                task.cancel()
        self._reading.clear()

    async def follow(self, channel: str) -> None:
        """Deliver ``channel``'s events stored from now on: its last number is read before the
        caller reads what the events would change, so none falls in between."""
        if channel in self.delivered:
            return
        seq = await self.run(last_seq, self.engine, channel)
        self.delivered.setdefault(channel, seq)
        self.followed.add(channel)

    def unfollow(self, channel: str) -> None:
        """Stop delivering ``channel``'s events."""
        self.followed.discard(channel)
        self.delivered.pop(channel, None)
        self._again.discard(channel)
        self._inbox.pop(channel, None)
        self._stale.discard(channel)

    def writer(self, channel: str, kind: str, data: Mapping[str, Any]) -> Writer | None:
        """Store the event in the change's transaction (:func:`write_event`)."""
        return lambda db: None if write_event(db, channel, kind, data) else None

    async def sent(self, channel: str, kind: str, data: Mapping[str, Any]) -> None:
        """Nothing: the listener delivers it, here as in every process."""

    async def publish(self, channel: str, kind: str, data: Mapping[str, Any]) -> None:
        """Store and announce an event in a transaction of its own."""
        await self.run(self._publish, channel, kind, dict(data))

    def _publish(self, channel: str, kind: str, data: dict[str, Any]) -> None:
        with self.engine.begin() as db:
            write_event(db, channel, kind, data)

    def wake(self, channel: str) -> None:
        """Read ``channel``'s new events (once more after the read under way, if there is one)."""
        if channel not in self.delivered:
            return
        task = self._reading.get(channel)
        if task is not None and not task.done():
            self._again.add(channel)
            return
        self._reading[channel] = asyncio.create_task(self._read(channel))

    async def _read(self, channel: str) -> None:
        """Deliver ``channel``'s events after the last delivered, in order, until none is new:
        those that came whole with their notification while they follow on, else (a gap, an
        event too large for its notification, a reconnection) those read from the store."""
        try:
            while True:
                self._again.discard(channel)
                inbox = self._inbox.setdefault(channel, {})
                while (seq := self.delivered.get(channel)) is not None and seq + 1 in inbox:
                    event = inbox.pop(seq + 1)
                    self.delivered[channel] = event.seq
                    await self.deliver(event)
                seq = self.delivered.get(channel)
                if seq is None:
                    return
                for n in [n for n in inbox if n <= seq]:
                    del inbox[n]
                if inbox or channel in self._stale:
                    self._stale.discard(channel)
                    try:
                        found = await self.run(events_after, self.engine, channel, seq)
                    except Exception:  # the store unreachable: the next notification, or reconnection, reads again
                        log.exception("could not read the events of %s", channel)
                        self._stale.add(channel)
                        return
                    for event in found:
                        if self.delivered.get(channel) != event.seq - 1:
                            break  # unfollowed meanwhile, or delivered from a notification
                        inbox.pop(event.seq, None)
                        self.delivered[channel] = event.seq
                        self.read_from_store += 1
                        await self.deliver(event)
                if channel not in self._again:
                    return
        finally:
            if self._reading.get(channel) is asyncio.current_task():
                del self._reading[channel]

    async def _listen(self) -> None:
        """Keep a connection listening; after each (re)connection, read every followed channel's
        events missed meanwhile."""
        import psycopg  # the postgres extra's: a SQLite site imports this module without it

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.connections += 1
                    self.listening.set()
                    for channel in list(self.delivered):  # what was missed while not listening
                        self._stale.add(channel)
                        self.wake(channel)
                    async for note in conn.notifies():
                        channel, number, event = heard(note.payload, self.delivered)
                        if number > self.delivered.get(channel, number):
                            if event is None:
                                self._stale.add(channel)
                            else:
                                self._inbox.setdefault(channel, {})[number] = event
                            self.wake(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection lost: connect again, then catch up from the store
                log.warning("the event listener lost its connection; connecting again", exc_info=True)
            self.listening.clear()
            await asyncio.sleep(RECONNECT_SECONDS)

    async def _prune(self) -> None:
        """Delete old events every :data:`PRUNE_SECONDS`."""
        while True:
            try:
                await self.run(prune, self.engine, time.time() - KEPT_SECONDS)
            except Exception:
                log.exception("could not delete old events")
            await asyncio.sleep(PRUNE_SECONDS)
