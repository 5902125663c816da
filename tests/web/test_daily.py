"""The daily deal (docs/web.md, "The daily deal"): one deal a day per solitaire, the same for
everyone and secret; each identity plays it once; the leaderboard, streak and par; nothing of
the deal shown to anyone else while its day lasts, all of it open after; the archive. The time
is the test's own (the app's clock), so a day ends without waiting for it."""

from __future__ import annotations

import html
import random
import threading
import time
from datetime import datetime, timezone
from typing import Any, Iterator

import pytest
from sqlalchemy import event, func, select
from starlette.testclient import TestClient

from plunder.core.record import Record
from plunder.web import daily
from plunder.web.app import create_app
from plunder.web.limits import MESSAGE_RATE
from plunder.web.daily import Par
from plunder.web.daily_pages import PAR_PENDING, Pars
from plunder.web.store import Store
from .clients import browser
from .test_play_server import state_of

#: the first of the days the tests are played on (each test its own: the PostgreSQL database is shared)
FIRST_NOON = datetime(2031, 1, 1, 12, tzinfo=timezone.utc).timestamp()
#: the fake par every test here is given (the real one is seconds of CPU: the two-process test's)
FAKE_PAR = Par(24.0, 31.0, 0.0)


class Clock:
    """The app's time, moved by the test: at first noon of a day of its own (:attr:`day`)."""

    def __init__(self) -> None:
        self.noon = FIRST_NOON + 86400 * random.Random().randrange(100_000)
        self.now = self.noon
        self.day = daily.day_of(self.noon)

    def later(self, days: int) -> str:
        """The day ``days`` after the clock's first."""
        return daily.day_of(self.noon + 86400 * days)

    def __call__(self) -> float:
        return self.now


class Computed:
    """A par computation that counts its calls and answers :data:`FAKE_PAR`."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def __call__(self, game: str, seed: int) -> Par:
        self.calls.append((game, seed))
        return FAKE_PAR


@pytest.fixture
def clock() -> Clock:
    """Noon of a day of the test's own."""
    return Clock()


@pytest.fixture
def db(any_db: str) -> str:
    """Every test here on both databases."""
    return any_db


@pytest.fixture
def computed() -> Computed:
    """The par computation the apps are given."""
    return Computed()


@pytest.fixture
def client(db: str, clock: Clock, computed: Computed) -> Iterator[TestClient]:
    """The app over ``db`` at the test's time, with a quick par."""
    app = create_app(db, ai_workers=0, clock=clock)
    app.state.pars.compute = computed
    with TestClient(app) as c:
        yield c


