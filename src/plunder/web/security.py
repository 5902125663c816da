"""Who may act for a seat, and what keeps other sites out.

Seat tokens: the server mints every one (:func:`~.tables.new_token`) and hands it to a browser as the
:data:`COOKIE` cookie, set only on the answer to a request that carried no token, so a cookie
is never replaced by a request that did not carry it (the one exception, a passkey sign-in,
replaces it with a fresh token: :mod:`.signin`). A client without cookies (a bot, the
load bench) sends its token in the :data:`TOKEN_HEADER` header of each request; that header
is never stored. A token in an address (``?token=``) is not read at all: a link or a form of
another site could otherwise choose a victim's token (session fixation).

Other sites: every state-changing request (any method but GET, HEAD, OPTIONS) and every
WebSocket upgrade must come from a page of this server's own origin (:func:`foreign`); an
invite link may be followed from anywhere, but only as a top-level navigation
(:func:`navigated_here`). Every answer carries :data:`HEADERS`: a Content-Security-Policy
without inline script, no framing, no sniffing, no referrer to other sites. docs/web.md has the model.
"""

from __future__ import annotations

import re
import secrets
import urllib.parse

from starlette.datastructures import URL, Headers, MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def new_token() -> str:
    """An unguessable token (game ids, seat tokens, invite codes)."""
    return secrets.token_urlsafe(18)


#: the cookie holding a browser's seat token
COOKIE = "plunder_token"
#: a year: a game may be resumed long after it was left
COOKIE_SECONDS = 365 * 24 * 3600
#: the request header a client without cookies passes its token in (never stored)
TOKEN_HEADER = "x-plunder-token"
#: what a token the server mints looks like (:func:`~.tables.new_token`: 18 random bytes,
#: ``secrets.token_urlsafe``); anything else is refused before it is hashed
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{24}")
#: methods that change nothing: the only ones other sites may send (links, images)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: ``Sec-Fetch-Site`` values of a request made by this server's own pages, or typed by the user
OWN_SITES = frozenset({"same-origin", "none"})
#: WebSocket close code for a refused upgrade (policy violation)
CLOSE_FOREIGN = 1008

#: The policy of every page. Scripts only from this server's files (no inline script, no
#: eval): initial state rides in ``<script type="application/json">`` blocks, which are data
#: and never run. Styles only from its stylesheets too: no template has a ``style=``
#: attribute or ``<style>`` element and the game pictures' SVG colours its elements with
#: presentation attributes (``fill=``, ``stroke=``), which a policy does not govern; scripts
#: set styles through the DOM (``el.style.x = ...``), which it allows. ``connect-src 'self'``
#: covers the game's WebSocket on the same host and port. No framing (``frame-ancestors``).
CSP = "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
    "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
])
#: the headers of every HTTP answer. ``same-origin`` keeps game ids and invite codes (in the
#: page addresses) out of what a link followed to another site tells it; not ``no-referrer``,
#: under which a browser sends ``Origin: null`` on this server's own form posts (Fetch
#: standard), which the Origin rule could not tell from another site's.
HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


class TokenRefused(ValueError):
    """A :data:`TOKEN_HEADER` that is not a token this server mints."""

    def __init__(self) -> None:
        super().__init__(f"The {TOKEN_HEADER} header is not a seat token of this server "
                         f"({TOKEN_SHAPE.pattern}); leave it out to be given one.")


def token_of(conn: HTTPConnection) -> str | None:
    """The seat token a request acts with: the :data:`TOKEN_HEADER` header, else the cookie;
    ``None`` for a newcomer. A malformed header is :class:`TokenRefused`; a malformed cookie
    counts as none (it acts for nothing)."""
    header = conn.headers.get(TOKEN_HEADER)
    if header is not None:
        if not TOKEN_SHAPE.fullmatch(header):
            raise TokenRefused()
        return header
    cookie = conn.cookies.get(COOKIE)
    return cookie if cookie and TOKEN_SHAPE.fullmatch(cookie) else None


def seat_token(conn: HTTPConnection) -> tuple[str, bool]:
    """The token a request that takes seats acts with, and whether it was minted for it now
    (only then does the answer set the cookie: see :func:`remember`)."""
    token = token_of(conn)
    return (token, False) if token is not None else (new_token(), True)


def remember(response: Response, conn: HTTPConnection, token: str) -> Response:
    """``response`` setting a newly minted token as the cookie (HTTP only, same site)."""
    response.set_cookie(COOKIE, token, max_age=COOKIE_SECONDS, httponly=True, samesite="lax",
                        secure=conn.url.scheme == "https")
    return response


def _origin_parts(scheme: str, host: str | None, port: int | None) -> tuple[str, str, int | None]:
    """(scheme, host, port) of an origin, the port filled in from the scheme's default."""
    default = {"http": 80, "https": 443}.get(scheme)
    return scheme, (host or "").lower(), port if port is not None else default


def foreign(scope: Scope) -> str | None:
    """Why a request or WebSocket upgrade comes from another origin than this server's own,
    or ``None`` when it does not. Its ``Origin`` (sent by browsers on every POST and every
    WebSocket) must be the address it was sent to (scheme, host and port: the same host at
    another port is another origin); without one, its ``Sec-Fetch-Site`` must say the same
    origin, or the user. A client sending neither (not a browser) is served."""
    headers = Headers(scope=scope)
    origin = headers.get("origin")
    if origin is None:
        site = headers.get("sec-fetch-site")
        return None if site is None or site in OWN_SITES else f"Sec-Fetch-Site {site[:40]}"
    url = URL(scope=scope)
    scheme = {"ws": "http", "wss": "https"}.get(url.scheme, url.scheme)
    own = _origin_parts(scheme, url.hostname, url.port)
    try:
        given = urllib.parse.urlsplit(origin)
        theirs = _origin_parts(given.scheme, given.hostname, given.port)
    except ValueError:
        return f"Origin {origin[:80]!r}"
    return None if theirs == own else f"Origin {origin[:80]!r}"


def navigated_here(conn: HTTPConnection) -> bool:
    """Whether a GET that takes a seat may set a cookie: one from this origin or typed by the
    user, else a top-level navigation (a link followed from a mail or a chat), which carries
    the Lax cookie. An image, a frame or a script of another site would arrive without it."""
    site = conn.headers.get("sec-fetch-site")
    if site is None or site in OWN_SITES:
        return True
    return conn.headers.get("sec-fetch-mode") == "navigate" and conn.headers.get("sec-fetch-dest") == "document"


class Guard:
    """ASGI middleware: refuses a state-changing request or a WebSocket upgrade from another
    origin (:func:`foreign`: 403, or the upgrade closed before it is accepted) and adds
    :data:`HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            why = foreign(scope)
            if why is None:
                await self.app(scope, receive, send)
                return
            await receive()  # the upgrade request; closing now answers it with 403
            await send({"type": "websocket.close", "code": CLOSE_FOREIGN,
                        "reason": f"refused: from another site ({why})"[:120]})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers[name] = value
            await send(message)

        why = foreign(scope) if scope["method"] not in SAFE_METHODS else None
        if why is None:
            await self.app(scope, receive, headed)
            return
        body = (f"Refused: this request came from another site ({why}). "
                "Open the page on this server and send it from there.").encode()
        await headed({"type": "http.response.start", "status": 403,
                      "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                  (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
