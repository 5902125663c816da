"""The routes of games in progress: the new-game form and its POST, the game page, invites,
the watch link, the record download and the WebSocket every game page talks over.

Who may act for a seat: the holder of its token (:mod:`.security`: minted by the server only,
the :data:`~.security.COOKIE` cookie of a browser or the :data:`~.security.TOKEN_HEADER` header of
a client without cookies); a seat stores its SHA-256. Game ids, tokens and invite codes are
unguessable, so a watch link lets nobody act. The protocol is in docs/web.md. (The new-game
form itself, ``GET /new/{game}``, is :mod:`.newgame`'s.)
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import ParameterError
from ..core.game import Game
from ..core.registry import game_ids, load_game
from .limits import (CLOSE_TRY_LATER, MAX_FIELD_BYTES, MAX_FORM_FIELDS, MAX_MESSAGE_BYTES, MAX_MESSAGE_DEPTH,
                     MAX_REFUSED, MESSAGE_BURST, MESSAGE_RATE, SPECTATOR_BURST, SPECTATOR_RATE, VIEW_BURST, VIEW_RATE,
                     Bucket, Buckets, deeper_than)
from . import daily, ratings
from .chat import MAX_CHAT_CHARS, Chat
from .clocks import AUTO, TimeControl, chosen, freshened
from .newgame import default_seat, render_form
from .identities import acting_for, identity_of, still_signed_in
from .store import OPEN, token_hash
from .security import TokenRefused, navigated_here, remember, seat_token, token_of
from .table import Full, Refused, Table
from .tables import Tables, signed_out_message
from .viewers import Viewer, cut_off
from .templating import templates

log = logging.getLogger("plunder.web")

#: WebSocket close code for an unknown game
CLOSE_UNKNOWN = 4404
#: WebSocket close code for a connection that kept sending too fast or was too slow to read
CLOSE_POLICY = 1008


#: hints being worked out (held so that they are not collected before they finish)
HINTS: set[asyncio.Task[None]] = set()


def address_of(request: Request) -> str:
    """The client's address (the key of its per-address rates)."""
    return request.client.host if request.client else "?"


async def spend_creation(request: Request) -> str:
    """Spend one of the client's new games (``limits.CREATE_BURST``, ``CREATE_RATE``, shared by
    the new-game form, rematches and daily deals); its address. A 429 in words past the rate."""
    address = address_of(request)
    if not await request.app.state.creations.spend(address):
        raise HTTPException(429, "Too many new games from your address; wait a little and try again.")
    return address


def tables_of(conn: HTTPConnection) -> Tables:
    """The app's tables (:func:`plunder.web.app.create_app` sets them up)."""
    found: Tables = conn.app.state.tables
    return found


def chat_of(conn: HTTPConnection) -> Chat:
    """The app's table talk (:func:`plunder.web.app.create_app` sets it up)."""
    found: Chat = conn.app.state.chat
    return found


def token_or_400(conn: HTTPConnection) -> tuple[str, bool]:
    """:func:`~.security.seat_token` of a request, a malformed token header a 400 page."""
    try:
        return seat_token(conn)
    except TokenRefused as exc:
        raise HTTPException(400, str(exc)) from None


def known_game(game_id: str) -> str:
    """``game_id`` if a game has that id, else a 404."""
    if game_id not in game_ids():
        raise HTTPException(404, f"There is no game called {game_id!r}.")
    return game_id


def game_from_form(game_id: str, form: FormData) -> Game:
    """The game the form's ``preset`` and ``p.<name>`` fields describe; :class:`Refused` says
    what is wrong. ``file:`` values are refused (the server never reads its own files for a
    browser)."""
    preset = str(form.get("preset") or "") or None
    params: dict[str, str] = {}
    for key, value in form.multi_items():
        if key.startswith("p.") and isinstance(value, str) and value.strip():
            if value.strip().startswith("file:"):
                raise Refused(f"Parameter {key[2:]}: the server reads no files; paste the content instead.")
            params[key[2:]] = value
    try:
        return load_game(game_id, preset, **params)
    except ParameterError as exc:
        raise Refused(str(exc)) from None


def time_control(choice: str, seats: list[str], rated: bool = False) -> TimeControl | None:
    """The time control the form's ``clock`` field gives a game with ``seats``, rated or not
    (:func:`.clocks.chosen`: a rated game has one); :class:`Refused` saying what is wrong."""
    try:
        return chosen(choice, "open" in seats, rated)
    except ValueError as exc:
        raise Refused(str(exc)) from None


