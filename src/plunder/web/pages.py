"""Pages that need no game in progress: the home page with every installed game, and each game's
how-to-play page."""

from __future__ import annotations

import functools
import logging
import random

from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..agents import make_agent
from ..core.game import CHANCE
from ..core import chance
from ..core.registry import entry, game_ids, load_game
from ..pictures import svg_of
from .daily import day_of, solitaires
from .games import tables_of
from .howto import howto_sections
from .puzzle_pages import daily_puzzle
from .templating import templates

log = logging.getLogger("plunder.web")

#: how far into a game the home page's picture is taken: a board with some play on it says
#: more than an empty one
SHOWCASE_FRACTION = 0.4
#: the home page's pictures are games of this seed, so they are the same on every visit
SHOWCASE_SEED = 7
#: how much of a game's error the log's line on a card left out quotes (one line, not a page)
MAX_REASON_CHARS = 300


@functools.cache
def showcase(game_id: str) -> str:
    """An SVG picture of ``game_id`` part-way through a game of its greedy agent (or random)."""
    game = load_game(game_id)
    spec = "greedy" if "greedy" in entry(game_id).strength.agents else "random"
    agents = [make_agent(spec, game) for _ in range(game.num_players)]
    rng = random.Random(SHOWCASE_SEED)
    state = game.new_initial_state()
    # the length of a typical game is not known in advance: play one to the end first
    states = [state]
    n = 0
    while not state.is_terminal() and len(states) <= game.max_game_length:
        if state.current_player == CHANCE:
            action = chance.draw(state, SHOWCASE_SEED, n)
            n += 1
        else:
            action = agents[state.current_player].choose(state, rng)
        state = state.apply(action)
        states.append(state)
    return svg_of(states[int(len(states) * SHOWCASE_FRACTION)])


def game_card(game_id: str) -> dict[str, object]:
    """What the home page shows of a game: title, pitch, players (its declared seat range:
    ``2–8 players``) and picture."""
    e = entry(game_id)
    return {"id": game_id, "title": e.game_class.title, "pitch": e.presentation.pitch,
            "players": e.declaration.seats_text(), "picture": Markup(showcase(game_id))}


@functools.cache
def card_or_reason(game_id: str) -> dict[str, object] | str:
    """:func:`game_card`, or the one line saying why it could not be made: a game whose
    picture or entry fails is left off the home page, said once in the server's log, and the
    other games are still shown."""
    try:
        return game_card(game_id)
    except Exception as exc:  # a game's own code may fail in any way; the home page stays up
        said = " ".join(f"{type(exc).__name__}: {exc}".split())[:MAX_REASON_CHARS]
        reason = f"game {game_id!r} left off the home page: its card failed: {said}"
        log.warning("%s", reason)
        return reason


def home_cards() -> list[dict[str, object]]:
    """The cards of every installed game whose card can be made, in the games' order."""
    return [card for g in game_ids() if isinstance(card := card_or_reason(g), dict)]


async def home(request: Request) -> Response:
    """Every installed game, each with a picture, a pitch and links to play and to learn, under
    the announcement of today's daily deals (:mod:`.daily`) and of today's puzzle (:mod:`.puzzle_pages`)."""
    deals = [{"id": g, "title": entry(g).game_class.title} for g in solitaires()]
    tables = tables_of(request)
    today = await tables.db(daily_puzzle, tables.store, day_of(tables.clock()))
    puzzle = None if today is None else {"id": today.id, "title": entry(today.game).game_class.title,
                                         "difficulty": today.difficulty}
    return templates.TemplateResponse(request, "home.html", {"games": home_cards(), "deals": deals, "puzzle": puzzle})


async def rules(request: Request) -> Response:
    """How to play one game: its sections with pictures, or its one-screen text."""
    game_id = request.path_params["game"]
    if game_id not in game_ids():
        raise HTTPException(404, f"no game {game_id!r}")
    e = entry(game_id)
    return templates.TemplateResponse(request, "rules.html", {
        "game": {"id": game_id, "title": e.game_class.title}, "text": e.presentation.how_to_play,
        "sections": howto_sections(game_id)})


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/", home, name="home"),
    Route("/rules/{game}", rules, name="rules"),
]
