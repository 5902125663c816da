"""The web app's store: games, their seats and every move, behind one SQLAlchemy Core module.

SQLite by default (a file in WAL mode), PostgreSQL by URL (``postgresql+psycopg://...``) for a
deployment with several server processes; the SQL is the same for both. A move is written
(committed) before the server acknowledges it, so a server killed at any moment loses no
acknowledged move: a game is rebuilt from its seed, seats and moves (:mod:`.table`).

Secrets: the game's seed stays in the store while the game is on (a player who knew it could
compute the cards to come); a seat's token is stored only as its SHA-256 (:func:`token_hash`).
An open seat's invite code is kept as given until the seat is claimed, so the game's creator can
see the invite links again; claiming clears it.

Every method is synchronous and short; the server calls them from a thread
(:meth:`plunder.web.storage.Storage.db`).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from sqlalchemy import (BigInteger, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text,
                        create_engine, delete, event, insert, inspect, select, text, update)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError

from ..core.errors import quoted
from ..core.options import writable_file
from ..core.record import Move

#: a game in progress
ON = "on"
#: a game played to its end
OVER = "over"
#: a game a seat resigned (or lost by leaving: on time, claimed against; :mod:`.clockstore`)
RESIGNED = "resigned"
#: a game called off before every person had moved: no result, not rated
ABORTED = "aborted"

#: a seat played by a person holding its token
HUMAN = "human"
#: a seat played by an AI level (``agent`` holds its spec)
AI = "ai"
#: a seat waiting for a friend to claim it with its invite
OPEN = "open"
SEAT_KINDS = (HUMAN, AI, OPEN)

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(32), nullable=False),
    # the game's canonical parameter texts, as JSON
    Column("params", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    # the seat that resigned, when status is RESIGNED
    Column("resigned_by", Integer),
    # the SHA-256 of the creator's token: who may see the invite links
    Column("creator", String(64), nullable=False),
    # one more at every change (a move, an undo, a resignation, a seat claimed): a write names
    # the version it was planned on, so two server processes never both change one game
    Column("version", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("games_updated", "status", "updated"),
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("agent", String(200)),
    Column("token", String(64)),
    Column("invite", String(64), unique=True),
    Index("seats_token", "token"),
)

moves = Table(
    "moves", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # the move's index in the game (0 = the first): two writers of one ply cannot both succeed
    Column("ply", Integer, primary_key=True, autoincrement=False),
    # the seat that moved; NULL for chance
    Column("by", Integer),
    Column("action", Text, nullable=False),
)


def token_hash(token: str) -> str:
    """What the store keeps of a seat token (tokens are long random strings, so a plain hash
    suffices: nobody can guess one from its hash)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class SeatRow:
    """One seat of a stored game."""

    kind: str
    agent: str | None = None
    #: SHA-256 of the token that acts for this seat
    token: str | None = None
    #: the invite code of an open seat
    invite: str | None = None


def record_players(seats: Sequence[SeatRow]) -> list[str]:
    """The players a game's record names: each AI seat by its level's spec, any other ``human``."""
    return [s.agent if s.kind == AI and s.agent else "human" for s in seats]


@dataclass
class GameRow:
    """A stored game: what it is, its seats and its moves so far."""

    id: str
    game: str
    params: dict[str, str]
    seed: int
    status: str
    creator: str
    seats: list[SeatRow]
    moves: list[Move] = field(default_factory=list)
    resigned_by: int | None = None
    version: int = 0
    created: float = 0.0
    updated: float = 0.0