async def new_game(request: Request) -> Response:
    """``POST /new/{game}``: store a new game and send the creator to its page (303)."""
    game_id = known_game(request.path_params["game"])
    address = await spend_creation(request)
    form = await request.form(max_files=0, max_fields=MAX_FORM_FIELDS, max_part_size=MAX_FIELD_BYTES)
    token, minted = token_or_400(request)
    try:
        game = game_from_form(game_id, form)
        choices = [str(form.get(f"seat.{i}") or default_seat(i)) for i in range(game.num_players)]
        rated = form.get("rated") == "on"
        control = time_control(str(form.get("clock") or AUTO), choices, rated)
        new_id = await tables_of(request).create(game, choices, acting_for(request, token), rated=rated,
                                                 listed=form.get("listed") == "anyone", control=control,
                                                 address=address)
    except Full as exc:  # the server's bound, not the form's fault: a refusal page
        raise HTTPException(503, exc.message) from None
    except Refused as exc:
        # the form again, with what was given and why it was refused
        given = {k: v for k, v in form.multi_items() if isinstance(v, str)}
        return render_form(request, game_id, exc.message, given, status_code=400, error_field=exc.field)
    response = RedirectResponse(request.url_for("play", game_id=new_id).path, status_code=303)
    return remember(response, request, token) if minted else response


async def table_or_404(conn: HTTPConnection) -> Table:
    """The table of the ``game_id`` path parameter, or a 404 page."""
    table = await tables_of(conn).get(conn.path_params["game_id"])
    if table is None:
        raise HTTPException(404, "There is no such game here (check the link).")
    return table


#: what a client opening a game's views too often is told (:data:`~.limits.VIEW_BURST`)
VIEWS_REFUSED = (f"You are opening this game too often: {VIEW_BURST} times at once, then {VIEW_RATE:g} a second. "
                 "Wait a moment and reload.")
#: what spectators opening a game's views too often from one address are told (:data:`~.limits.SPECTATOR_BURST`)
SPECTATORS_REFUSED = (f"Too many game views from your address: {SPECTATOR_BURST} at once, then {SPECTATOR_RATE:g} "
                      "a second. Wait a moment and reload.")


@dataclass(frozen=True)
class ViewRefused:
    """Why a client may not open a game's view now: its message, the bound it met, and the
    seconds to wait (``Retry-After``)."""

    message: str
    detail: str
    wait: int


def take_view(conn: HTTPConnection, table: Table) -> ViewRefused | None:
    """Spend one of the client's game views; ``None`` when it had one, else why not.

    A client holding a seat at ``table`` spends its seat token's (:data:`~.limits.VIEW_BURST`,
    :data:`~.limits.VIEW_RATE`), so others at its address never cut a player off; any other
    spends its address's share for strangers (:data:`~.limits.SPECTATOR_BURST`,
    :data:`~.limits.SPECTATOR_RATE`): a token a client makes up holds no seat, so making up new
    ones gains nothing."""
    hashed = identity_of(conn)
    if table.seats_of(hashed):
        views: Buckets = conn.app.state.views
        if views.take(f"seat {hashed}"):
            return None
        return ViewRefused(VIEWS_REFUSED, f"VIEW_BURST = {VIEW_BURST}, VIEW_RATE = {VIEW_RATE:g}", views.wait())
    spectators: Buckets = conn.app.state.spectators
    if spectators.take(f"address {conn.client.host if conn.client else '?'}"):
        return None
    return ViewRefused(SPECTATORS_REFUSED, f"SPECTATOR_BURST = {SPECTATOR_BURST}, SPECTATOR_RATE = {SPECTATOR_RATE:g}",
                       spectators.wait())


def invites(request: Request, table: Table) -> list[dict[str, Any]]:
    """The invite links of the table's open seats (shown to the game's creator only)."""
    return [{"seat": i, "name": table.game.seat_name(i), "path": f"/join/{s.invite}",
             "url": str(request.url_for("join", invite=s.invite))}
            for i, s in enumerate(table.row.seats) if s.kind == OPEN and s.invite]


async def game_page(request: Request, spectator: bool) -> Response:
    """The game page with its first frame drawn on the server: ``state`` is the first WebSocket
    message (the picture, the whole log, the seats), so the page shows the game at once."""
    table = await table_or_404(request)
    refused = take_view(request, table)
    if refused is not None:
        raise HTTPException(429, refused.message, headers={"Retry-After": str(refused.wait)})
    token = None if spectator else token_or_400(request)[0]
    viewer = Viewer(None if token is None else acting_for(request, token))
    hidden = table.hides_deal(tables_of(request).clock())
    if hidden and not table.seats_of(viewer.token):
        raise HTTPException(403, daily.HIDDEN)
    creator = viewer.token == table.row.creator
    ws_path = request.url_for("ws", game_id=table.id).path + ("?watch=1" if spectator else "")
    client = table.entry.client
    # the game's own controls (docs/web.md, "A game's own module")
    module = request.url_for("assets", game=table.game.id, path=client.module).path if client.module and client.assets else ""
    return templates.TemplateResponse(request, "game.html", {
        "game": {"id": table.game.id, "title": table.game.title}, "game_id": table.id,
        "state": table.view(viewer, creator=creator), "ws_path": ws_path, "spectator": spectator,
        "invites": invites(request, table) if creator else [],
        # a daily deal during its day: nothing that would show it to another (:mod:`.daily`)
        "watch_url": "" if hidden else str(request.url_for("watch", game_id=table.id)),
        "record_url": "" if hidden else request.url_for("record", game_id=table.id).path, "module": module,
        "daily": hidden,
        "chat_max_chars": MAX_CHAT_CHARS,
    })