def start(client: TestClient, game: str = "profiteer") -> str:
    """Start (or reopen) today's deal of ``game``; the game's id."""
    answer = client.post(f"/daily/{game}", follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"]).rsplit("/", 1)[1]


def play_to_the_end(client: TestClient, game_id: str, seed: int = 1) -> dict[str, Any]:
    """Play the daily game ``game_id`` to its end with random moves; the last state."""
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = state_of(ws)
        assert message["can_undo"] is False  # no undo or hint button in a daily game
        while not message["over"]:
            ws.send_json({"type": "act", "action": rng.choice(message["legal"]), "ply": message["ply"]})
            answer = ws.receive_json()
            if answer.get("message") == "Too many messages: slow down.":  # past the burst: its rate
                time.sleep(1 / MESSAGE_RATE)
                continue
            assert answer["type"] == "state", answer
            message = answer
    return message


def wait_pars(client: TestClient) -> None:
    """Until the pars the app started are worked out."""
    assert client.portal is not None
    pars: Pars = client.app.state.pars  # type: ignore[attr-defined]
    client.portal.call(pars.wait)


def test_the_home_page_announces_the_day_s_deals(client: TestClient) -> None:
    page = client.get("/").text
    assert "Today's deal" in page and 'href="/daily#deal-profiteer">Profiteer</a>' in page
    assert 'href="/daily#deal-pirates">Piece Packing Pirates</a>' in page
    # the solitaires only: a game of several seats has none
    assert "deal-pillage" not in page and daily.solitaires() == ["pirates", "profiteer"]


def test_the_deal_is_the_same_for_everyone_and_comes_from_the_date_and_the_secret(
        client: TestClient, db: str, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    other = browser(client)
    mine, theirs = start(client), start(other)
    assert mine != theirs  # a game each, one deal
    store = Store(db)
    first, second = store.load(mine), store.load(theirs)
    assert first is not None and second is not None
    key = daily.secret(store)
    assert first.seed == second.seed == daily.seed_of(key, clock.day, "profiteer")
    assert first.params == {k: str(v) for k, v in first.params.items()}  # the default variant
    assert daily.seed_of(key, clock.later(1), "profiteer") != first.seed  # another day, another deal
    assert daily.seed_of(key, clock.day, "pirates") != first.seed
    # the seed is not a function of the date alone: another secret deals another game
    assert daily.seed_of("another secret", clock.day, "profiteer") != first.seed
    monkeypatch.setenv(daily.SECRET_ENV, "set by the operator")
    assert daily.secret(store) == "set by the operator"
    monkeypatch.delenv(daily.SECRET_ENV)
    assert daily.secret(store) == key  # kept in the store: every process reads the same one
    store.close()


def test_each_identity_plays_once_then_sees_its_result_par_leaderboard_and_streak(
        client: TestClient, clock: Clock, computed: Computed) -> None:
    game_id = start(client)
    assert start(client) == game_id  # starting again reopens the same game
    clock.now += 125
    over = play_to_the_end(client, game_id)
    score = over["result"]["yours"][0]
    assert score.startswith("You scored ")
    again = client.post("/daily/profiteer", follow_redirects=False)
    assert again.status_code == 409 and "You have played today's Profiteer deal" in html.unescape(again.text)
    wait_pars(client)
    assert [g for g, _ in computed.calls] == ["profiteer"]  # the deal started
    page = client.get("/daily").text
    wait_pars(client)
    assert sorted(g for g, _ in computed.calls) == ["pirates", "profiteer"]  # every deal of the day
    assert "the hard AI 24 · foresight 31" in page and 'id="result-profiteer"' in page
    assert "Your streak: <strong>1</strong> day in a row" in page
    assert "2:05" in page  # the time taken on the leaderboard
    assert 'id="play-pirates"' in page and 'id="play-profiteer"' not in page
    # the same deal for a second identity: it has its own entry, one each
    other = browser(client)
    play_to_the_end(other, start(other), seed=2)
    rows = daily.leaderboard(client.app.state.tables.store, clock.day, "profiteer")  # type: ignore[attr-defined]
    assert len(rows) == 2 and len({r["identity"] for r in rows}) == 2
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    # the par is worked out once a day, not once a visit
    client.get("/daily")
    wait_pars(client)
    assert len(computed.calls) == 2


def test_nothing_of_the_deal_shows_during_the_day_and_everything_after(
        client: TestClient, clock: Clock, db: str) -> None:
    game_id = start(client)
    stranger = browser(client)
    # while it is played: no undo, no hint, no spectator, no record
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        first = state_of(ws)
        ws.send_json({"type": "hint"})
        assert ws.receive_json()["message"] == daily.NO_HINT
        ws.send_json({"type": "act", "action": first["legal"][0], "ply": first["ply"]})
        state_of(ws)
        ws.send_json({"type": "undo"})
        assert ws.receive_json()["message"] == daily.NO_UNDO
    for path in (f"/watch/{game_id}", f"/play/{game_id}", f"/record/{game_id}"):
        refused = stranger.get(path)
        assert refused.status_code == 403 and "daily deal" in refused.text, path
    assert client.get(f"/record/{game_id}").status_code == 403  # not even to its player: it holds the seed
    own = client.get(f"/play/{game_id}").text  # its player's page links to none of it
    assert f"/record/{game_id}" not in own and f"/watch/{game_id}" not in own and f"/replay/game/{game_id}" not in own
    assert 'id="daily-link"' in own
    for url in (f"/ws/{game_id}?watch=1", f"/ws/{game_id}"):
        with stranger.websocket_connect(url) as ws:
            told = ws.receive_json()
            assert told["type"] == "error" and told["message"] == daily.HIDDEN
    play_to_the_end(client, game_id)
    # finished, still its day: no replay, no analysis, no record, no watching
    for path in (f"/replay/game/{game_id}", f"/replay/game/{game_id}/0",
                 f"/record/{game_id}", f"/watch/{game_id}"):
        assert stranger.get(path).status_code == 403, path
        assert client.get(path).status_code == 403, path
    assert stranger.post(f"/replay/game/{game_id}/analyse").status_code == 403  # so no analysis to read
    assert stranger.get(f"/replay/game/{game_id}/analysis").status_code == 404
    assert "/replay/game/" not in client.get("/daily").text
    assert game_id not in stranger.get("/replay").text  # not in the list of finished games either
    # the day is over: all of it opens to everyone
    clock.now += 86400
    assert stranger.get(f"/replay/game/{game_id}").status_code == 200
    assert f"/replay/game/{game_id}" in stranger.get("/replay").text
    own = client.get(f"/play/{game_id}").text
    assert f"/record/{game_id}" in own and f"/replay/game/{game_id}" in own and 'id="daily-link"' not in own
    assert stranger.get(f"/watch/{game_id}").status_code == 200
    record = Record.from_json(stranger.get(f"/record/{game_id}").text)
    store = Store(db)
    assert record.seed == daily.seed_of(daily.secret(store), clock.day, "profiteer")
    past = stranger.get(f"/daily/{clock.day}").text
    assert f"/replay/game/{game_id}" in past and "Play this deal (unranked)" in past
    # the archive's deal: the same cards, unranked (no entry, undo and hints as in any game)
    answer = stranger.post(f"/daily/{clock.day}/profiteer", follow_redirects=False)
    assert answer.status_code == 303
    replayed = store.load(str(answer.headers["location"]).rsplit("/", 1)[1])
    assert replayed is not None and replayed.seed == record.seed
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(daily.daily_entries)
                            .where(daily.daily_entries.c.day == clock.day)).scalar() == 1
    # today's deal is another one, and the archive lists yesterday
    today = client.get("/daily").text
    assert f'href="/daily/{clock.day}"' in today and 'id="play-profiteer"' in today
    assert stranger.get(f"/daily/{clock.later(2)}").status_code == 404  # not dealt yet
    assert stranger.get("/daily/yesterday").status_code == 404
    assert stranger.post(f"/daily/{clock.later(1)}/profiteer").status_code == 409  # today's: ranked, once
    store.close()


def test_a_deal_finished_after_its_day_is_not_ranked_and_streaks_count_days_in_a_row(
        client: TestClient, clock: Clock) -> None:
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    you = browser(client)
    clock.now = clock.noon - 12 * 3600 + 10  # just after midnight
    first = start(you)
    play_to_the_end(you, first)
    found = daily.entry_of_game(store, first)
    assert found is not None
    identity = found[1]
    assert daily.streak(store, identity, clock.day) == 1
    assert [r["identity"] for r in daily.leaderboard(store, clock.day, "profiteer")] == [identity]
    clock.now = clock.noon + 11.98 * 3600  # a minute before midnight: started, finished the next day
    late = start(client, "pirates")
    clock.now = clock.noon + 12.1 * 3600
    play_to_the_end(client, late)
    assert daily.leaderboard(store, clock.day, "pirates") == []
    entry = daily.entry_of_game(store, late)
    assert entry is not None and entry[0] == clock.day  # its day's entry: played, not ranked
    # days in a row: the next day's deal keeps the streak going, a day missed starts it again
    clock.now = clock.noon + 86400
    play_to_the_end(you, start(you))
    assert daily.streak(store, identity, clock.later(1)) == 2
    assert daily.streak(store, identity, clock.later(2)) == 2  # today not played yet: still on
    assert daily.streak(store, identity, clock.later(3)) == 0
    clock.now = clock.noon + 3 * 86400
    start(you)
    assert daily.streak(store, identity, clock.later(3)) == 1
    # a leaderboard's streaks: one query for every row
    statements: list[str] = []

    def counted(*args: object) -> None:
        if "daily_entries" in str(args[2]):  # the site's secret, read once per process, is not the rows'
            statements.append(str(args[2]))
    event.listen(store.engine, "before_cursor_execute", counted)
    try:
        runs = daily.streaks(store, [identity, entry[1], "n" * 64], clock.later(1))
    finally:
        event.remove(store.engine, "before_cursor_execute", counted)
    assert runs == {identity: 2, entry[1]: 1, "n" * 64: 0} and len(statements) == 1  # its day, then none yet
    assert runs[entry[1]] == daily.streak(store, entry[1], clock.later(1))
    assert daily.streak(store, entry[1], clock.day) == 1


def test_two_apps_on_one_database_work_the_par_out_once_and_keep_one_entry_per_identity(
        db: str, clock: Clock, computed: Computed) -> None:
    first, second = create_app(db, ai_workers=0, clock=clock), create_app(db, ai_workers=0, clock=clock)
    first.state.pars.compute = second.state.pars.compute = computed
    with TestClient(first) as a, TestClient(second) as b:
        a.get("/daily")
        wait_pars(a)
        b.get("/daily")
        wait_pars(b)
        assert sorted(g for g, _ in computed.calls) == ["pirates", "profiteer"]
        game_id = start(a)
        b.cookies = a.cookies  # the same browser, its next request served by the other process
        assert start(b) == game_id
    store = Store(db)
    with store.engine.connect() as conn:
        runs = conn.execute(select(daily.daily_par.c.runs).where(daily.daily_par.c.day == clock.day)).scalars().all()
    assert runs == [1, 1]
    store.close()


class Overlaps(Computed):
    """A par computation that takes a moment and notes how many ran at once."""

    def __init__(self) -> None:
        super().__init__()
        self.now = self.most = 0
        self.lock = threading.Lock()

    def __call__(self, game: str, seed: int) -> Par:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(0.05)
        with self.lock:
            self.now -= 1
        return super().__call__(game, seed)


def test_a_past_day_nobody_played_gets_its_par_on_a_visit_once_one_day_at_a_time(db: str, clock: Clock) -> None:
    computed = Overlaps()
    app = create_app(db, ai_workers=0, clock=clock)
    app.state.pars.compute = computed
    clock.now += 86400 * 3  # three days on: the clock's first day and the two after it are past, never visited
    store = Store(db)
    key = daily.secret(store)
    with TestClient(app) as client:
        pages = {day: client.get(f"/daily/{day}").text for day in (clock.day, clock.later(1))}
        for day, page in pages.items():
            assert page.count(f"Par: {PAR_PENDING}") == 2, day  # both deals, asked for now
        wait_pars(client)
        assert sorted(computed.calls) == sorted((g, daily.seed_of(key, d, g)) for d in pages for g in ("pirates", "profiteer"))
        assert computed.most == 1  # the past days' pars one at a time, not a thread each
        again = client.get(f"/daily/{clock.day}").text
        assert again.count("Par: the hard AI 24 · foresight 31") == 2 and PAR_PENDING not in again
        wait_pars(client)
        assert len(computed.calls) == 4  # kept: a second visit works nothing out
        # a day past the archive's reach: no par worked out, none promised
        old = daily.day_of(clock.noon - 86400 * daily.ARCHIVE_DAYS)
        assert not daily.par_due(old, clock.now) and daily.par_due(clock.later(3 - daily.ARCHIVE_DAYS), clock.now)
        page = client.get(f"/daily/{old}").text
        assert "Play this deal (unranked)" in page and "Par:" not in page
        wait_pars(client)
        assert len(computed.calls) == 4
    with store.engine.connect() as conn:
        kept = conn.execute(select(func.count()).select_from(daily.daily_par)
                            .where(daily.daily_par.c.day.in_(list(pages)), daily.daily_par.c.foresight == 31.0)).scalar()
    assert kept == 4
    store.close()
