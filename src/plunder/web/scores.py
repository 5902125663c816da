"""Solitaires' scores: every played-out solitaire's final score, kept per variant (the game's
parameters), a browser's personal best and the high-score page ``/scores/{game}``.

A solitaire (one seat: Pirates, Profiteer) has no rating; its score is the game's own points
at the end (``State.scores()[0]``: Pirates' score, Profiteer's card count; more is better).
Only a game played to its end by a person counts: not a resigned game, not one stopped at the
server's move limit, not an AI's. :func:`settle` stores a game's score once (its id is the
key), noting whether it beat the browser's best at that variant then.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from typing import Any

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, String, Table, Text, func, insert, select
from sqlalchemy.exc import IntegrityError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.game import State
from ..core.registry import game_ids, load_game
from .identities import identity_of
from .standing import display_names
from .store import HUMAN, OVER, GameRow, Store, metadata
from .templating import templates

#: most scores a variant's table shows
SCORES_SHOWN = 10
#: most variants the high-score page shows (the most played first)
VARIANTS_SHOWN = 10
#: longest variant description shown (a board given in full is cut)
VARIANT_LABEL_CHARS = 120

high_scores = Table(
    "high_scores", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), nullable=False),
    # the SHA-256 of the parameters' canonical JSON: a variant, short enough for any index
    Column("variant", String(64), nullable=False),
    Column("params", Text, nullable=False),
    # the SHA-256 of the player's seat token
    Column("token", String(64), nullable=False),
    Column("score", Float, nullable=False),
    # it beat the player's earlier best at this variant (the first score counts as one)
    Column("best", Boolean, nullable=False),
    Column("finished", Float, nullable=False),
    Index("high_scores_board", "game", "variant", "score"),
    Index("high_scores_player", "game", "variant", "token", "score"),
)


def variant_key(params: dict[str, str]) -> str:
    """The variant a game's parameters make (a hash of their canonical JSON)."""
    return hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()


@functools.cache
def defaults(game_id: str) -> dict[str, str]:
    """The canonical parameter texts of ``game_id``'s default variant."""
    return dict(load_game(game_id).params)


def variant_label(game_id: str, params: dict[str, str]) -> str:
    """A variant in words: the parameters that differ from the default (``standard`` for none),
    cut at :data:`VARIANT_LABEL_CHARS`."""
    base = defaults(game_id)
    changed = ", ".join(f"{k}={v}" for k, v in sorted(params.items()) if base.get(k) != v)
    label = changed or "standard"
    return label if len(label) <= VARIANT_LABEL_CHARS else label[:VARIANT_LABEL_CHARS - 1] + "…"


def fmt(score: float) -> str:
    """A score as shown (whole numbers without a decimal point)."""
    return f"{score:g}"


def settle(store: Store, row: GameRow, state: State) -> dict[str, list[str]]:
    """Store a finished solitaire's score, once, and say to its player whether it is a new
    personal best at its variant; ``{}`` for a game that does not count."""
    seat = row.seats[0]
    if row.status != OVER or not state.is_terminal() or seat.kind != HUMAN or seat.token is None:
        return {}
    score = float(state.scores()[0])
    variant = variant_key(row.params)
    with store.engine.begin() as db:
        stored = db.execute(select(high_scores.c.score, high_scores.c.best)
                            .where(high_scores.c.game_id == row.id)).first()
        if stored is None:
            before = db.execute(select(func.max(high_scores.c.score)).where(
                high_scores.c.game == row.game, high_scores.c.variant == variant,
                high_scores.c.token == seat.token)).scalar()
            best = before is None or score > before
            try:
                db.execute(insert(high_scores).values(
                    game_id=row.id, game=row.game, variant=variant, params=json.dumps(row.params, sort_keys=True),
                    token=seat.token, score=score, best=best, finished=time.time()))
            except IntegrityError:  # another server process stored it first: its answer stands
                return settle(store, row, state)
        else:
            score, best = stored
    told = f"Score {fmt(score)}"
    return {seat.token: [f"New personal best: {fmt(score)}" if best else told]}


def board(store: Store, game_id: str, you: str | None) -> list[dict[str, Any]]:
    """The high-score tables of ``game_id``: its :data:`VARIANTS_SHOWN` most played variants,
    each with its best :data:`SCORES_SHOWN` scores and this browser's best."""
    with store.engine.connect() as db:
        variants = db.execute(select(high_scores.c.variant, func.min(high_scores.c.params), func.count())
                              .where(high_scores.c.game == game_id).group_by(high_scores.c.variant)
                              .order_by(func.count().desc(), high_scores.c.variant).limit(VARIANTS_SHOWN)).all()
        tables = []
        for variant, params, played in variants:
            top = db.execute(select(high_scores.c.token, high_scores.c.score, high_scores.c.finished)
                             .where(high_scores.c.game == game_id, high_scores.c.variant == variant)
                             .order_by(high_scores.c.score.desc(), high_scores.c.finished)
                             .limit(SCORES_SHOWN)).mappings().all()
            mine = None if you is None else db.execute(
                select(func.max(high_scores.c.score)).where(high_scores.c.game == game_id,
                                                            high_scores.c.variant == variant,
                                                            high_scores.c.token == you)).scalar()
            tables.append({"label": variant_label(game_id, json.loads(params)), "played": played,
                           "top": [{"token": r["token"], "score": fmt(r["score"]), "you": r["token"] == you,
                                    "when": time.strftime("%Y-%m-%d", time.gmtime(r["finished"]))} for r in top],
                           "yours": None if mine is None else fmt(mine)})
    names = display_names(store, sorted({r["token"] for t in tables for r in t["top"]}))
    for t in tables:
        for r in t["top"]:
            r["name"] = names[r.pop("token")]
    return tables


async def high_scores_page(request: Request) -> Response:
    """``GET /scores/{game}``: a solitaire's high scores per variant (a rated game's leaderboard instead)."""
    game_id = request.path_params["game"]
    if game_id not in game_ids():
        raise HTTPException(404, f"There is no game called {game_id!r}.")
    game = load_game(game_id)
    if game.num_players > 1:
        return RedirectResponse(request.url_for("ratings", game=game_id).path, status_code=303)
    tables = request.app.state.tables
    found = await tables.db(board, tables.store, game_id, identity_of(request))
    return templates.TemplateResponse(request, "scores.html", {
        "game": {"id": game_id, "title": game.title}, "tables": found, "shown": SCORES_SHOWN,
        "variants": VARIANTS_SHOWN})


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [Route("/scores/{game}", high_scores_page, methods=["GET"], name="high_scores")]
