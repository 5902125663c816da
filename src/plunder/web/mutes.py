"""Mutes of table talk kept with the identity (:mod:`.identities`), so that they follow a person
who signs in with a passkey on another browser: which seats of a game an identity muted.

``GET /mutes/{game_id}`` answers ``{"muted": [seats], "known": bool}`` (``known``: the
browser has an identity, whose mutes these are; a newcomer's are its browser's own);
``POST /mutes/{game_id}`` with ``{"seat": n, "muted": true|false}`` mutes or unmutes a seat and
answers the same. The page (``static/chat.js``) also keeps them in the browser, for a visitor
without an identity yet.
"""

from __future__ import annotations

import json

from sqlalchemy import Column, Integer, String, Table, delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .games import tables_of
from .identities import identity_of
from .store import Store, metadata, seats

mutes = Table(
    "mutes", metadata,
    Column("identity", String(64), primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
)

#: most bytes of a mute request's body
MAX_MUTE_BYTES = 200


class MuteRefused(ValueError):
    """A mute request that names no seat of the game (the message says what was wrong)."""


def muted_seats(store: Store, identity: str, game_id: str) -> list[int]:
    """The seats of ``game_id`` that ``identity`` muted, in order."""
    with store.engine.connect() as db:
        return [int(s) for s in db.execute(select(mutes.c.seat).where(mutes.c.identity == identity,
                                                                         mutes.c.game_id == game_id)
                                           .order_by(mutes.c.seat)).scalars()]


def set_muted(store: Store, identity: str, game_id: str, seat: int, on: bool) -> list[int]:
    """Mute (``on``) or unmute seat ``seat`` of ``game_id`` for ``identity``; its muted seats then.
    :class:`MuteRefused` when the game has no such seat."""
    with store.engine.begin() as db:
        count = db.execute(select(func.count()).select_from(seats).where(seats.c.game_id == game_id)).scalar_one()
        if not 0 <= seat < count:
            raise MuteRefused(f"This game has no seat {seat}." if count else "There is no such game here.")
        if on:
            try:
                with db.begin_nested():
                    db.execute(insert(mutes).values(identity=identity, game_id=game_id, seat=seat))
            except IntegrityError:  # muted already
                pass
        else:
            db.execute(delete(mutes).where(mutes.c.identity == identity, mutes.c.game_id == game_id,
                                           mutes.c.seat == seat))
    return muted_seats(store, identity, game_id)


async def mutes_get(request: Request) -> Response:
    """``GET /mutes/{game_id}``: the seats this identity muted in the game."""
    identity = identity_of(request)
    tables = tables_of(request)
    found = await tables.db(muted_seats, tables.store, identity, request.path_params["game_id"]) if identity else []
    return JSONResponse({"muted": found, "known": identity is not None}, headers={"cache-control": "no-store"})


async def mutes_post(request: Request) -> Response:
    """``POST /mutes/{game_id}``: mute or unmute one seat for this identity."""
    identity = identity_of(request)
    if identity is None:
        return JSONResponse({"error": "This browser has no identity yet: its mutes are kept in the browser only."},
                            status_code=400)
    body = await request.body()
    try:
        if len(body) > MAX_MUTE_BYTES:
            raise ValueError(body)
        asked = json.loads(body)
        seat, on = asked["seat"], asked["muted"]
        if type(seat) is not int or type(on) is not bool:
            raise TypeError
    except (ValueError, TypeError, KeyError):
        return JSONResponse({"error": 'A mute is {"seat": a seat number, "muted": true or false}.'}, status_code=400)
    tables = tables_of(request)
    try:
        found = await tables.db(set_muted, tables.store, identity, request.path_params["game_id"], seat, on)
    except MuteRefused as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    return JSONResponse({"muted": found, "known": True}, headers={"cache-control": "no-store"})


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/mutes/{game_id:str}", mutes_get, name="mutes"),
    Route("/mutes/{game_id:str}", mutes_post, methods=["POST"], name="mute"),
]
