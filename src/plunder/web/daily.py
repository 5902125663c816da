"""The daily deal: one deal a UTC day for each solitaire at its default variant, the same for
everyone; each identity plays it once, ranked on the day's leaderboard, against a par worked
out once a day by the server (docs/web.md, "The daily deal").

The deal's seed is an HMAC of the day and the game under the server's secret
(:func:`secret`: ``PLUNDER_DAILY_SECRET``, else a random one kept in the store), so nobody can
work out a day's deal from its date. While its day lasts nothing of a daily game shows that
deal to anyone but its player: no record, replay, coach, spectator, hint or undo
(:func:`hidden_until` is what the routes ask).

Several server processes share this through the store: an identity's entry is a row keyed on
(day, game, identity) written in the transaction that creates its game, so two starts make one
game; the par is worked out by the process whose conditional insert of the day's par row
succeeds (:func:`claim_par`), and taken over only once that claim is :data:`PAR_STALE_SECONDS` old.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..core.game import State
from ..core.registry import entry, game_ids, load_game
from ..lab.clairvoyant import play as foresee
from ..match import play_out
from .store import GameRow, Store, metadata

#: the environment variable that sets the daily deals' secret (else one is made and kept in the store)
SECRET_ENV = "PLUNDER_DAILY_SECRET"
#: the AI level whose score on the deal is the par (each game's strongest level)
PAR_LEVEL = "hard"
#: the clairvoyant's search level for the par's foresight score (level 1: seconds of CPU a deal)
FORESIGHT_LEVEL = 1
#: seconds after which a par claim that never finished (its process died) may be taken over
PAR_STALE_SECONDS = 600.0
#: how many past days the archive lists; a past day's par is worked out on a visit when no
#: process worked it out on its day, for the days this many back at most (:func:`par_due`)
ARCHIVE_DAYS = 30
#: most entries a day's leaderboard shows
LEADERBOARD_SHOWN = 20
#: why a daily game has no undo (nor hints): they would show the deal's cards ahead of play
NO_UNDO = "A daily deal has no undo: everyone plays the same cards once."
#: why a daily game's record, replay, analysis and spectators are refused while its day lasts
HIDDEN = ("This is a daily deal, the same cards for everyone: its record, replay, analysis and watching "
          "open when its day ends (midnight UTC).")
NO_HINT = "A daily deal has no hints: everyone plays the same cards on their own."

daily_secret = Table(
    "daily_secret", metadata,
    # one row (id 1): written by the first process that needs it, read by every other
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("secret", String(64), nullable=False),
)

daily_entries = Table(
    "daily_entries", metadata,
    Column("day", String(10), primary_key=True),
    Column("game", String(32), primary_key=True),
    # the identity that plays it (one entry per identity: the key)
    Column("identity", String(64), primary_key=True),
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
    Column("started", Float, nullable=False),
    Column("finished", Float),
    Column("score", Float),
)

daily_par = Table(
    "daily_par", metadata,
    Column("day", String(10), primary_key=True),
    Column("game", String(32), primary_key=True),
    # the process working it out, since when; how many times a process started on it
    Column("holder", String(64), nullable=False),
    Column("claimed", Float, nullable=False),
    Column("runs", Integer, nullable=False),
    Column("agent_score", Float),
    Column("foresight", Float),
    # CPU seconds the computation took (docs/web.md: the par's budget)
    Column("cpu", Float),
)


def solitaires() -> list[str]:
    """The games that have a daily deal: one seat, with chance (a deal to share), in the games' order."""
    return [g for g in game_ids() if entry(g).declaration.max_seats == 1 and entry(g).declaration.chance]


def day_of(now: float) -> str:
    """The UTC day (``YYYY-MM-DD``) of the moment ``now`` (seconds since the epoch)."""
    return datetime.fromtimestamp(now, timezone.utc).date().isoformat()


def parse_day(text: str) -> str | None:
    """``text`` if it is a day written ``YYYY-MM-DD``, else ``None``."""
    try:
        return date.fromisoformat(text).isoformat() if len(text) == 10 else None
    except ValueError:
        return None


def day_end(day: str) -> float:
    """The moment ``day`` ends (the next UTC midnight), seconds since the epoch."""
    start = datetime.combine(date.fromisoformat(day), datetime.min.time(), timezone.utc)
    return (start + timedelta(days=1)).timestamp()


def par_due(day: str, now: float) -> bool:
    """Whether ``day``'s par is to be worked out if missing at ``now``: today's, and a past
    day's within :data:`ARCHIVE_DAYS` (older days' pars, never asked for on their day, are not:
    a crawl of the archive costs at most that many days' pars, each once)."""
    return day_of(now - ARCHIVE_DAYS * 86400) <= day <= day_of(now)


