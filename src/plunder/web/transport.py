"""How a change reaches every server process that shows the game it is about: a
:class:`Transport` publishes :class:`Event` s on channels and delivers each, once and in the
order they were published on its channel, to the handlers of this process (:class:`Delivery`),
which tell the connections that want it (:mod:`.viewers`).

Channels: ``game:<id>`` for a game's events (moves, a resignation, seats, table talk, a
rematch) and :data:`SITE` for the site's (a name chosen, a sign-out). One process (SQLite, the default)
uses :class:`InMemory`, which delivers at once; several processes on one PostgreSQL database use
:class:`plunder.web.pgtransport.PgTransport` (LISTEN/NOTIFY, events kept in the store).

An event about a change to a game is written with the change when the transport keeps events
(:meth:`Transport.writer`, run in the change's transaction): a change stored is a change told,
whatever happens to the process after. The process that made a change shows it at once itself;
handlers skip what they already show (a move by the table's version), so an event delivered to
the process that published it costs nothing.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping, Protocol

from sqlalchemy.engine import Connection

log = logging.getLogger("plunder.web")

#: the channel of what concerns the whole site rather than one game (a name chosen, a sign-out)
SITE = "site"

#: what handles one kind of event
Handler = Callable[["Event"], Awaitable[None]]
#: what writes an event inside a change's transaction (:meth:`Transport.writer`)
Writer = Callable[[Connection], None]


def chained(*writers: Writer | None) -> Writer:
    """One writer doing each of ``writers`` (``None`` ones skipped) in the same transaction."""
    def write(db: Connection) -> None:
        for w in writers:
            if w is not None:
                w(db)
    return write


def game_channel(game_id: str) -> str:
    """The channel of game ``game_id``'s events."""
    return f"game:{game_id}"


@dataclass(frozen=True)
class Event:
    """Something that happened: on ``channel``, its ``seq``-th event (1 = the first; 0 where the
    transport does not number them), of ``kind``, with its JSON ``data``."""

    channel: str
    seq: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


class Transport(Protocol):
    """Publishes events and delivers them to this process's handlers (see the module)."""

    #: what it is, in the words ``plunder serve`` says on start
    name: str

    def on(self, kind: str, handler: Handler) -> None:
        """Deliver the events of ``kind`` to ``handler`` too (each handler of a kind in turn)."""

    async def start(self) -> None:
        """Begin delivering (called inside the event loop)."""

    async def close(self) -> None:
        """Stop delivering."""

    async def follow(self, channel: str) -> None:
        """Deliver ``channel``'s events published from now on (a game opened in this process)."""

    def unfollow(self, channel: str) -> None:
        """Stop delivering ``channel``'s events (a game dropped from memory)."""

    def writer(self, channel: str, kind: str, data: Mapping[str, Any]) -> Writer | None:
        """What writes the event in the transaction of the change it tells (``None``: this
        transport keeps no events); :meth:`sent` once it is committed."""

    async def sent(self, channel: str, kind: str, data: Mapping[str, Any]) -> None:
        """The event :meth:`writer` wrote was committed (or, without a writer, the change was)."""

    async def publish(self, channel: str, kind: str, data: Mapping[str, Any]) -> None:
        """Publish an event on its own (not written with a change)."""


class Delivery:
    """The handlers of one process by event kind, and the channels it follows: what every
    transport delivers to."""

    def __init__(self) -> None:
        self.handlers: dict[str, list[Handler]] = {}
        self.followed: set[str] = {SITE}

    def on(self, kind: str, handler: Handler) -> None:
        """Deliver the events of ``kind`` to ``handler`` too."""
        self.handlers.setdefault(kind, []).append(handler)

    async def deliver(self, event: Event) -> None:
        """Hand ``event`` to its kind's handlers in the order they were given (an event nobody
        handles is dropped; a handler that fails is logged, and the others, and the events after
        it, are delivered all the same)."""
        for handler in self.handlers.get(event.kind, ()):
            try:
                await handler(event)
            except Exception:
                log.exception("event %s #%d (%s) could not be handled", event.channel, event.seq, event.kind)


class InMemory(Delivery):
    """The transport of one server process: an event is delivered when it is published (or its
    change committed), to this process's handlers; nothing is kept."""

    name = "in-memory (one server process)"

    def __init__(self) -> None:
        super().__init__()
        #: the events published so far by channel (an event's ``seq``)
        self.seqs: dict[str, int] = {}
        # deliveries one after another per channel, in the order they were published
        self._locks: dict[str, asyncio.Lock] = {}

    async def start(self) -> None:
        """Nothing to start."""

    async def close(self) -> None:
        """Nothing to stop."""

    async def follow(self, channel: str) -> None:
        """Follow ``channel``."""
        self.followed.add(channel)

    def unfollow(self, channel: str) -> None:
        """Stop following ``channel`` and forget its count."""
        self.followed.discard(channel)
        self.seqs.pop(channel, None)
        self._locks.pop(channel, None)

    def writer(self, channel: str, kind: str, data: Mapping[str, Any]) -> Writer | None:
        """Nothing is written: every handler is in this process."""
        return None

    async def sent(self, channel: str, kind: str, data: Mapping[str, Any]) -> None:
        """Deliver the event now."""
        await self.publish(channel, kind, data)

    async def publish(self, channel: str, kind: str, data: Mapping[str, Any]) -> None:
        """Deliver the event now, after any still being delivered on its channel."""
        if channel not in self.followed:
            return
        seq = self.seqs[channel] = self.seqs.get(channel, 0) + 1
        lock = self._locks.setdefault(channel, asyncio.Lock())
        async with lock:
            await self.deliver(Event(channel, seq, kind, dict(data)))
