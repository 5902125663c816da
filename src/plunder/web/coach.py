"""The coach: a finished game of this server analysed for its replay page, move by move.

``POST /replay/game/{game_id}/analyse`` starts the analysis (:mod:`plunder.analysis`) of a
finished game at the web's budget (:data:`~plunder.web.limits.COACH_SIMS` playouts a position);
``GET /replay/game/{game_id}/analysis?since=k`` answers what is valued so far, from the
``k``-th judged move on, so the page draws the curve and marks the moves as they arrive;
``GET /replay/game/{game_id}/better/{n}`` draws the better move of a marked one on the board. The
positions are valued one at a time per game in the coach's own worker, at the lowest priority
(:meth:`plunder.web.thinking.Thinkers.value`: a fair queue across games), never on the event
loop nor in front of an AI move. At most :data:`~plunder.web.limits.MAX_ANALYSES` games are
analysed at once on the site (503 past it), each identity and each address starts a share of
them (:func:`spend_share`, 429 past it, in words the page shows in place), and the last :data:`~plunder.web.limits.CACHE_ANALYSES` analyses are kept, so a second
click, or another visitor's, is answered at once. A finished analysis of a game of this server is
also kept in the store (:mod:`.coachstore`): any server process serves it, the replay page shows
it on load, and it is not made again. Every refusal is JSON, for the page's fetch.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from sqlalchemy.exc import SQLAlchemyError

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..analysis import GameAnalysis, MoveAnalysis, Settings
from ..analysis.engine import Plan, plan
from ..core.errors import PlunderError, RecordError
from ..core.record import Record, replay
from ..core.registry import entry, load_game
from ..core.svg import Shown
from .coachstore import decoded, encoded, load_analysis, made_by, save_analysis
from .games import address_of, tables_of
from .names import Callers
from .limits import (ADDRESS_ANALYSIS_BURST, ADDRESS_ANALYSIS_RATE, ANALYSIS_BURST, ANALYSIS_RATE, CACHE_ANALYSES,
                     COACH_MAX_MOVES, COACH_SIMS, MAX_ANALYSES)
from .identities import identity_of
from .replays import (MAX_UPLOAD_BYTES, digest_of, finished_table, pictured, read_capped, replay_record,
                      take_upload)
from .quotas import Loads
from .thinking import Busy, Superseded, Thinkers
from .upkeep import ANALYSES

#: the coach's settings: the web's budget, the solver where the game allows it, a fixed seed
#: (the same game gets the same values on every server)
COACH_SETTINGS = Settings(sims=COACH_SIMS)
#: the version of the coach's analyses kept in the store
MADE_BY = made_by(COACH_SETTINGS.sims)
#: how a finished analysis is kept beyond this process (the store, for a game of this server)
Keep = Callable[["Coaching"], Awaitable[None]]


@dataclass
class Coaching:
    """One game's analysis, as far as it has come: its judged moves in record order, and each
    one's moves in words (the move played and the better one, narrated where the game narrates)."""

    result: GameAnalysis
    total: int
    words: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None
    running: asyncio.Task[None] | None = None

    @property
    def finished(self) -> bool:
        """Every decision valued (or the analysis failed)."""
        return self.error is not None or len(self.result.moves) == self.total

    def at(self, n: int) -> MoveAnalysis | None:
        """The judged move that led to position ``n``, if it is judged yet."""
        return next((m for m in self.result.moves if m.position == n), None)

    def add(self, move: MoveAnalysis, words: tuple[str, str]) -> None:
        """A judged move arrived."""
        self.result.moves.append(move)
        self.words.append(words)

    def data(self, since: int) -> dict[str, Any]:
        """The analysis as the page reads it: progress, the judged moves from the ``since``-th
        on, the game's units and thresholds, and (when finished) the summary per player."""
        game = self.result.game
        analysis = entry(game.id).analysis
        assert analysis is not None  # plan() refused a game without one
        status = "failed" if self.error is not None else "done" if self.finished else "running"
        out: dict[str, Any] = {
            "status": status, "done": len(self.result.moves), "total": self.total, "units": self.result.units,
            "thresholds": {"inaccuracy": analysis.inaccuracy, "mistake": analysis.mistake,
                           "blunder": analysis.blunder},
            "seats": [game.seat_name(i) for i in range(len(self.result.record.players))],
            "since": since,
            "moves": [move_data(m, w) for m, w in zip(self.result.moves[since:], self.words[since:])],
        }
        if self.error is not None:
            out["error"] = self.error
        if status == "done":
            out["summary"] = [{"seat": s.seat, "decisions": s.decisions, "average_loss": round(s.average_loss, 2),
                               "marks": s.marks, "worst": [m.position for m in s.worst]}
                              for s in self.result.summary()]
        return out


