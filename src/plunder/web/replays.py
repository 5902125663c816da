"""Replays: any record stepped through in the browser, position by position, with the
narration of every move, and the record's JSON to download.

A record is untrusted (an upload, or a game from the store): it is read by
:meth:`Record.from_json` within its limits and replayed whole through the rules
(:func:`plunder.pictures.positions`) before a single picture is drawn. An uploaded record is
not stored: the page carries its text, and the pictures are asked for one at a time (a long
Crossroads game has tens of thousands of positions), from an in-memory cache of replayed games
keyed by the record's digest and bounded in moves (:data:`CACHE_MOVES`); a server that has
forgotten a record (restarted, evicted) is sent it again by the page.

A record of the largest size is seconds of replay: the work runs in the replay worker, a process
of its own behind a fair queue (:meth:`plunder.web.thinking.Thinkers.replay`), which holds the
cache; the event loop only fills in the page. Uploads are rate-limited per address
(:data:`plunder.web.limits.UPLOAD_RATE`), and at most :data:`MAX_REPLAYS_WAITING` full replays
wait for the worker, whatever addresses ask.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
from html import escape
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, TypeVar

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.errors import PlunderError, RecordError
from ..core.game import Game, State
from ..core.record import MAX_RECORD_BYTES, Record
from ..core.registry import entry, load_game
from ..core.svg import Shown, outcome_text, seats_called
from ..match import breakdown_of
from ..pictures import positions, svg_of
from .chat import shown
from .games import address_of, chat_of, tables_of
from .limits import MAX_BODY_BYTES, MAX_REPLAYS_WAITING, UPLOAD_BURST, UPLOAD_RATE
from .identities import identity_of
from .names import Callers
from . import daily, outcomes
from .store import OVER, RESIGNED
from .table import Table
from .templating import templates
from .thinking import Busy, Superseded

T = TypeVar("T")

#: largest upload, in bytes: a record's own limit plus room for the form's framing (the app's body limit)
MAX_UPLOAD_BYTES = MAX_BODY_BYTES
#: finished games the list of replays shows
RECENT_GAMES = 50
#: replayed games kept in memory for their pictures, at most
CACHE_GAMES = 16
#: moves of the replayed games kept in memory, in all: the cache's bound in size (a move costs a
#: few hundred bytes with :data:`CHECKPOINT_MOVES`; docs/web.md gives the measured figure). A
#: record longer than this is replayed but not kept: its pictures come from the page sending it again
CACHE_MOVES = 120_000
#: a replay keeps every this-many-th position; a picture between is replayed from the one before
CHECKPOINT_MOVES = 64


class NoPosition(LookupError):
    """A position number outside a replay."""


@dataclass(frozen=True)
class Replay:
    """A record replayed: its start, every :data:`CHECKPOINT_MOVES`-th position and its end, and
    each move in words (the positions between are replayed again when asked for: a 39,000-move
    record kept whole was 70 MB)."""

    digest: str
    record: Record
    checkpoints: tuple[State, ...]
    end: State
    shown: tuple[Shown | None, ...]
    #: the final score taken apart, with the figures of an observer shown every move
    #: (:func:`plunder.match.breakdown_of`); empty for a game not over
    breakdown: tuple[str, ...] = ()

    @property
    def last(self) -> int:
        """The number of the last position (= the number of moves)."""
        return len(self.shown) - 1

    def state(self, n: int) -> State:
        """Position ``n`` (:class:`NoPosition` outside the game), from the checkpoint before it."""
        if not 0 <= n <= self.last:
            raise NoPosition(f"this game has positions 0 to {self.last}, not {n}")
        if n == self.last:
            return self.end
        i = n // CHECKPOINT_MOVES
        state = self.checkpoints[i]
        for move in self.record.moves[i * CHECKPOINT_MOVES:n]:
            state = state.apply(state.game.parse_action(state, move.action))
        return state

    def frame(self, n: int, callers: Callers | None = None) -> dict[str, object]:
        """Position ``n`` as the page shows it: its picture (its seats called as ``callers``
        call them, where a game of this server's knows its players' names) and the words of
        the move that led there."""
        shown = self.shown[n] if 0 <= n <= self.last else None
        return {"n": n, "svg": pictured(self.state(n), shown, callers), "told": shown.words() if shown else "the start"}

    def moves(self) -> list[dict[str, object]]:
        """Every move in words, for the move list (chance's moves marked as such)."""
        return [{"n": s.number, "text": s.text, "told": s.told, "chance": m.by is None}
                for s, m in zip(self.shown[1:], self.record.moves) if s is not None]

    def result(self) -> dict[str, object] | None:
        """The verdict and the score's breakdown when the game ended, else ``None``."""
        if not self.end.is_terminal():
            return None
        return {"verdict": outcome_text(self.end), "breakdown": list(self.breakdown)}


def pictured(state: State, shown: Shown | None, callers: Callers | None) -> str:
    """The picture of ``state``, its seats called as ``callers`` call them (by their labels: ``None``)."""
    if callers is None:
        return svg_of(state, shown)
    with seats_called(callers.told):
        return svg_of(state, shown)


_cache: OrderedDict[str, Replay] = OrderedDict()
_cache_lock = threading.Lock()


def digest_of(text: str) -> str:
    """The key of a record's text (its SHA-256, hex)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cached(digest: str) -> Replay | None:
    """The replay of the record with ``digest`` if this process still holds it."""
    with _cache_lock:
        found = _cache.get(digest)
        if found is not None:
            _cache.move_to_end(digest)
        return found


def cached_moves() -> int:
    """The moves of the replays the cache holds, in all (at most :data:`CACHE_MOVES`)."""
    with _cache_lock:
        return sum(r.last for r in _cache.values())


def replay_text(text: str) -> Replay:
    """Read and replay a record's text (:class:`RecordError` saying what is wrong), cached by
    the digest of its canonical text (what the page sends back when the cache has lost it)."""
    return replay_record(Record.from_json(text))


def replay_record(record: Record) -> Replay:
    """Replay ``record`` through the rules (:class:`RecordError` at its first bad move), or
    take it from the cache."""
    digest = digest_of(record.to_json())
    found = cached(digest)
    if found is not None:
        return found
    checkpoints: list[State] = []
    shown: list[Shown | None] = []
    state: State | None = None
    try:
        for n, (state, move) in enumerate(positions(record)):
            if n % CHECKPOINT_MOVES == 0:
                checkpoints.append(state)
            shown.append(move)
    except RecordError:
        raise
    except PlunderError as exc:  # a record that replays but cannot be pictured
        raise RecordError(str(exc)) from None
    assert state is not None  # positions() yields the start at least
    breakdown = tuple(breakdown_of(state.game, record.moves)) if state.is_terminal() else ()
    made = Replay(digest, record, tuple(checkpoints), state, tuple(shown), breakdown)
    if made.last <= CACHE_MOVES:
        with _cache_lock:
            _cache[digest] = made
            held = sum(r.last for r in _cache.values())
            while len(_cache) > CACHE_GAMES or held > CACHE_MOVES:
                held -= _cache.popitem(last=False)[1].last
    return made


# ---- the work of a replay, done in the replay worker (plunder.web.thinking): the page's parts,
# the heavy ones already rendered, so the server's event loop only fills them in ----

def move_list(replay: Replay, start: int) -> str:
    """The ``<li>`` items of the replay's move list, position ``start`` marked current (by hand,
    every text escaped: a template takes seconds over tens of thousands of moves)."""
    items = []
    for m in replay.moves():
        classes = ("chance" if m["chance"] else "") + (" current" if start == m["n"] else "")
        items.append(f'<li data-n="{m["n"]}" class="{classes}"><a href="?n={m["n"]}"><span class="n">{m["n"]}.</span> '
                     f'<code>{escape(str(m["text"]))}</code> {escape(str(m["told"]))}</a></li>')
    return "\n".join(items)


def page_parts(replay: Replay, start: int, callers: Callers | None = None) -> dict[str, Any]:
    """What the replay page shows of ``replay`` opened at position ``start``, its move list
    rendered (tens of thousands of moves are hundreds of milliseconds of templating), its
    picture's seats called as ``callers`` call them."""
    start = min(max(start, 0), replay.last)
    first = replay.frame(start, callers)
    record = replay.record
    record_json = record.to_json()
    moves = move_list(replay, start)
    return {
        "title": entry(record.game).game_class.title,
        "game_id": record.game,
        "players": record.players,
        "moves_html": Markup(moves),
        "last": replay.last,
        "start": start,
        "svg": Markup(first["svg"]),
        "told": first["told"],
        "result": replay.result(),
        "params": {k: shown_param(v) for k, v in record.params.items()},
        "digest": replay.digest,
        # escaped here, not by the page's template: megabytes of escaping off the event loop; the
        # page's download link is made from it by the page's script (not a second copy, quoted)
        "record_json": Markup(escape(record_json)),
        "filename": f"plunder-{record.game}-{replay.digest[:8]}.json",
    }


