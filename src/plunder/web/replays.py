"""Replays: any record stepped through in the browser, position by position, with the
narration of every move, and the record's JSON to download.

A record is untrusted (an upload, or a game from the store): it is read by
:meth:`Record.from_json` within its limits and replayed whole through the rules
(:func:`plunder.pictures.positions`) before a single picture is drawn. An uploaded record is
not stored: the page carries its text, and the pictures are asked for one at a time (a long
Crossroads game has hundreds of positions, megabytes of SVG in all), from a small in-memory
cache of replayed games keyed by the record's digest; a server that has forgotten a record
(restarted, another process, evicted) is sent it again by the page.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.errors import PlunderError, RecordError
from ..core.game import State
from ..core.record import MAX_RECORD_BYTES, Record
from ..core.registry import entry
from ..core.svg import Shown, outcome_text
from ..pictures import positions, svg_of
from .games import tables_of
from .limits import MAX_BODY_BYTES
from .store import OVER, RESIGNED
from .tables import Table
from .templating import templates

#: largest upload, in bytes: a record's own limit plus room for the form's framing (the app's body limit)
MAX_UPLOAD_BYTES = MAX_BODY_BYTES
#: finished games the list of replays shows
RECENT_GAMES = 50
#: replayed games kept in memory for their pictures (each a few hundred positions at most)
CACHE_GAMES = 16


@dataclass(frozen=True)
class Replay:
    """A record replayed: every position from the start, each with the move that led to it."""

    digest: str
    record: Record
    states: tuple[State, ...]
    shown: tuple[Shown | None, ...]

    @property
    def last(self) -> int:
        """The number of the last position (= the number of moves)."""
        return len(self.states) - 1

    def frame(self, n: int) -> dict[str, object]:
        """Position ``n`` as the page shows it: its picture and the words of the move that led there."""
        if not 0 <= n <= self.last:
            raise HTTPException(404, f"this game has positions 0 to {self.last}, not {n}")
        shown = self.shown[n]
        return {"n": n, "svg": svg_of(self.states[n], shown), "told": shown.words() if shown else "the start"}

    def moves(self) -> list[dict[str, object]]:
        """Every move in words, for the move list (chance's moves marked as such)."""
        return [{"n": s.number, "text": s.text, "told": s.told, "chance": m.by is None}
                for s, m in zip(self.shown[1:], self.record.moves) if s is not None]

    def result(self) -> dict[str, object] | None:
        """The verdict and the score's breakdown when the game ended, else ``None``."""
        end = self.states[-1]
        if not end.is_terminal():
            return None
        breakdown = entry(self.record.game).presentation.breakdown
        return {"verdict": outcome_text(end), "breakdown": breakdown(end) if breakdown else []}


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
    states: list[State] = []
    shown: list[Shown | None] = []
    try:
        for state, move in positions(record):
            states.append(state)
            shown.append(move)
    except RecordError:
        raise
    except PlunderError as exc:  # a record that replays but cannot be pictured
        raise RecordError(str(exc)) from None
    made = Replay(digest, record, tuple(states), tuple(shown))
    with _cache_lock:
        _cache[digest] = made
        while len(_cache) > CACHE_GAMES:
            _cache.popitem(last=False)
    return made


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


def render_replay(request: Request, replay: Replay, *, source: dict[str, object],
                  result: dict[str, Any] | None = None, status_code: int = 200) -> Response:
    """The replay page of ``replay``; ``source`` says where its pictures come from (the page's JS
    reads it): ``kind`` (``upload`` or ``game``), ``frames`` (the path that position numbers
    are appended to) and optionally ``download`` (the record's address; else the page carries
    it). ``result`` is the verdict and breakdown when the caller knows better than the moves (a
    resignation)."""
    start = min(max(int_param(request, "n", 0), 0), replay.last)
    first = replay.frame(start)
    record = replay.record
    return templates.TemplateResponse(request, "replay.html", {
        "title": entry(record.game).game_class.title,
        "game_id": record.game,
        "players": record.players,
        "moves": replay.moves(),
        "last": replay.last,
        "start": start,
        "svg": Markup(first["svg"]),
        "told": first["told"],
        "result": result or replay.result(),
        "params": {k: shown_param(v) for k, v in record.params.items()},
        "config": {"digest": replay.digest, "last": replay.last, "start": start, **source},
        "download": source.get("download"),
        "record_json": record.to_json(),
        "filename": f"plunder-{record.game}-{replay.digest[:8]}.json",
    }, status_code=status_code)


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
    """The most recently finished games of this server, newest first, for the list of replays."""
    tables = tables_of(request)
    rows = await tables.db(tables.store.recent, RECENT_GAMES, (OVER, RESIGNED))
    return [{"id": r["id"], "title": entry(r["game"]).game_class.title,
             "status": "resigned" if r["status"] == RESIGNED else "played out",
             "when": datetime.fromtimestamp(r["updated"], timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
             "path": request.url_for("replay_game", game_id=r["id"]).path} for r in rows]


async def replays_page(request: Request, error: str | None = None, status_code: int = 200) -> Response:
    """The finished games to replay, and the form to upload (or paste) any record."""
    return templates.TemplateResponse(request, "replays.html", {
        "limit": MAX_RECORD_BYTES, "error": error, "games": await finished_games(request)}, status_code=status_code)


async def upload(request: Request) -> Response:
    """An uploaded record replayed, or the list again saying plainly what is wrong with it."""
    text = await uploaded_text(request)
    try:
        replay = await run_in_threadpool(replay_text, text)
    except RecordError as exc:
        return await replays_page(request, str(exc), 400)
    frames = request.url_for("replay_upload_frame", digest=replay.digest, n=0).path[:-1]
    return render_replay(request, replay, source={"kind": "upload", "frames": frames})


async def upload_frame(request: Request) -> Response:
    """One position of an uploaded record: ``GET`` by digest while this process holds it
    (410 when it does not), ``POST`` with the record's text to replay it again."""
    n = int(request.path_params["n"])
    if request.method == "GET":
        found = cached(request.path_params["digest"])
        if found is None:
            return JSONResponse({"error": "this server no longer holds that record; send it again"}, 410)
        return JSONResponse(await run_in_threadpool(found.frame, n))
    text = (await read_capped(request, MAX_UPLOAD_BYTES)).decode("utf-8", errors="replace")
    try:
        replay = await run_in_threadpool(replay_text, text)
    except RecordError as exc:
        return JSONResponse({"error": str(exc)}, 400)
    if replay.digest != request.path_params["digest"]:
        return JSONResponse({"error": "that is not the record this page shows"}, 400)
    return JSONResponse(await run_in_threadpool(replay.frame, n))


async def finished_table(request: Request) -> Table:
    """The finished game of the ``game_id`` path parameter (404 if there is none, 409 while it is on)."""
    table = await tables_of(request).get(request.path_params["game_id"])
    if table is None:
        raise HTTPException(404, "There is no such game here (check the link).")
    if table.on:
        # its record would lack the seed, and its moves are the players' to make: watch it instead
        raise HTTPException(409, "This game is still being played; its replay opens when it is over. "
                                 "Its watch link follows it live.")
    return table


async def game_replay(request: Request) -> Response:
    """``GET /replay/game/{game_id}``: a finished game of this server, stepped through."""
    table = await finished_table(request)
    replay = await run_in_threadpool(replay_record, table.record())
    frames = request.url_for("replay_game_frame", game_id=table.id, n=0).path[:-1]
    return render_replay(request, replay, result=table.result(), source={
        "kind": "game", "frames": frames, "download": request.url_for("record", game_id=table.id).path})


async def game_frame(request: Request) -> Response:
    """``GET /replay/game/{game_id}/{n}``: one position of a finished game."""
    table = await finished_table(request)
    replay = await run_in_threadpool(replay_record, table.record())
    return JSONResponse(await run_in_threadpool(replay.frame, int(request.path_params["n"])))


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/replay", replays_page, name="replay_upload"),
    Route("/replay/game/{game_id:str}", game_replay, name="replay_game"),
    Route("/replay/game/{game_id:str}/{n:int}", game_frame, name="replay_game_frame"),
    Route("/replay", upload, methods=["POST"], name="replay_uploaded"),
    Route("/replay/upload/{digest:str}/{n:int}", upload_frame, methods=["GET", "POST"], name="replay_upload_frame"),
]