def secret(store: Store) -> str:
    """The daily deals' secret: :data:`SECRET_ENV` if set, else the store's (made by the first
    process that asks: a conditional insert, so every process reads the same one)."""
    given = os.environ.get(SECRET_ENV)
    if given:
        return given
    with store.engine.connect() as db:
        kept = db.execute(select(daily_secret.c.secret).where(daily_secret.c.id == 1)).scalar()
    if kept is not None:
        return str(kept)
    try:
        with store.engine.begin() as db:
            db.execute(insert(daily_secret).values(id=1, secret=secrets.token_hex(32)))
    except IntegrityError:  # another process made it first: its secret stands
        pass
    return secret(store)


def seed_of(key: str, day: str, game: str) -> int:
    """The seed of ``game``'s deal on ``day`` under the secret ``key`` (below 2**63, as every seed)."""
    digest = hmac.new(key.encode(), f"daily/{day}/{game}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Daily:
    """A daily game about to be created: its day, seed and player, when it starts."""

    day: str
    game: str
    seed: int
    identity: str
    started: float

    @property
    def hidden_until(self) -> float:
        """When its deal stops being hidden: the end of its day."""
        return day_end(self.day)

    def entry(self, game_id: str) -> Callable[[Connection], None]:
        """What writes the player's entry in the transaction that creates its game ``game_id``:
        a second start of the same identity conflicts on the key, and nothing is created."""
        def write(db: Connection) -> None:
            db.execute(insert(daily_entries).values(day=self.day, game=self.game, identity=self.identity,
                                                    game_id=game_id, started=self.started))
        return write


@dataclass(frozen=True)
class Entry:
    """An identity's play of a day's deal."""

    game_id: str
    started: float
    finished: float | None
    score: float | None


def entry_of(store: Store, day: str, game: str, identity: str) -> Entry | None:
    """``identity``'s entry for ``game`` on ``day``, or ``None``."""
    with store.engine.connect() as db:
        r = db.execute(select(daily_entries).where(daily_entries.c.day == day, daily_entries.c.game == game,
                                                   daily_entries.c.identity == identity)).mappings().first()
    return None if r is None else Entry(r["game_id"], r["started"], r["finished"], r["score"])


def hidden_until(store: Store, game_id: str) -> float | None:
    """When a daily game's deal stops being hidden (the end of its day); ``None`` for any other game."""
    with store.engine.connect() as db:
        day = db.execute(select(daily_entries.c.day).where(daily_entries.c.game_id == game_id)).scalar()
    return None if day is None else day_end(str(day))


def hidden_games(store: Store, game_ids: list[str], now: float) -> set[str]:
    """Those of ``game_ids`` that are daily games whose day is not over at ``now``."""
    with store.engine.connect() as db:
        return {str(g) for g in db.execute(select(daily_entries.c.game_id).where(
            daily_entries.c.game_id.in_(game_ids), daily_entries.c.day >= day_of(now))).scalars()}


def finish(store: Store, game_id: str, score: float, now: float) -> None:
    """Keep a daily game's end (once: a later call changes nothing)."""
    with store.engine.begin() as db:
        db.execute(update(daily_entries).where(daily_entries.c.game_id == game_id, daily_entries.c.finished.is_(None))
                   .values(finished=now, score=score))


def leaderboard(store: Store, day: str, game: str, limit: int = LEADERBOARD_SHOWN) -> list[dict[str, Any]]:
    """The day's ranked entries of ``game``: finished within the day, by score (more first),
    then time taken (less first)."""
    taken = daily_entries.c.finished - daily_entries.c.started
    with store.engine.connect() as db:
        rows = db.execute(select(daily_entries.c.identity, daily_entries.c.game_id, daily_entries.c.score,
                                 taken.label("taken"))
                          .where(daily_entries.c.day == day, daily_entries.c.game == game,
                                 daily_entries.c.finished.is_not(None), daily_entries.c.finished < day_end(day))
                          .order_by(daily_entries.c.score.desc(), taken, daily_entries.c.identity)
                          .limit(limit)).mappings().all()
    return [dict(r) for r in rows]


def streak(store: Store, identity: str, today: str) -> int:
    """How many days in a row, up to ``today`` (or yesterday, before today's deal is played),
    ``identity`` started a daily deal."""
    return streaks(store, [identity], today)[identity]


def streaks(store: Store, identities: list[str], today: str) -> dict[str, int]:
    """:func:`streak` of each of ``identities``, their days read in one query."""
    days: dict[str, set[str]] = {i: set() for i in identities}
    if identities:
        with store.engine.connect() as db:
            for identity, day in db.execute(select(daily_entries.c.identity, daily_entries.c.day)
                                            .where(daily_entries.c.identity.in_(sorted(set(identities))))
                                            .distinct()):
                days[str(identity)].add(str(day))
    return {i: run_of(days[i], today) for i in identities}


def run_of(days: set[str], today: str) -> int:
    """How many days in a row of ``days`` end at ``today``, or at yesterday if ``today`` is not
    among them (today's deal not played yet keeps a streak alive)."""
    day = date.fromisoformat(today)
    if today not in days:
        day -= timedelta(days=1)
    count = 0
    while day.isoformat() in days:
        count += 1
        day -= timedelta(days=1)
    return count


def played_days(store: Store, before: str, most: int = ARCHIVE_DAYS) -> list[str]:
    """The last ``most`` days before ``before`` on which someone started a daily deal, newest first."""
    with store.engine.connect() as db:
        return [str(d) for d in db.execute(select(daily_entries.c.day).where(daily_entries.c.day < before)
                                           .distinct().order_by(daily_entries.c.day.desc()).limit(most)).scalars()]


@dataclass(frozen=True)
class Par:
    """What the strongest level and the clairvoyant score on a day's deal, and its CPU seconds."""

    agent_score: float
    foresight: float
    cpu: float


def par_of(store: Store, day: str, game: str) -> Par | None:
    """The day's par of ``game`` once worked out, else ``None``."""
    with store.engine.connect() as db:
        r = db.execute(select(daily_par).where(daily_par.c.day == day, daily_par.c.game == game)).mappings().first()
    if r is None or r["foresight"] is None:
        return None
    return Par(r["agent_score"], r["foresight"], r["cpu"])


def claim_par(store: Store, day: str, game: str, holder: str, now: float) -> bool:
    """True when ``holder`` is to work out the day's par of ``game``: its row inserted now, or
    a claim that never finished taken over after :data:`PAR_STALE_SECONDS`; False while
    another process works on it or it is done."""
    try:
        with store.engine.begin() as db:
            db.execute(insert(daily_par).values(day=day, game=game, holder=holder, claimed=now, runs=1))
        return True
    except IntegrityError:
        pass
    with store.engine.begin() as db:
        done = db.execute(update(daily_par).where(daily_par.c.day == day, daily_par.c.game == game,
                                                  daily_par.c.foresight.is_(None),
                                                  daily_par.c.claimed < now - PAR_STALE_SECONDS)
                          .values(holder=holder, claimed=now, runs=daily_par.c.runs + 1))
        return done.rowcount == 1


def compute_par(game_id: str, seed: int) -> Par:
    """Play the deal of ``seed`` with the strongest level and with the clairvoyant (CPU-bound:
    seconds; the measured budget is in docs/web.md)."""
    start = time.process_time()
    game = load_game(game_id)
    _, played = play_out(game, [PAR_LEVEL], seed)
    foreseen = foresee(game, seed, FORESIGHT_LEVEL, aim="score")
    return Par(float(played.scores()[0]), float(foreseen.scores()[0]), time.process_time() - start)


def keep_par(store: Store, day: str, game: str, holder: str, par: Par) -> None:
    """Store the par ``holder`` worked out (if its claim still stands)."""
    with store.engine.begin() as db:
        db.execute(update(daily_par).where(daily_par.c.day == day, daily_par.c.game == game,
                                           daily_par.c.holder == holder)
                   .values(agent_score=par.agent_score, foresight=par.foresight, cpu=par.cpu))


def settled(store: Store, row: GameRow, state: State, now: float,
            told: dict[str, list[str]]) -> dict[str, list[str]]:
    """Keep a finished daily game's score (:func:`finish`) and add the par to what its end
    says to its player (``told``: :func:`.ratings.settle`'s)."""
    seat = row.seats[0]
    if seat.token is None:
        return told
    score = float(state.scores()[0])
    finish(store, row.id, score, now)
    kept = entry_of_game(store, row.id)
    par = par_of(store, kept[0], row.game) if kept else None
    return {**told, seat.token: [par_line(score, par), *told.get(seat.token, [])]}


def entry_of_game(store: Store, game_id: str) -> tuple[str, str] | None:
    """The (day, identity) of the daily game ``game_id``, or ``None``."""
    with store.engine.connect() as db:
        r = db.execute(select(daily_entries.c.day, daily_entries.c.identity)
                       .where(daily_entries.c.game_id == game_id)).first()
    return None if r is None else (str(r[0]), str(r[1]))


def fmt(score: float | None) -> str:
    """A score as shown (whole numbers without a decimal point)."""
    return "?" if score is None else f"{score:g}"


def par_line(score: float | None, par: Par | None) -> str:
    """``You scored 27 · the hard AI 24 · foresight 31`` (the par still being worked out: said so)."""
    yours = f"You scored {fmt(score)}"
    if par is None:
        return f"{yours} · the par is being worked out: see today's leaderboard"
    return f"{yours} · the {PAR_LEVEL} AI {fmt(par.agent_score)} · foresight {fmt(par.foresight)}"


def taken_text(seconds: float) -> str:
    """A time taken as ``4:07`` (or ``1:02:03``)."""
    s = max(0, int(round(seconds)))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
