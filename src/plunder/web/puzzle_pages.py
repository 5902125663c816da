"""The puzzle pages (docs/web.md, "Puzzles"): ``/puzzles`` sends a player to the next puzzle
near their puzzle rating, ``/puzzles/daily`` to the day's puzzle (the same for everyone, as the
daily deal is chosen), ``/puzzles/{id}`` shows one, and ``POST /puzzles/{id}/move`` judges a
move.

The puzzles are the ones shipped with every game that makes them (:func:`plunder.puzzles.shipped`),
played through :class:`plunder.puzzles.PuzzleRun`: the page knows no game. The position is the
game's own picture, whose elements carry their actions as on a game page (``board.js`` takes the
clicks for both pages). The server judges every move from the puzzle's proven values; the page
is sent the position, its legal moves and the value to reach, never the solution, which is told
only once the attempt is over. The attempts and ratings are kept in the store (:mod:`.puzzlestore`).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.errors import PlunderError
from ..core.puzzle import Puzzle
from ..core.registry import entry, game_ids
from ..core.svg import Shown
from ..pictures import svg_of
from ..puzzles import PuzzleRun, shipped
from . import daily, puzzlestore
from .games import spend_creation, tables_of, token_or_400
from .identities import acting_for, identity_of
from .puzzlestore import FAILED, ON, SOLVED, Attempt, Ended, Stale, Standing
from .security import remember
from .store import Store
from .templating import templates

#: the longest move text read (the games' own bound on an action's text is larger)
MAX_MOVE_CHARS = 200
#: what the day's puzzle is keyed on with the day (:func:`.daily.seed_of`, as a day's deal is)
DAILY_KEY = "puzzle"


@functools.cache
def catalogue() -> dict[str, Puzzle]:
    """Every shipped puzzle of every installed game that makes them, by id (read once a process)."""
    found: dict[str, Puzzle] = {}
    for game_id in game_ids():
        if entry(game_id).puzzles is not None:
            found.update((p.id, p) for p in shipped(game_id))
    return found


def known(puzzle_id: str) -> Puzzle:
    """The puzzle ``puzzle_id``, else a 404 in words."""
    found = catalogue().get(puzzle_id)
    if found is None:
        raise HTTPException(404, f"There is no puzzle {puzzle_id[:80]!r}: the puzzles are listed by "
                                 "/puzzles, which takes you to one near your rating.")
    return found


def run_at(puzzle: Puzzle, at: int) -> PuzzleRun:
    """The puzzle played to step ``at`` of its line (an attempt taken up where it is)."""
    analysis = entry(puzzle.game).analysis
    run = PuzzleRun(puzzle, analysis.units if analysis is not None else "points")
    run.skip(at)
    return run


def picture(run: PuzzleRun) -> str:
    """The position's picture, its caption naming the move that led to it."""
    moves = len(run.puzzle.moves) + run.at
    last = run.puzzle.line[run.at - 1].action if run.at else (run.puzzle.moves[-1].action if run.puzzle.moves else "")
    return svg_of(run.state, Shown(moves, last) if moves else None)


def legal(run: PuzzleRun) -> list[str]:
    """The texts of the legal moves where the player is to move (none once the line is over)."""
    if run.done or not run.step.solver:
        return []
    return [run.game.action_to_text(run.state, a) for a in run.state.legal_actions()]


def prompt(run: PuzzleRun) -> str:
    """What the player is asked at the current step: whose move, and what best play gives them."""
    who = run.game.seat_name(run.solver)
    best = max(run.step.values.values())
    if run.at == 0:
        return (f"{who} to move: find the best move. With it, best play makes {who} {run.margin(best)}; "
                "every other move does worse.")
    return f"{who} again: find the next exact move (it keeps {who}'s {run.margin(best)})."


def solution(run: PuzzleRun) -> list[dict[str, Any]]:
    """The whole line in words: each move's number in the game, text and who plays it."""
    first = len(run.puzzle.moves) + 1
    who = run.game.seat_name(run.solver)
    return [{"n": first + i, "action": s.action, "by": who if s.solver else "the reply"}
            for i, s in enumerate(run.puzzle.line)]


def streak_text(standing: Standing) -> str:
    """``Streak: 3 solved in a row (best 5)``."""
    return f"Streak: {standing.streak} solved in a row (best {standing.best_streak})"


