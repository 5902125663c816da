"""Rated play and solitaire scores on the server: the rated flag, the refusals (hotseat, a
second seat by invite, a solitaire), one rating update per rated end (played out, resigned,
across a restart), the AI levels' fixed ratings, the leaderboard's bound and escaping, and the
high-score tables per variant."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from sqlalchemy import event, insert, select
from sqlalchemy.engine import Engine
from starlette.testclient import TestClient, WebSocketTestSession

from plunder.core.registry import load_game
from plunder.match import play_out
from plunder.web import clockstore, rating_history, ratings, scores, standing
from plunder.web.app import create_app
from plunder.web.clocks import DEFAULT, Clock, TimeControl
from plunder.web.names import default_name
from plunder.web.security import TOKEN_HEADER, new_token
from plunder.web.skill import MU, SIGMA, rate, shown
from plunder.web.store import AI, HUMAN, OVER, GameRow, SeatRow, Store, token_hash
from plunder.web.table import Refused
from plunder.web.tables import Tables
from plunder.web.thinking import Thinkers

from .test_play_server import new_game, state_of
from .clients import browser_of


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A fresh SQLite database."""
    return f"sqlite:///{tmp_path / 'plunder.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    """The app over ``db``, its AI in a thread."""
    with TestClient(create_app(db, ai_workers=0)) as c:
        yield c


def play_to_the_end(ws: WebSocketTestSession, rng: random.Random) -> dict[str, Any]:
    """Play random legal moves for this connection's seats until the game is over; the last state."""
    message = state_of(ws)
    while not message["over"]:
        if message["your_turn"]:
            ws.send_json({"type": "act", "action": rng.choice(message["legal"]), "ply": message["ply"]})
        message = state_of(ws)
    return message


def page_yours(client: TestClient, game_id: str) -> list[str]:
    """What the game page's first state (drawn on the server) tells this browser of the end."""
    page = client.get(f"/play/{game_id}").text
    first = page.split('<script type="application/json" id="first-state">')[1].split("</script>")[0]
    yours: list[str] = json.loads(first)["result"].get("yours", [])
    return yours


def rating_rows(db: str, game: str) -> dict[str, dict[str, Any]]:
    """Every stored rating at ``game``, by token hash."""
    with Store(db).engine.connect() as c:
        return {r["token"]: dict(r) for r in c.execute(select(ratings.ratings).where(ratings.ratings.c.game == game)).mappings()}


def token_of_client(client: TestClient) -> str:
    """The seat token the test client's cookie holds."""
    token = client.cookies.get("plunder_token")
    assert token
    return str(token)


RATED_VS_EASY = {"preset": "small", "seat.0": "me", "seat.1": "easy", "rated": "on"}


def test_the_rated_flag_is_stored_only_when_ticked(client: TestClient, db: str) -> None:
    rated = new_game(client, "pillage", **RATED_VS_EASY)
    casual = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    store = Store(db)
    assert ratings.is_rated(store, rated) and not ratings.is_rated(store, casual)
    form = client.get("/new/pillage").text
    assert 'name="rated"' in form and "checked" not in form.split('name="rated"')[1].split(">")[0]


@pytest.mark.parametrize("game,fields,said", [
    ("pillage", {"preset": "small", "seat.0": "me", "seat.1": "hotseat"}, "no hotseat"),
    ("pillage", {"preset": "small", "seat.0": "easy", "seat.1": "hard"}, "needs you in one seat"),
    ("profiteer", {"seat.0": "me"}, "solitaire"),
])
def test_a_rated_game_that_cannot_be_rated_is_refused_plainly(client: TestClient, db: str, game: str,
                                                                 fields: dict[str, str], said: str) -> None:
    answer = client.post(f"/new/{game}", data={**fields, "rated": "on"}, follow_redirects=False)
    assert answer.status_code == 400 and said in answer.text
    assert 'id="rated" checked' in answer.text or game == "profiteer"  # the form comes back as given
    # the same seats unrated are a game
    assert new_game(client, game, **fields)


