"""The daily deal's pages: today's deals with their leaderboards (``/daily``), a start that
plays each deal once (``POST /daily/{game}``), and the archive of past days (``/daily/{day}``),
each day's replays open and its deals playable unranked (:mod:`.daily` holds the rules)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from sqlalchemy.exc import IntegrityError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.registry import entry, load_game
from . import daily
from .daily import Daily, Par
from .games import spend_creation, tables_of, token_or_400
from .identities import acting_for, identity_of
from .security import remember
from .standing import display_names
from .store import HUMAN, SeatRow, Store
from .table import Full
from .tables import Tables
from .templating import templates

log = logging.getLogger("plunder.web")


class Pars:
    """This process's part in working out each day's par: a claim in the store
    (:func:`.daily.claim_par`), then the computation in the coach's worker process at the lowest
    priority (:meth:`.thinking.Thinkers.background`), at most one per (day, game).
    A past day's (asked for by a visit to the archive) waits for the past days' before it: one
    at a time, so a crawl of the archive takes one thread's CPU, never a thread per day."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        #: this process, as the par claims name it
        self.holder = secrets.token_hex(8)
        #: what works a par out (the tests give a quicker one)
        self.compute = daily.compute_par
        self.running: dict[tuple[str, str], asyncio.Task[None]] = {}
        #: held while a past day's par is worked out
        self.past = asyncio.Lock()

    def kick(self, day: str, games: list[str]) -> None:
        """Work out the par of ``games`` on ``day`` in the background, where no process has."""
        for game in games:
            if (day, game) not in self.running:
                task = asyncio.create_task(self._work(day, game))
                self.running[(day, game)] = task

    async def _work(self, day: str, game: str) -> None:
        tables = self.tables
        try:
            if day < daily.day_of(tables.clock()):
                async with self.past:
                    await self._claim_and_compute(day, game)
            else:
                await self._claim_and_compute(day, game)
        except Exception:  # the par is a comparison: the day's deal is played without it
            log.exception("could not work out the daily par of %s on %s", game, day)
            self.running.pop((day, game), None)
        else:
            # a claim another process holds is asked about again on a later visit
            if await tables.db(daily.par_of, tables.store, day, game) is None:
                self.running.pop((day, game), None)

    async def _claim_and_compute(self, day: str, game: str) -> None:
        """Work the par out and keep it, unless it is kept already or another process claims it."""
        tables = self.tables
        if await tables.db(daily.par_of, tables.store, day, game) is not None:
            return
        if not await tables.db(daily.claim_par, tables.store, day, game, self.holder, tables.clock()):
            return
        key = await tables.db(daily.secret, tables.store)
        par = await tables.thinkers.background(f"par:{day}:{game}", self.compute, game,
                                               daily.seed_of(key, day, game))
        await tables.db(daily.keep_par, tables.store, day, game, self.holder, par)

    async def close(self) -> None:
        """Stop waiting for the pars under way (a computation in the worker ends with it; its
        claim runs out after :data:`.daily.PAR_STALE_SECONDS` for another process to take)."""
        for task in self.running.values():
            task.cancel()
        await asyncio.gather(*self.running.values(), return_exceptions=True)

    async def wait(self) -> None:
        """Until every par this process started is done (the tests)."""
        await asyncio.gather(*self.running.values(), return_exceptions=True)


def pars_of(request: Request) -> Pars:
    """The app's :class:`Pars`."""
    found: Pars = request.app.state.pars
    return found


def board_of(store: Store, day: str, game: str, you: str | None, today: str, open_replays: bool,
             par_due: bool = False) -> dict[str, Any]:
    """What a page shows of ``game`` on ``day``: the leaderboard (names, scores, times taken,
    streaks, replay links once the day is over), the par once you finished (or the day is over;
    "being worked out" on a past day whose par is ``par_due`` and not kept yet), and your entry."""
    rows = daily.leaderboard(store, day, game)
    names = display_names(store, [r["identity"] for r in rows])
    runs = daily.streaks(store, [r["identity"] for r in rows], today)
    mine = None if you is None else daily.entry_of(store, day, game, you)
    par = daily.par_of(store, day, game)
    done = mine is not None and mine.finished is not None
    return {
        "id": game, "title": entry(game).game_class.title,
        "rows": [{"name": names[r["identity"]], "score": daily.fmt(r["score"]), "taken": daily.taken_text(r["taken"]),
                  "streak": runs[r["identity"]], "you": r["identity"] == you,
                  "replay": f"/replay/game/{r['game_id']}" if open_replays else None} for r in rows],
        "mine": None if mine is None else {"game_id": mine.game_id, "done": done,
                                           "line": daily.par_line(mine.score, par) if done else None},
        "par": par_text(par, done or open_replays, open_replays and par_due),
    }


def par_text(par: Par | None, shown: bool, pending: bool) -> str | None:
    """The par as a page says it once it is ``shown``; :data:`PAR_PENDING` while it is not kept
    and ``pending``; else ``None``."""
    if par is None:
        return PAR_PENDING if pending else None
    return f"the {daily.PAR_LEVEL} AI {daily.fmt(par.agent_score)} · foresight {daily.fmt(par.foresight)}" if shown else None


#: what a past day's page says of a par still being worked out
PAR_PENDING = "being worked out: reload the page in a minute to see it"