def rating_line(ended: Ended, solved: bool) -> str:
    """What an attempt's end did to the player's puzzle rating, in words."""
    if ended.after is None:
        return (f"Not rated: you had tried this puzzle before, and only a first attempt is rated. "
                f"Your puzzle rating stays {ended.before.text}.")
    change = round(ended.after.mu) - round(ended.before.mu)
    return (f"{'Solved' if solved else 'Missed'}: your puzzle rating {ended.before.text} → {ended.after.text} "
            f"({change:+d}).")


def page_of(store: Store, puzzle: Puzzle, you: str | None) -> dict[str, Any]:
    """What the page of ``puzzle`` shows to ``you``: the position at your attempt still on
    (else at the start), the question, your rating and streak, whether the attempt is rated."""
    attempt = None if you is None else puzzlestore.open_attempt(store, you, puzzle.id)
    rated = attempt.rated if attempt is not None else (you is None or not puzzlestore.tried(store, you, puzzle.id))
    run = run_at(puzzle, attempt.at if attempt is not None else 0)
    mine = puzzlestore.standing(store, you)
    return {
        "puzzle": {"id": puzzle.id, "difficulty": puzzle.difficulty, "game": puzzle.game,
                   "title": entry(puzzle.game).game_class.title},
        "svg": picture(run), "prompt": prompt(run), "rated": rated,
        "rating": mine.text, "streak": streak_text(mine),
        "data": {"post": f"/puzzles/{puzzle.id}/move", "attempt": attempt.id if attempt is not None else "",
                 "at": run.at, "legal": legal(run)},
    }


def daily_puzzle(store: Store, day: str) -> Puzzle | None:
    """The puzzle of ``day``: the same for everyone, from the day and the daily deals' secret
    (:func:`.daily.seed_of`), so nobody learns a coming day's puzzle from its date."""
    ids = sorted(catalogue())
    if not ids:
        return None
    return catalogue()[ids[daily.seed_of(daily.secret(store), day, DAILY_KEY) % len(ids)]]


def next_puzzle(store: Store, you: str | None, after: str | None) -> str | None:
    """The puzzle nearest ``you``'s rating among those you have not tried (not ``after``, the
    one just played): each puzzle at its rating, or its starting one (:func:`.puzzlestore.initial`)."""
    held = puzzlestore.strengths(store)
    ratings = {p: held.get(p, puzzlestore.initial(z.difficulty)[0]) for p, z in catalogue().items()}
    skip = (set() if you is None else puzzlestore.tried_set(store, you)) | ({after} if after else set())
    return puzzlestore.nearest(ratings, you, puzzlestore.standing(store, you).mu, skip)


async def next_page(request: Request) -> Response:
    """``GET /puzzles``: to the next puzzle near your rating (``?after=ID``: not that one)."""
    tables = tables_of(request)
    found = await tables.db(next_puzzle, tables.store, identity_of(request), request.query_params.get("after"))
    if found is None:
        raise HTTPException(404, "No installed game ships puzzles.")
    return RedirectResponse(request.url_for("puzzle", puzzle=found).path, status_code=303)


async def daily_page(request: Request) -> Response:
    """``GET /puzzles/daily``: to the day's puzzle."""
    tables = tables_of(request)
    found = await tables.db(daily_puzzle, tables.store, daily.day_of(tables.clock()))
    if found is None:
        raise HTTPException(404, "No installed game ships puzzles.")
    return RedirectResponse(request.url_for("puzzle", puzzle=found.id).path, status_code=303)


async def puzzle_page(request: Request) -> Response:
    """``GET /puzzles/{puzzle}``: the position and the question (your attempt taken up if one is on)."""
    puzzle = known(request.path_params["puzzle"])
    tables = tables_of(request)
    found = await tables.db(page_of, tables.store, puzzle, identity_of(request))
    today = await tables.db(daily_puzzle, tables.store, daily.day_of(tables.clock()))
    return templates.TemplateResponse(request, "puzzle.html", {**found, "daily": today is not None and today.id == puzzle.id})


class Refused(Exception):
    """A move refused: its status and the words saying why."""

    def __init__(self, status: int, words: str) -> None:
        super().__init__(words)
        self.status = status
        self.words = words