def test_a_rated_game_against_an_unmeasured_ai_level_is_refused(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings, "ai_ratings", lambda: {"pillage": {"easy": (1500.0, 100.0)}})
    answer = client.post("/new/pillage", data={**RATED_VS_EASY, "seat.1": "hard"}, follow_redirects=False)
    assert answer.status_code == 400 and "The hard AI of Pillage and Profit has no measured rating" in answer.text
    assert new_game(client, "pillage", **RATED_VS_EASY)


def test_a_browser_cannot_claim_a_second_seat_of_a_rated_game(client: TestClient, db: str) -> None:
    game_id = new_game(client, "pillage", preset="small", rated="on", **{"seat.0": "me", "seat.1": "open"})
    invite = Store(db).load(game_id)
    assert invite is not None and invite.seats[1].invite
    answer = client.get(f"/join/{invite.seats[1].invite}", follow_redirects=False)
    assert answer.status_code == 409 and "cannot hold two seats" in answer.text
    # an unrated game lets the same browser take both (a hotseat by invite)
    casual = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "open"})
    row = Store(db).load(casual)
    assert row is not None
    assert client.get(f"/join/{row.seats[1].invite}", follow_redirects=False).status_code == 303


def test_a_rated_end_updates_the_rating_once_and_a_restart_never_again(any_db: str) -> None:
    db = any_db
    with TestClient(create_app(db, ai_workers=0)) as client:
        game_id = new_game(client, "pillage", **RATED_VS_EASY)
        token = token_hash(token_of_client(client))
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            end = play_to_the_end(ws, random.Random(3))
        [line] = end["result"]["yours"]
        row = rating_rows(db, "pillage")[token]
        assert row["games"] == 1 and line == f"Your rating {shown(MU)}? → {shown(row['mu'])}?"  # provisional
        assert row["mu"] != MU
        # the AI seat's rating is the measured one, untouched: only the person's changed
        with Store(db).engine.connect() as c:
            changed = c.execute(select(ratings.rating_changes.c.seat)
                                .where(ratings.rating_changes.c.game_id == game_id)).scalars().all()
        assert changed == [0]
        board = {r["name"]: r["rating"] for r in ratings.leaderboard(Store(db), "pillage", token) if r["ai"]}
        assert board == {f"The {level} AI": shown(mu) for level, (mu, _) in ratings.ai_ratings()["pillage"].items()}
        assert not any(r["you"] for r in ratings.leaderboard(Store(db), "pillage", token))  # provisional: off it
        # a second viewer, a reload: the same line, nothing moves
        assert page_yours(client, game_id) == [line]
        assert rating_rows(db, "pillage")[token] == row
    with TestClient(create_app(db, ai_workers=0)) as again:  # a restart over the same store
        again.cookies.set("plunder_token", token_of_client(client))
        assert page_yours(again, game_id) == [line]
        stored = Store(db).load(game_id)
        assert stored is not None
        final = load_game("pillage", **stored.params).new_initial_state()
        for m in stored.moves:
            final = final.apply_text(m.action)
        # settling the same end again (a replay of it) changes nothing
        assert ratings.settle(Store(db), stored, final) == {token: [line]}
        assert rating_rows(db, "pillage")[token] == row


def resign_after(ws: WebSocketTestSession, moves: int, rng: random.Random) -> dict[str, Any]:
    """Make ``moves`` moves of this connection's seat (random legal ones), then resign; the last state."""
    message = state_of(ws)
    made = 0
    while made < moves and not message["over"]:
        if message["your_turn"]:
            ws.send_json({"type": "act", "action": rng.choice(message["legal"]), "ply": message["ply"]})
            made += 1
        message = state_of(ws)
    assert made == moves, "the game ended first"
    ws.send_json({"type": "resign"})
    while not message["over"]:
        message = state_of(ws)
    return message


def test_a_rated_game_resigned_at_once_is_not_rated(client: TestClient, db: str) -> None:
    game_id = new_game(client, "pillage", **RATED_VS_EASY)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = resign_after(ws, 0, random.Random(1))
    assert message["result"]["yours"] == [f"Not rated: the game ended before every player had made {ratings.MIN_MOVES} moves."]
    assert rating_rows(db, "pillage") == {}