def move_data(move: MoveAnalysis, words: tuple[str, str]) -> dict[str, Any]:
    """One judged move for the page: ``n`` is the position it led to (the move list's number);
    ``loss_words`` the loss as the page says it (an estimate as "about ...", a proven bound as
    "at least ..."), and the standard
    errors of the loss and of each seat's curve value (the band; ``null`` where exact)."""
    def rounded(xs: list[float] | None, digits: int) -> list[float] | None:
        return None if xs is None else [round(x, digits) for x in xs]

    return {"n": move.position, "seat": move.seat, "played": move.played, "best": move.best,
            "played_words": words[0], "best_words": words[1], "loss": round(move.loss, 2),
            "loss_words": move.loss_words(), "error": round(move.error, 3),
            "win_loss": None if move.win_loss is None else round(move.win_loss, 3), "mark": move.mark,
            "margins": rounded(move.margins, 2), "wins": rounded(move.wins, 3),
            "margin_errors": rounded(move.margin_errors, 3), "win_errors": rounded(move.win_errors, 4),
            "exact": move.exact, "bounded": move.bounded}


def narrated(made: Plan, i: int, text: str) -> str:
    """The move ``text`` of decision ``i`` in a player's words where the game narrates, else its text."""
    narrate = entry(made.game.id).presentation.narrate
    state = made.tasks[i].state
    action = state.game.parse_action(state, text)
    told = narrate(state, action, state.apply(action)) if narrate else ""
    return told or text


def better_frame(record: Record, n: int, best: str, callers: Callers | None = None) -> dict[str, object]:
    """Position ``n`` of ``record`` as it would be had ``best`` been played instead of its move
    ``n``: the picture marks it as the last move, as a replay's picture marks the move played,
    its seats called as ``callers`` call them. Run in the replay worker, whose cache holds the
    game's replay."""
    state = replay_record(record).state(n - 1)
    action = state.game.parse_action(state, best)
    after = state.apply(action)
    narrate = entry(record.game).presentation.narrate
    shown = Shown(n, best, narrate(state, action, after) if narrate else "")
    return {"n": n, "svg": pictured(after, shown, callers), "told": shown.words()}


