"""What the web server accepts from a browser: request and message sizes, message and game
creation rates. Everything a browser sends is untrusted; each limit is one constant here,
listed in docs/limits.md and docs/web.md.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.files import MAX_FILE_BYTES, json_depth
from ..core.record import MAX_RECORD_BYTES

#: largest request body: a record upload (the largest thing a browser sends) and its form
MAX_BODY_BYTES = MAX_RECORD_BYTES + 64_000
#: largest form field of the new-game form (an inline Pillage board is a board file's size)
MAX_FIELD_BYTES = MAX_FILE_BYTES + 1_000
#: most fields in a form
MAX_FORM_FIELDS = 64
#: largest WebSocket message the server reads; uvicorn closes the connection on one over
#: :data:`MAX_FRAME_BYTES`, the handler answers anything between with an error
MAX_MESSAGE_BYTES = 4_096
MAX_FRAME_BYTES = 65_536
#: deepest nesting of ``[`` and ``{`` in a WebSocket message (a message of the protocol has 1);
#: the JSON reader recurses once a level, so a deeper one is refused before it is read
MAX_MESSAGE_DEPTH = 8
#: a connection may send :data:`MESSAGE_BURST` messages at once, then :data:`MESSAGE_RATE` a second
MESSAGE_RATE = 10.0
MESSAGE_BURST = 30
#: a connection that keeps sending over its rate is closed after this many refusals
MAX_REFUSED = 50
#: games one address may create on the site (every server process's together: :mod:`.quotas`):
#: :data:`CREATE_BURST` at once, then :data:`CREATE_RATE` a second
CREATE_RATE = 1.0
CREATE_BURST = 300
#: game views one seat holder may open (a game's page, ``/play`` or ``/watch``, and its live
#: channel, ``/ws``; counted per seat token, so others behind its address never use them up):
#: :data:`VIEW_BURST` at once, then :data:`VIEW_RATE` a second. A person opening tabs or
#: reloading never meets it; a client reloading without pause gets 429 (a refused channel: an
#: ``error`` message, then close code :data:`CLOSE_TRY_LATER`) instead of a share of the event
#: loop every game needs
VIEW_RATE = 2.0
VIEW_BURST = 30
#: game views the strangers behind one address (spectators, and tokens holding no seat in the
#: game) may open together: an address may be a school's, an office's or a proxy's, so it is
#: allowed many people's share, :data:`SPECTATOR_BURST` at once, then :data:`SPECTATOR_RATE` a
#: second; a flood past it is refused as above. Views are counted per process: each process
#: guards its own event loop
SPECTATOR_RATE = 20.0
SPECTATOR_BURST = 200
#: the WebSocket close code of a channel refused for its client's view rate (RFC 6455: try again later)
CLOSE_TRY_LATER = 1013
#: addresses whose creation rate is remembered (the oldest are forgotten first)
MAX_ADDRESSES = 10_000
#: records one address may upload to replay on the site (each up to seconds of replay; every
#: process's together): :data:`UPLOAD_BURST` at once, then :data:`UPLOAD_RATE` a second (one every 10 s)
UPLOAD_RATE = 0.1
UPLOAD_BURST = 10
#: full replays of records waiting for the replay worker or in it, whatever addresses ask (503 past it)
MAX_REPLAYS_WAITING = 8
#: games analysed at once by the coach on the site (docs/web.md, "Coach"; every process's
#: together: :mod:`.quotas`): past this a new analysis is refused (503)
MAX_ANALYSES = 4
#: analyses one identity (a seat token) may start on the site (every process's together: a shared
#: bucket): :data:`ANALYSIS_BURST` at once, then :data:`ANALYSIS_RATE` a second (one every 2
#: minutes). An analysis kept, or under way, answered again costs nothing
ANALYSIS_RATE = 1 / 120
ANALYSIS_BURST = 3
#: analyses the clients behind one address may start together (whatever tokens they hold: a
#: client minting tokens gains nothing; several people may share an address, so more than one's):
#: :data:`ADDRESS_ANALYSIS_BURST` at once, then :data:`ADDRESS_ANALYSIS_RATE` a second (one every 30 s)
ADDRESS_ANALYSIS_RATE = 1 / 30
ADDRESS_ANALYSIS_BURST = 10
#: finished games whose analyses the coach keeps in memory (the least recently asked for are forgotten)
CACHE_ANALYSES = 64
#: the coach's budget in playouts per position (the CLI's default is the game's own, larger): a
#: 60-move Pillage 4x4 game is about 9 s of CPU at this budget (docs/web.md)
COACH_SIMS = 32
#: the longest game the coach analyses, in moves (at about a fifth of a second a decision, a
#: game this long holds one of :data:`MAX_ANALYSES` places for minutes)
COACH_MAX_MOVES = 2_000


def deeper_than(text: str, most: int) -> bool:
    """Whether the JSON text ``text`` nests arrays and objects more than ``most`` deep
    (brackets inside strings do not count)."""
    return json_depth(text) > most


def clock() -> float:
    """The buckets' clock in seconds (monotonic; tests stop it to count a burst on a slow machine)."""
    return time.monotonic()


@dataclass
class Bucket:
    """A token bucket: ``burst`` tokens, refilled at ``rate`` a second; :meth:`take` spends one."""

    rate: float
    burst: float
    tokens: float = -1.0
    at: float = field(default_factory=lambda: clock())

    def take(self) -> bool:
        """Spend a token if there is one."""
        now = clock()
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Buckets:
    """One :class:`Bucket` per key (a client address, a token's hash), forgetting the oldest past a bound."""

    def __init__(self, rate: float, burst: float, most: int = MAX_ADDRESSES) -> None:
        self.rate, self.burst, self.most = rate, burst, most
        self.buckets: dict[str, Bucket] = {}

    def take(self, key: str) -> bool:
        """Spend one of ``key``'s tokens if it has one."""
        bucket = self.buckets.pop(key, None) or Bucket(self.rate, self.burst)
        if len(self.buckets) >= self.most:
            self.buckets.pop(next(iter(self.buckets)))
        self.buckets[key] = bucket
        return bucket.take()

    async def spend(self, key: str) -> bool:
        """:meth:`take`, as a limit shared by several processes is spent (:class:`.quotas.SharedBuckets`)."""
        return self.take(key)

    def wait(self) -> int:
        """Whole seconds until a refused key has a token again (the ``Retry-After`` it is told)."""
        return max(1, math.ceil(1 / self.rate))


class BodyLimit:
    """ASGI middleware refusing an HTTP request whose body is over ``limit`` bytes with 413,
    whether it says so in ``Content-Length`` or streams past it."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self.refuse(send)
                    return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not started:
                await self.refuse(send)

    async def refuse(self, send: Send) -> None:
        """Answer 413 in plain words."""
        body = f"The request is too large: the limit is {self.limit:,} bytes.".encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class BodyTooLarge(HTTPException):
    """A streamed request body went past :class:`BodyLimit`'s limit: the app's error page
    answers it (status 413) when the app is reading the body."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request is too large: the limit is {limit:,} bytes.")