def read_move(body: bytes) -> tuple[str, int, str]:
    """(attempt id, step, move text) of a move's JSON body; :class:`Refused` (400) naming what is wrong."""
    try:
        data = json.loads(body)
    except ValueError:
        raise Refused(400, "A move is sent as JSON: {\"attempt\": ..., \"at\": ..., \"move\": \"a1-b1\"}.") from None
    if not isinstance(data, dict):
        raise Refused(400, "A move is sent as a JSON object with the fields attempt, at and move.")
    attempt, at, move = data.get("attempt", ""), data.get("at", 0), data.get("move")
    if not isinstance(move, str) or not move.strip():
        raise Refused(400, "The move is missing: send its text in the field \"move\" (a1-b1).")
    if len(move) > MAX_MOVE_CHARS:
        raise Refused(400, f"A move's text is at most {MAX_MOVE_CHARS} characters, not {len(move)}.")
    if not isinstance(attempt, str) or len(attempt) > 64:
        raise Refused(400, "The field \"attempt\" is the attempt's id as the page gave it (empty for a new one).")
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise Refused(400, "The field \"at\" is the step of the line the move answers (0 for the first).")
    return attempt, at, move.strip()


async def move(request: Request) -> Response:
    """``POST /puzzles/{puzzle}/move``: judge a move of the attempt (a new attempt when it names
    none), play the replies, and say what happened; the solution once the attempt is over.
    A refusal is JSON too: ``{"error": words}`` with its status."""
    try:
        return await _move(request)
    except Refused as exc:
        return JSONResponse({"error": exc.words}, status_code=exc.status)
    except HTTPException as exc:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


async def _move(request: Request) -> Response:
    puzzle = known(request.path_params["puzzle"])
    attempt_id, at, text = read_move(await request.body())
    token, minted = token_or_400(request)
    you = acting_for(request, token)
    tables = tables_of(request)
    attempt: Attempt | None = None
    if attempt_id:
        attempt = await tables.db(puzzlestore.attempt_of, tables.store, attempt_id)
        if attempt is None or attempt.identity != you or attempt.puzzle != puzzle.id:
            raise Refused(404, "There is no such attempt of yours at this puzzle: reload the page to start one.")
        over(attempt)
        if attempt.at != at:
            raise Refused(409, "This attempt has moved on since (in another tab?): reload the page to see where it is.")
    elif at != 0:
        raise Refused(400, "A new attempt starts at the first move (\"at\": 0).")
    run = run_at(puzzle, attempt.at if attempt is not None else 0)
    try:
        verdict = run.answer(text)
    except (PlunderError, ValueError) as exc:
        raise Refused(400, f"Not a move here: {' '.join(str(exc).split())}") from None
    if attempt is None:
        await spend_creation(request)
        attempt = await tables.db(puzzlestore.start, tables.store, you, puzzle.id, tables.clock())
    replies = run.replies() if verdict.right else []
    status = FAILED if not verdict.right else (SOLVED if run.done else ON)
    try:
        ended = await tables.db(puzzlestore.advance, tables.store, attempt, run.at, status, puzzle.difficulty)
    except Stale:
        fresh = await tables.db(puzzlestore.attempt_of, tables.store, attempt.id)
        if fresh is not None:
            over(fresh)
        raise Refused(409, "This attempt has moved on since (in another tab?): reload the page to see where it is.")
    answer: dict[str, Any] = {
        "right": verdict.right, "words": verdict.words, "replies": replies, "svg": picture(run),
        "attempt": attempt.id, "at": run.at, "status": status, "legal": legal(run) if status == ON else [],
        "prompt": prompt(run) if status == ON else "",
    }
    if ended is not None:
        answer.update(rating=rating_line(ended, status == SOLVED), streak=streak_text(ended.after or ended.before),
                      score=(ended.after or ended.before).text, solution=solution(run), theme=puzzle.theme,
                      next=f"/puzzles?after={puzzle.id}")
    response = JSONResponse(answer)
    return remember(response, request, token) if minted else response


def over(attempt: Attempt) -> None:
    """Refuse a move of an attempt that is over (409, in words)."""
    if attempt.status != ON:
        raise Refused(409, f"This attempt is over: you {'solved' if attempt.status == SOLVED else 'missed'} it "
                           "and its solution was shown. Reload the page to try it again (unrated), or go on to "
                           "the next puzzle.")


__all__ = ["catalogue", "daily_puzzle", "next_puzzle", "routes"]

#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/puzzles", next_page, name="puzzles"),
    Route("/puzzles/daily", daily_page, name="daily_puzzle"),
    Route("/puzzles/{puzzle:str}", puzzle_page, name="puzzle"),
    Route("/puzzles/{puzzle:str}/move", move, methods=["POST"], name="puzzle_move"),
]
