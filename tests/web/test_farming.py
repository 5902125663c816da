"""Rating farming, as issue 36 measured it, driven over HTTP and WebSocket against a test
server: a farmer lists rated Pillage games in the lobby, and for each a fresh client without
cookies takes the open seat and resigns, at once or after the fewest moves that make the game
rated. The farmer stays provisional and off the leaderboard, and no established rating moves.
A second part places a newcomer by results against the AI levels (:mod:`plunder.web.ratings`
driven with recorded, played-out games)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from sqlalchemy import insert
from starlette.testclient import TestClient, WebSocketTestSession

from plunder.core.registry import load_game
from plunder.match import play_out
from plunder.web import ratings
from plunder.web.app import create_app
from plunder.web.security import new_token
from plunder.web.skill import MU
from plunder.web.store import AI, HUMAN, OVER, GameRow, SeatRow, Store, token_hash

from .clients import browser
from .test_play_server import new_game, state_of
from .test_ratings import establish, rating_rows

#: the farmer's listed rated game: the farmer in seat 0, an open seat for the fresh client
LISTED_RATED = {"preset": "small", "rated": "on", "listed": "anyone", "seat.0": "me", "seat.1": "open"}


def moves_then_resign(farmer: WebSocketTestSession, fresh: WebSocketTestSession, each: int,
                      rng: random.Random) -> dict[str, Any]:
    """Both seats make ``each`` moves (random legal ones), then the fresh client resigns; the
    fresh client's last state."""
    mf, mx = state_of(farmer), state_of(fresh)
    made = [0, 0]
    while min(made) < each:
        assert not mf["over"], "the game ended before the resignation"
        seat, ws, m = (0, farmer, mf) if mf["your_turn"] else (1, fresh, mx)
        ws.send_json({"type": "act", "action": rng.choice(m["legal"]), "ply": m["ply"]})
        made[seat] += 1
        mf, mx = state_of(farmer), state_of(fresh)
    return resign(fresh, mx)


def resign(ws: WebSocketTestSession, message: dict[str, Any]) -> dict[str, Any]:
    """Resign on ``ws`` (last state ``message``); the state that ends the game."""
    ws.send_json({"type": "resign"})
    while not message["over"]:
        message = state_of(ws)
    return message


def farm(db: str, farmer: TestClient, games: int, each: int) -> list[list[str]]:
    """``games`` lobby games of the farmer, each seat taken by a fresh cookieless client that
    resigns after both made ``each`` moves (at once: the farmer never opens the game); what each
    result told the farmer."""
    rng = random.Random(36)
    me = token_hash(str(farmer.cookies.get("plunder_token")))
    ids = []
    for _ in range(games):
        game_id = new_game(farmer, "pillage", **LISTED_RATED)
        fresh = browser(farmer)  # no cookie: the lobby mints it a token as it sits
        assert not fresh.cookies
        sat = fresh.post(f"/lobby/{game_id}/1", follow_redirects=False)
        assert sat.status_code == 303, sat.text
        with fresh.websocket_connect(f"/ws/{game_id}") as wx:
            if each:
                with farmer.websocket_connect(f"/ws/{game_id}") as wf:
                    end = moves_then_resign(wf, wx, each, rng)
            else:
                end = resign(wx, state_of(wx))
        assert "resigned" in end["result"]["verdict"], end["result"]
        ids.append(game_id)
    store = Store(db)
    return [ratings.settle(store, row, load_game("pillage", "small").new_initial_state())[me]
            for row in map(store.load, ids) if row is not None]


