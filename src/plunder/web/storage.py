"""The tables' storage: the store (:mod:`.store`) as the event loop uses it.

The store's calls are short and blocking. A SQLite file answers in well under a millisecond:
they run on the event loop, where a hand-over to a thread would cost more than the call on a
busy machine. A database over the network gets threads (:data:`DB_THREADS`).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

from .store import Store

T = TypeVar("T")

#: threads running the store's calls for a database over the network
DB_THREADS = 4


class Storage:
    """The store of the tables, with :meth:`db` to call it from the event loop."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: True when the store's calls run on the event loop (SQLite)
        self.inline = store.engine.dialect.name == "sqlite"
        self._threads = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="plunder-db")

    @property
    def shared(self) -> bool:
        """True when several server processes may share the store (PostgreSQL)."""
        return self.store.engine.dialect.name == "postgresql"

    async def db(self, call: Callable[..., T], *args: Any) -> T:
        """Run a store call (in the store's threads unless :attr:`inline`)."""
        if self.inline:
            return call(*args)
        return await asyncio.get_running_loop().run_in_executor(self._threads, call, *args)

    def close(self) -> None:
        """Let the threads finish and the store go."""
        self._threads.shutdown(wait=True)
        self.store.close()
