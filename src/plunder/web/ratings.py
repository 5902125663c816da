"""Rated play: which games are rated, every browser's rating per game, the update a rated
game's end makes (once), the AI levels' fixed ratings and the leaderboard page ``/ratings/{game}``.

A rating belongs to a browser identity (the SHA-256 of its seat token, as the store keeps
seats) and a game, and goes through :mod:`.skill`'s model. A rated game is one whose creator
ticked "rated" and whose every seat is a different person or an AI level; when it ends (played
out or resigned) :func:`settle` updates every person's rating once, in one transaction that
first marks the game settled, so a restart, a reload or a second server process never updates
twice. The AI levels' ratings are measured by ``bench/ai_ratings.py`` into ``ai_ratings.json``
and never change with games against people: a newcomer's first games against them place the
newcomer. Solitaires have no rating: their ends go to :mod:`.scores` (:func:`settle` hands them over).

Every store function is synchronous and short, run as the store's own calls are
(:meth:`plunder.web.tables.Tables.db`).
"""

from __future__ import annotations

import functools
import json
import time
from pathlib import Path
from typing import Any, Sequence

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table, insert, select, update
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.game import Game, State
from ..core.registry import game_ids, load_game
from . import scores
from .skill import MU, SIGMA, Z, rate, ranks, shown
from .standing import display_names, viewer_hash
from .store import AI, HUMAN, OVER, RESIGNED, GameRow, Store, metadata, seats
from .templating import templates

#: most rows a leaderboard shows (the AI levels among them)
LEADERBOARD_SIZE = 50
#: the AI levels' measured ratings (``bench/ai_ratings.py`` writes it)
AI_RATINGS_FILE = Path(__file__).parent / "ai_ratings.json"
#: the AI levels a rated game may seat
LEVELS = ("easy", "medium", "hard")

# a rated game: created rated, settled (its ratings updated) once it ends
rated_games = Table(
    "rated_games", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # when its end updated the ratings (NULL while it has not)
    Column("settled", Float),
)

