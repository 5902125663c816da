"""Who a request acts for: a browser identity, named by the hash of a seat token.

A browser's identity is the SHA-256 of the token it was given (:func:`~.store.token_hash`):
names, seats, games, ratings are all kept under that hash. A browser that signs in with a
passkey (:mod:`.passkeys`) is given a *fresh* token whose hash is not itself an identity but a
session of the claimed one: the :data:`sessions` table maps it to the identity it acts for.
:class:`Resolve` looks that up once per request and :func:`identity_of` / :func:`acting_for`
answer from it, so every route that used a token's hash acts for the identity instead.

A session row is written before its token is given to the browser and never changes, so what
one process learnt of a hash (a session of X, or no session) stays true: :class:`Sessions`
keeps the answers it looked up (a bounded number) without asking again.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from sqlalchemy import Column, Float, String, Table, insert, select
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from .security import TokenRefused, token_of
from .storage import Storage
from .store import Store, metadata, token_hash

sessions = Table(
    "passkey_sessions", metadata,
    # the SHA-256 of the session's token (the browser's cookie after a passkey sign-in)
    Column("token", String(64), primary_key=True),
    # the identity it acts for: the hash every row of that identity is kept under
    Column("identity", String(64), nullable=False, index=True),
    Column("created", Float, nullable=False),
)

#: the key of the request scope where :class:`Resolve` leaves (token, identity hash)
SCOPE_KEY = "plunder.identity"
#: most token hashes one process remembers the identity of
CACHED_SESSIONS = 4096


def open_session(store: Store, token: str, identity: str) -> None:
    """Keep that the token hash ``token`` (freshly minted, not yet given out) acts for ``identity``."""
    with store.engine.begin() as db:
        db.execute(insert(sessions).values(token=token, identity=identity, created=time.time()))


def session_of(store: Store, token: str) -> str | None:
    """The identity the token hash ``token`` is a session of, or ``None`` (it is its own)."""
    with store.engine.connect() as db:
        found = db.execute(select(sessions.c.identity).where(sessions.c.token == token)).scalar()
        return None if found is None else str(found)


class Sessions:
    """The identities of token hashes, looked up in the store and remembered (see the module's
    note on why a remembered answer never goes stale)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._known: OrderedDict[str, str] = OrderedDict()

    async def identity(self, token: str) -> str:
        """The identity the token hash ``token`` acts for: its session's, else itself."""
        known = self._known.get(token)
        if known is not None:
            self._known.move_to_end(token)  # the least recently used goes first
            return known
        known = await self.storage.db(session_of, self.storage.store, token) or token
        self._known[token] = known
        if len(self._known) > CACHED_SESSIONS:
            self._known.popitem(last=False)
        return known


class Resolve:
    """ASGI middleware: finds the identity a request (or WebSocket) acts for, once, and leaves
    it in the scope for :func:`identity_of` and :func:`acting_for`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            conn = HTTPConnection(scope)
            try:
                token = token_of(conn)
            except TokenRefused:  # the route refuses it in words
                token = None
            if token is not None:
                found: Sessions = scope["app"].state.sessions
                scope[SCOPE_KEY] = (token, await found.identity(token_hash(token)))
        await self.app(scope, receive, send)


def acting_for(conn: HTTPConnection, token: str) -> str:
    """The identity the request acts for with ``token`` (the one it carries, or one minted for
    it now, which is its own identity)."""
    resolved = conn.scope.get(SCOPE_KEY)
    if resolved is not None and resolved[0] == token:
        return str(resolved[1])
    return token_hash(token)


def identity_of(conn: HTTPConnection) -> str | None:
    """The identity the request acts for; ``None`` for a newcomer (or a malformed token
    header: such a request acts for nobody)."""
    try:
        token = token_of(conn)
    except TokenRefused:
        return None
    return None if token is None else acting_for(conn, token)
