"""Puzzle attempts and puzzle ratings in the store (docs/web.md, "Puzzles").

An **attempt** is one identity's play of one puzzle: how far along the solution line it is
(``at``, the steps played), and whether it is on, solved or failed. The first attempt of a
puzzle by an identity is rated: a row of :data:`puzzle_firsts` keyed on (identity, puzzle)
is written in the transaction that creates it, so a second attempt (a retry, another tab,
another process) finds the key taken and is unrated.

Every step of an attempt is a conditional write (:func:`advance`: ``WHERE at = <the step it
was planned on> AND status = 'on'``): of two processes sending the same move at once one
writes, the other is told the attempt moved on. The write that ends a rated attempt updates
both ratings in its own transaction, so an attempt moves them once, whichever process ends it.

A puzzle is an opponent: its rating (:data:`puzzle_strengths`) starts from its difficulty
(:func:`initial`) and moves with every rated attempt, as the player's does (:mod:`.skill`'s
model, the same as the games' ratings). The **streak** counts the rated attempts solved in a
row; a failed one sets it back to 0.

Every function is synchronous and short, run as the store's calls are (:meth:`.storage.Storage.db`).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Sequence

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .ratings import PROVISIONAL_SIGMA, rating_text
from .skill import MU, SIGMA, rate
from .store import Store, metadata

#: an attempt being played
ON = "on"
#: an attempt that found every move of the line
SOLVED = "solved"
#: an attempt that missed a move (the solution was shown)
FAILED = "failed"
#: how far apart, in rating points, the levels of difficulty 1 to 5 start (3 starts at :data:`.skill.MU`)
DIFFICULTY_STEP = 200.0

puzzle_attempts = Table(
    "puzzle_attempts", metadata,
    Column("id", String(32), primary_key=True),
    # the identity playing it (a token's hash, as the games' seats keep it)
    Column("identity", String(64), nullable=False),
    Column("puzzle", String(128), nullable=False),
    # the steps of the solution line played so far (the next one is the player's while it is on)
    Column("at", Integer, nullable=False),
    Column("status", String(8), nullable=False),
    # the identity's first attempt of the puzzle: its end moves the ratings
    Column("rated", Boolean, nullable=False),
    Column("started", Float, nullable=False),
    Column("finished", Float),
    # the player's rating before and after its end (a rated attempt's)
    Column("before_mu", Float),
    Column("after_mu", Float),
    Index("puzzle_attempts_identity", "identity", "puzzle"),
)

# one row per (identity, puzzle) ever attempted: its key makes only the first attempt rated
puzzle_firsts = Table(
    "puzzle_firsts", metadata,
    Column("identity", String(64), primary_key=True),
    Column("puzzle", String(128), primary_key=True),
    Column("attempt", String(32), nullable=False),
)

# each identity's puzzle rating and streak
puzzle_players = Table(
    "puzzle_players", metadata,
    Column("identity", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rated", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("streak", Integer, nullable=False),
    Column("best_streak", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

# each puzzle's rating (a puzzle without a row is at :func:`initial`)
puzzle_strengths = Table(
    "puzzle_strengths", metadata,
    Column("puzzle", String(128), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)


class Stale(Exception):
    """The attempt is not where the write was planned: another tab or process moved it on, or it is over."""


def initial(difficulty: int) -> tuple[float, float]:
    """A puzzle's rating before anyone tried it: difficulty 3 at :data:`.skill.MU`, each level
    :data:`DIFFICULTY_STEP` apart, as uncertain as a newcomer."""
    return MU + (difficulty - 3) * DIFFICULTY_STEP, SIGMA


@dataclass(frozen=True)
class Attempt:
    """A stored attempt."""

    id: str
    identity: str
    puzzle: str
    at: int
    status: str
    rated: bool
    before_mu: float | None
    after_mu: float | None


@dataclass(frozen=True)
class Standing:
    """An identity's puzzle rating (a newcomer's when it has none) and streaks."""

    mu: float
    sigma: float
    rated: int
    solved: int
    streak: int
    best_streak: int

    @property
    def text(self) -> str:
        """The rating as shown: ``1500?`` while provisional (as the games' ratings say it)."""
        return rating_text(self.mu, self.sigma >= PROVISIONAL_SIGMA)


NEWCOMER = Standing(MU, SIGMA, 0, 0, 0, 0)


def _attempt(row: object) -> Attempt:
    r = dict(row._mapping)  # type: ignore[attr-defined]
    return Attempt(r["id"], r["identity"], r["puzzle"], r["at"], r["status"], bool(r["rated"]),
                   r["before_mu"], r["after_mu"])


def attempt_of(store: Store, attempt_id: str) -> Attempt | None:
    """The attempt ``attempt_id``, or ``None``."""
    with store.engine.connect() as db:
        row = db.execute(select(puzzle_attempts).where(puzzle_attempts.c.id == attempt_id)).first()
    return None if row is None else _attempt(row)


def open_attempt(store: Store, identity: str, puzzle: str) -> Attempt | None:
    """``identity``'s attempt of ``puzzle`` still on (the latest, if several), or ``None``."""
    with store.engine.connect() as db:
        row = db.execute(select(puzzle_attempts).where(puzzle_attempts.c.identity == identity,
                                                       puzzle_attempts.c.puzzle == puzzle,
                                                       puzzle_attempts.c.status == ON)
                         .order_by(puzzle_attempts.c.started.desc()).limit(1)).first()
    return None if row is None else _attempt(row)


def tried(store: Store, identity: str, puzzle: str) -> bool:
    """True once ``identity`` has attempted ``puzzle`` (a new attempt is then unrated)."""
    with store.engine.connect() as db:
        return db.execute(select(puzzle_firsts.c.attempt).where(puzzle_firsts.c.identity == identity,
                                                               puzzle_firsts.c.puzzle == puzzle)).first() is not None


def tried_set(store: Store, identity: str) -> set[str]:
    """Every puzzle ``identity`` has attempted."""
    with store.engine.connect() as db:
        return set(db.execute(select(puzzle_firsts.c.puzzle).where(puzzle_firsts.c.identity == identity)).scalars())


def start(store: Store, identity: str, puzzle: str, now: float) -> Attempt:
    """A new attempt of ``puzzle`` by ``identity``: rated when it is the first (its row of
    :data:`puzzle_firsts` written with it), else unrated."""
    attempt_id = secrets.token_urlsafe(18)
    row = {"id": attempt_id, "identity": identity, "puzzle": puzzle, "at": 0, "status": ON, "started": now}
    try:
        with store.engine.begin() as db:
            db.execute(insert(puzzle_attempts).values(**row, rated=True))
            db.execute(insert(puzzle_firsts).values(identity=identity, puzzle=puzzle, attempt=attempt_id))
        rated = True
    except IntegrityError:  # tried before (or at this very moment elsewhere): a retry, unrated
        with store.engine.begin() as db:
            db.execute(insert(puzzle_attempts).values(**row, rated=False))
        rated = False
    return Attempt(attempt_id, identity, puzzle, 0, ON, rated, None, None)


def standing(store: Store, identity: str | None) -> Standing:
    """``identity``'s puzzle rating and streaks (a newcomer's for ``None`` or one without any)."""
    if identity is None:
        return NEWCOMER
    with store.engine.connect() as db:
        r = db.execute(select(puzzle_players).where(puzzle_players.c.identity == identity)).mappings().first()
    if r is None:
        return NEWCOMER
    return Standing(r["mu"], r["sigma"], r["rated"], r["solved"], r["streak"], r["best_streak"])


def strengths(store: Store) -> dict[str, float]:
    """The rating (mean) of every puzzle that has been tried rated."""
    with store.engine.connect() as db:
        return {str(p): float(mu) for p, mu in db.execute(select(puzzle_strengths.c.puzzle, puzzle_strengths.c.mu))}


def _ensure(store: Store, identity: str, puzzle: str, difficulty: int) -> None:
    """The player's and the puzzle's rating rows, made if missing (two processes making one at
    once: the second's insert conflicts and the first's row stands)."""
    now = time.time()
    mu, sigma = initial(difficulty)
    for table, values in ((puzzle_players, {"identity": identity, "mu": MU, "sigma": SIGMA, "rated": 0, "solved": 0,
                                            "streak": 0, "best_streak": 0, "updated": now}),
                          (puzzle_strengths, {"puzzle": puzzle, "mu": mu, "sigma": sigma, "attempts": 0, "solved": 0})):
        key = table.c.identity == identity if table is puzzle_players else table.c.puzzle == puzzle
        with store.engine.connect() as db:
            if db.execute(select(table).where(key)).first() is not None:
                continue
        try:
            with store.engine.begin() as db:
                db.execute(insert(table).values(**values))
        except IntegrityError:
            pass


@dataclass(frozen=True)
class Ended:
    """What an attempt's end did: the rating before and after (``None`` for an unrated one) and the streak."""

    before: Standing
    after: Standing | None


def advance(store: Store, attempt: Attempt, at: int, status: str, difficulty: int) -> Ended | None:
    """Move ``attempt`` from its step ``attempt.at`` to ``at`` with ``status`` (:class:`Stale` if
    it is not at that step and on any more). An end (solved or failed) of a rated attempt
    rates it, in the same transaction: once, whichever process writes it."""
    ending = status != ON
    if ending and attempt.rated:
        _ensure(store, attempt.identity, attempt.puzzle, difficulty)
    now = time.time()
    with store.engine.begin() as db:
        done = db.execute(update(puzzle_attempts).where(puzzle_attempts.c.id == attempt.id,
                                                        puzzle_attempts.c.at == attempt.at,
                                                        puzzle_attempts.c.status == ON)
                          .values(at=at, status=status, finished=now if ending else None))
        if done.rowcount != 1:
            raise Stale(attempt.id)
        if not ending:
            return None
        if not attempt.rated:
            return Ended(_standing(db, attempt.identity), None)
        return _rate(db, attempt, status == SOLVED, now)


def _standing(db: Connection, identity: str, lock: bool = False) -> Standing:
    query = select(puzzle_players).where(puzzle_players.c.identity == identity)
    r = db.execute(query.with_for_update() if lock else query).mappings().first()
    if r is None:
        return NEWCOMER
    return Standing(r["mu"], r["sigma"], r["rated"], r["solved"], r["streak"], r["best_streak"])


def _rate(db: Connection, attempt: Attempt, solved: bool, now: float) -> Ended:
    """Rate a rated attempt's end: the player against the puzzle, one update of the model."""
    before = _standing(db, attempt.identity, lock=True)
    strength = db.execute(select(puzzle_strengths).where(puzzle_strengths.c.puzzle == attempt.puzzle)
                          .with_for_update()).mappings().one()
    places: Sequence[int] = (0, 1) if solved else (1, 0)
    (mu, sigma), (p_mu, p_sigma) = rate([(before.mu, before.sigma), (strength["mu"], strength["sigma"])], places)
    streak = before.streak + 1 if solved else 0
    won = int(solved)
    after = Standing(mu, sigma, before.rated + 1, before.solved + won, streak, max(before.best_streak, streak))
    db.execute(update(puzzle_players).where(puzzle_players.c.identity == attempt.identity)
               .values(mu=mu, sigma=sigma, rated=after.rated, solved=after.solved, streak=streak,
                       best_streak=after.best_streak, updated=now))
    db.execute(update(puzzle_strengths).where(puzzle_strengths.c.puzzle == attempt.puzzle)
               .values(mu=p_mu, sigma=p_sigma, attempts=puzzle_strengths.c.attempts + 1,
                       solved=puzzle_strengths.c.solved + won))
    db.execute(update(puzzle_attempts).where(puzzle_attempts.c.id == attempt.id)
               .values(before_mu=before.mu, after_mu=mu))
    return Ended(before, after)


def nearest(ratings: dict[str, float], identity: str | None, mu: float, skip: set[str]) -> str | None:
    """The puzzle (of ``ratings``: id -> rating) nearest ``mu`` not in ``skip`` (all of them if
    every one is), ties told apart by a hash of the identity and the puzzle, so that two
    players of one rating are not sent the same puzzles in the same order."""
    pool = [p for p in ratings if p not in skip] or list(ratings)
    if not pool:
        return None

    def key(p: str) -> tuple[float, str]:
        return abs(ratings[p] - mu), hashlib.sha256(f"{identity}/{p}".encode()).hexdigest()
    return min(pool, key=key)


__all__ = ["Attempt", "Ended", "FAILED", "ON", "SOLVED", "Stale", "Standing", "advance", "attempt_of", "initial",
           "nearest", "open_attempt", "standing", "start", "strengths", "tried", "tried_set"]