def page_of(store: Store, day: str, you: str | None, today: str, par_due: bool = False) -> dict[str, Any]:
    """Everything a daily page shows of ``day`` (``par_due``: a past day's par being worked out)."""
    past = day < today
    return {"boards": [board_of(store, day, g, you, today, past, par_due) for g in daily.solitaires()],
            "streak": 0 if you is None else daily.streak(store, you, today),
            "archive": daily.played_days(store, today)}


async def today_page(request: Request) -> Response:
    """``GET /daily``: today's deals, your results and the day's leaderboards."""
    tables = tables_of(request)
    today = daily.day_of(tables.clock())
    pars_of(request).kick(today, daily.solitaires())
    found = await tables.db(page_of, tables.store, today, identity_of(request), today)
    return templates.TemplateResponse(request, "daily.html", {"day": today, "today": True, **found})


async def start(request: Request) -> Response:
    """``POST /daily/{game}``: play today's deal of a solitaire: a new game the first time, the
    same game again while it is on, refused once it is over (409)."""
    game_id = request.path_params["game"]
    if game_id not in daily.solitaires():
        raise HTTPException(404, f"There is no daily deal of {game_id!r}: the daily deals are of "
                                 f"{', '.join(daily.solitaires())}.")
    tables = tables_of(request)
    token, minted = token_or_400(request)
    you = acting_for(request, token)
    now = tables.clock()
    today = daily.day_of(now)
    mine = await tables.db(daily.entry_of, tables.store, today, game_id, you)
    if mine is None:
        await admit(request, tables)
        key = await tables.db(daily.secret, tables.store)
        deal = Daily(today, game_id, daily.seed_of(key, today, game_id), you, now)
        try:
            await tables.seated(load_game(game_id), [SeatRow(HUMAN, token=you)], you, daily=deal)
        except IntegrityError:  # started at the same moment elsewhere (another tab, another process)
            pass
        pars_of(request).kick(today, [game_id])
        mine = await tables.db(daily.entry_of, tables.store, today, game_id, you)
        assert mine is not None, "the daily entry was written with its game"
    if mine.finished is not None:
        title = entry(game_id).game_class.title
        raise HTTPException(409, f"You have played today's {title} deal: a daily deal is played once a day. "
                                 "Your result and the leaderboard are on the daily page; tomorrow brings a new deal.")
    response = RedirectResponse(request.url_for("play", game_id=mine.game_id).path, status_code=303)
    return remember(response, request, token) if minted else response


async def admit(request: Request, tables: Tables) -> None:
    """Refuse a new game past the address's rate of new games (429) or the site's bound of games
    in progress (503), as the new-game form does."""
    await spend_creation(request)
    try:
        await tables.admit()
    except Full as exc:
        raise HTTPException(503, exc.message) from None


def past_day(request: Request) -> tuple[str, str]:
    """(the path's day, today): a day before today, else a 404 (a later day: not dealt yet)."""
    day = daily.parse_day(request.path_params["day"])
    if day is None:
        raise HTTPException(404, "A daily deal's day is written YYYY-MM-DD (2026-01-31).")
    today = daily.day_of(tables_of(request).clock())
    if day > today:
        raise HTTPException(404, f"The deal of {day} is not dealt yet: today is {today}.")
    return day, today


async def day_page(request: Request) -> Response:
    """``GET /daily/{day}``: a past day's leaderboards with everyone's replays, its par (worked
    out now if nobody did on its day, within :data:`.daily.ARCHIVE_DAYS`), and its deals to play
    unranked (today's: ``/daily``)."""
    day, today = past_day(request)
    if day == today:
        return RedirectResponse(request.url_for("daily").path, status_code=303)
    tables = tables_of(request)
    due = daily.par_due(day, tables.clock())
    if due:  # nobody worked it out on its day (nobody visited the daily page): now, once
        pars_of(request).kick(day, daily.solitaires())
    found = await tables.db(page_of, tables.store, day, identity_of(request), today, due)
    return templates.TemplateResponse(request, "daily.html", {"day": day, "today": False, **found})


async def archive_play(request: Request) -> Response:
    """``POST /daily/{day}/{game}``: play a past day's deal, unranked (its day is over: its
    seed, replays and records are open)."""
    day, today = past_day(request)
    game_id = request.path_params["game"]
    if day == today:
        raise HTTPException(409, "Today's deal is played from the daily page, once, ranked.")
    if game_id not in daily.solitaires():
        raise HTTPException(404, f"There is no daily deal of {game_id!r}.")
    tables = tables_of(request)
    token, minted = token_or_400(request)
    you = acting_for(request, token)
    await admit(request, tables)
    key = await tables.db(daily.secret, tables.store)
    new_id = await tables.seated(load_game(game_id), [SeatRow(HUMAN, token=you)], you,
                                 seed=daily.seed_of(key, day, game_id))
    response = RedirectResponse(request.url_for("play", game_id=new_id).path, status_code=303)
    return remember(response, request, token) if minted else response


__all__ = ["Par", "Pars", "routes"]

#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/daily", today_page, name="daily"),
    Route("/daily/{game:str}", start, methods=["POST"], name="daily_start"),
    Route("/daily/{day:str}", day_page, name="daily_day"),
    Route("/daily/{day:str}/{game:str}", archive_play, methods=["POST"], name="daily_archive_play"),
]