class Coach:
    """Every game's analysis this server keeps or runs (:data:`CACHE_ANALYSES` kept)."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, Coaching] = OrderedDict()

    def running(self) -> int:
        """Analyses under way."""
        return sum(not c.finished for c in self.games.values())

    def get(self, game_id: str) -> Coaching | None:
        """The analysis of ``game_id`` kept or under way."""
        found = self.games.get(game_id)
        if found is not None:
            self.games.move_to_end(game_id)
        return found

    async def admit(self, loads: Loads, request: Request | None = None) -> None:
        """503 when :data:`MAX_ANALYSES` analyses are under way on the site (every server
        process's together, :mod:`.quotas`); 429 when ``request``'s identity or address has
        started its share lately (:func:`spend_share`); else count one more here."""
        if self.running() >= MAX_ANALYSES:
            raise self.full()
        if request is not None:
            await spend_share(request)
        if not await loads.claim(ANALYSES, self.running(), MAX_ANALYSES):
            raise self.full()

    @staticmethod
    def full() -> HTTPException:
        """The refusal of a coach analysing its limit."""
        return HTTPException(503, f"The coach is already analysing {MAX_ANALYSES} games, its limit; "
                                  "try again in a minute.")

    def start(self, game_id: str, record: Record, made: Plan, thinkers: Thinkers, keep: Keep | None = None) -> Coaching:
        """Start analysing ``game_id`` (503 past :data:`MAX_ANALYSES` under way here); ``keep``
        is given the finished analysis."""
        if self.running() >= MAX_ANALYSES:
            raise self.full()
        coaching = Coaching(GameAnalysis(made.game, record, made.analysis.units), len(made.tasks))
        self.remember(game_id, coaching)
        coaching.running = asyncio.create_task(self.run(game_id, coaching, made, thinkers, keep))
        return coaching

    def remember(self, game_id: str, coaching: Coaching) -> None:
        """Keep ``coaching`` as ``game_id``'s, forgetting the oldest finished ones past
        :data:`CACHE_ANALYSES`."""
        self.games[game_id] = coaching
        while len(self.games) > CACHE_ANALYSES:
            oldest = next((k for k, c in self.games.items() if c.finished), None)
            if oldest is None:
                break
            del self.games[oldest]

    async def run(self, game_id: str, coaching: Coaching, made: Plan, thinkers: Thinkers,
                  keep: Keep | None = None) -> None:
        """Value the decisions one by one in the coach's lane, judging each as it comes back;
        the finished analysis goes to ``keep``."""
        try:
            for i, (ply, task) in enumerate(zip(made.plies, made.tasks)):
                value = await thinkers.value(f"analyse:{game_id}", task)
                move = made.judge(ply, task, value)
                coaching.add(move, (narrated(made, i, move.played), narrated(made, i, move.best)))
            if keep is not None:
                try:
                    await keep(coaching)
                except SQLAlchemyError:  # the analysis stands in this process; another makes it again
                    pass
        except Busy:
            coaching.error = "the server is too busy to analyse this game now; try again in a minute"
        except asyncio.CancelledError:
            coaching.error = "the server stopped before the analysis was done"
            raise
        except Exception as exc:  # a worker that died, or a game's rules failing: said, never a traceback
            coaching.error = f"the analysis failed: {exc}"


def every(rate: float) -> str:
    """``2 minutes``, ``30 seconds``: the time a bucket refilling at ``rate`` a second takes for one."""
    seconds = round(1 / rate)
    return f"{seconds // 60} minutes" if seconds % 60 == 0 and seconds > 60 else f"{seconds} seconds"


async def spend_share(request: Request) -> None:
    """Spend one of the analyses of the request's identity (its seat token, if it has one) and of
    its address (every process's together); 429 in words, with ``Retry-After``, when either has
    none left."""
    state = request.app.state
    token = identity_of(request)
    if token is not None and not await state.analyses.spend(token):
        raise HTTPException(429, f"You have started {ANALYSIS_BURST} analyses in a short time, the coach's limit for "
                                 f"one player: it starts one more for you every {every(ANALYSIS_RATE)}. "
                                 "Analyses already made are shown at once.",
                            headers={"Retry-After": str(state.analyses.wait())})
    if not await state.address_analyses.spend(address_of(request)):
        raise HTTPException(429, f"Your address has started {ADDRESS_ANALYSIS_BURST} analyses in a short time, the "
                                 f"coach's limit for one address: it starts one more from it every "
                                 f"{every(ADDRESS_ANALYSIS_RATE)}. Analyses already made are shown at once.",
                            headers={"Retry-After": str(state.address_analyses.wait())})


def coach_of(request: Request) -> Coach:
    """The app's coach, made at its first use."""
    state = request.app.state
    if not hasattr(state, "coach"):
        state.coach = Coach()
        # its analyses are counted with the other processes' (:mod:`.upkeep`)
        tables_of(request).upkeep.counts[ANALYSES] = state.coach.running
    coach: Coach = state.coach
    return coach


def since_of(request: Request) -> int:
    """The ``since`` query parameter: the first judged move the page has not got yet."""
    text = request.query_params.get("since", "0")
    return int(text) if text.isdigit() and len(text) <= 9 else 0


def key_of(request: Request) -> str:
    """The coach's key of the address: a game of this server's, or an uploaded record's digest."""
    params = request.path_params
    return f"game:{params['game_id']}" if "game_id" in params else f"upload:{params['digest']}"


async def source(request: Request) -> Record:
    """The record to analyse: a finished game of this server's (404, 409 while it is played), or
    an uploaded record sent again in the body, which must be the page's (its digest) and over
    (400, 409; the upload rate applies, 429)."""
    if "game_id" in request.path_params:
        return (await finished_table(request)).record()
    refusal = await take_upload(request)
    if refusal is not None:
        raise HTTPException(429, refusal)
    text = (await read_capped(request, MAX_UPLOAD_BYTES)).decode("utf-8", errors="replace")
    try:
        record = await asyncio.to_thread(Record.from_json, text)
    except RecordError as exc:
        raise HTTPException(400, str(exc)) from None
    if digest_of(record.to_json()) != request.path_params["digest"]:
        raise HTTPException(400, "that is not the record this page shows")
    return record


def planned(record: Record, upload: bool) -> Plan:
    """``record``'s analysis laid out at the coach's settings: refused past
    :data:`~plunder.web.limits.COACH_MAX_MOVES` moves (413), an upload whose game is not over
    (409), a record that does not replay or a game without analysis (409)."""
    if len(record.moves) > COACH_MAX_MOVES:
        raise HTTPException(413, f"This game is {len(record.moves):,} moves long; the coach analyses games of "
                                 f"at most {COACH_MAX_MOVES:,} moves (plunder analyse has no such limit).")
    try:
        if upload and not replay(record).is_terminal():
            raise HTTPException(409, "This record's game is not over; the coach analyses finished games.")
        return plan(record, COACH_SETTINGS)
    except (PlunderError, ValueError) as exc:
        raise HTTPException(409, f"This game cannot be analysed: {exc}") from None


def restored(record: Record, text: str) -> Coaching:
    """A finished analysis of ``record`` from the store's row (:mod:`.coachstore`)."""
    game = load_game(record.game, **record.params)
    analysis = entry(game.id).analysis
    assert analysis is not None  # it was analysed
    moves, words = decoded(text)
    return Coaching(GameAnalysis(game, record, analysis.units, moves), len(moves), words)


async def kept(request: Request) -> Coaching | None:
    """The analysis of the request's address kept or under way here, else a game's finished
    one from the store (then kept here too)."""
    coach = coach_of(request)
    key = key_of(request)
    found = coach.get(key)
    if found is not None or "game_id" not in request.path_params:
        return found
    tables = tables_of(request)
    game_id = request.path_params["game_id"]
    text = await tables.db(load_analysis, tables.store, game_id, MADE_BY)
    if text is None:
        return None
    record = (await finished_table(request)).record()
    found = coach.get(key)  # made here meanwhile
    if found is None:
        found = await asyncio.to_thread(restored, record, text)
        coach.remember(key, found)
    return found


def keeper(request: Request) -> Keep | None:
    """How a finished analysis of the request's game is kept in the store (none for an upload)."""
    if "game_id" not in request.path_params:
        return None
    tables = tables_of(request)
    game_id = request.path_params["game_id"]

    async def keep(coaching: Coaching) -> None:
        await tables.db(save_analysis, tables.store, game_id, MADE_BY, encoded(coaching.result.moves, coaching.words))

    return keep


async def analyse(request: Request) -> Response:
    """``POST /replay/game/{game_id}/analyse`` (or ``/replay/upload/{digest}/analyse`` with the
    record's text): start (or find) the game's analysis; 404 for no such game, 409 while it is
    played, for a game not over or one that offers no analysis, 413 past
    :data:`~plunder.web.limits.COACH_MAX_MOVES`, 503 when the coach is full."""
    key = key_of(request)
    try:
        coach = coach_of(request)
        coaching = await kept(request)
        if coaching is None or coaching.error is not None:  # a failed analysis is tried again
            record = await source(request)
            made = await asyncio.to_thread(planned, record, "digest" in request.path_params)
            again = coach.get(key)
            if again is not None and again.error is None:
                coaching = again
            else:
                await coach.admit(tables_of(request).upkeep.loads, request)
                coaching = coach.start(key, record, made, tables_of(request).thinkers, keeper(request))
        elif "game_id" in request.path_params:
            await finished_table(request)  # kept, but the game must still be there
    except HTTPException as exc:
        return JSONResponse({"error": exc.detail}, exc.status_code, headers=exc.headers)
    return JSONResponse(called(coaching.data(0), await callers_of(request)), 200 if coaching.finished else 202)


async def analysis(request: Request) -> Response:
    """``GET .../analysis?since=k``: the analysis so far, or the finished one the store keeps (404
    when none was started, or it was forgotten: the page asks again; 404 or 409 for a game
    that is not there, or not over)."""
    try:
        coaching = await kept(request)
    except HTTPException as exc:
        return JSONResponse({"error": exc.detail}, exc.status_code)
    if coaching is None:
        return JSONResponse({"error": "this game has not been analysed here; press Analyse"}, 404)
    return JSONResponse(called(coaching.data(since_of(request)), await callers_of(request)))


async def better(request: Request) -> Response:
    """``GET .../better/{n}``: the picture of the better move the analysis found for the move
    that led to position ``n`` (404 where it found none, or has not judged it)."""
    n = int(request.path_params["n"])
    key = key_of(request)
    try:
        coaching = await kept(request)
    except HTTPException as exc:
        return JSONResponse({"error": exc.detail}, exc.status_code)
    move = coaching.at(n) if coaching is not None else None
    if coaching is None or move is None or move.best == move.played:
        return JSONResponse({"error": f"the coach knows no better move for move {n}"}, 404)
    callers = await callers_of(request)
    try:
        frame = await tables_of(request).thinkers.replay(f"better:{address_of(request)}:{key}:{n}",
                                                         better_frame, coaching.result.record, n, move.best, callers)
    except Busy:
        return JSONResponse({"error": "the server is busy; try again in a minute"}, 503)
    except Superseded:
        return JSONResponse({"error": "a newer request for this picture took this one's place"}, 409)
    if callers is not None:
        frame = {**frame, "told": callers.told(str(frame["told"]))}
    return JSONResponse(frame)


async def callers_of(request: Request) -> Callers | None:
    """How the seats of the game of this address are called (a game of this server's, by its
    players' names: :meth:`.table.Table.callers`); ``None`` for an upload, which has no names."""
    if "game_id" not in request.path_params:
        return None
    table = await tables_of(request).get(request.path_params["game_id"])
    return None if table is None else table.callers()


def called(data: dict[str, Any], callers: Callers | None) -> dict[str, Any]:
    """An analysis as the page reads it (:meth:`Coaching.data`) with its seats called by their
    players' names: the seats' list and each move's words, the better one's among them."""
    if callers is None:
        return data
    moves = [{**m, "played_words": callers.told(m["played_words"]), "best_words": callers.told(m["best_words"])}
             for m in data["moves"]]
    return {**data, "seats": list(callers.names), "moves": moves}


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/replay/game/{game_id:str}/analyse", analyse, methods=["POST"], name="coach_analyse"),
    Route("/replay/game/{game_id:str}/analysis", analysis, name="coach_analysis"),
    Route("/replay/game/{game_id:str}/better/{n:int}", better, name="coach_better"),
    Route("/replay/upload/{digest:str}/analyse", analyse, methods=["POST"], name="coach_upload_analyse"),
    Route("/replay/upload/{digest:str}/analysis", analysis, name="coach_upload_analysis"),
    Route("/replay/upload/{digest:str}/better/{n:int}", better, name="coach_upload_better"),
]
