"""Puzzles in the web app (docs/web.md, "Puzzles"): the page shows the position and the
question but never the solution; the server judges each move from the stored values, plays the
replies and, once the attempt is over, tells the solution and the rating's change; the first
attempt of a puzzle is rated, once, retries are not; the next puzzle is chosen near the
player's rating; the day's puzzle is the same for everyone; bad input is refused in words.
Every test on SQLite and on PostgreSQL."""

from __future__ import annotations

import html
import json
import re
import secrets
from typing import Any, Iterator

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from plunder.core.puzzle import Puzzle
from plunder.web import daily, puzzlestore
from plunder.web.app import create_app
from plunder.web.puzzle_pages import catalogue, daily_puzzle, next_puzzle
from plunder.web.puzzlestore import puzzle_attempts, puzzle_players, puzzle_strengths
from plunder.web.store import Store, token_hash
from plunder.web.security import COOKIE
from .clients import browser
from .test_daily import Clock

def mirrored() -> tuple[Puzzle, int, str]:
    """The first shipped puzzle (by id) whose line asks, after its first move, for a move with
    a mirror image: (the puzzle, that step, the image)."""
    for puzzle in sorted(catalogue().values(), key=lambda p: p.id):
        for at, step in enumerate(puzzle.line):
            if at and step.solver:
                best = max(step.values.values())
                images = [a for a, v in step.values.items() if v == best and a != step.action]
                if images:
                    return puzzle, at, images[0]
    raise AssertionError("no shipped puzzle asks for a move with a mirror image")


@pytest.fixture
def clock() -> Clock:
    """Noon of a day of the test's own."""
    return Clock()


@pytest.fixture
def client(any_db: str, clock: Clock) -> Iterator[TestClient]:
    """The app over a fresh SQLite file or the session's PostgreSQL database."""
    with TestClient(create_app(any_db, ai_workers=0, clock=clock)) as c:
        yield c


def store_of(client: TestClient) -> Store:
    """The app's store."""
    found: Store = client.app.state.tables.store  # type: ignore[attr-defined]
    return found