async def play(request: Request) -> Response:
    """``GET /play/{game_id}``: the game page for this browser's seats (a spectator's if none)."""
    return await game_page(request, spectator=False)


async def watch(request: Request) -> Response:
    """``GET /watch/{game_id}``: the game page as a spectator, whatever seats this browser holds."""
    return await game_page(request, spectator=True)


async def join(request: Request) -> Response:
    """``GET /join/{invite}``: claim the open seat of an invite and go to the game (once only).
    Another site may link here, but only a top-level navigation claims (it carries the cookie)."""
    if not navigated_here(request):
        raise HTTPException(403, "An invitation is claimed by following its link, not from inside another site's page.")
    token, minted = token_or_400(request)
    tables = tables_of(request)
    refusal = await tables.db(ratings.claim_refusal, tables.store, request.path_params["invite"], acting_for(request, token))
    if refusal:
        raise HTTPException(409, refusal)
    game_id = await tables.claim(request.path_params["invite"], acting_for(request, token))
    if game_id is None:
        raise HTTPException(410, "This invitation has been used or does not exist. Ask for a watch link to follow the game.")
    response = RedirectResponse(request.url_for("play", game_id=game_id).path, status_code=303)
    return remember(response, request, token) if minted else response


async def record(request: Request) -> Response:
    """``GET /record/{game_id}``: the game's JSON record, with its seed once the game is over."""
    table = await table_or_404(request)
    if table.hides_deal(tables_of(request).clock()):
        raise HTTPException(403, daily.HIDDEN)
    return Response(table.record().to_json(), media_type="application/json", headers={
        "content-disposition": f'attachment; filename="{table.game.id}-{table.id[:8]}.json"'})


async def ws(websocket: WebSocket) -> None:
    """``/ws/{game_id}``: the game's live channel (messages in docs/web.md)."""
    tables = tables_of(websocket)
    table = await tables.get(websocket.path_params["game_id"])
    await websocket.accept()
    if table is None:
        await websocket.send_json({"type": "error", "message": "There is no such game here.", "detail": "unknown game id"})
        await websocket.close(CLOSE_UNKNOWN)
        return
    try:
        token = None if websocket.query_params.get("watch") else token_of(websocket)
    except TokenRefused as exc:
        await websocket.send_json({"type": "error", "message": str(exc), "detail": str(exc)})
        await websocket.close(CLOSE_POLICY)
        return
    cut = take_view(websocket, table)
    if cut is not None:
        await websocket.send_json({"type": "error", "message": cut.message, "detail": cut.detail})
        await websocket.close(CLOSE_TRY_LATER)
        return
    viewer = Viewer(None if token is None else acting_for(websocket, token),
                    None if token is None else token_hash(token))
    if not table.seats_of(viewer.token) and table.hides_deal(tables.clock()):
        await websocket.send_json({"type": "error", "message": daily.HIDDEN, "detail": "a daily deal during its day"})
        await websocket.close(CLOSE_POLICY)
        return
    tables.welcome(table, viewer)
    chat = chat_of(websocket)
    await chat.history(table, viewer)
    bucket = Bucket(MESSAGE_RATE, MESSAGE_BURST)
    refused = 0

    async def pump() -> None:
        try:
            while (message := await viewer.queue.get()) is not None:
                if message.get("clock"):
                    freshened(message["clock"], tables.time())  # the time left as it is sent
                await websocket.send_json(message)
            await websocket.close(CLOSE_POLICY)  # cut off: too slow to read what it is sent, or signed out
        except Exception:  # the connection is gone: the reading side notices and tidies up
            pass

    async def error(message: str, detail: str = "") -> None:
        await viewer.queue.put({"type": "error", "message": message, "detail": detail or message})

    writer = asyncio.create_task(pump())
    try:
        while True:
            got = await websocket.receive()
            arrived = tables.time()  # a move's clock stops when it arrives, not when it is played
            if got["type"] == "websocket.disconnect":
                break
            text = got.get("text")
            if not bucket.take():
                refused += 1
                if refused > MAX_REFUSED:
                    await websocket.close(CLOSE_POLICY)
                    break
                await error("Too many messages: slow down.")
                continue
            if text is None:
                await error("Send JSON text messages.")
                continue
            if len(text) > MAX_MESSAGE_BYTES:
                await error("That message is too long.", f"{len(text)} characters; the limit is {MAX_MESSAGE_BYTES}")
                continue
            # the JSON reader recurses once a level: a deep message would exhaust the stack
            if deeper_than(text, MAX_MESSAGE_DEPTH):
                await error("That message nests too deeply.", f"more than {MAX_MESSAGE_DEPTH} levels of [ and {{")
                continue
            try:
                data = json.loads(text)
            except ValueError:
                await error("That message is not JSON.")
                continue
            if not isinstance(data, dict):
                await error("A message is a JSON object with a type.")
                continue
            # JSON may escape half a character ("\ud800"): no text holds one (a chat line's is refused in the talk panel)
            if data.get("type") != "chat" and not whole_text(data):
                await error("That message holds half of a character (a lone surrogate) without its other half: "
                            "it is not text.")
                continue
            if not await still_signed_in(websocket):  # signed out (or idle too long) since it connected
                if viewer in table.viewers:  # not cut off by the sign-out's event (an expiry has none)
                    cut_off(table.viewers, viewer, signed_out_message())
                await writer  # its last message sent, the pump closes the connection
                break
            try:
                if data.get("type") == "chat":
                    await chat.say(table, viewer, data.get("text"))
                else:
                    await handle(tables, table, viewer, data, error, arrived)
            except Refused as exc:
                if data.get("type") == "chat":  # said in the talk panel as well as the message line
                    await viewer.queue.put({"type": "error", "message": exc.message, "detail": exc.detail,
                                            "about": "chat"})
                else:
                    await error(exc.message, exc.detail)
            except Exception:  # the store unreachable, say: the player is told, the server goes on
                log.exception("message %.80r in game %s failed", text, table.id)
                await error("Something went wrong on the server; try again.")
    except WebSocketDisconnect:
        pass
    finally:
        tables.leave(table, viewer)
        writer.cancel()