def text_page(text: str, start: int) -> dict[str, Any]:
    """:func:`page_parts` of a record's text (:class:`RecordError` saying what is wrong)."""
    return page_parts(replay_text(text), start)


def record_page(record: Record, start: int, callers: Callers | None = None) -> dict[str, Any]:
    """:func:`page_parts` of a record of this server's, its seats called as ``callers`` call them."""
    return page_parts(replay_record(record), start, callers)


def cached_frame(digest: str, n: int) -> dict[str, object] | None:
    """Position ``n`` of the cached replay ``digest``; ``None`` when it is not cached."""
    found = cached(digest)
    return None if found is None else found.frame(n)


def text_frame(text: str, digest: str, n: int) -> dict[str, object]:
    """Position ``n`` of a record's text, which must have ``digest`` (:class:`RecordError` if not)."""
    replay = replay_text(text)
    if replay.digest != digest:
        raise RecordError("that is not the record this page shows")
    return replay.frame(n)


def record_frame(record: Record, n: int, callers: Callers | None = None) -> dict[str, object]:
    """Position ``n`` of a record of this server's, its seats called as ``callers`` call them."""
    return replay_record(record).frame(n, callers)


async def read_capped(request: Request, limit: int) -> bytes:
    """The request's body, refused with 413 past ``limit`` bytes (checked as it arrives, so a
    client that does not say its length cannot send more)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise HTTPException(413, f"that upload is {int(declared):,} bytes; the limit is {limit:,}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, f"that upload is over the limit of {limit:,} bytes")
    return bytes(body)


async def uploaded_text(request: Request) -> str:
    """The record text of an upload form: the file if one was chosen, else the pasted text."""
    body = await read_capped(request, MAX_UPLOAD_BYTES)

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": body, "more_body": False}

    form = await Request(request.scope, receive).form(max_files=1, max_fields=4, max_part_size=MAX_UPLOAD_BYTES)
    upload = form.get("file")
    data = b""
    if upload is not None and not isinstance(upload, str):
        data = await upload.read()
    text: str
    if data:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise HTTPException(400, "that file is not a record: it is not UTF-8 text") from None
    else:
        pasted = form.get("text")
        text = pasted if isinstance(pasted, str) else ""
    if not text.strip():
        raise HTTPException(400, "choose a record file (.json) or paste a record's text")
    return text


async def render_replay(request: Request, parts: dict[str, Any], *, source: dict[str, object],
                        result: dict[str, Any] | None = None, status_code: int = 200) -> Response:
    """The replay page from its ``parts`` (:func:`page_parts`); ``source`` says where its
    pictures come from (the page's JS reads it): ``kind`` (``upload`` or ``game``), ``frames``
    (the path that position numbers are appended to) and optionally ``download`` (the record's
    address; else the page carries it). ``result`` is the verdict and breakdown when the caller
    knows better than the moves (a resignation). The page of a long record is megabytes of
    HTML: it is rendered in a thread, never on the event loop the games' moves wait on."""
    context = {
        **parts,
        "result": result or parts["result"],
        "config": {"digest": parts["digest"], "last": parts["last"], "start": parts["start"], **source},
        "download": source.get("download"),
    }
    response: Response = await run_in_threadpool(templates.TemplateResponse, request, "replay.html", context,
                                                 status_code=status_code)
    return response


#: longest parameter text the page shows whole (an inline board file can be a megabyte)
SHOWN_PARAM_CHARS = 60


def shown_param(text: str) -> str:
    """A parameter's text for the page's header line: inline boards and layouts summarised."""
    if text.startswith("json:"):
        return "a board file"
    return text if len(text) <= SHOWN_PARAM_CHARS else f"{text[:SHOWN_PARAM_CHARS - 1]}…"


def int_param(request: Request, name: str, default: int) -> int:
    """A small whole number from the query string (``default`` when absent or unreadable)."""
    text = request.query_params.get(name, "")
    return int(text) if text.isdigit() and len(text) <= 9 else default


async def finished_games(request: Request) -> list[dict[str, object]]:
    """The most recently finished games of this server, newest first, for the list of replays
    (a daily deal's once its day is over: :mod:`.daily`)."""
    tables = tables_of(request)
    rows = await tables.db(tables.store.recent, RECENT_GAMES, (OVER, RESIGNED))
    # today's daily deals are listed once their day is over (their replays open then)
    hidden = await tables.db(daily.hidden_games, tables.store, [r["id"] for r in rows], tables.clock())
    rows = [r for r in rows if r["id"] not in hidden]
    found = await tables.db(outcomes.players, tables.store, [r["id"] for r in rows])
    return [{"id": r["id"], "title": entry(r["game"]).game_class.title,
             "status": "resigned" if r["status"] == RESIGNED else "played out",
             "players": seated(r["game"], found[r["id"]]["seats"], found[r["id"]]["names"]),
             "verdict": found[r["id"]]["verdict"] or "",
             "when": datetime.fromtimestamp(r["updated"], timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
             "path": request.url_for("replay_game", game_id=r["id"]).path} for r in rows]


def seated(game_id: str, seats: list[tuple[int, str, str | None]], names: list[str] | None = None) -> str:
    """Who played a finished game, in seat order: by the names they played under ("Anna, the
    hard AI"), else (a game that ended before names were kept) "Player 1 (a person), Player 2 (AI hard)"."""
    if names:
        said = ", ".join(names)
    else:
        game = default_game(game_id)  # seat names do not depend on parameters
        said = ", ".join(f"{game.seat_name(i)} ({f'AI {level}' if level else 'a person'})" for i, _, level in seats)
    return said[:1].upper() + said[1:]


@functools.cache
def default_game(game_id: str) -> Game:
    """``game_id`` with its default parameters, made once (for its seats' names)."""
    return load_game(game_id)


async def replays_page(request: Request, error: str | None = None, status_code: int = 200) -> Response:
    """The finished games to replay, and the form to upload (or paste) any record."""
    return templates.TemplateResponse(request, "replays.html", {
        "limit": MAX_RECORD_BYTES, "error": error, "games": await finished_games(request)}, status_code=status_code)


async def take_upload(request: Request) -> str | None:
    """Spend one of the address's uploads (:data:`UPLOAD_BURST`, :data:`UPLOAD_RATE`); the
    refusal in words when it has none left."""
    if await request.app.state.uploads.spend(address_of(request)):
        return None
    return (f"Too many record uploads from your address: {UPLOAD_BURST} at once, then one every "
            f"{1 / UPLOAD_RATE:g} seconds. Wait a little and try again.")


#: full replays waiting for the replay worker or in it (every process's requests share it)
_replaying = 0


def check_room() -> None:
    """503 when :data:`MAX_REPLAYS_WAITING` full replays already wait (checked again by
    :func:`in_worker`; checked first so that a refused upload is not even read)."""
    if _replaying >= MAX_REPLAYS_WAITING:
        raise HTTPException(503, f"The server is busy replaying {MAX_REPLAYS_WAITING} other records; "
                                 "try again in a minute.")


async def in_worker(request: Request, key: str, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` in the replay worker; 503 when :data:`MAX_REPLAYS_WAITING` full replays
    already wait, 409 when a newer request of the same key took this one's place."""
    global _replaying
    check_room()
    _replaying += 1
    try:
        return await tables_of(request).thinkers.replay(key, call, *args)
    except Superseded:
        raise HTTPException(409, "A newer upload from your address took this one's place.") from None
    except Busy:
        raise HTTPException(503, "The server is busy; try again in a minute.") from None
    finally:
        _replaying -= 1


async def upload(request: Request) -> Response:
    """An uploaded record replayed, or the list again saying plainly what is wrong with it."""
    refusal = await take_upload(request)
    if refusal is not None:
        raise HTTPException(429, refusal)
    check_room()
    text = await uploaded_text(request)
    try:
        parts = await in_worker(request, f"upload:{address_of(request)}", text_page, text, int_param(request, "n", 0))
    except RecordError as exc:
        return await replays_page(request, str(exc), 400)
    frames = request.url_for("replay_upload_frame", digest=parts["digest"], n=0).path[:-1]
    source: dict[str, object] = {"kind": "upload", "frames": frames}
    if parts["result"] is not None:  # a finished game: the coach may analyse it (plunder.web.coach)
        digest = parts["digest"]
        source.update(analyse=request.url_for("coach_upload_analyse", digest=digest).path,
                      analysis=request.url_for("coach_upload_analysis", digest=digest).path,
                      better=request.url_for("coach_upload_better", digest=digest, n=0).path[:-1])
    return await render_replay(request, parts, source=source)


async def upload_frame(request: Request) -> Response:
    """One position of an uploaded record: ``GET`` by digest while the replay worker holds it
    (410 when it does not), ``POST`` with the record's text to replay it again (an upload:
    its rate applies)."""
    n = int(request.path_params["n"])
    digest = request.path_params["digest"]
    try:
        if request.method == "GET":
            found = await tables_of(request).thinkers.replay(f"frame:{address_of(request)}:{digest}:{n}",
                                                             cached_frame, digest, n)
            if found is None:
                return JSONResponse({"error": "this server no longer holds that record; send it again"}, 410)
            return JSONResponse(found)
        refusal = await take_upload(request)
        if refusal is not None:
            return JSONResponse({"error": refusal}, 429)
        check_room()
        text = (await read_capped(request, MAX_UPLOAD_BYTES)).decode("utf-8", errors="replace")
        return JSONResponse(await in_worker(request, f"upload:{address_of(request)}", text_frame, text, digest, n))
    except RecordError as exc:
        return JSONResponse({"error": str(exc)}, 400)
    except NoPosition as exc:
        return JSONResponse({"error": str(exc)}, 404)
    except Busy:
        return JSONResponse({"error": "the server is busy; try again in a minute"}, 503)
    except Superseded:
        return JSONResponse({"error": "a newer request for this position took this one's place"}, 409)
    except HTTPException as exc:
        return JSONResponse({"error": exc.detail}, exc.status_code)


async def finished_table(request: Request) -> Table:
    """The finished game of the ``game_id`` path parameter (404 if there is none, 409 while it is on)."""
    table = await tables_of(request).get(request.path_params["game_id"])
    if table is None:
        raise HTTPException(404, "There is no such game here (check the link).")
    if table.on:
        # its record would lack the seed, and its moves are the players' to make: watch it instead
        raise HTTPException(409, "This game is still being played; its replay opens when it is over. "
                                 "Its watch link follows it live.")
    if table.hides_deal(tables_of(request).clock()):
        raise HTTPException(403, daily.HIDDEN)
    return table


async def game_replay(request: Request) -> Response:
    """``GET /replay/game/{game_id}``: a finished game of this server, stepped through."""
    table = await finished_table(request)
    # the players by their names, the verdict from this browser's side (docs/web.md, "Names")
    callers = table.callers()
    parts = await in_worker(request, f"game:{address_of(request)}:{table.id}", record_page, table.record(),
                            int_param(request, "n", 0), callers)
    frames = request.url_for("replay_game_frame", game_id=table.id, n=0).path[:-1]
    parts = {**parts, "players": [callers.third(i) for i in range(len(table.row.seats))],
             "told": callers.told(parts["told"]),
             # megabytes for a long game: off the event loop, like the list's rendering
             "moves_html": Markup(await asyncio.to_thread(callers.told, str(parts["moves_html"]), True))}
    parts["talk"] = await talk_of(request, table)
    you = table.seats_of(identity_of(request))
    return await render_replay(request, parts, result=table.result(you), source={
        "kind": "game", "frames": frames, "download": request.url_for("record", game_id=table.id).path,
        # the coach (plunder.web.coach): where to start the analysis and where to read it
        "analyse": request.url_for("coach_analyse", game_id=table.id).path,
        "analysis": request.url_for("coach_analysis", game_id=table.id).path,
        "better": request.url_for("coach_better", game_id=table.id, n=0).path[:-1]})


async def talk_of(request: Request, table: Table) -> list[dict[str, Any]]:
    """The game's table talk (:mod:`.chat`), every line, for the replay page (its template escapes them)."""
    chat = chat_of(request)
    rows = await tables_of(request).db(chat.store.latest, table.id, None)
    return [shown(table, r) for r in rows]


async def game_frame(request: Request) -> Response:
    """``GET /replay/game/{game_id}/{n}``: one position of a finished game."""
    table = await finished_table(request)
    n = int(request.path_params["n"])
    callers = table.callers()
    try:
        frame = await tables_of(request).thinkers.replay(f"frame:{address_of(request)}:{table.id}:{n}",
                                                         record_frame, table.record(), n, callers)
    except NoPosition as exc:
        raise HTTPException(404, str(exc)) from None
    return JSONResponse({**frame, "told": callers.told(str(frame["told"]))})


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/replay", replays_page, name="replay_upload"),
    Route("/replay/game/{game_id:str}", game_replay, name="replay_game"),
    Route("/replay/game/{game_id:str}/{n:int}", game_frame, name="replay_game_frame"),
    Route("/replay", upload, methods=["POST"], name="replay_uploaded"),
    Route("/replay/upload/{digest:str}/{n:int}", upload_frame, methods=["GET", "POST"], name="replay_upload_frame"),
]