# a browser's rating at one game
ratings = Table(
    "ratings", metadata,
    Column("game", String(32), primary_key=True),
    # the SHA-256 of the browser's seat token
    Column("token", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ratings_board", "game", "mu"),
)

# what a rated game's end did to each person's rating (shown on its result ever after)
rating_changes = Table(
    "rating_changes", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("token", String(64), nullable=False),
    Column("before_mu", Float, nullable=False),
    Column("before_sigma", Float, nullable=False),
    Column("after_mu", Float, nullable=False),
    Column("after_sigma", Float, nullable=False),
)


@functools.cache
def ai_ratings() -> dict[str, dict[str, tuple[float, float]]]:
    """The AI levels' fixed (mu, sigma) per game and level, as measured (``AI_RATINGS_FILE``)."""
    found = json.loads(AI_RATINGS_FILE.read_text(encoding="utf-8")) if AI_RATINGS_FILE.exists() else {}
    return {game: {level: (float(r["mu"]), float(r["sigma"])) for level, r in entry["levels"].items()}
            for game, entry in found.items()}


def rated_refusal(game: Game, choices: Sequence[str]) -> str | None:
    """Why a game of ``game`` seated as ``choices`` (the new-game form's seat values) cannot be
    rated, in a player's words; ``None`` when it can."""
    if game.num_players == 1:
        return (f"{game.title} is a solitaire: it has no rating. Its scores go to the high-score "
                "table; untick \"rated\".")
    if "hotseat" in choices or choices.count("me") > 1:
        return ("A rated game needs every seat to be a different person or an AI: one browser "
                "cannot hold two seats (no hotseat). Untick \"rated\" or seat a friend or an AI.")
    if "me" not in choices:
        return "A rated game needs you in one seat; all-AI games are not rated."
    measured = ai_ratings().get(game.id, {})
    missing = sorted({c for c in choices if c in LEVELS and c not in measured})
    if missing:
        return (f"The {', '.join(missing)} AI of {game.title} has no measured rating yet, so a "
                "game against it cannot be rated; untick \"rated\".")
    return None


def mark_rated(store: Store, game_id: str) -> None:
    """Store that ``game_id`` (just created) is rated."""
    with store.engine.begin() as db:
        db.execute(insert(rated_games).values(game_id=game_id, settled=None))


def is_rated(store: Store, game_id: str) -> bool:
    """True when ``game_id`` was created rated."""
    with store.engine.connect() as db:
        return db.execute(select(rated_games.c.game_id).where(rated_games.c.game_id == game_id)).first() is not None


def claim_refusal(store: Store, invite: str, token: str) -> str | None:
    """Why the holder of ``token`` (a hash) may not claim the open seat of ``invite``: in a rated
    game a browser already seated there cannot take a second seat. ``None`` when it may (or the
    invite is unknown: the claim itself says so)."""
    with store.engine.connect() as db:
        found = db.execute(select(seats.c.game_id).where(seats.c.invite == invite)).first()
        if found is None:
            return None
        game_id = found[0]
        rated = db.execute(select(rated_games.c.game_id).where(rated_games.c.game_id == game_id)).first()
        held = db.execute(select(seats.c.seat).where(seats.c.game_id == game_id, seats.c.token == token)).first()
    if rated is not None and held is not None:
        return ("This is a rated game and this browser already plays in it: one browser cannot hold "
                "two seats of a rated game. Send the invite link to someone else.")
    return None


def places(row: GameRow, state: State) -> list[int] | None:
    """Each seat's place at the end of ``row`` (0 = first), or ``None`` for an end that rates
    nobody: a game stopped at the server's move limit without a winner. A resigning seat is
    last, the others share first place."""
    if row.status == RESIGNED and row.resigned_by is not None:
        return [1 if i == row.resigned_by else 0 for i in range(len(row.seats))]
    if row.status == OVER and state.is_terminal():
        return ranks(state.returns(), state.scores())
    return None


def settle(store: Store, row: GameRow, state: State) -> dict[str, list[str]]:
    """What the end of ``row`` (final position ``state``) means to each browser seated in it,
    by token hash: the rating change of a rated game (``Your rating 1500 → 1712``), a solitaire's
    new personal best (:func:`.scores.settle`). The first call for a rated game updates the
    ratings, in the transaction that marks it settled; every later call (another viewer, a
    restart, another server process) reads what that one stored."""
    if len(row.seats) == 1:
        return scores.settle(store, row, state)
    with store.engine.begin() as db:
        claimed = db.execute(update(rated_games).where(rated_games.c.game_id == row.id,
                                                       rated_games.c.settled.is_(None))
                             .values(settled=time.time()))
        if claimed.rowcount == 1:
            _update(db, row, state)
        changes = db.execute(select(rating_changes).where(rating_changes.c.game_id == row.id)).mappings().all()
    return {c["token"]: [f"Your rating {shown(c['before_mu'], c['before_sigma'])} → "
                         f"{shown(c['after_mu'], c['after_sigma'])}"] for c in changes}


def _update(db: Any, row: GameRow, state: State) -> None:
    """Rate the end of ``row`` (inside :func:`settle`'s transaction): every person's rating
    moves, the AI levels' stay as measured. Nothing moves for an end that rates nobody or a
    game whose seats are not all people and measured AI levels."""
    finish = places(row, state)
    measured = ai_ratings().get(row.game, {})
    people = [s.token for s in row.seats if s.kind == HUMAN]
    if finish is None or len(set(people)) != len(people) or any(
            s.kind not in (HUMAN, AI) or (s.kind == AI and s.agent not in measured) for s in row.seats):
        return
    held = {r["token"]: r for r in db.execute(
        select(ratings).where(ratings.c.game == row.game, ratings.c.token.in_(people)).with_for_update()).mappings()}
    before = [measured[str(s.agent)] if s.kind == AI else
              ((held[s.token]["mu"], held[s.token]["sigma"]) if s.token in held else (MU, SIGMA))
              for s in row.seats]
    after = rate(before, finish)
    now = time.time()
    for i, s in enumerate(row.seats):
        if s.kind != HUMAN:
            continue
        mu, sigma = after[i]
        if s.token in held:
            db.execute(update(ratings).where(ratings.c.game == row.game, ratings.c.token == s.token)
                       .values(mu=mu, sigma=sigma, games=ratings.c.games + 1, updated=now))
        else:
            db.execute(insert(ratings).values(game=row.game, token=s.token, mu=mu, sigma=sigma, games=1, updated=now))
        db.execute(insert(rating_changes).values(game_id=row.id, seat=i, token=s.token, before_mu=before[i][0],
                                                 before_sigma=before[i][1], after_mu=mu, after_sigma=sigma))


def leaderboard(store: Store, game_id: str, you: str | None) -> list[dict[str, Any]]:
    """The best :data:`LEADERBOARD_SIZE` of ``game_id`` by shown rating, the AI levels among
    them: per row the place, name, rating, games played and whether it is an AI or this browser."""
    with store.engine.connect() as db:
        rows = db.execute(select(ratings.c.token, ratings.c.mu, ratings.c.sigma, ratings.c.games)
                          .where(ratings.c.game == game_id)
                          .order_by((ratings.c.mu - Z * ratings.c.sigma).desc(), ratings.c.token)
                          .limit(LEADERBOARD_SIZE)).mappings().all()
    names = display_names(store, [r["token"] for r in rows])
    board = [{"name": names[r["token"]], "rating": shown(r["mu"], r["sigma"]), "games": r["games"],
              "ai": False, "you": r["token"] == you} for r in rows]
    board += [{"name": f"The {level} AI", "rating": shown(mu, sigma), "games": None, "ai": True, "you": False}
              for level, (mu, sigma) in ai_ratings().get(game_id, {}).items()]
    board.sort(key=lambda r: -r["rating"])
    return [{**r, "place": i + 1} for i, r in enumerate(board[:LEADERBOARD_SIZE])]


def your_rating(store: Store, game_id: str, you: str | None) -> dict[str, Any] | None:
    """This browser's rating at ``game_id`` (shown and games), or ``None`` if it has none."""
    if you is None:
        return None
    with store.engine.connect() as db:
        r = db.execute(select(ratings).where(ratings.c.game == game_id, ratings.c.token == you)).mappings().first()
    return None if r is None else {"rating": shown(r["mu"], r["sigma"]), "games": r["games"]}


async def leaderboard_page(request: Request) -> Response:
    """``GET /ratings/{game}``: the game's leaderboard (a solitaire's high scores instead)."""
    game_id = request.path_params["game"]
    if game_id not in game_ids():
        raise HTTPException(404, f"There is no game called {game_id!r}.")
    game = load_game(game_id)
    if game.num_players == 1:
        return RedirectResponse(request.url_for("high_scores", game=game_id).path, status_code=303)
    tables = request.app.state.tables
    you = viewer_hash(request)
    board = await tables.db(leaderboard, tables.store, game_id, you)
    mine = await tables.db(your_rating, tables.store, game_id, you)
    return templates.TemplateResponse(request, "ratings.html", {
        "game": {"id": game_id, "title": game.title}, "board": board, "mine": mine, "size": LEADERBOARD_SIZE})


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [Route("/ratings/{game}", leaderboard_page, methods=["GET"], name="ratings")]
