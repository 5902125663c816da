"""The ASGI app and the ``plunder serve`` entry point.

:func:`create_app` assembles every module's ``routes`` and the static files behind the
origin check and security headers (:class:`.security.Guard`) and the body-size limit; :func:`serve`
runs it under uvicorn. The database URL (SQLite file by default, PostgreSQL by URL) is kept
in ``app.state.db_url`` for the store.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator, Callable

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from ..core.registry import entry, game_ids
from . import assets, coach, editor, games, lobby, newgame, pages, rating_history, ratings, replays, roomfeed, scores
from . import daily_pages, mutes, puzzle_pages, quotas, signin
from .limits import (ADDRESS_ANALYSIS_BURST, ADDRESS_ANALYSIS_RATE, ANALYSIS_BURST, ANALYSIS_RATE, CREATE_BURST,
                     CREATE_RATE, MAX_FRAME_BYTES, SPECTATOR_BURST, SPECTATOR_RATE, UPLOAD_BURST, UPLOAD_RATE,
                     VIEW_BURST, VIEW_RATE, BodyLimit, Buckets)
from .chat import Chat
from .front import Front, FrontDoor
from .identities import Resolve, Sessions
from .security import HEADERS, Guard
from .store import Store
from .tables import Tables
from .thinking import Thinkers
from .templating import STATIC_DIR, templates

#: where ``plunder serve`` listens unless told otherwise (loopback: nothing is exposed by default)
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def data_dir() -> Path:
    """The user's data folder for Plunder (``$XDG_DATA_HOME/plunder``, else ``~/.local/share/plunder``)."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "plunder"


def default_db_url() -> str:
    """The embedded database: a SQLite file in the user's data folder."""
    return f"sqlite:///{data_dir() / 'plunder.db'}"


async def http_error(request: Request, exc: Exception) -> Response:
    """Any refused request as a plain page saying why (no traceback ever reaches a user)."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "something went wrong on the server"
    # the headers again: a 500 is answered outside the middleware that adds them to the rest
    # a refusal's own headers (a 429's Retry-After) with them
    headers = {**HEADERS, **(exc.headers or {})} if isinstance(exc, HTTPException) else HEADERS
    return templates.TemplateResponse(request, "error.html", {"status": status, "detail": detail},
                                      status_code=status, headers=headers)


def create_app(db_url: str | None = None, ai_workers: int | None = None, warm: bool = False,
               front: Front | None = None, clock: Callable[[], float] = time.time) -> Starlette:
    """The web app over the database at ``db_url`` (default: :func:`default_db_url`), its AI
    moves and hints in ``ai_workers`` processes (default: one per core; 0: a thread), started
    in the background with the app when ``warm`` (else at the first AI move); ``front`` says
    which proxies it trusts and which names it answers to (default: no proxy, any name: an app
    not served on its own, as under a test client; :func:`serve` always names them); ``clock``
    tells the time (which day's deal is on: the tests give their own)."""
    routes = [*pages.routes, *newgame.routes, *games.routes, *lobby.routes, *replays.routes, *coach.routes, *editor.routes, *assets.routes,
              *ratings.routes, *rating_history.routes, *scores.routes, *roomfeed.routes, *signin.routes, *mutes.routes,
              *daily_pages.routes, *puzzle_pages.routes,
              Mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")]
    store = Store(db_url or default_db_url())
    tables = Tables(store, Thinkers(ai_workers))
    tables.clock = clock
    room = roomfeed.Room(tables)
    pars = daily_pages.Pars(tables)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await tables.start()
        await room.start()
        # the AI workers start in the background: the server answers at once
        warming = asyncio.create_task(tables.thinkers.start()) if warm else None
        try:
            yield
        finally:
            if warming is not None:
                warming.cancel()
            await pars.close()
            await room.close()
            await tables.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: http_error},
                    middleware=[Middleware(FrontDoor, front=front or Front()), Middleware(Guard),
                                Middleware(BodyLimit), Middleware(Resolve)], lifespan=lifespan)
    app.state.db_url = store.url
    app.state.tables = tables
    app.state.room = room
    app.state.pars = pars
    app.state.chat = Chat(tables)
    # which identity each token acts for (:mod:`.identities`: a passkey sign-in's sessions)
    app.state.sessions = Sessions(tables.storage, tables.time)
    # what the processes share is limited on every process together; views guard this process's own event loop
    app.state.creations = quotas.buckets(tables.storage, "create", CREATE_RATE, CREATE_BURST)
    app.state.uploads = quotas.buckets(tables.storage, "upload", UPLOAD_RATE, UPLOAD_BURST)
    app.state.passkey_asks = quotas.buckets(tables.storage, "passkey", signin.PASSKEY_RATE, signin.PASSKEY_BURST)
    app.state.analyses = quotas.buckets(tables.storage, "analyse token", ANALYSIS_RATE, ANALYSIS_BURST)
    app.state.address_analyses = quotas.buckets(tables.storage, "analyse address", ADDRESS_ANALYSIS_RATE,
                                                ADDRESS_ANALYSIS_BURST)
    app.state.views = Buckets(VIEW_RATE, VIEW_BURST)
    app.state.spectators = Buckets(SPECTATOR_RATE, SPECTATOR_BURST)
    return app


def preload() -> None:
    """Import every game now and hand what was made so far (modules, classes, functions: most
    of the process's objects) to the garbage collector's permanent generation. A full
    collection walks every object it tracks while the event loop waits; the games' code then
    costs it nothing, and no first request of a game waits for the game's import."""
    for game_id in game_ids():
        entry(game_id)
    gc.collect()
    gc.freeze()


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, db_url: str | None = None,
          front: Front | None = None) -> None:
    """Run the web app under uvicorn until interrupted, trusting the proxies and answering to the
    names of ``front`` (default: none, and the loopback names and ``host``: :meth:`.Front.configured`)."""
    app = create_app(db_url, warm=True, front=front or Front.configured([], [], host))
    preload()
    # forwarded headers are read by the app's front door, from the configured proxies only:
    # uvicorn's own reading trusts 127.0.0.1 (any local client) by default
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=MAX_FRAME_BYTES, proxy_headers=False)