def test_a_resignation_after_enough_moves_lowers_the_resigners_rating(client: TestClient, db: str) -> None:
    game_id = new_game(client, "pillage", **RATED_VS_EASY)
    token = token_hash(token_of_client(client))
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = resign_after(ws, ratings.MIN_MOVES, random.Random(2))
    row = rating_rows(db, "pillage")[token]
    assert row["games"] == 1 and row["mu"] < MU
    assert message["result"]["yours"] == [f"Your rating {shown(MU)}? → {shown(row['mu'])}?"]


def test_an_unrated_game_changes_no_rating(client: TestClient, db: str) -> None:
    game_id = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        end = play_to_the_end(ws, random.Random(4))
    assert "yours" not in end["result"] and rating_rows(db, "pillage") == {}


def establish(db: str, token: str, mu: float, game: str = "pillage") -> None:
    """Store an established rating ``mu`` at ``game`` for ``token`` (a hash): sure enough, and
    earned against the three AI levels."""
    with Store(db).engine.begin() as c:
        c.execute(insert(ratings.ratings).values(game=game, token=token, mu=mu, sigma=ratings.PROVISIONAL_SIGMA - 100,
                                                 games=12, updated=time.time()))
        c.execute(insert(ratings.rated_opponents), [{"game": game, "token": token, "opponent": f"ai:{level}"}
                                                    for level in ratings.LEVELS])


def play_between(anna: TestClient, bo: TestClient, db: str, seed: int) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A rated small Pillage game between two browsers, played to its end by random legal
    moves: its id and each one's last state."""
    game_id = new_game(anna, "pillage", preset="small", rated="on", **{"seat.0": "me", "seat.1": "open"})
    row = Store(db).load(game_id)
    assert row is not None
    assert bo.get(f"/join/{row.seats[1].invite}", follow_redirects=False).status_code == 303
    rng = random.Random(seed)
    with anna.websocket_connect(f"/ws/{game_id}") as wa, bo.websocket_connect(f"/ws/{game_id}") as wb:
        ma, mb = state_of(wa), state_of(wb)
        while not ma["over"]:
            mover, ws = (wa, ma) if ma["your_turn"] else (wb, mb)
            mover.send_json({"type": "act", "action": rng.choice(ws["legal"]), "ply": ws["ply"]})
            ma, mb = state_of(wa), state_of(wb)
    return game_id, ma, mb


def test_two_provisional_people_move_neither_rating(any_db: str) -> None:
    db = any_db
    with TestClient(create_app(db, ai_workers=0)) as anna, browser_of(anna) as bo:
        _, ma, mb = play_between(anna, bo, db, 5)
        people = {token_hash(token_of_client(anna)), token_hash(token_of_client(bo))}
    assert people.isdisjoint(rating_rows(db, "pillage"))  # the session's PostgreSQL keeps other tests' ratings
    for m in (ma, mb):
        [line] = m["result"]["yours"]
        assert line.startswith("Not rated for you: every opponent's rating is still provisional."), line


def test_an_established_rating_moves_only_against_an_established_opponent(any_db: str) -> None:
    db = any_db
    measured = dict(ratings.ai_ratings()["pillage"])
    with TestClient(create_app(db, ai_workers=0)) as anna, browser_of(anna) as bo:
        for browser in (anna, bo):
            browser.cookies.set("plunder_token", new_token())
        a, b = token_hash(token_of_client(anna)), token_hash(token_of_client(bo))
        establish(db, b, 2000.0)
        held = dict(rating_rows(db, "pillage")[b])
        _, ma, mb = play_between(anna, bo, db, 5)
        rows = rating_rows(db, "pillage")
        # the newcomer is placed against the established player; the established one does not move
        assert rows[b] == held and rows[a]["games"] == 1 and rows[a]["mu"] != MU
        assert ma["result"]["yours"] == [f"Your rating {shown(MU)}? → {shown(rows[a]['mu'])}?"]
        assert mb["result"]["yours"][0].startswith("Not rated for you: every opponent's rating is still provisional.")
        # two established players: both move, the winner up
        with Store(db).engine.begin() as c:
            c.execute(ratings.ratings.update().where(ratings.ratings.c.token == a).values(mu=2000.0, sigma=ratings.PROVISIONAL_SIGMA - 100))
            c.execute(insert(ratings.rated_opponents), [{"game": "pillage", "token": a, "opponent": f"ai:{level}"}
                                                        for level in ratings.LEVELS])
        _, ma, mb = play_between(anna, bo, db, 6)
        after = rating_rows(db, "pillage")
        returns = ma["result"]["scores"]
        assert after[a]["games"] == 2 and after[b]["games"] == 13
        if returns[0] != returns[1]:
            assert (after[a]["mu"] > 2000.0) == (returns[0] > returns[1]) == (after[b]["mu"] < 2000.0)
        assert all(m["result"]["yours"][0].startswith("Your rating 2000 → ") for m in (ma, mb))
    ratings.ai_ratings.cache_clear()
    assert ratings.ai_ratings()["pillage"] == measured  # never updated by games with people