@pytest.mark.parametrize("games,each,established", [
    (20, 0, False),   # the run: each seat taken and resigned at once
    (100, 0, False),
    (20, ratings.MIN_MOVES, False),  # the farmer's next try: the fewest moves that make a game rated
    (20, ratings.MIN_MOVES, True),   # an established farmer
])
def test_farming_resignations_leave_the_farmer_provisional_and_move_no_established_rating(
        db_for_farming: str, games: int, each: int, established: bool) -> None:
    db = db_for_farming
    with TestClient(create_app(db, ai_workers=0)) as farmer:
        farmer.cookies.set("plunder_token", new_token())
        me = token_hash(str(farmer.cookies.get("plunder_token")))
        bystander = token_hash(new_token())
        establish(db, bystander, 1900.0)
        if established:
            establish(db, me, 1800.0)
        else:  # a provisional rating of one game against the easy AI
            with Store(db).engine.begin() as c:
                c.execute(insert(ratings.ratings).values(game="pillage", token=me, mu=1600.0, sigma=480.0, games=1,
                                                         updated=time.time()))
                c.execute(insert(ratings.rated_opponents).values(game="pillage", token=me, opponent="ai:easy"))
        before = rating_rows(db, "pillage")
        told = farm(db, farmer, games, each)
        after = rating_rows(db, "pillage")
        # no rating there before moved: not the farmer's, not the bystander's (every farmed game
        # was unrated, or against a provisional newcomer); only the fresh clients' are new, and
        # only against an established farmer, who placed them (they lost)
        assert {t: after[t] for t in before} == before
        fresh = {t: r for t, r in after.items() if t not in before}
        assert len(fresh) == (games if established and each else 0)
        assert all(r["mu"] < MU and r["games"] == 1 for r in fresh.values())
        if each < ratings.MIN_MOVES:
            assert told == [[f"Not rated: the game ended before every player had made {ratings.MIN_MOVES} moves."]] * games
        else:
            assert all(t[0].startswith("Not rated for you: every opponent's rating is still provisional") for t in told)
        standing = ratings.standing_of(Store(db), "pillage", me)
        assert standing is not None and standing["provisional"] != established
        board = ratings.leaderboard(Store(db), "pillage", me)
        assert any(r["you"] for r in board) == established  # a provisional farmer is off the board
        assert ratings.leaderboard(Store(db), "pillage", None)[0]["name"] == "The hard AI"
        page = farmer.get("/ratings/pillage").text
        assert ("?</strong>" in page.split('id="my-rating"')[1].split("</p>")[0]) != established


@pytest.fixture(params=["sqlite", "postgresql"])
def db_for_farming(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A fresh SQLite database; the session's PostgreSQL for the 20-game runs only (the
    100-game run asks the same of the store, five times over)."""
    games = request.node.callspec.params["games"]
    if request.param == "postgresql":
        if games > 20:
            pytest.skip("the 100-game run is measured on SQLite")
        url: str = request.getfixturevalue("postgres_url")
        return url
    return f"sqlite:///{tmp_path / 'plunder.db'}"


def recorded_game(store: Store, person: str, level: str, person_wins: bool, seed: int) -> tuple[GameRow, Any]:
    """A rated small Pillage game between the holder of ``person`` (a hash) and the ``level``
    AI, played out by random agents and seated so that the person wins or loses as asked, stored."""
    game = load_game("pillage", "small")
    while True:
        record, final = play_out(game, ["random", "random"], seed)
        returns = final.returns()
        if returns[0] != returns[1]:
            break
        seed += 1000
    winner = 0 if returns[0] > returns[1] else 1
    mine = winner if person_wins else 1 - winner
    seats = [SeatRow(HUMAN, token=person) if i == mine else SeatRow(AI, agent=level) for i in range(2)]
    row = GameRow(new_token(), "pillage", dict(game.params), seed, OVER, person, seats, record.moves)
    store.create(row, ratings.rated_in(row.id))
    return row, final


def test_a_newcomer_who_beats_medium_and_loses_to_hard_lands_between_them(tmp_path: Any) -> None:
    store = Store(f"sqlite:///{tmp_path / 'plunder.db'}")
    me = token_hash(new_token())
    levels = ratings.ai_ratings()["pillage"]
    medium, hard = levels["medium"][0], levels["hard"][0]
    told = []
    for i in range(10):  # ten wins over medium and ten losses to hard, alternately
        for level, wins in (("medium", True), ("hard", False)):
            row, final = recorded_game(store, me, level, wins, 2 * i + (level == "hard"))
            told.append(ratings.settle(store, row, final)[me][0])
    standing = ratings.standing_of(store, "pillage", me)
    assert standing is not None
    mu = rating_rows(store.engine.url.render_as_string(hide_password=False), "pillage")[me]["mu"]
    assert medium < mu < hard, (medium, mu, hard)
    # placed: two distinct opponents so far, so still provisional (three are needed) though sure enough
    assert standing["opponents"] == 2 and standing["sigma"] < ratings.PROVISIONAL_SIGMA and standing["provisional"]
    assert told[0].startswith("Your rating 1500? → ") and all(line.endswith("?") for line in told)
    # one win over easy makes the third: established, on the leaderboard between the two levels
    row, final = recorded_game(store, me, "easy", True, 99)
    [line] = ratings.settle(store, row, final)[me]
    assert "?" in line.split("→")[0] and not line.endswith("?"), line
    board = [r["name"] if r["ai"] else "me" for r in ratings.leaderboard(store, "pillage", me)]
    assert board == ["The hard AI", "me", "The medium AI", "The easy AI"]
