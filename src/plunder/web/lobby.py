"""The routes of the room around the tables: a browser's name (``/name``), its games
(``/mine``, and ``/mine.json``: where it is its turn), the lobby of listed games with open
seats (``/lobby``, a seat taken with one ``POST``), and the rematch of a finished game
(``POST /rematch/{game_id}``), with what the pages and their live updates (:mod:`.roomfeed`)
both show of the lobby and of a browser's games. docs/web.md, "Names, my games, the lobby,
rematch", has the rules; the names' are :mod:`.names`', the stored rows :mod:`.rooms`'.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote, unquote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.registry import entry, load_game
from .games import spend_creation, table_or_404, tables_of, token_or_400
from .limits import MAX_FIELD_BYTES
from .names import (MAX_NAME_CHARS, Callers, NameRefused, SeatWho, default_name, keep_name, name_of, names_of,
                    normalise)
from .ratings import is_rated
from .rooms import accept, creator_gone_seconds, drop_game, lobby as listed, mine as held, offer, rematch_of
from .identities import acting_for, identity_of
from .security import remember
from .store import AI, HUMAN, OPEN, SeatRow
from .security import new_token
from .table import Refused, Table
from .tables import Tables
from .templating import templates

#: most characters of one parameter's value in the lobby's variant summary (a board file is long)
MAX_SUMMARY_CHARS = 30


#: the cookie carrying a refused name back to the page its form was on (:func:`set_name_route`),
#: read once: people.js clears it as the page shows it, and it lasts a minute at most without
NAME_REFUSED_COOKIE = "plunder_name_refused"
NAME_REFUSED_SECONDS = 60


def refused_name(request: Request) -> tuple[str, str] | None:
    """The name refused on the way to this page and why (``(why, typed)``), if one was."""
    raw = request.cookies.get(NAME_REFUSED_COOKIE)
    try:
        said = json.loads(unquote(raw)) if raw else None
        return (str(said["error"]), str(said["given"])) if isinstance(said, dict) else None
    except (ValueError, KeyError):  # a cookie mangled on the way: no message rather than a 500
        return None


def header(request: Request) -> dict[str, Any]:
    """What every page's header shows of this browser: its name, whether it chose it, and a
    name just refused (``error``, with what was typed as ``given``) beside the name field."""
    try:
        name, chosen = name_of(tables_of(request).store, identity_of(request))
    except Exception:  # an error page of a server whose store is gone still renders
        name, chosen = "", True
    refused = refused_name(request)
    return {"name": name, "chosen": chosen, "max": MAX_NAME_CHARS,
            "error": refused[0] if refused else "", "given": refused[1] if refused else name}


templates.env.globals["people_header"] = header


def safe_next(path: str) -> str:
    """Where to go after the name form: a path of this server (never another site's address)."""
    return path if path.startswith("/") and not path.startswith(("//", "/\\")) else "/"


async def name_page(request: Request) -> Response:
    """``GET /name``: the form to choose this browser's name."""
    return templates.TemplateResponse(request, "name.html", {"error": "", "next": safe_next(
        request.query_params.get("next", "/")), "given": ""})


async def set_name_route(request: Request) -> Response:
    """``POST /name`` (field ``name``, optional ``next``): keep this browser's name (a newcomer
    is given a token here, as by a new game) and go back to ``next``."""
    form = await request.form(max_files=0, max_fields=4, max_part_size=MAX_FIELD_BYTES)
    given, back = str(form.get("name") or ""), safe_next(str(form.get("next") or "/"))
    token, minted = token_or_400(request)
    try:
        name = normalise(given, default_name(acting_for(request, token)))
        await tables_of(request).db(keep_name, tables_of(request).store, acting_for(request, token), name)
    except NameRefused as exc:
        # back to the page the form was on, the form there open with why and what was typed
        # (less what cannot be sent back: a surrogate half); the name page, if it came from there
        typed = given[:200].encode("utf-8", "replace").decode("utf-8")
        if str(form.get("from") or "") == "page":
            return templates.TemplateResponse(request, "name.html", {"error": str(exc), "next": back, "given": typed},
                                              status_code=400)
        refused = RedirectResponse(back, status_code=303)
        refused.set_cookie(NAME_REFUSED_COOKIE, quote(json.dumps({"error": str(exc), "given": typed})),
                           max_age=NAME_REFUSED_SECONDS, samesite="lax")
        return remember(refused, request, token) if minted else refused
    await tables_of(request).renamed(acting_for(request, token))
    response = RedirectResponse(back, status_code=303)
    return remember(response, request, token) if minted else response


def ago(seconds: float) -> str:
    """``just now``, ``5 min``, ``3 h``, ``2 days``: how long ago, in a few characters."""
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h"
    return f"{int(seconds // 86400)} days"


def variant(game: str, params: dict[str, str]) -> str:
    """The parameters that differ from the game's defaults, in a few words (``standard`` if none)."""
    defaults = {p.name: str(p.default) for p in entry(game).game_class.param_specs}
    said = []
    for key, value in params.items():
        text = str(value)
        if text != defaults.get(key):
            said.append(f"{key} {text if len(text) <= MAX_SUMMARY_CHARS else text[:MAX_SUMMARY_CHARS] + '…'}")
    return ", ".join(said) or "standard"


def stored_callers(game: str, params: dict[str, str], seats: list[dict[str, Any]], chosen: dict[str, str]) -> Callers:
    """The :class:`~.names.Callers` of a game read by :mod:`.rooms` (no table needed)."""
    rules = load_game(game, **params)
    return Callers([SeatWho(s["kind"], s["token"], s["agent"], rules.seat_name(i)) for i, s in enumerate(seats)],
                   chosen)


async def mine_rows(tables: Tables, token: str) -> list[dict[str, Any]]:
    """The games of the browser holding the token hash ``token`` as its page shows them: each
    with its table (whose turn, verdict, your clock's time left while it runs)."""
    rows = []
    for row in await tables.db(held, tables.store, token):
        table = await tables.get(row["id"])  # an open table's names read again if a rename left them stale
        if table is None:
            continue
        you = table.seats_of(token)
        callers = table.callers()
        result = table.result(you)
        rows.append({"id": row["id"], "title": table.game.title, "variant": variant(row["game"], row["params"]),
                     "others": [callers.third(i) for i in range(len(table.row.seats)) if i not in you] or ["solitaire"],
                     "on": table.on, "your_turn": table.on and table.state.current_player in you,
                     "status": table.status(you) if result is None else result["verdict"],
                     "clock": table.your_clock(you),
                     "ago": ago(time.time() - row["updated"])})
    return rows


async def mine_page(request: Request) -> Response:
    """``GET /mine``: this browser's games, in progress then finished."""
    token = identity_of(request)
    rows = await mine_rows(tables_of(request), token) if token else []
    return templates.TemplateResponse(request, "mine.html", mine_lists(rows))


def mine_lists(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The context of ``mine_list.html`` (the lists of ``/mine``): :func:`mine_rows` in
    progress, then finished."""
    return {"playing": [r for r in rows if r["on"]], "finished": [r for r in rows if not r["on"]]}


async def your_turns(tables: Tables, token: str | None) -> dict[str, Any]:
    """``{"your_turn": n, "games": [ids]}``: the games in progress where it is the turn of the
    browser holding the token hash ``token`` (the header's marker and the tab title's ``(n)``)."""
    turns = []
    for row in await tables.db(held, tables.store, token) if token else []:
        if row["status"] != "on":
            continue
        table = await tables.get(row["id"])  # an open table's names read again if a rename left them stale
        if table is not None and table.on and table.state.current_player in table.seats_of(token):
            turns.append(row["id"])
    return {"your_turn": len(turns), "games": turns}


async def mine_json(request: Request) -> Response:
    """``GET /mine.json``: :func:`your_turns` of this browser."""
    return JSONResponse(await your_turns(tables_of(request), identity_of(request)),
                        headers={"cache-control": "no-store"})


async def lobby_rows(tables: Tables, since: float) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The lobby's games as stored (:func:`.rooms.lobby`, creators seen since ``since``) and the
    names their seated players chose."""
    rows = await tables.db(listed, tables.store, since)
    return rows, await tables.db(names_of, tables.store, [s["token"] for r in rows for s in r["seats"] if s["token"]])


def lobby_games(rows: list[dict[str, Any]], chosen: dict[str, str], token: str | None,
                now: float) -> list[dict[str, Any]]:
    """The lobby's games (:func:`lobby_rows`) as ``lobby_list.html`` shows them to the browser
    holding the token hash ``token``."""
    games = []
    for r in rows:
        callers = stored_callers(r["game"], r["params"], r["seats"], chosen)
        seats = r["seats"]
        first_open = next(i for i, s in enumerate(seats) if s["kind"] == OPEN)
        games.append({"id": r["id"], "title": entry(r["game"]).game_class.title, "variant": variant(r["game"], r["params"]),
                      "seated": [callers.third(i) for i, s in enumerate(seats) if s["kind"] != OPEN],
                      "open": sum(s["kind"] == OPEN for s in seats), "seat": first_open,
                      "seat_label": callers.labels[first_open], "waiting": ago(now - r["created"]),
                      "yours": token is not None and any(s["token"] == token for s in seats)})
    return games


async def lobby_page(request: Request) -> Response:
    """``GET /lobby``: the listed games with an open seat whose creator is still there, newest first."""
    now = time.time()
    rows, chosen = await lobby_rows(tables_of(request), now - creator_gone_seconds())
    return templates.TemplateResponse(request, "lobby.html", {
        "games": lobby_games(rows, chosen, identity_of(request), now)})


async def sit(request: Request) -> Response:
    """``POST /lobby/{game_id}/{seat}``: take the open seat ``seat`` of a listed game, as its
    invite link would (a newcomer is given a token here)."""
    tables = tables_of(request)
    game_id, seat = request.path_params["game_id"], request.path_params["seat"]
    rows = {r["id"]: r for r in await tables.db(listed, tables.store, time.time() - creator_gone_seconds())}
    row = rows.get(game_id)
    if row is None or not 0 <= seat < len(row["seats"]) or row["seats"][seat]["kind"] != OPEN:
        raise HTTPException(410, "That seat has been taken, or the game is no longer in the lobby.")
    token, minted = token_or_400(request)
    if any(s["token"] == acting_for(request, token) for s in row["seats"]):
        raise HTTPException(409, "You already sit at this game: open it from My games.")
    claimed = await tables.claim(row["seats"][seat]["invite"], acting_for(request, token))
    if claimed is None:
        raise HTTPException(410, "That seat has just been taken by someone else.")
    response = RedirectResponse(request.url_for("play", game_id=claimed).path, status_code=303)
    return remember(response, request, token) if minted else response


def rotated(table: Table) -> list[SeatRow]:
    """The seats of ``table`` moved round by one: who sat second plays first."""
    old = table.row.seats
    seats = []
    for i in range(len(old)):
        s = old[(i + 1) % len(old)]
        if s.kind == HUMAN:
            seats.append(SeatRow(HUMAN, token=s.token))
        elif s.kind == AI:
            seats.append(SeatRow(AI, agent=s.agent))
        else:
            seats.append(SeatRow(OPEN, invite=new_token()))
    return seats


async def rematch(request: Request) -> Response:
    """``POST /rematch/{game_id}``: a player of a finished game asks for a rematch (the first
    creates it, the others accept it); to the new game once every player has accepted, else
    back to the finished game's page, which says whom it waits for."""
    table = await table_or_404(request)
    tables = tables_of(request)
    token = identity_of(request)
    you = table.seats_of(token)
    if not you or token is None:
        raise HTTPException(403, "Only the game's players may ask for a rematch.")
    if table.on:
        raise HTTPException(409, "The game is not over yet: a rematch is for a finished game.")
    async with table.lock:  # two players clicking at once make one rematch (in one server process)
        found = await tables.db(rematch_of, tables.store, table.id)
        if found is None:
            await spend_creation(request)
            try:
                rated = await tables.db(is_rated, tables.store, table.id)
                control = table.kept.clock.control if table.kept is not None else None  # the same time control
                new_id = await tables.seated(table.game, rotated(table), token, rated, control=control)
            except Refused as exc:
                raise HTTPException(503, exc.message) from None
            others = frozenset(s.token for s in table.row.seats if s.kind == HUMAN and s.token and s.token != token)
            found = await tables.db(offer, tables.store, table.id, new_id, others)
            if found is None:  # another server process offered one first: that one stands
                tables.drop(new_id)
                await tables.db(drop_game, tables.store, new_id)
    if found is None or token in found.waiting:  # lost the race to create it, or accepting
        found = await tables.db(accept, tables.store, table.id, token)
    assert found is not None
    await tables.rematched(table)  # its players' pages, in every process, are told
    target = found.game_id if not found.waiting else table.id
    return RedirectResponse(request.url_for("play", game_id=target).path, status_code=303)


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/name", name_page, name="name"),
    Route("/name", set_name_route, methods=["POST"], name="set_name"),
    Route("/mine", mine_page, name="mine"),
    Route("/mine.json", mine_json, name="mine_json"),
    Route("/lobby", lobby_page, name="lobby"),
    Route("/lobby/{game_id:str}/{seat:int}", sit, methods=["POST"], name="sit"),
    Route("/rematch/{game_id:str}", rematch, methods=["POST"], name="rematch"),
]