def test_the_ai_ratings_file_gives_every_rated_game_its_levels() -> None:
    found = ratings.ai_ratings()
    for game_id, levels in found.items():
        assert load_game(game_id).num_players >= 2
        assert set(levels) == set(ratings.LEVELS), game_id
        for mu, sigma in levels.values():
            assert 0 < sigma < SIGMA and mu > 0
    assert "crossroads" in found and "pillage" in found


def test_the_leaderboard_is_bounded_escaped_and_shows_the_ai_levels(client: TestClient, db: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(db)
    levels = ratings.ai_ratings()["pillage"]
    floor = min(mu for mu, _ in levels.values())
    players = [{"game": "pillage", "token": f"{i:064x}", "mu": floor - 10.0 - 10.0 * i, "sigma": 100.0,
                "games": i + 1, "updated": time.time()} for i in range(ratings.LEADERBOARD_SIZE + 20)]
    # provisional ratings above everyone: one too unsure, one earned against too few established opponents
    unsure = {**players[0], "token": "f" * 64, "mu": 9000.0, "sigma": ratings.PROVISIONAL_SIGMA}
    few = {**players[0], "token": "e" * 64, "mu": 9000.0}
    with store.engine.begin() as c:  # more players than the board shows, all below the AI levels
        c.execute(insert(ratings.ratings), [*players, unsure, few])
        c.execute(insert(ratings.rated_opponents), [{"game": "pillage", "token": p["token"], "opponent": f"ai:{level}"}
                                                    for p in [*players, unsure] for level in ratings.LEVELS]
                  + [{"game": "pillage", "token": few["token"], "opponent": f"ai:{level}"} for level in ratings.LEVELS[:-1]])
    monkeypatch.setattr(ratings, "display_names",
                        lambda store, tokens: {t: f"<script>x</script>{t[-3:]}" for t in tokens})
    page = client.get("/ratings/pillage").text
    body = page.split('id="leaderboard"')[1].split("</table>")[0]
    assert body.count("<tr") == ratings.LEADERBOARD_SIZE + 1  # the header row
    assert "<script>x" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "9000" not in page and "fff" not in page and "eee" not in page  # provisional: off the board
    rows = body.split("</tr>")[1:-1]
    ai = sorted((shown(mu) for mu, _ in levels.values()), reverse=True)
    assert all('<span class="tag">AI</span>' in r for r in rows[:3]) and "The hard AI" in page
    assert [int(r.split('<td class="num">')[1].split("<")[0]) for r in rows] == \
        ai + [shown(floor - 10.0 - 10.0 * i) for i in range(ratings.LEADERBOARD_SIZE - 3)]  # best first, cut
    # each person's row links to their rating history
    assert f'href="/ratings/pillage/players/{"0" * 16}"' in rows[3]
    # a browser that chose no name shows its default name, never an AI's
    assert standing.display_names(store, ["ab" * 32]) == {"ab" * 32: default_name("ab" * 32)}
    # a solitaire's leaderboard is its high scores
    assert client.get("/ratings/pirates", follow_redirects=False).headers["location"] == "/scores/pirates"
    assert client.get("/ratings/nosuch").status_code == 404


def finished_solitaire(store: Store, token: str, params: dict[str, str], seed: int) -> tuple[GameRow, Any]:
    """A played-out Profiteer game of ``params`` stored for the holder of ``token`` (a hash)."""
    game = load_game("profiteer", **params)
    record, final = play_out(game, ["random"], seed)
    row = GameRow(new_token(), "profiteer", dict(game.params), seed, OVER, token, [SeatRow(HUMAN, token=token)],
                  record.moves)
    store.create(row)
    return row, final


def test_solitaire_scores_make_a_high_score_table_per_variant(client: TestClient, db: str) -> None:
    store = Store(db)
    me = new_token()
    mine = token_hash(me)
    other = token_hash(new_token())
    said = []
    got: list[float] = []
    for seed in range(6):
        row, final = finished_solitaire(store, mine, {}, seed)
        [line] = ratings.settle(store, row, final)[mine]
        assert ratings.settle(store, row, final)[mine] == [line]  # once: the same answer again
        said.append(line)
        got.append(final.scores()[0])
    bests = [i for i, s in enumerate(got) if s > max(got[:i], default=-1)]
    assert [i for i, line in enumerate(said) if line.startswith("New personal best")] == bests
    short, final = finished_solitaire(store, other, {"max_rounds": "1"}, 1)
    scores.settle(store, short, final)
    page = client.get("/scores/profiteer", headers={TOKEN_HEADER: me}).text
    assert "max_rounds=1" in page and "standard" in page and "(6 games)" in page
    assert f"Your best: <strong>{scores.fmt(max(got))}</strong>" in page
    assert "You have not finished this variant yet." in page  # the other's variant
    with store.engine.connect() as c:
        assert c.execute(select(scores.high_scores)).all().__len__() == 7
    assert client.get("/scores/pillage", follow_redirects=False).headers["location"] == "/ratings/pillage"


def test_the_high_score_tables_are_bounded(client: TestClient, db: str) -> None:
    store = Store(db)
    for i in range(scores.SCORES_SHOWN + 3):
        row, final = finished_solitaire(store, token_hash(new_token()), {}, 100 + i)
        scores.settle(store, row, final)
    page = client.get("/scores/profiteer").text
    assert page.split("<tbody>")[1].split("</tbody>")[0].count("<tr") == scores.SCORES_SHOWN


def test_a_resigned_solitaire_is_no_score(client: TestClient, db: str) -> None:
    game_id = new_game(client, "profiteer", **{"seat.0": "me"})
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state_of(ws)
        ws.send_json({"type": "resign"})
        message = state_of(ws)
    assert message["over"] and "yours" not in message["result"]
    with Store(db).engine.connect() as c:
        assert c.execute(select(scores.high_scores)).all() == []


def next_error(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next ``error`` message (states before it skipped)."""
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            return message


def test_a_rated_game_refuses_undo_and_hints_with_the_reason_and_shows_neither_button(client: TestClient) -> None:
    rated = new_game(client, "pillage", **RATED_VS_EASY)
    casual = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    page = client.get(f"/play/{rated}").text
    assert 'id="hint-button" title="The hard level\'s best moves and value" hidden' in page
    assert 'id="undo-button" title="Take back to your previous decision" hidden' in page
    assert 'id="rated-note"' in page
    casual_page = client.get(f"/play/{casual}").text
    assert 'id="undo-button" title="Take back to your previous decision">' in casual_page  # shown there
    assert 'id="rated-note"' not in casual_page
    with client.websocket_connect(f"/ws/{rated}") as ws:
        message = state_of(ws)
        assert message["rated"] is True and message["can_undo"] is False
        assert message["your_turn"]  # seat 0 moves first: a hint would be for now
        ws.send_json({"type": "hint"})
        assert next_error(ws)["message"] == ratings.NO_HINT
        ws.send_json({"type": "act", "action": message["legal"][0], "ply": message["ply"]})
        ws.send_json({"type": "undo"})  # forced, as a client without the button would
        assert next_error(ws)["message"] == ratings.NO_UNDO
    with client.websocket_connect(f"/ws/{casual}") as ws:
        message = state_of(ws)
        assert message["rated"] is False and message["can_undo"] is True


def test_the_rated_flag_is_written_with_the_game_and_never_changed(client: TestClient, db: str) -> None:
    """Every statement that writes ``rated_games`` over a rated game's life (created, played,
    resigned, its rematch made) and an unrated one's: one insert per rated game, in the
    transaction that inserts the game, and the update that marks it settled; no other."""
    seen: list[str] = []

    def watch(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(Engine, "before_cursor_execute", watch)
    try:
        rated = new_game(client, "pillage", **RATED_VS_EASY)
        casual = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
        for game_id in (rated, casual):
            with client.websocket_connect(f"/ws/{game_id}") as ws:
                message = state_of(ws)
                ws.send_json({"type": "resign"})
                while not message["over"]:
                    message = state_of(ws)
        again = client.post(f"/rematch/{rated}", follow_redirects=False)
        assert again.status_code == 303
        rematch = again.headers["location"].rsplit("/", 1)[1]
    finally:
        event.remove(Engine, "before_cursor_execute", watch)
    store = Store(db)
    assert ratings.is_rated(store, rated) and ratings.is_rated(store, rematch) and not ratings.is_rated(store, casual)
    writes = [s for s in seen if "rated_games" in s and not s.startswith("SELECT")]
    assert [s.split(" (")[0] for s in writes if s.startswith("INSERT")] == ["INSERT INTO rated_games"] * 2
    assert all(s.startswith("INSERT INTO rated_games") or s.startswith("UPDATE rated_games SET settled=")
               for s in writes), writes
    for i, s in enumerate(seen):  # each insert comes inside the game's own creation, before it commits
        if s.startswith("INSERT INTO rated_games"):
            assert seen[i - 1].startswith(("INSERT INTO seats", "INSERT INTO moves")), seen[i - 3:i + 1]


def test_a_players_rating_history_is_a_page_of_its_own(client: TestClient, db: str) -> None:
    store = Store(db)
    me = new_token()
    client.cookies.set("plunder_token", me)
    mine = token_hash(me)
    for i in range(3):
        game_id = new_game(client, "pillage", **RATED_VS_EASY)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            play_to_the_end(ws, random.Random(10 + i))
    player = ratings.player_id(mine)
    page = client.get(f"/ratings/pillage/players/{player}").text
    history = rating_history.history(store, "pillage", player)
    assert history is not None and len(history["games"]) == 3
    body = page.split('id="history"')[1].split("</table>")[0]
    assert body.count("<tr") == 4 and "The easy AI" in body
    assert '<polyline points="' in page and 'id="rating-chart"' in page
    row = rating_rows(db, "pillage")[mine]
    assert f"Rating <strong>{shown(row['mu'])}?</strong>" in page and "Provisional: uncertainty" in page
    # linked from the leaderboard's "your rating"
    board = client.get("/ratings/pillage").text
    assert f'href="/ratings/pillage/players/{player}" id="my-history"' in board
    # no such player, a malformed id, a solitaire: plain 404s
    assert client.get(f"/ratings/pillage/players/{'0' * 16}").status_code == 404
    assert client.get("/ratings/pillage/players/%3Cscript%3E").status_code == 404
    assert client.get(f"/ratings/profiteer/players/{player}").status_code == 404


def test_a_provisional_seat_is_left_out_of_an_established_players_update(tmp_path: Path) -> None:
    """Crossroads of four: an established person, a provisional one and two AI levels. The
    established rating moves against the AI levels only; the provisional one against all three."""
    db = f"sqlite:///{tmp_path / 'plunder.db'}"
    store = Store(db)
    sure, new = token_hash(new_token()), token_hash(new_token())
    establish(db, sure, 2000.0, game="crossroads")
    game = load_game("crossroads")
    assert game.num_players == 4
    record, final = play_out(game, ["random"] * 4, 11)
    seats = [SeatRow(HUMAN, token=sure), SeatRow(HUMAN, token=new), SeatRow(AI, agent="medium"),
             SeatRow(AI, agent="hard")]
    row = GameRow(new_token(), "crossroads", dict(game.params), 11, OVER, sure, seats, record.moves)
    store.create(row, ratings.rated_in(row.id))
    told = ratings.settle(store, row, final)
    finish = ratings.places(row, final)
    assert finish is not None
    levels = ratings.ai_ratings()["crossroads"]
    held = (2000.0, ratings.PROVISIONAL_SIGMA - 100)
    expected_sure = rate([held, levels["medium"], levels["hard"]], [finish[0], finish[2], finish[3]])[0]
    expected_new = rate([(MU, SIGMA), held, levels["medium"], levels["hard"]],
                        [finish[1], finish[0], finish[2], finish[3]])[0]
    rows = rating_rows(db, "crossroads")
    assert (rows[sure]["mu"], rows[sure]["sigma"]) == pytest.approx(expected_sure)
    assert (rows[new]["mu"], rows[new]["sigma"]) == pytest.approx(expected_new)
    assert told[sure] == [f"Your rating 2000 → {shown(expected_sure[0])} (against the 2 opponents whose ratings "
                          "are established; 1 provisional left out)"]
    assert told[new] == [f"Your rating 1500? → {shown(expected_new[0])}?"]
    with store.engine.connect() as c:
        against = c.execute(select(ratings.rated_opponents.c.opponent)
                            .where(ratings.rated_opponents.c.token == new)).scalars().all()
    assert sorted(against) == sorted([sure, "ai:medium", "ai:hard"])  # who placed it, once each


def test_the_opponents_of_every_person_of_a_rated_end_are_read_in_one_query(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'plunder.db'}"
    store = Store(db)
    people = [token_hash(new_token()) for _ in range(3)]
    for token in people:
        establish(db, token, 2000.0, game="crossroads")
    game = load_game("crossroads")
    record, final = play_out(game, ["random"] * 4, 12)
    seats = [*(SeatRow(HUMAN, token=t) for t in people), SeatRow(AI, agent="medium")]
    row = GameRow(new_token(), "crossroads", dict(game.params), 12, OVER, people[0], seats, record.moves)
    store.create(row, ratings.rated_in(row.id))
    read: list[str] = []

    def counted(*args: object) -> None:
        statement = str(args[2])
        if statement.lstrip().upper().startswith("SELECT") and "rated_opponents" in statement:
            read.append(statement)
    event.listen(store.engine, "before_cursor_execute", counted)
    try:
        told = ratings.settle(store, row, final)
    finally:
        event.remove(store.engine, "before_cursor_execute", counted)
    assert len(read) == 1, read
    assert all(told[t][0].startswith("Your rating 2000 → ") for t in people), told
    with store.engine.connect() as c:
        for token in people:  # each one's new opponents added to what it had
            against = set(c.execute(select(ratings.rated_opponents.c.opponent)
                                    .where(ratings.rated_opponents.c.token == token)).scalars())
            assert {p for p in people if p != token} | {"ai:medium"} <= against


def test_your_ratings_page_is_linked_from_your_name_and_lists_each_game(client: TestClient, db: str) -> None:
    me = new_token()
    client.cookies.set("plunder_token", me)
    assert 'href="/ratings" id="my-ratings-link"' in client.get("/lobby").text  # under the name, on every page
    assert "No rating yet" in client.get("/ratings").text
    game_id = new_game(client, "pillage", **RATED_VS_EASY)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        play_to_the_end(ws, random.Random(21))
    page = client.get("/ratings").text
    row = rating_rows(db, "pillage")[token_hash(me)]
    body = page.split('id="my-ratings"')[1].split("</table>")[0]
    assert body.count("<tr") == 2 and f'<td class="num">{shown(row["mu"])}?</td>' in body
    assert f'href="/ratings/pillage/players/{ratings.player_id(token_hash(me))}"' in body


@pytest.mark.parametrize("status", ["aborted", "stopped", "on"])
def test_an_end_neither_played_out_nor_resigned_is_not_rated(tmp_path: Path, status: str) -> None:
    """An aborted game (a status of its own, whatever it is called), or any end that is neither
    played out nor resigned, rates nobody and says nothing, even after both players moved."""
    db = f"sqlite:///{tmp_path / 'plunder.db'}"
    store = Store(db)
    sure, new = token_hash(new_token()), token_hash(new_token())
    establish(db, sure, 2000.0)
    game = load_game("pillage", "small")
    record, final = play_out(game, ["random", "random"], 4)
    assert final.is_terminal() and len(record.moves) > 2 * ratings.MIN_MOVES
    row = GameRow(new_token(), "pillage", dict(game.params), 4, status, sure,
                  [SeatRow(HUMAN, token=sure), SeatRow(HUMAN, token=new)], record.moves)
    store.create(row, ratings.rated_in(row.id))
    before = rating_rows(db, "pillage")
    assert ratings.settle(store, row, final) == {}
    assert rating_rows(db, "pillage") == before
    # the same moves with the status of a played-out game are rated: what the test above would see
    played = GameRow(new_token(), "pillage", dict(game.params), 4, OVER, sure, row.seats, record.moves)
    store.create(played, ratings.rated_in(played.id))
    assert ratings.settle(store, played, final)[new][0].startswith("Your rating 1500? → ")


def test_a_rated_game_has_a_clock(client: TestClient, db: str) -> None:
    # against the AI alone a casual game has none; ticked rated, the form's "auto" gives the default
    casual = new_game(client, "pillage", preset="small", **{"seat.0": "me", "seat.1": "easy"})
    rated = new_game(client, "pillage", **RATED_VS_EASY)
    store = Store(db)
    assert clockstore.load(store.engine, casual) is None
    kept = clockstore.load(store.engine, rated)
    assert kept is not None and kept.clock.control == TimeControl.parse(DEFAULT)
    answer = client.post("/new/pillage", data={**RATED_VS_EASY, "clock": "none"}, follow_redirects=False)
    assert answer.status_code == 400 and "A rated game has a time control" in answer.text

    async def without_a_clock() -> str:
        tables = Tables(Store(db), Thinkers(0))
        try:
            return await tables.create(load_game("pillage", "small"), ["me", "easy"], "anna", rated=True)
        finally:
            await tables.close()
    with pytest.raises(Refused, match="A rated game has a time control"):
        asyncio.run(without_a_clock())


def test_a_player_whose_seat_an_ai_took_over_is_rated_last(tmp_path: Path) -> None:
    """Crossroads of four: the established person at seat 1 ran out of time and the medium AI
    played on for them (the seat stored as an AI seat with their token). They are rated, and
    last, below every seat played to the end, whatever the AI made of the seat."""
    db = f"sqlite:///{tmp_path / 'plunder.db'}"
    store = Store(db)
    stayed, left = token_hash(new_token()), token_hash(new_token())
    establish(db, stayed, 2000.0, game="crossroads")
    establish(db, left, 2000.0, game="crossroads")
    game = load_game("crossroads")
    record, final = play_out(game, ["random"] * 4, 12)
    seats = [SeatRow(HUMAN, token=stayed), SeatRow(AI, agent="medium", token=left), SeatRow(AI, agent="medium"),
             SeatRow(AI, agent="hard")]
    row = GameRow(new_token(), "crossroads", dict(game.params), 12, OVER, stayed, seats, record.moves)
    store.create(row, ratings.rated_in(row.id))
    with store.engine.begin() as c:
        c.execute(insert(clockstore.clocks).values(game_id=row.id, clock=Clock.new(TimeControl.parse("3+2"), 4).to_json(),
                                                   deadline=None, ended=None, gone=json.dumps({"1": "medium"})))
    told = ratings.settle(store, row, final)
    played = ratings.places(row, final)
    assert played is not None
    finish = ratings.places(row, final, [1])
    assert finish is not None and finish[1] == max(played) + 1 and all(finish[i] == played[i] for i in (0, 2, 3))
    levels = ratings.ai_ratings()["crossroads"]
    held = (2000.0, ratings.PROVISIONAL_SIGMA - 100)
    expected = rate([held, held, levels["medium"], levels["hard"]], finish)
    rows = rating_rows(db, "crossroads")
    assert (rows[left]["mu"], rows[left]["sigma"]) == pytest.approx(expected[1])
    assert (rows[stayed]["mu"], rows[stayed]["sigma"]) == pytest.approx(expected[0])
    assert rows[left]["mu"] < 2000.0 and told[left][0].startswith("Your rating 2000 → ")
