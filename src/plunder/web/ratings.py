"""Rated play: which games are rated, every browser's rating per game, the update a rated
game's end makes (once), the AI levels' fixed ratings, the leaderboard page ``/ratings/{game}``
(each player's history: :mod:`.rating_history`).

A rating belongs to a browser identity (the SHA-256 of its seat token, as the store keeps
seats) and a game, and goes through :mod:`.skill`'s model. A rated game is one whose creator
ticked "rated" (stored with the game, in the same transaction, and never changed after) and
whose every seat is a different person or an AI level; it has neither undo nor hints. When it
ends (played out or resigned) :func:`settle` rates it once, in one transaction that first marks
the game settled, so a restart, a reload or a second server process never updates twice.

**Provisional ratings** (lichess's "?"): a rating is provisional until its uncertainty is under
:data:`PROVISIONAL_SIGMA` and it was earned against :data:`ESTABLISHED_OPPONENTS` distinct
established opponents; the AI levels, whose ratings are measured by ``bench/ai_ratings.py``
into ``ai_ratings.json`` and never change, count as established (each level one opponent), so a
newcomer is placed by playing them. A result moves a rating only against opponents whose
ratings are established or measured (a provisional opponent's seat is left out of it): a farm
of fresh identities resigning to one player moves nobody, and a provisional rating is kept off
the leaderboard. A game resigned (or otherwise not played out) before every person made
:data:`MIN_MOVES` moves is not rated; neither is an end that is neither played out nor
resigned (an aborted game, a game stopped at the server's move limit): :func:`places`.
Solitaires have no rating: their ends go to :mod:`.scores` (:func:`settle` hands them over).

Every store function is synchronous and short, run as the store's own calls are
(:meth:`plunder.web.tables.Tables.db`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

from sqlalchemy import (Boolean, Column, Float, ForeignKey, Index, Integer, String, Table, Text, func, insert,
                        select, update)
from sqlalchemy.engine import Connection
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.game import Game, State
from ..core.registry import game_ids, load_game
from . import scores
from .skill import MU, SIGMA, rate, ranks, shown
from .identities import identity_of
from .names import ai_name, capital
from .standing import display_names
from .clockstore import clocks
from .store import AI, HUMAN, OVER, RESIGNED, GameRow, SeatRow, Store, metadata, seats
from .templating import templates

#: most rows a leaderboard shows (the AI levels among them)
LEADERBOARD_SIZE = 50
#: the AI levels' measured ratings (``bench/ai_ratings.py`` writes it)
AI_RATINGS_FILE = Path(__file__).parent / "ai_ratings.json"
#: the AI levels a rated game may seat
LEVELS = ("easy", "medium", "hard")
#: a rating is provisional while its uncertainty (sigma) is at least this: 0.7 of a newcomer's
#: 500, about 12 games against the AI levels (docs/web.md, "Ratings")
PROVISIONAL_SIGMA = 350.0
#: ... or until it was earned against this many distinct established opponents (each AI level one)
ESTABLISHED_OPPONENTS = 3
#: a game that ends before it is played out is rated only when every person made this many moves
#: of their own (lichess: two each), so a seat taken and resigned at once rates nobody
MIN_MOVES = 2
#: hex digits of a token's hash that name a player in a history's address: enough to tell
#: players apart, and a hash (never a credential) of a secret token
PLAYER_ID_CHARS = 16

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

# the distinct established opponents (a token's hash, or ``ai:<level>``) each rating was earned against
rated_opponents = Table(
    "rated_opponents", metadata,
    Column("game", String(32), primary_key=True),
    Column("token", String(64), primary_key=True),
    Column("opponent", String(80), primary_key=True),
)

# what a rated game's end says to each person seated in it: the change ("1500? → 1712?") or why
# it was not rated for them, and whether the rating was provisional after it
rating_lines = Table(
    "rating_lines", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("token", String(64), nullable=False),
    Column("line", Text, nullable=False),
    Column("provisional", Boolean),
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


#: why a rated game refuses an undo, and a hint (the page shows neither button)
NO_UNDO = "This is a rated game: there is no undo, so the result is the game as played."
NO_HINT = "This is a rated game: there are no hints, so the rating is your own play."


def rated_in(game_id: str) -> Callable[[Connection], None]:
    """What stores ``game_id`` as rated, inside the transaction that creates it
    (:meth:`.store.Store.create`'s ``also``): a game is rated from its first moment, and nothing
    changes that after (the flag is never updated or deleted; only its ``settled`` is set)."""
    def mark(db: Connection) -> None:
        db.execute(insert(rated_games).values(game_id=game_id, settled=None))
    return mark


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


def places(row: GameRow, state: State, gone: Sequence[int] = ()) -> list[int] | None:
    """Each seat's place at the end of ``row`` (0 = first), or ``None`` for an end that rates
    nobody: a game stopped at the server's move limit without a winner, or any end other than
    played out or resigned (an aborted game). A resigning seat is last, the others share first
    place. The one place that says which ends are rated: an end of another kind (a loss on time)
    is rated once it gets its places here, and :func:`too_short` then holds it to
    :data:`MIN_MOVES` as a resignation. The seats ``gone`` (their players left, an AI played on
    for them: :mod:`.clockstore`) share the last place, below every seat played to the end."""
    if row.status == RESIGNED and row.resigned_by is not None:
        found = [1 if i == row.resigned_by else 0 for i in range(len(row.seats))]
    elif row.status == OVER and state.is_terminal():
        found = ranks(state.returns(), state.scores())
    else:
        return None
    if not gone:
        return found
    last = max(found) + 1
    return [last if i in gone else place for i, place in enumerate(found)]


def returned(row: GameRow, gone: Sequence[int]) -> GameRow:
    """``row`` with the seats ``gone`` given back to the people who left them (an AI took them
    over when their time ran out: :mod:`.clockstore`), so that they are rated, last."""
    if not gone:
        return row
    seats_back = [SeatRow(HUMAN, token=s.token) if i in gone and s.token else s for i, s in enumerate(row.seats)]
    return dataclasses.replace(row, seats=seats_back)


def too_short(row: GameRow, state: State) -> bool:
    """True when ``row`` ended before it was played out and some person in it had made fewer
    than :data:`MIN_MOVES` moves of their own."""
    if row.status == OVER and state.is_terminal():
        return False
    made = Counter(m.by for m in row.moves)
    return any(s.kind == HUMAN and made[i] < MIN_MOVES for i, s in enumerate(row.seats))


def opponent_key(row: GameRow, seat: int) -> str:
    """How :data:`rated_opponents` names the player of ``seat``: its token's hash, or ``ai:<level>``."""
    s = row.seats[seat]
    return f"ai:{s.agent}" if s.kind == AI else str(s.token)


def _opponents(db: Connection, game: str, tokens: Sequence[str]) -> dict[str, set[str]]:
    """The distinct established opponents each of ``tokens`` was rated against at ``game``
    (:func:`opponent_key`), every token's in one query."""
    known: dict[str, set[str]] = {str(t): set() for t in tokens}
    if tokens:
        for token, opponent in db.execute(select(rated_opponents.c.token, rated_opponents.c.opponent).where(
                rated_opponents.c.game == game, rated_opponents.c.token.in_(list(tokens)))):
            known[str(token)].add(str(opponent))
    return known


def is_provisional(sigma: float, opponents: int) -> bool:
    """True while a rating of uncertainty ``sigma``, earned against ``opponents`` distinct
    established opponents, is provisional."""
    return sigma >= PROVISIONAL_SIGMA or opponents < ESTABLISHED_OPPONENTS


def rating_text(mu: float, provisional: bool) -> str:
    """A rating as shown: its mean, with "?" while provisional (``1712?``)."""
    return f"{shown(mu)}{'?' if provisional else ''}"


def settle(store: Store, row: GameRow, state: State) -> dict[str, list[str]]:
    """What the end of ``row`` (final position ``state``) means to each browser seated in it,
    by token hash: its rating change in a rated game (``Your rating 1500? → 1712?``) or why
    it was not rated, a solitaire's new personal best (:func:`.scores.settle`). The first call
    for a rated game updates the ratings, in the transaction that marks it settled; every later
    call (another viewer, a restart, another server process) reads what that one stored."""
    if len(row.seats) == 1:
        return scores.settle(store, row, state)
    with store.engine.begin() as db:
        claimed = db.execute(update(rated_games).where(rated_games.c.game_id == row.id,
                                                       rated_games.c.settled.is_(None))
                             .values(settled=time.time()))
        if claimed.rowcount == 1:
            # seats an AI took over from a player who ran out of time: that player is rated, last
            left = db.execute(select(clocks.c.gone).where(clocks.c.game_id == row.id)).scalar()
            gone = sorted(int(seat) for seat in json.loads(left or "{}"))
            _update(db, returned(row, gone), state, gone)
        lines = db.execute(select(rating_lines).where(rating_lines.c.game_id == row.id)
                           .order_by(rating_lines.c.seat)).mappings().all()
        # a game rated before its lines were kept says its change as it was shown then
        older = [] if lines else db.execute(select(rating_changes).where(rating_changes.c.game_id == row.id)).mappings().all()
    told: dict[str, list[str]] = {}
    for r in lines:
        told.setdefault(r["token"], []).append(r["line"])
    for c in older:
        told[c["token"]] = [f"Your rating {shown(c['before_mu'])} → {shown(c['after_mu'])}"]
    return told


def _update(db: Connection, row: GameRow, state: State, gone: Sequence[int] = ()) -> None:
    """Rate the end of ``row`` (inside :func:`settle`'s transaction) and keep what it says to
    each person (:data:`rating_lines`). Each person's rating moves by one update against the
    seats whose ratings are established or measured (a provisional opponent is left out; with
    none left, the game is not rated for that person); the AI levels' stay as measured. Nothing
    moves for an end that rates nobody, one too short, or a game whose seats are not all
    different people and measured AI levels."""
    finish = places(row, state, gone)
    measured = ai_ratings().get(row.game, {})
    people = [s.token for s in row.seats if s.kind == HUMAN and s.token is not None]
    if finish is None or len(set(people)) != len(people) or any(
            s.kind not in (HUMAN, AI) or (s.kind == AI and s.agent not in measured) for s in row.seats):
        return
    humans = [i for i, s in enumerate(row.seats) if s.kind == HUMAN]

    def say(i: int, line: str, provisional: bool | None = None) -> None:
        db.execute(insert(rating_lines).values(game_id=row.id, seat=i, token=row.seats[i].token, line=line,
                                               provisional=provisional))

    if too_short(row, state):
        for i in humans:
            say(i, f"Not rated: the game ended before every player had made {MIN_MOVES} moves.")
        return
    held = {r["token"]: r for r in db.execute(
        select(ratings).where(ratings.c.game == row.game, ratings.c.token.in_(people)).with_for_update()).mappings()}
    opponents = _opponents(db, row.game, people)
    provisional = {t: t not in held or is_provisional(held[t]["sigma"], len(opponents[t])) for t in people}
    before = [measured[str(s.agent)] if s.kind == AI else
              ((held[s.token]["mu"], held[s.token]["sigma"]) if s.token in held else (MU, SIGMA))
              for s in row.seats]
    now = time.time()
    for i in humans:
        token = str(row.seats[i].token)
        # the seats this person's rating is measured against: AI levels and established people
        against = [j for j, s in enumerate(row.seats) if j != i and (s.kind == AI or not provisional[str(s.token)])]
        if not against:
            say(i, "Not rated for you: every opponent's rating is still provisional. " + (
                "A new rating is placed only by games against established players and the AI levels: "
                "play the AI levels to be placed." if provisional[token] else
                "An established rating moves only against established players and the AI levels."),
                provisional[token])
            continue
        kept = [i, *against]
        mu, sigma = rate([before[j] for j in kept], [finish[j] for j in kept])[0]
        if token in held:
            db.execute(update(ratings).where(ratings.c.game == row.game, ratings.c.token == token)
                       .values(mu=mu, sigma=sigma, games=ratings.c.games + 1, updated=now))
        else:
            db.execute(insert(ratings).values(game=row.game, token=token, mu=mu, sigma=sigma, games=1, updated=now))
        db.execute(insert(rating_changes).values(game_id=row.id, seat=i, token=token, before_mu=before[i][0],
                                                 before_sigma=before[i][1], after_mu=mu, after_sigma=sigma))
        known = opponents[token]  # read once for every person: none of them adds to another's
        new = sorted({opponent_key(row, j) for j in against} - known)
        if new:
            db.execute(insert(rated_opponents), [{"game": row.game, "token": token, "opponent": o} for o in new])
        after = is_provisional(sigma, len(known) + len(new))
        left = len(row.seats) - 1 - len(against)
        say(i, f"Your rating {rating_text(before[i][0], provisional[token])} → {rating_text(mu, after)}"
               + (f" (against the {len(against)} opponents whose ratings are established; "
                  f"{left} provisional left out)" if left else ""), after)


def _established() -> Any:
    """The SQL condition that a row of :data:`ratings` is established (not provisional)."""
    opponents = (select(func.count()).where(rated_opponents.c.game == ratings.c.game,
                                            rated_opponents.c.token == ratings.c.token).scalar_subquery())
    return (ratings.c.sigma < PROVISIONAL_SIGMA) & (opponents >= ESTABLISHED_OPPONENTS)


def player_id(token: str) -> str:
    """The public name of a player (a token's hash) in a rating history's address."""
    return token[:PLAYER_ID_CHARS]


def leaderboard(store: Store, game_id: str, you: str | None) -> list[dict[str, Any]]:
    """The best :data:`LEADERBOARD_SIZE` established ratings of ``game_id``, the AI levels among
    them: per row the place, name, rating, games played, the player's id (``None`` for an AI)
    and whether it is an AI or this browser. Provisional ratings are left out."""
    with store.engine.connect() as db:
        rows = db.execute(select(ratings.c.token, ratings.c.mu, ratings.c.games)
                          .where(ratings.c.game == game_id, _established())
                          .order_by(ratings.c.mu.desc(), ratings.c.token)
                          .limit(LEADERBOARD_SIZE)).mappings().all()
    names = display_names(store, [r["token"] for r in rows])
    board = [{"name": names[r["token"]], "rating": shown(r["mu"]), "games": r["games"], "player": player_id(r["token"]),
              "ai": False, "you": r["token"] == you} for r in rows]
    board += [{"name": capital(ai_name(level)), "rating": shown(mu), "games": None, "player": None, "ai": True, "you": False}
              for level, (mu, _sigma) in ai_ratings().get(game_id, {}).items()]
    board.sort(key=lambda r: -r["rating"])
    return [{**r, "place": i + 1} for i, r in enumerate(board[:LEADERBOARD_SIZE])]


def standing_of(store: Store, game_id: str, token: str) -> dict[str, Any] | None:
    """A player's (a token's hash) rating at ``game_id``: shown (``1712?``), games, whether it is
    provisional and why (``sigma``, ``opponents`` against their bounds), its player id; ``None``
    if it has none."""
    with store.engine.connect() as db:
        r = db.execute(select(ratings).where(ratings.c.game == game_id, ratings.c.token == token)).mappings().first()
        if r is None:
            return None
        opponents = len(_opponents(db, game_id, [token])[token])
    provisional = is_provisional(r["sigma"], opponents)
    return {"rating": rating_text(r["mu"], provisional), "games": r["games"], "provisional": provisional,
            "sigma": round(r["sigma"]), "opponents": opponents, "player": player_id(token),
            "bound": {"sigma": round(PROVISIONAL_SIGMA), "opponents": ESTABLISHED_OPPONENTS}}


def your_rating(store: Store, game_id: str, you: str | None) -> dict[str, Any] | None:
    """This browser's rating at ``game_id`` (:func:`standing_of`), or ``None`` if it has none."""
    return None if you is None else standing_of(store, game_id, you)


async def leaderboard_page(request: Request) -> Response:
    """``GET /ratings/{game}``: the game's leaderboard (a solitaire's high scores instead)."""
    game_id = request.path_params["game"]
    if game_id not in game_ids():
        raise HTTPException(404, f"There is no game called {game_id!r}.")
    game = load_game(game_id)
    if game.num_players == 1:
        return RedirectResponse(request.url_for("high_scores", game=game_id).path, status_code=303)
    tables = request.app.state.tables
    you = identity_of(request)
    board = await tables.db(leaderboard, tables.store, game_id, you)
    mine = await tables.db(your_rating, tables.store, game_id, you)
    return templates.TemplateResponse(request, "ratings.html", {
        "game": {"id": game_id, "title": game.title}, "board": board, "mine": mine, "size": LEADERBOARD_SIZE,
        "bound": {"sigma": round(PROVISIONAL_SIGMA), "opponents": ESTABLISHED_OPPONENTS}})


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [Route("/ratings/{game}", leaderboard_page, methods=["GET"], name="ratings")]