class StaleWrite(Exception):
    """The game changed since the version a write was planned on (another server process)."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers work while a move is written; ``synchronous=NORMAL`` commits without
    waiting for the disk in WAL mode, which loses nothing when the server process dies (only a
    power cut can take back the last commits); foreign keys make deleting a game delete its rows."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


#: seconds ``plunder serve`` waits for a PostgreSQL server at startup before refusing ``--db``
CONNECT_SECONDS = 10


def check(url: str) -> None:
    """Refuse, with a one-line ``ValueError``, a database URL the server could not use: not a URL,
    not SQLite or PostgreSQL, a SQLite path that is not a regular file or cannot be written, a
    PostgreSQL server that does not answer within :data:`CONNECT_SECONDS`. Creates the tables, as
    the server's store would."""
    try:
        parsed = make_url(url)
        shown = parsed.render_as_string(hide_password=True)
        dialect = parsed.get_backend_name()
    except (SQLAlchemyError, ValueError):
        raise ValueError(f"--db {quoted(url)} is not a database URL (sqlite:///PATH or postgresql://...)") from None
    if dialect not in ("sqlite", "postgresql"):
        raise ValueError(f"--db {quoted(shown)}: {dialect!r} is not a database Plunder serves from "
                         "(sqlite:///PATH or postgresql://...)")
    if dialect == "sqlite" and parsed.database not in (None, "", ":memory:"):
        writable_file(parsed.database, "--db file")
    try:
        store = Store(url, connect_args={"connect_timeout": CONNECT_SECONDS} if dialect == "postgresql" else {})
    except (SQLAlchemyError, OSError, RuntimeError) as exc:  # RuntimeError: another version's (upgrade)
        cause = exc.orig if isinstance(exc, DBAPIError) else exc
        first = next((line.strip() for line in str(cause).splitlines() if line.strip()), type(cause).__name__)
        raise ValueError(f"--db {quoted(shown)} cannot be used: {first}") from None
    store.close()


def upgrade(engine: Engine) -> list[str]:
    """Add to the tables of a store made by an earlier version the columns added since (each
    nullable or with a default for the rows already there: a column that has neither stops the
    server, saying so, rather than fail at its first use); the columns added, as ``table.column``.
    Two processes upgrading at once: the one that finds the column made meanwhile goes on."""
    added = []
    tables = metadata.sorted_tables
    have = _columns(engine)
    for table in tables:
        for column in table.columns:
            if table.name not in have or column.name in have[table.name]:
                continue
            if not column.nullable and column.server_default is None:
                raise RuntimeError(f"the store's table {table.name} has no column {column.name}, and it cannot be added "
                                   "to the rows there (no default): this database was made by another version")
            ddl = f"ALTER TABLE {table.name} ADD COLUMN {column.name} {column.type.compile(engine.dialect)}"
            if column.server_default is not None:
                ddl += f" DEFAULT {column.server_default.arg.text}"  # type: ignore[attr-defined]
            if not column.nullable:
                ddl += " NOT NULL"
            try:
                with engine.begin() as db:
                    db.execute(text(ddl))
            except SQLAlchemyError:
                if column.name not in _columns(engine).get(table.name, set()):
                    raise
                continue  # another process added it meanwhile
            added.append(f"{table.name}.{column.name}")
    return added


def _columns(engine: Engine) -> dict[str, set[str]]:
    """The columns of each of the store's tables in the database, by table."""
    found = inspect(engine)
    return {name: {c["name"] for c in found.get_columns(name)} for name in found.get_table_names()}


