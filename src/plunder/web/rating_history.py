"""Each player's rating history, ``/ratings/{game}/players/{player}`` (a table of its rated
games and a chart of its rating), and this browser's ratings at every game, ``/ratings``
(linked under its name in every page's header). The ratings themselves: :mod:`.ratings`.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

from sqlalchemy import select
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..core.registry import game_ids, load_game
from . import ratings
from .skill import MU, shown
from .identities import identity_of
from .names import ai_name, capital
from .standing import display_names
from .store import AI, HUMAN, Store, games, seats
from .templating import templates

#: most games a rating history shows (the latest)
HISTORY_SIZE = 100


def history(store: Store, game_id: str, player: str) -> dict[str, Any] | None:
    """The rating history at ``game_id`` of the player whose id is ``player`` (:func:`player_id`):
    its name, its standing and its latest :data:`HISTORY_SIZE` rated games, oldest first (per
    game: id, date, opponents, rating before and after as shown, and the change); ``None`` for
    no such player."""
    if len(player) != ratings.PLAYER_ID_CHARS or any(c not in "0123456789abcdef" for c in player):
        return None
    table = ratings.ratings
    with store.engine.connect() as db:
        token = db.execute(select(table.c.token).where(table.c.game == game_id,
                                                          table.c.token.startswith(player, autoescape=True))
                           .limit(1)).scalar()
        if token is None:
            return None
        found = db.execute(
            select(ratings.rating_changes, games.c.updated, ratings.rating_lines.c.provisional)
            .join(games, games.c.id == ratings.rating_changes.c.game_id)
            .outerjoin(ratings.rating_lines, (ratings.rating_lines.c.game_id == ratings.rating_changes.c.game_id)
                       & (ratings.rating_lines.c.seat == ratings.rating_changes.c.seat))
            .where(ratings.rating_changes.c.token == token, games.c.game == game_id)
            .order_by(games.c.updated.desc(), ratings.rating_changes.c.game_id).limit(HISTORY_SIZE)).mappings().all()
        ids = [r["game_id"] for r in found]
        others = db.execute(select(seats.c.game_id, seats.c.seat, seats.c.kind, seats.c.agent, seats.c.token)
                            .where(seats.c.game_id.in_(ids)).order_by(seats.c.game_id, seats.c.seat)).all() if ids else []
    names = display_names(store, sorted({o.token for o in others if o.kind == HUMAN and o.token and o.token != token}))
    against: dict[str, list[str]] = {}
    for o in others:
        if o.token != token:
            against.setdefault(o.game_id, []).append(capital(ai_name(o.agent)) if o.kind == AI else names.get(o.token, "?"))
    rows = []
    for r in reversed(found):
        after_provisional = bool(r["provisional"]) if r["provisional"] is not None else False
        rows.append({"game_id": r["game_id"], "when": time.strftime("%Y-%m-%d %H:%M", time.gmtime(r["updated"])),
                     "against": ", ".join(against.get(r["game_id"], [])),
                     "before": shown(r["before_mu"]), "after": ratings.rating_text(r["after_mu"], after_provisional),
                     "after_mu": r["after_mu"], "change": shown(r["after_mu"]) - shown(r["before_mu"])})
    return {"name": display_names(store, [token])[token], "token": token,
            "standing": ratings.standing_of(store, game_id, token), "games": rows}


def chart(points: Sequence[float], width: int = 600, height: int = 160) -> dict[str, Any] | None:
    """An inline chart of ``points`` (ratings, oldest first): the SVG polyline's points in a
    ``width`` x ``height`` box, and the lowest and highest rating it spans; ``None`` for fewer than two."""
    if len(points) < 2:
        return None
    low, high = min(points), max(points)
    span = max(high - low, 1.0)
    pad = 10
    xs = [pad + i * (width - 2 * pad) / (len(points) - 1) for i in range(len(points))]
    ys = [height - pad - (p - low) * (height - 2 * pad) / span for p in points]
    return {"points": " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys)), "width": width, "height": height,
            "low": shown(low), "high": shown(high)}


def ratings_of(store: Store, token: str) -> list[dict[str, Any]]:
    """A player's (a token's hash) rating at every game it has one, by game id: per game its
    :func:`standing_of` with the game's id and title."""
    with store.engine.connect() as db:
        rows = ratings.ratings
        held = db.execute(select(rows.c.game).where(rows.c.token == token).order_by(rows.c.game)).scalars().all()
    found = []
    for game_id in held:
        standing = ratings.standing_of(store, game_id, token) if game_id in game_ids() else None
        if standing is not None:
            found.append({**standing, "game": game_id, "title": load_game(game_id).title})
    return found


async def my_ratings_page(request: Request) -> Response:
    """``GET /ratings``: this browser's rating at each game, each linked to its history."""
    you = identity_of(request)
    tables = request.app.state.tables
    mine = [] if you is None else await tables.db(ratings_of, tables.store, you)
    return templates.TemplateResponse(request, "my_ratings.html", {
        "mine": mine, "bound": {"sigma": round(ratings.PROVISIONAL_SIGMA), "opponents": ratings.ESTABLISHED_OPPONENTS},
        "games": [{"id": g, "title": load_game(g).title} for g in sorted(ratings.ai_ratings())]})


async def history_page(request: Request) -> Response:
    """``GET /ratings/{game}/players/{player}``: one player's rating history at a game, a table
    and a chart."""
    game_id, player = request.path_params["game"], request.path_params["player"]
    if game_id not in game_ids() or load_game(game_id).num_players == 1:
        raise HTTPException(404, f"There is no rated game called {game_id!r}.")
    tables = request.app.state.tables
    found = await tables.db(history, tables.store, game_id, player)
    if found is None:
        raise HTTPException(404, f"Nobody with the player id {player[:ratings.PLAYER_ID_CHARS]!r} has a rating at {game_id}.")
    return templates.TemplateResponse(request, "rating_history.html", {
        "game": {"id": game_id, "title": load_game(game_id).title}, "player": found,
        "you": found.pop("token") == identity_of(request), "size": HISTORY_SIZE,
        "chart": chart([MU if not found["games"] else found["games"][0]["before"]]
                       + [r["after_mu"] for r in found["games"]])})


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [Route("/ratings", my_ratings_page, methods=["GET"], name="my_ratings"),
                           Route("/ratings/{game}/players/{player}", history_page, methods=["GET"],
                                 name="rating_history")]
