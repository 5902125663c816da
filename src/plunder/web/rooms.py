"""What the store keeps of the room around the tables: which games are listed in the lobby,
which finished game was followed by which rematch (and whose acceptance it waits for), and the
queries of the lobby and of a browser's "my games" page.

Every function is synchronous and short, like the store's own (:meth:`plunder.web.tables.Tables.db`).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, ForeignKey, String, Table, Text, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .store import ON, OPEN, Store, games, metadata, seats

#: most open games the lobby lists (the longest-waiting are dropped first: newest first)
MAX_LOBBY = 50
#: most games of one creator (a token) the lobby lists, its newest: one browser listing many
#: games does not push everyone else's off the lobby
LOBBY_PER_CREATOR = 3
#: most games created from one address the lobby lists, its newest (whatever tokens created them:
#: a client minting tokens gains nothing); more than a creator's, as one address may be several
#: people's (a household, a school)
LOBBY_PER_ADDRESS = 6
#: most games a browser's "my games" page lists, in progress and finished alike
MAX_MINE = 50
#: seconds a listed game stays in the lobby once its creator has no connection to it (a page
#: reloaded or a network cut for a moment does not delist it); ``PLUNDER_CREATOR_GONE_SECONDS``
#: in the environment sets another (:func:`creator_gone_seconds`)
CREATOR_GONE_SECONDS = 60.0
#: the environment variable that sets :data:`CREATOR_GONE_SECONDS`
CREATOR_GONE_VARIABLE = "PLUNDER_CREATOR_GONE_SECONDS"

listings = Table(
    "listings", metadata,
    # a game whose creator chose "anyone may join": its open seats are in the lobby
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("created", Float, nullable=False),
)

listed_from = Table(
    "listed_from", metadata,
    # the address a listed game was created from (its lobby share, :data:`LOBBY_PER_ADDRESS`)
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("address", String(64), nullable=False),
)

presences = Table(
    "presences", metadata,
    # a game with an open seat, and when a server process last saw its creator connected to it
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seen", Float, nullable=False),
)

rematches = Table(
    "rematches", metadata,
    # the finished game, and the game its rematch is
    Column("old", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("new", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    # the token hashes (JSON list) of the players who have not accepted yet
    Column("waiting", Text, nullable=False),
    Column("created", Float, nullable=False),
)


@dataclass(frozen=True)
class Rematch:
    """The rematch of a finished game: its id and the token hashes it still waits for."""

    game_id: str
    waiting: frozenset[str]

    def view(self, token: str | None) -> dict[str, Any]:
        """As a viewer holding the token hash ``token`` is told in its ``state`` message."""
        return {"game_id": self.game_id, "path": f"/play/{self.game_id}", "waiting": len(self.waiting),
                "you_waiting": token in self.waiting, "ready": not self.waiting}


def creator_gone_seconds() -> float:
    """:data:`CREATOR_GONE_SECONDS`, or the positive number of seconds its environment variable
    gives (a server refuses to start on anything else, naming the variable)."""
    given = os.environ.get(CREATOR_GONE_VARIABLE)
    if not given:
        return CREATOR_GONE_SECONDS
    try:
        seconds = float(given)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise ValueError(f"{CREATOR_GONE_VARIABLE} is {given!r}: it must be a positive number of seconds")
    return seconds


def mark_seen(store: Store, game_ids: list[str], now: float) -> None:
    """Note that the creators of ``game_ids`` were connected to them at ``now`` (a game deleted
    meanwhile is skipped)."""
    with store.engine.begin() as db:
        db.execute(update(presences).where(presences.c.game_id.in_(game_ids)).values(seen=now))
        known = set(db.execute(select(presences.c.game_id).where(presences.c.game_id.in_(game_ids))).scalars())
    for game_id in game_ids:
        if game_id not in known:
            try:  # its first sighting; another process may write it at the same moment
                with store.engine.begin() as db:
                    db.execute(insert(presences).values(game_id=game_id, seen=now))
            except IntegrityError:
                pass


def list_game(store: Store, game_id: str, address: str = "") -> None:
    """Put ``game_id``, created from ``address`` (``""``: none known), in the lobby."""
    with store.engine.begin() as db:
        db.execute(insert(listings).values(game_id=game_id, created=time.time()))
        if address:
            db.execute(insert(listed_from).values(game_id=game_id, address=address[:64]))


def rematch_of(store: Store, old: str) -> Rematch | None:
    """The rematch offered after ``old``, if any."""
    with store.engine.connect() as db:
        row = db.execute(select(rematches.c.new, rematches.c.waiting).where(rematches.c.old == old)).first()
    return None if row is None else Rematch(str(row[0]), frozenset(json.loads(row[1])))


def offer(store: Store, old: str, new: str, waiting: frozenset[str]) -> Rematch | None:
    """Record ``new`` as the rematch of ``old``, waiting for ``waiting``; ``None`` when another
    request recorded one first (that one stands)."""
    try:
        with store.engine.begin() as db:
            db.execute(insert(rematches).values(old=old, new=new, waiting=json.dumps(sorted(waiting)),
                                                created=time.time()))
    except IntegrityError:
        return None
    return Rematch(new, waiting)


def drop_game(store: Store, game_id: str) -> None:
    """Delete ``game_id`` with its seats and moves (a rematch made twice at once: the second)."""
    with store.engine.begin() as db:
        db.execute(delete(games).where(games.c.id == game_id))


def accept(store: Store, old: str, token: str) -> Rematch | None:
    """The holder of the token hash ``token`` accepts the rematch of ``old``; the rematch as it
    now stands (``None``: none offered)."""
    with store.engine.begin() as db:
        row = db.execute(select(rematches.c.new, rematches.c.waiting).where(rematches.c.old == old)
                         .with_for_update()).first()
        if row is None:
            return None
        waiting = frozenset(json.loads(row[1])) - {token}
        db.execute(update(rematches).where(rematches.c.old == old).values(waiting=json.dumps(sorted(waiting))))
    return Rematch(str(row[0]), waiting)


def lobby(store: Store, since: float = 0.0) -> list[dict[str, Any]]:
    """The listed games in progress with an open seat whose creator was last seen connected at
    ``since`` or later (listing it counts as seen), newest first (:data:`MAX_LOBBY` at most, and
    of those the newest :data:`LOBBY_PER_CREATOR` of each creator and :data:`LOBBY_PER_ADDRESS`
    of each address): id, game, params, created, seen, and each seat's kind, agent and token hash."""
    with store.engine.connect() as db:
        open_games = (select(seats.c.game_id).where(seats.c.kind == OPEN)).scalar_subquery()
        seen = func.coalesce(presences.c.seen, listings.c.created)
        # a game listed before addresses were kept counts as an address of its own
        address = func.coalesce(listed_from.c.address, games.c.id)
        newest = listings.c.created.desc()
        ranked = (select(games.c.id, games.c.game, games.c.params, listings.c.created, seen.label("seen"),
                         func.row_number().over(partition_by=games.c.creator, order_by=newest).label("of_creator"),
                         func.row_number().over(partition_by=address, order_by=newest).label("of_address"))
                  .join(listings, listings.c.game_id == games.c.id)
                  .outerjoin(presences, presences.c.game_id == games.c.id)
                  .outerjoin(listed_from, listed_from.c.game_id == games.c.id)
                  .where(games.c.status == ON, games.c.id.in_(open_games), seen >= since)).subquery()
        rows = db.execute(select(ranked.c.id, ranked.c.game, ranked.c.params, ranked.c.created, ranked.c.seen)
                          .where(ranked.c.of_creator <= LOBBY_PER_CREATOR, ranked.c.of_address <= LOBBY_PER_ADDRESS)
                          .order_by(ranked.c.created.desc()).limit(MAX_LOBBY)).mappings().all()
        return _with_seats(db, [dict(r) for r in rows])


def mine(store: Store, token: str) -> list[dict[str, Any]]:
    """The games where the token hash ``token`` holds a seat, last changed first
    (:data:`MAX_MINE` at most): id, game, params, status, resigned_by, updated, and each seat's
    kind, agent and token hash."""
    with store.engine.connect() as db:
        held = select(seats.c.game_id).where(seats.c.token == token).scalar_subquery()
        rows = db.execute(select(games.c.id, games.c.game, games.c.params, games.c.status, games.c.resigned_by,
                                 games.c.updated)
                          .where(games.c.id.in_(held))
                          .order_by(games.c.updated.desc()).limit(MAX_MINE)).mappings().all()
        return _with_seats(db, [dict(r) for r in rows])


def _with_seats(db: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` each with its ``seats`` (kind, agent, token, invite) and ``params`` read."""
    ids = [r["id"] for r in rows]
    found: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    if ids:
        for s in db.execute(select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.seat)).mappings():
            found[s["game_id"]].append(dict(s))
    for r in rows:
        r["params"] = json.loads(r["params"])
        r["seats"] = found[r["id"]]
    return rows