class Store:
    """The games of one database, created on first use."""

    def __init__(self, url: str, connect_args: dict[str, Any] | None = None) -> None:
        self.url = url
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(url, future=True, connect_args=connect_args or {})
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        upgrade(self.engine)

    def close(self) -> None:
        """Let go of every connection."""
        self.engine.dispose()

    def create(self, row: GameRow, also: Callable[[Connection], None] | None = None) -> None:
        """Store a new game with its seats (and its first moves, if any); ``also`` writes what
        belongs to the game from its first moment in the same transaction (that it is rated)."""
        now = time.time()
        with self.engine.begin() as db:
            db.execute(insert(games).values(
                id=row.id, game=row.game, params=json.dumps(row.params, sort_keys=True), seed=row.seed,
                status=row.status, resigned_by=row.resigned_by, creator=row.creator, version=row.version,
                created=now, updated=now))
            db.execute(insert(seats), [{"game_id": row.id, "seat": i, "kind": s.kind, "agent": s.agent,
                                        "token": s.token, "invite": s.invite} for i, s in enumerate(row.seats)])
            self._insert_moves(db, row.id, 0, row.moves)
            if also is not None:
                also(db)

    def load(self, game_id: str) -> GameRow | None:
        """The stored game ``game_id`` with its seats and moves, or ``None``."""
        with self.engine.connect() as db:
            g = db.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if g is None:
                return None
            seat_rows = db.execute(select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)).mappings()
            move_rows = db.execute(select(moves.c.by, moves.c.action).where(moves.c.game_id == game_id)
                                   .order_by(moves.c.ply)).all()
            return GameRow(
                id=g["id"], game=g["game"], params=json.loads(g["params"]), seed=int(g["seed"]), status=g["status"],
                creator=g["creator"], resigned_by=g["resigned_by"], version=g["version"],
                created=g["created"], updated=g["updated"],
                seats=[SeatRow(s["kind"], s["agent"], s["token"], s["invite"]) for s in seat_rows],
                moves=[Move(by, action) for by, action in move_rows])

    @staticmethod
    def _insert_moves(db: Any, game_id: str, first: int, new: Sequence[Move]) -> None:
        if new:
            db.execute(insert(moves), [{"game_id": game_id, "ply": first + i, "by": m.by, "action": m.action}
                                       for i, m in enumerate(new)])

    @staticmethod
    def bump(db: Connection, game_id: str, version: int, on: bool = False, **values: Any) -> None:
        """Move ``game_id`` from ``version`` to the next (and, if ``on``, only while it is in
        progress), writing ``values`` with it, or raise :class:`StaleWrite`: the conditional
        write every change of a game makes, so two processes never both change one version."""
        where = [games.c.id == game_id, games.c.version == version, *([games.c.status == ON] if on else [])]
        done = db.execute(update(games).where(*where).values(version=version + 1, updated=time.time(), **values))
        if done.rowcount != 1:
            raise StaleWrite(f"game {game_id} is no longer at version {version}")

    def append(self, game_id: str, version: int, first: int, new: Sequence[Move], status: str = ON,
               cut: bool = True, also: Callable[[Connection], None] | None = None) -> None:
        """Store ``new`` as moves ``first``, ``first + 1`` ... of ``game_id`` at ``version`` and
        the game's status, in one transaction (:class:`StaleWrite` if the game changed). ``cut``:
        drop the stored moves from ``first`` on first (an undo); without it a move already stored
        at ``first`` is a :class:`StaleWrite`, as the version check would find. ``also`` writes
        more in the same transaction (the event telling the change: :mod:`.transport`)."""
        try:
            with self.engine.begin() as db:
                self.bump(db, game_id, version, status=status)
                if cut:
                    db.execute(delete(moves).where(moves.c.game_id == game_id, moves.c.ply >= first))
                self._insert_moves(db, game_id, first, new)
                if also is not None:
                    also(db)
        except IntegrityError:
            raise StaleWrite(f"game {game_id} already has a move {first}") from None

    def claim(self, invite: str, token: str) -> tuple[str, int] | None:
        """Give the open seat with ``invite`` to the holder of ``token`` (a hash); its game id and
        seat, or ``None`` when no open seat has that invite (never issued, or claimed already)."""
        with self.engine.begin() as db:
            found = db.execute(select(seats.c.game_id, seats.c.seat)
                               .where(seats.c.invite == invite, seats.c.kind == OPEN)).first()
            if found is None:
                return None
            game_id, seat = found
            done = db.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat,
                                                  seats.c.kind == OPEN)
                              .values(kind=HUMAN, token=token, invite=None))
            if done.rowcount != 1:
                return None
            db.execute(update(games).where(games.c.id == game_id)
                       .values(version=games.c.version + 1, updated=time.time()))
            return str(game_id), int(seat)

    def recent(self, limit: int = 50, statuses: Sequence[str] = (OVER, RESIGNED)) -> list[dict[str, Any]]:
        """The ``limit`` games last changed with one of ``statuses``, newest first: id, game,
        status, updated (seconds since the epoch) and how many moves."""
        with self.engine.connect() as db:
            rows = db.execute(select(games.c.id, games.c.game, games.c.status, games.c.updated)
                              .where(games.c.status.in_(list(statuses)))
                              .order_by(games.c.updated.desc()).limit(limit)).mappings().all()
            return [dict(r) for r in rows]
