"""The transports (web/transport.py, web/pgtransport.py): events delivered once and in order on
each followed channel; through PostgreSQL to every process, an event written with a change only
once that change is committed, a large event whole, and the events published while a listener
was cut off delivered when it is back, none twice."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any, Awaitable, Callable

import pytest
from sqlalchemy import text

from plunder.web.security import new_token
from plunder.web.pgtransport import PgTransport, events_after, last_seq
from plunder.web.storage import Storage
from plunder.web.store import Store
from plunder.web.tables import transport_for
from plunder.web.transport import SITE, Event, InMemory, game_channel


def collector(got: list[Event]) -> Callable[[Event], Awaitable[None]]:
    """A handler keeping what it is given."""
    async def keep(event: Event) -> None:
        got.append(event)
    return keep


def test_in_memory_delivers_followed_channels_at_once_in_order() -> None:
    async def run() -> list[Event]:
        transport = InMemory()
        got: list[Event] = []
        transport.on("said", collector(got))
        await transport.follow("game:a")
        assert transport.writer("game:a", "said", {}) is None  # nothing kept: nothing to write
        for n in range(3):
            await transport.publish("game:a", "said", {"n": n})
        await transport.publish("game:b", "said", {"n": 9})  # not followed: nobody here wants it
        await transport.sent("game:a", "said", {"n": 3})
        await transport.publish("game:a", "other", {})  # a kind nobody handles is dropped
        transport.unfollow("game:a")
        await transport.publish("game:a", "said", {"n": 4})
        await transport.publish(SITE, "said", {"n": 5})  # the site's channel is always followed
        return got

    got = asyncio.run(run())
    assert [(e.channel, e.seq, e.data["n"]) for e in got] == [
        ("game:a", 1, 0), ("game:a", 2, 1), ("game:a", 3, 2), ("game:a", 4, 3), (SITE, 1, 5)]


def test_a_failing_handler_does_not_stop_the_events_after_it() -> None:
    async def run() -> list[int]:
        transport = InMemory()
        seen: list[int] = []

        async def fussy(event: Event) -> None:
            seen.append(int(event.data["n"]))
            if event.data["n"] == 0:
                raise RuntimeError("boom")

        transport.on("said", fussy)
        await transport.follow("game:a")
        await transport.publish("game:a", "said", {"n": 0})
        await transport.publish("game:a", "said", {"n": 1})
        return seen

    assert asyncio.run(run()) == [0, 1]


def test_the_store_chooses_the_transport(tmp_path: Any, postgres_url: str) -> None:
    assert isinstance(transport_for(Storage(Store(f"sqlite:///{tmp_path / 'p.db'}"))), InMemory)
    storage = Storage(Store(postgres_url))
    try:
        assert isinstance(transport_for(storage), PgTransport)
    finally:
        storage.close()


async def until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait until ``check()`` holds (failing the test past ``seconds``)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "not delivered in time"
        await asyncio.sleep(0.01)


@pytest.fixture
def channel() -> str:
    """A channel of this test's own on the session's database."""
    return game_channel(new_token())


def test_postgresql_delivers_to_every_process_in_order_and_a_large_event_whole(postgres_url: str, channel: str) -> None:
    async def run() -> tuple[list[Event], list[Event], list[Event]]:
        one, two = Storage(Store(postgres_url)), Storage(Store(postgres_url))
        a = PgTransport(one.store.engine, postgres_url, one.db)
        b = PgTransport(two.store.engine, postgres_url, two.db)
        got_a: list[Event] = []
        got_b: list[Event] = []
        stray: list[Event] = []
        a.on("said", collector(got_a))
        b.on("said", collector(got_b))
        try:
            await a.start()
            await b.start()
            await a.follow(channel)
            await b.follow(channel)
            big = "x" * 20_000  # past NOTIFY's 8000 bytes: the event is read from the store
            for n in range(20):
                await (a if n % 2 else b).publish(channel, "said", {"n": n, "big": big if n == 7 else ""})
            await until(lambda: len(got_a) == 20 and len(got_b) == 20)
            # the large one was read from the store, the others came with their notifications
            assert 1 <= a.read_from_store < 20 and 1 <= b.read_from_store < 20
            await asyncio.sleep(0.2)  # nothing more comes
            b.on("said", collector(stray))
            await a.publish(game_channel("elsewhere"), "said", {"n": 99})  # b does not follow it
            await asyncio.sleep(0.3)
            return got_a, got_b, stray
        finally:
            await a.close()
            await b.close()
            one.close()
            two.close()

    got_a, got_b, stray = asyncio.run(run())
    for got in (got_a, got_b):
        assert [e.data["n"] for e in got] == list(range(20))
        assert [e.seq for e in got] == list(range(got[0].seq, got[0].seq + 20))
        assert got[7].data["big"] == "x" * 20_000
    assert stray == []


def test_an_event_written_with_a_change_is_told_only_once_committed(postgres_url: str, channel: str) -> None:
    async def run() -> list[Event]:
        storage = Storage(Store(postgres_url))
        transport = PgTransport(storage.store.engine, postgres_url, storage.db)
        got: list[Event] = []
        transport.on("said", collector(got))
        try:
            await transport.start()
            await transport.follow(channel)
            writer = transport.writer(channel, "said", {"n": 1})
            assert writer is not None
            with pytest.raises(RuntimeError):
                with storage.store.engine.begin() as db:
                    writer(db)
                    raise RuntimeError("the change failed: its event goes with it")
            with storage.store.engine.begin() as db:
                writer(db)
                await asyncio.sleep(0.3)
                assert got == []  # not committed yet
            await until(lambda: len(got) == 1)
            return got
        finally:
            await transport.close()
            storage.close()

    got = asyncio.run(run())
    assert got[0].data == {"n": 1} and got[0].seq == 1


def test_a_listener_cut_off_catches_up_from_the_store_without_loss_or_duplicates(postgres_url: str,
                                                                               channel: str) -> None:
    async def run() -> tuple[list[Event], int, int]:
        writing, reading = Storage(Store(postgres_url)), Storage(Store(postgres_url))
        sender = PgTransport(writing.store.engine, postgres_url, writing.db)
        listener = PgTransport(reading.store.engine, postgres_url, reading.db)
        got: list[Event] = []
        listener.on("said", collector(got))
        try:
            await listener.start()
            await listener.follow(channel)
            await sender.publish(channel, "said", {"n": 0})
            await until(lambda: len(got) == 1)
            # cut the listener's connection, and publish while it is down
            with writing.store.engine.begin() as db:
                cut = db.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                      "WHERE query LIKE 'LISTEN plunder_events%' AND pid <> pg_backend_pid()")).all()
            assert cut  # the listener's backend was found and ended
            for n in range(1, 6):
                await sender.publish(channel, "said", {"n": n})
            await until(lambda: len(got) == 6)
            assert listener.read_from_store >= 5  # the ones missed, read from the store
            await sender.publish(channel, "said", {"n": 6})
            await until(lambda: len(got) == 7)
            await asyncio.sleep(0.3)  # nothing comes twice
            stored = await writing.db(events_after, writing.store.engine, channel, 0)
            return got, listener.connections, len(stored)
        finally:
            await sender.close()
            await listener.close()
            writing.close()
            reading.close()

    got, connections, stored = asyncio.run(run())
    assert [e.data["n"] for e in got] == list(range(7))
    assert connections >= 2 and stored == 7


def test_following_starts_after_the_last_stored_event(postgres_url: str, channel: str) -> None:
    async def run() -> tuple[list[Event], int]:
        storage = Storage(Store(postgres_url))
        transport = PgTransport(storage.store.engine, postgres_url, storage.db)
        got: list[Event] = []
        transport.on("said", collector(got))
        try:
            await transport.start()
            await transport.publish(channel, "said", {"n": 0})  # before following: not delivered
            await transport.follow(channel)
            await transport.publish(channel, "said", {"n": 1})
            await until(lambda: len(got) == 1)
            await asyncio.sleep(0.2)
            return got, await storage.db(last_seq, storage.store.engine, channel)
        finally:
            await transport.close()
            storage.close()

    got, last = asyncio.run(run())
    assert [e.data["n"] for e in got] == [1] and last == 2


def test_plunder_serve_says_which_transport_it_uses(tmp_path: Any, postgres_url: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    import plunder.cli.serve as cli

    served: list[object] = []
    monkeypatch.setattr(cli, "serve", lambda *args: served.append(args))
    for url, says in ((f"sqlite:///{tmp_path / 'p.db'}", InMemory.name), (postgres_url, PgTransport.name)):
        result = CliRunner().invoke(cli.serve_cmd, ["--db", url])
        assert result.exit_code == 0, result.output
        assert f"Live events: {says}" in result.output.splitlines()
    assert len(served) == 2


def test_a_sqlite_site_needs_no_postgresql_driver(tmp_path: Any) -> None:
    """psycopg comes with the ``postgres`` extra only: ``plunder serve`` on SQLite (the README's
    first command) imports, builds its app and names its transport without it."""
    url = f"sqlite:///{tmp_path / 'p.db'}"
    code = ("import sys; sys.modules['psycopg'] = None\n"  # every import of psycopg now fails
            "from plunder.web.app import create_app\n"
            "from plunder.web.tables import transport_name\n"
            f"create_app({url!r})\n"
            f"print(transport_name({url!r}))\n"
            "import asyncio\n"
            "from plunder.web.pgtransport import PgTransport\n"  # its listener connects with psycopg: refused
            "asyncio.run(PgTransport.__new__(PgTransport)._listen())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == InMemory.name, done.stderr
    # and the PostgreSQL transport does need it: the test's block works
    assert "ImportError" in done.stderr or "ModuleNotFoundError" in done.stderr, done.stderr

