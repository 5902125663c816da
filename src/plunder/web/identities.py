"""Who a request acts for: a browser identity, named by the hash of a seat token.

A browser's identity is the SHA-256 of the token it was given (:func:`~.store.token_hash`):
names, seats, games, ratings are all kept under that hash. A browser that signs in with a
passkey (:mod:`.passkeys`) is given a *fresh* token whose hash is not itself an identity but a
session of the claimed one: the :data:`sessions` table maps it to the identity it acts for.
:class:`Resolve` looks that up once per request and :func:`identity_of` / :func:`acting_for`
answer from it, so every route that used a token's hash acts for the identity instead.

A session lasts while it is used: it expires after :data:`SESSION_IDLE_SECONDS` without a
request (its ``expires`` slides forward as it is used, written at most once every
:data:`SESSION_TOUCH_SECONDS`), and signing out ends it at once (``expires`` set to
:data:`SIGNED_OUT`). A browser that claimed its identity holds the identity's own token; signing
out there writes a session row for that token too, already ended, so the token acts for nobody
from then on (the passkey is the way back in). A request whose token's session ended acts for
nobody: :class:`Resolve` takes the token out of it, so every route sees a newcomer.

What a process may remember without asking again: a hash with no session row is its own
identity until it signs out, and an ended session stays ended; but a live one may end at any
moment in another process, so :class:`Sessions` asks the store at every request for a hash
that has a session row or might be given one (it remembers, a bounded number, only the ended).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Callable, Iterable

from sqlalchemy import Column, Float, String, Table, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from .security import COOKIE, TOKEN_HEADER, TokenRefused, token_of
from .storage import Storage
from .store import Store, metadata, token_hash

sessions = Table(
    "passkey_sessions", metadata,
    # the SHA-256 of the session's token (the browser's cookie after a passkey sign-in)
    Column("token", String(64), primary_key=True),
    # the identity it acts for: the hash every row of that identity is kept under
    Column("identity", String(64), nullable=False, index=True),
    Column("created", Float, nullable=False),
    # when it ends unless used before: its last use plus SESSION_IDLE_SECONDS (SIGNED_OUT: ended;
    # the sessions of a store made before sessions expired are ended so: signing in again needs the passkey)
    Column("expires", Float, nullable=False, server_default=text("0")),
)

#: a session not used for this long (30 days) has ended: signing in again needs the passkey
SESSION_IDLE_SECONDS = 30 * 24 * 3600
#: a session's expiry is moved forward by a request at most this often (one write a minute
#: per signed-in browser, not one a request)
SESSION_TOUCH_SECONDS = 60
#: the ``expires`` of a session signed out: long past, and never moved forward again (a request
#: that read the session alive just before cannot slide it back to life: it moves only an
#: ``expires`` still to come)
SIGNED_OUT = 0.0
#: what :func:`session_of` says of a hash whose session ended: it acts for nobody
ENDED = ""

#: the key of the request scope where :class:`Resolve` leaves (token, identity hash)
SCOPE_KEY = "plunder.identity"
#: requests for the static files (scripts, styles, pictures) start with this
STATIC_PATH = "/static/"
#: most ended sessions one process remembers
CACHED_SESSIONS = 4096


def open_session(store: Store, token: str, identity: str, now: float) -> None:
    """Keep that the token hash ``token`` (freshly minted, not yet given out) acts for
    ``identity``, from ``now`` for :data:`SESSION_IDLE_SECONDS` of idleness."""
    with store.engine.begin() as db:
        db.execute(insert(sessions).values(token=token, identity=identity, created=now,
                                           expires=now + SESSION_IDLE_SECONDS))


def session_of(store: Store, token: str, now: float) -> str | None:
    """The identity the token hash ``token`` is a live session of at ``now`` (its expiry moved
    on, at most every :data:`SESSION_TOUCH_SECONDS`), :data:`ENDED` if its session was signed
    out or idle too long, or ``None``: it is no session (its own identity)."""
    with store.engine.begin() as db:
        found = db.execute(select(sessions.c.identity, sessions.c.expires).where(sessions.c.token == token)).first()
        if found is None:
            return None
        identity, expires = found
        if expires <= now:
            return ENDED
        if expires < now + SESSION_IDLE_SECONDS - SESSION_TOUCH_SECONDS:
            # only while still to come: a sign-out written meanwhile (SIGNED_OUT) stays
            db.execute(update(sessions).where(sessions.c.token == token, sessions.c.expires > now)
                       .values(expires=now + SESSION_IDLE_SECONDS))
        return str(identity)


def sign_out(store: Store, token: str, identity: str, now: float) -> None:
    """End the session of the token hash ``token`` (acting for ``identity``) in the store, so
    every process refuses it from now on; the identity's own token (a browser that claimed it)
    gets a session row already ended."""
    with store.engine.begin() as db:
        done = db.execute(update(sessions).where(sessions.c.token == token).values(expires=SIGNED_OUT)).rowcount
        if done == 0:
            try:
                with db.begin_nested():
                    db.execute(insert(sessions).values(token=token, identity=identity, created=now,
                                                       expires=SIGNED_OUT))
            except IntegrityError:  # signed out at the same moment elsewhere
                db.execute(update(sessions).where(sessions.c.token == token).values(expires=SIGNED_OUT))


def sign_out_everywhere(db: Connection, identity: str) -> list[str]:
    """End every session of ``identity`` (in the caller's transaction): its last passkey is gone,
    so nobody could sign in to it again, and the browsers signed in with one go with it. The
    token hashes of the sessions ended (their connections are to be closed)."""
    live = (sessions.c.identity == identity, sessions.c.token != identity, sessions.c.expires != SIGNED_OUT)
    ended = sorted(db.execute(select(sessions.c.token).where(*live)).scalars())
    db.execute(update(sessions).where(*live).values(expires=SIGNED_OUT))
    return ended


#: most token hashes :func:`ended_among` asks the store about in one query
ENDED_QUERY = 500


def ended_among(store: Store, tokens: Iterable[str], now: float) -> list[str]:
    """Those of the token hashes ``tokens`` whose session has ended by ``now`` (signed out, or
    idle too long while a connection opened with it stayed open without a word); an identity's
    own token, which has no session row unless it signed out, is never among them."""
    wanted = sorted(set(tokens))
    ended: list[str] = []
    with store.engine.connect() as db:
        for at in range(0, len(wanted), ENDED_QUERY):
            ended += db.execute(select(sessions.c.token).where(sessions.c.token.in_(wanted[at:at + ENDED_QUERY]),
                                                               sessions.c.expires <= now)).scalars()
    return ended


class Sessions:
    """The identities of token hashes, asked of the store at every request, but for the ended
    sessions, which are remembered (see the module's note on what may be remembered)."""

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock
        self._ended: OrderedDict[str, None] = OrderedDict()

    async def identity(self, token: str) -> str | None:
        """The identity the token hash ``token`` acts for: its session's, else itself; ``None``
        once its session ended (signed out, or idle too long)."""
        if token in self._ended:
            self._ended.move_to_end(token)  # the least recently used goes first
            return None
        found = await self.storage.db(session_of, self.storage.store, token, self.clock())
        if found is None:
            return token
        if found != ENDED:
            return found
        self._ended[token] = None
        if len(self._ended) > CACHED_SESSIONS:
            self._ended.popitem(last=False)
        return None


class Resolve:
    """ASGI middleware: finds the identity a request (or WebSocket) acts for, once, and leaves
    it in the scope for :func:`identity_of` and :func:`acting_for`; a token whose session ended
    is taken out of the request, which then comes from a newcomer. Static files act for nobody
    and are not looked up."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not scope["path"].startswith(STATIC_PATH):
            conn = HTTPConnection(scope)
            try:
                token = token_of(conn)
            except TokenRefused:  # the route refuses it in words
                token = None
            if token is not None:
                found: Sessions = scope["app"].state.sessions
                identity = await found.identity(token_hash(token))
                if identity is None:
                    scope = without_token(scope)
                else:
                    scope[SCOPE_KEY] = (token, identity)
        await self.app(scope, receive, send)


def without_token(scope: Scope) -> Scope:
    """``scope`` without the seat token it carried: no :data:`~.security.TOKEN_HEADER`, and no
    :data:`~.security.COOKIE` among its cookies (the others kept)."""
    headers = []
    for name, value in scope["headers"]:
        if name == TOKEN_HEADER.encode():
            continue
        if name == b"cookie":
            kept = [c for c in value.split(b";") if c.strip().partition(b"=")[0] != COOKIE.encode()]
            if not kept:
                continue
            value = b";".join(kept)
        headers.append((name, value))
    return {**scope, "headers": headers}


def acting_for(conn: HTTPConnection, token: str) -> str:
    """The identity the request acts for with ``token`` (the one it carries, or one minted for
    it now, which is its own identity)."""
    resolved = conn.scope.get(SCOPE_KEY)
    if resolved is not None and resolved[0] == token:
        return str(resolved[1])
    return token_hash(token)


#: what a connection opened by a session that has since ended is told before it is closed
SIGNED_OUT_WORDS = "This browser signed out (or its sign-in expired): reload the page."


async def still_signed_in(conn: HTTPConnection) -> bool:
    """False when the connection ``conn`` (a WebSocket, say, opened a while ago) was opened with
    a token that acts for nobody since: a session that ended (signed out, or idle too long), or
    the identity's own token signed out in the browser that claimed it. Asked of the store, as
    at every request: the sign-out may have been on another process, and an identity kept in
    its browser only may be claimed, then signed out, while the connection is open."""
    resolved = conn.scope.get(SCOPE_KEY)
    if resolved is None:  # a newcomer or a spectator: it acts for nobody already
        return True
    found: Sessions = conn.scope["app"].state.sessions
    return await found.identity(token_hash(resolved[0])) == resolved[1]


def signed_in(conn: HTTPConnection) -> bool:
    """Whether the request's token is a session of an identity (a passkey sign-in's), not the
    identity's own token."""
    resolved = conn.scope.get(SCOPE_KEY)
    return resolved is not None and token_hash(resolved[0]) != resolved[1]


def identity_of(conn: HTTPConnection) -> str | None:
    """The identity the request acts for; ``None`` for a newcomer (or a malformed token
    header: such a request acts for nobody)."""
    try:
        token = token_of(conn)
    except TokenRefused:
        return None
    return None if token is None else acting_for(conn, token)