def page_data(client: TestClient, puzzle_id: str) -> dict[str, Any]:
    """What the page of ``puzzle_id`` hands its script."""
    page = client.get(f"/puzzles/{puzzle_id}")
    assert page.status_code == 200, page.text
    found = re.search(r'<script type="application/json" id="puzzle-data">(.*?)</script>', page.text, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def send(client: TestClient, puzzle: Puzzle, move: str, attempt: str = "", at: int = 0) -> Any:
    """POST a move; the answer."""
    return client.post(f"/puzzles/{puzzle.id}/move", json={"attempt": attempt, "at": at, "move": move})


def wrong_move(puzzle: Puzzle, at: int = 0) -> str:
    """A legal move worse than the best at step ``at``."""
    values = puzzle.line[at].values
    return min(values, key=lambda a: values[a])


def solve(client: TestClient, puzzle: Puzzle) -> dict[str, Any]:
    """Play every move of the line asked of the player; the last answer."""
    attempt, at = "", 0
    while True:
        answer = send(client, puzzle, puzzle.line[at].action, attempt, at)
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        assert body["right"] is True
        if body["status"] != "on":
            return body
        attempt, at = body["attempt"], body["at"]
        assert puzzle.line[at].solver  # the replies were played up to the player's next move


def multi_step() -> Puzzle:
    """A shipped puzzle asking two moves or more of the player."""
    return next(p for p in sorted(catalogue().values(), key=lambda p: p.id) if sum(s.solver for s in p.line) >= 2)


def one_step() -> Puzzle:
    """A shipped puzzle asking one move of the player."""
    return next(p for p in sorted(catalogue().values(), key=lambda p: p.id) if sum(s.solver for s in p.line) == 1)


def test_the_page_asks_the_question_and_holds_no_solution(client: TestClient) -> None:
    puzzle = multi_step()
    page = client.get(f"/puzzles/{puzzle.id}").text
    assert "Player 1 to move: find the best move" in page or "Player 2 to move: find the best move" in page
    assert "best play makes" in page and f"difficulty {puzzle.difficulty} of 5" in page
    assert 'data-action="' in page  # the game's own picture, its moves clickable
    data = page_data(client, puzzle.id)
    assert set(data) == {"post", "attempt", "at", "legal"} and data["attempt"] == "" and data["at"] == 0
    # every legal move is listed alike: the key is one of them, nothing marks it
    assert len(data["legal"]) == len(puzzle.line[0].values) and puzzle.line[0].action in data["legal"]
    for secret in ('"values"', '"solver"', "the reply", "Theme:"):
        assert secret not in page
    replies = [s.action for s in puzzle.line if not s.solver]
    assert replies and not any(f"The reply: {r}" in page for r in replies)


def test_a_puzzle_solved_raises_the_rating_and_the_streak(client: TestClient) -> None:
    puzzle = multi_step()
    store = store_of(client)
    strength_before = puzzlestore.strengths(store).get(puzzle.id, puzzlestore.initial(puzzle.difficulty)[0])
    last = solve(client, puzzle)
    assert last["status"] == "solved" and last["legal"] == []
    assert last["rating"].startswith("Solved: your puzzle rating 1500? → ")
    assert last["streak"] == "Streak: 1 solved in a row (best 1)"
    assert [s["action"] for s in last["solution"]] == [s.action for s in puzzle.line]
    you = token_hash(client.cookies[COOKIE])
    mine = puzzlestore.standing(store, you)
    assert mine.mu > 1500 and mine.rated == 1 and mine.solved == 1
    assert puzzlestore.strengths(store)[puzzle.id] < strength_before  # the puzzle lost: its rating fell
    assert f"<strong id=\"rating\">{mine.text}</strong>" in client.get(f"/puzzles/{one_step().id}").text


def test_a_wrong_move_ends_the_attempt_with_the_solution_in_words(client: TestClient) -> None:
    # a line whose second move is the player's too (a box taken moves again): none is offered after the miss
    puzzle = next(p for p in sorted(catalogue().values(), key=lambda p: p.id) if len(p.line) > 1 and p.line[1].solver)
    store = store_of(client)
    answer = send(client, puzzle, wrong_move(puzzle)).json()
    assert answer["right"] is False and answer["status"] == "failed" and answer["legal"] == []
    best, played = puzzle.best, min(puzzle.line[0].values.values())
    assert answer["words"].startswith(f"Wrong: after {wrong_move(puzzle)}, best play makes you ")
    assert f"{puzzle.line[0].action} makes you" in answer["words"]
    assert f"the best move ends {best - played:g} doubloon" in answer["words"]
    assert answer["solution"][0]["action"] == puzzle.line[0].action
    assert answer["rating"].startswith("Missed: your puzzle rating 1500? → ") and "(-" in answer["rating"]
    assert answer["streak"] == "Streak: 0 solved in a row (best 0)"
    assert puzzlestore.standing(store, token_hash(client.cookies[COOKIE])).mu < 1500
    # a move after the end is refused in words
    late = send(client, puzzle, puzzle.line[0].action, answer["attempt"], answer["at"])
    assert late.status_code == 409 and late.json()["error"].startswith("This attempt is over: you missed it")


def test_a_retry_is_not_rated_and_the_rating_moves_once(client: TestClient) -> None:
    puzzle = one_step()
    send(client, puzzle, wrong_move(puzzle))
    store = store_of(client)
    you = token_hash(client.cookies[COOKIE])
    after_first = puzzlestore.standing(store, you)
    page = client.get(f"/puzzles/{puzzle.id}").text
    assert "A retry: not rated" in page
    again = solve(client, puzzle)
    assert again["rating"].startswith("Not rated: you had tried this puzzle before")
    assert puzzlestore.standing(store, you) == after_first
    with store.engine.connect() as db:
        rated = db.execute(select(puzzle_attempts.c.rated).where(puzzle_attempts.c.identity == you)
                           .order_by(puzzle_attempts.c.started)).scalars().all()
    assert rated == [True, False]


def test_an_attempt_ends_once_when_two_writers_race(client: TestClient) -> None:
    puzzle = one_step()
    store = store_of(client)
    you = token_hash(secrets.token_hex(16))  # an identity of its own (the PostgreSQL database is shared)
    attempt = puzzlestore.start(store, you, puzzle.id, 0.0)
    with store.engine.connect() as db:
        attempts_before = db.execute(select(puzzle_strengths.c.attempts).where(
            puzzle_strengths.c.puzzle == puzzle.id)).scalar() or 0
    ended = puzzlestore.advance(store, attempt, 1, puzzlestore.SOLVED, puzzle.difficulty)
    assert ended is not None and ended.after is not None
    # the same write planned on the same step by another process: refused, nothing rated again
    with pytest.raises(puzzlestore.Stale):
        puzzlestore.advance(store, attempt, 1, puzzlestore.SOLVED, puzzle.difficulty)
    with store.engine.connect() as db:
        player = db.execute(select(puzzle_players.c.rated).where(puzzle_players.c.identity == you)).scalar()
        attempts = db.execute(select(puzzle_strengths.c.attempts).where(puzzle_strengths.c.puzzle == puzzle.id)).scalar()
    assert player == 1 and attempts == attempts_before + 1
    # a second first attempt of the same puzzle is a retry
    assert puzzlestore.start(store, you, puzzle.id, 0.0).rated is False


def test_a_mirror_image_of_the_move_counts_as_right(client: TestClient) -> None:
    puzzle, step_at, mirror = mirrored()
    attempt, at = "", 0
    while at < step_at:
        body = send(client, puzzle, puzzle.line[at].action, attempt, at).json()
        attempt, at = body["attempt"], body["at"]
    step = puzzle.line[step_at]
    assert at == step_at
    body = send(client, puzzle, mirror, attempt, at).json()
    assert body["right"] is True and f"an image of {step.action} by the board's symmetry" in body["words"]


def test_bad_input_is_refused_in_words(client: TestClient) -> None:
    puzzle = multi_step()
    missing = client.get("/puzzles/no-such-puzzle")
    assert missing.status_code == 404 and "There is no puzzle" in html.unescape(missing.text)
    assert "Traceback" not in missing.text
    moved = client.post("/puzzles/no-such-puzzle/move", json={"move": "a1-b1"})
    assert moved.status_code == 404 and moved.json()["error"].startswith("There is no puzzle 'no-such-puzzle'")
    refusals = {
        "not json": (client.post(f"/puzzles/{puzzle.id}/move", content=b"a1-b1"), "A move is sent as JSON"),
        "no move": (client.post(f"/puzzles/{puzzle.id}/move", json={"at": 0}), "The move is missing"),
        "garbled": (send(client, puzzle, "zz-top"), "Not a move here: cannot read action 'zz-top'"),
        "too long": (send(client, puzzle, "a" * 300), "A move's text is at most 200 characters"),
        "bad step": (client.post(f"/puzzles/{puzzle.id}/move", json={"move": "a1-b1", "at": "x"}), "The field \"at\""),
        "no attempt": (send(client, puzzle, puzzle.line[0].action, "nonesuch", 0), "There is no such attempt of yours"),
    }
    for name, (answer, words) in refusals.items():
        assert answer.status_code in (400, 404) and answer.json()["error"].startswith(words), (name, answer.text)
    # a drawn line is no move: illegal, refused with the rule it breaks
    drawn = next(m.action for m in puzzle.moves if m.by is not None)
    illegal = send(client, puzzle, drawn)
    assert illegal.status_code == 400 and illegal.json()["error"].startswith("Not a move here:")
    # nothing was started by the refusals
    assert COOKIE not in client.cookies or puzzlestore.open_attempt(
        store_of(client), token_hash(client.cookies[COOKIE]), puzzle.id) is None
    # an answer to a step the attempt has left behind (another tab played it)
    first = send(client, puzzle, puzzle.line[0].action).json()
    stale = send(client, puzzle, puzzle.line[first["at"]].action, first["attempt"], 0)
    assert stale.status_code == 409 and "has moved on since" in stale.json()["error"]
    # someone else's attempt is not yours to play
    other = send(browser(client), puzzle, puzzle.line[first["at"]].action, first["attempt"], first["at"])
    assert other.status_code == 404
    # the attempt is taken up where it was: the page reopens at its step
    assert page_data(client, puzzle.id)["attempt"] == first["attempt"]


def test_the_next_puzzle_is_near_your_rating_and_untried(client: TestClient) -> None:
    store = store_of(client)
    first = client.get("/puzzles", follow_redirects=False)
    assert first.status_code == 303
    chosen = first.headers["location"].rsplit("/", 1)[1]
    held = puzzlestore.strengths(store)
    ratings = {p: held.get(p, puzzlestore.initial(z.difficulty)[0]) for p, z in catalogue().items()}
    assert abs(ratings[chosen] - 1500) == min(abs(r - 1500) for r in ratings.values())
    puzzle = catalogue()[chosen]
    send(client, puzzle, wrong_move(puzzle))
    you = token_hash(client.cookies[COOKIE])
    mine = puzzlestore.standing(store, you)
    after = client.get(f"/puzzles?after={chosen}", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    assert after != chosen and after == next_puzzle(store, you, chosen)
    held = puzzlestore.strengths(store)
    ratings = {p: held.get(p, puzzlestore.initial(z.difficulty)[0]) for p, z in catalogue().items()}
    assert abs(ratings[after] - mine.mu) == min(abs(r - mine.mu) for p, r in ratings.items() if p != chosen)


def test_the_day_s_puzzle_is_on_the_home_page_the_same_for_everyone(client: TestClient, clock: Clock) -> None:
    store = store_of(client)
    today = daily_puzzle(store, clock.day)
    assert today is not None
    home = client.get("/").text
    assert f'id="daily-puzzle"><a href="/puzzles/{today.id}">Today\'s puzzle</a>' in home
    assert f'href="/puzzles/{today.id}"' in browser(client).get("/").text
    assert client.get("/puzzles/daily", follow_redirects=False).headers["location"] == f"/puzzles/{today.id}"
    assert "Today's puzzle" in client.get(f"/puzzles/{today.id}").text
    days = {p.id for p in (daily_puzzle(store, clock.later(n)) for n in range(6)) if p is not None}
    assert len(days) > 1  # another day, another puzzle (from the day and the secret)
    with store.engine.connect() as db:
        assert db.execute(select(func.count()).select_from(daily.daily_secret)).scalar() == 1
