"""The connections watching a game (:class:`Viewer`) and how a message reaches them: each has a
bounded queue its WebSocket drains, and one too slow to take what it is sent is cut off rather
than let the server's memory grow (:func:`tell`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

#: messages waiting for a slow viewer before it is cut off
MAX_QUEUED = 100


@dataclass(eq=False)
class Viewer:
    """One connection watching a table: the identity it acts for (``None``: a spectator), the
    hash of the token it was opened with (``connection``: a passkey session's differs from
    ``token``), and the queue its messages wait in."""

    token: str | None
    connection: str | None = None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=lambda: asyncio.Queue(MAX_QUEUED))
    #: log entries it has been sent (the next message sends the rest)
    known: int = 0
    #: the ids of the table-talk lines it has been sent (a line is never sent twice: the history
    #: read on connecting and a line told live may overlap). A set, not the highest id: ids are
    #: given when a line is inserted, events numbered when it is committed, so two processes
    #: storing lines at once may tell a lower id after a higher one. ``None`` until the history
    #: is sent, the lines told meanwhile waiting in :attr:`chat_early`
    chat_seen: set[int] | None = None
    chat_early: list[dict[str, Any]] = field(default_factory=list)


def tell(viewers: set[Viewer], message_for: Callable[[Viewer], dict[str, Any]]) -> None:
    """Queue ``message_for(viewer)`` for each of ``viewers``; a viewer too slow to take it is
    cut off (dropped from ``viewers``, its queue emptied and closed: its connection closes)."""
    for viewer in list(viewers):
        try:
            viewer.queue.put_nowait(message_for(viewer))
        except asyncio.QueueFull:
            cut_off(viewers, viewer)


def cut_off(viewers: set[Viewer], viewer: Viewer, last: dict[str, Any] | None = None) -> None:
    """Drop ``viewer`` from ``viewers``: what waits in its queue is thrown away, ``last`` (if
    given) is the last message it is sent, then its connection closes."""
    viewers.discard(viewer)
    while not viewer.queue.empty():
        viewer.queue.get_nowait()
    if last is not None:
        viewer.queue.put_nowait(last)
    viewer.queue.put_nowait(None)


def offer(viewers: Iterable[Viewer], message: dict[str, Any]) -> None:
    """Queue ``message`` for each of ``viewers`` that has room: a viewer that far behind is cut
    off by the next state (:func:`tell`)."""
    for viewer in list(viewers):
        try:
            viewer.queue.put_nowait(message)
        except asyncio.QueueFull:
            pass