def whole_text(data: Any) -> bool:
    """True when every text in the JSON message ``data`` is whole: no lone surrogate (which
    JSON escapes as ``\\ud800``)."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


async def handle(tables: Tables, table: Table, viewer: Viewer, data: dict[str, Any], error: Any,
                 arrived: float | None = None) -> None:
    """One client message: ``act``, ``hint``, ``undo``, ``resign``, ``abort``, ``claim`` or ``log``."""
    kind = data.get("type")
    if kind == "act":
        action, ply, thought = data.get("action"), data.get("ply"), data.get("thought")
        if not isinstance(action, str) or not isinstance(ply, int) or isinstance(ply, bool):
            raise Refused("An act message has an action text and the ply you saw.")
        if thought is not None and (isinstance(thought, bool) or not isinstance(thought, (int, float))
                                    or not 0 <= thought < float("inf")):
            raise Refused("An act message's thought is the seconds you took over the move (a number, 0 or more).")
        await tables.act(table, viewer, action, ply, arrived, None if thought is None else float(thought))
    elif kind == "hint":
        # a hint takes seconds of search: the connection keeps reading meanwhile
        task = asyncio.create_task(hint(tables, table, viewer, error))
        HINTS.add(task)
        task.add_done_callback(HINTS.discard)
    elif kind == "undo":
        await tables.undo(table, viewer)
    elif kind == "resign":
        await tables.resign(table, viewer)
    elif kind == "abort":
        await tables.abort(table, viewer)
    elif kind == "claim":
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise Refused("A claim message has the seat of the absent player.")
        await tables.claim_win(table, viewer, seat)
    elif kind == "log":
        before = data.get("before")
        if not isinstance(before, int) or isinstance(before, bool):
            raise Refused("A log message has the number of the entry to read before.")
        await viewer.queue.put(table.older(before))
    else:
        raise Refused("Unknown message type.", f"type {str(kind)[:40]!r}; types are act, hint, undo, resign, abort, claim, log, chat")


async def hint(tables: Tables, table: Table, viewer: Viewer, error: Any) -> None:
    """Work out a hint and send it (or say why not)."""
    try:
        lines = await tables.hint(table, viewer)
    except Refused as exc:
        await error(exc.message, exc.detail)
        return
    await viewer.queue.put({"type": "hint", "lines": lines})


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/new/{game}", new_game, methods=["POST"], name="create"),
    Route("/play/{game_id}", play, name="play"),
    Route("/watch/{game_id}", watch, name="watch"),
    Route("/join/{invite}", join, name="join"),
    Route("/record/{game_id}", record, name="record"),
    WebSocketRoute("/ws/{game_id}", ws, name="ws"),
]
