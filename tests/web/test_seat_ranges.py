"""Every seat count a game declares, on the web: the home page's card says the range (1, 2-6,
2-8 and exactly 8 players), the new-game form has a row for each seat the game can have with
the ``players`` field offering the range, an 8-seat game is created with its eight seats, and a
card that fails to build is left off the home page with a logged reason while the other games
are still shown."""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from plunder.core.game import State
from plunder.core.conformance import check_game
from plunder.core.registry import entry, game_ids, load_game
from plunder.core.svg import SEAT, SEAT_FILL
from plunder.web.app import create_app
from plunder.web.pages import home_cards

from .eight_seats import octet_entry, registered, require_stones


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    """The app over a fresh SQLite file."""
    return TestClient(create_app(f"sqlite:///{tmp_path / 'plunder.db'}"))


def card(page: str, game_id: str) -> str:
    """The home page's card of ``game_id``."""
    found = re.search(rf'<li class="game-card" id="game-{game_id}">(.*?)</li>', page, re.S)
    assert found is not None, f"no card for {game_id}"
    return found[1]


def seat_rows(page: str) -> list[tuple[int, bool]]:
    """The form's seat rows: each seat's number and whether it is shown at first."""
    rows = re.findall(r'<label class="row seat" data-seat="(\d+)"( hidden)?>', page)
    return [(int(seat), not hidden) for seat, hidden in rows]


@pytest.mark.parametrize("players", [2, 8])
def test_the_last_stone_is_installed_beside_pig_and_conforms(players: int) -> None:
    require_stones()
    assert {"pig", "stones"} <= set(game_ids())
    assert list(entry("stones").declaration.seat_counts) == [2, 3, 4, 5, 6, 7, 8]
    game = load_game("stones", players=players)
    assert game.num_players == players
    assert check_game(game, playthroughs=50).games == 50


def test_each_card_says_the_declared_seat_range(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    require_stones()
    with registered(monkeypatch, "octet", octet_entry()):
        page = client.get("/")
        assert page.status_code == 200
        said = {g: re.search(r'<p class="players">(.*?)</p>', card(page.text, g))[1]  # type: ignore[index]
                for g in ("profiteer", "pillage", "crossroads", "stones", "octet")}
    assert said == {"profiteer": "1 player", "pillage": "2 players", "crossroads": "2–6 players",
                    "stones": "2–8 players", "octet": "8 players"}


def test_the_form_offers_every_seat_the_game_declares(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    require_stones()
    with registered(monkeypatch, "octet", octet_entry()):
        forms = {g: client.get(f"/new/{g}").text for g in ("profiteer", "crossroads", "stones", "octet")}
    # one row a seat the game can have; those past the players field's default hidden and not sent
    assert seat_rows(forms["profiteer"]) == [(0, True)]
    assert seat_rows(forms["crossroads"]) == [(i, i < 4) for i in range(6)]
    assert seat_rows(forms["stones"]) == [(i, i < 4) for i in range(8)]
    assert seat_rows(forms["octet"]) == [(i, True) for i in range(8)]
    assert len(re.findall(r'name="seat\.\d+" disabled', forms["stones"])) == 4
    # the players field is a choice of the declared range; a game of one count has none
    choices = re.search(r'<select name="p\.players" data-param="players">(.*?)</select>', forms["stones"], re.S)
    assert choices is not None and re.findall(r'<option value="(\d+)"', choices[1]) == [str(n) for n in range(2, 9)]
    assert 'data-players-param="players" data-seat-counts="2,3,4,5,6,7,8"' in forms["stones"]
    assert 'data-players-param="" data-seat-counts="8"' in forms["octet"] and "p.players" not in forms["octet"]
    # each row wears its seat's colour on the board: eight distinct colours
    assert [c for c in re.findall(r'<circle cx="6" cy="6" r="6" fill="(#[0-9a-f]{6})"/>', forms["stones"])] == list(SEAT)
    assert len(set(SEAT)) == len(set(SEAT_FILL)) == 8


def test_a_refused_form_shows_again_the_seats_of_the_players_given(client: TestClient) -> None:
    require_stones()
    page = client.post("/new/stones", data={"p.players": "7", "p.pile": "3", "seat.0": "me", "seat.6": "hard"})
    assert page.status_code == 400 and "pile" in page.text
    assert seat_rows(page.text) == [(i, i < 7) for i in range(8)]
    assert re.search(r'name="seat\.6">.*?<option value="hard" selected>', page.text, re.S)


@pytest.mark.parametrize("game_id, params, seats", [("stones", {"p.players": "8"}, 8), ("octet", {}, 8),
                                                    ("stones", {"p.players": "2"}, 2)])
def test_a_game_is_created_with_the_seats_chosen(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                 game_id: str, params: dict[str, str], seats: int) -> None:
    require_stones()
    kinds = ["me"] + ["hotseat"] * 7
    with registered(monkeypatch, "octet", octet_entry()):
        made = client.post(f"/new/{game_id}", data={**params, **{f"seat.{i}": k for i, k in enumerate(kinds)}},
                           follow_redirects=False)
        assert made.status_code == 303, made.text
        page = client.get(made.headers["location"]).text
    listed = re.search(r'<ul class="seats" id="seats">(.*?)</ul>', page, re.S)
    assert listed is not None and listed[1].count("<li") == seats


def broken_picture(state: State[Any], shown: object = None) -> str:
    """A game's picture code that fails."""
    raise RuntimeError("the picture's font is missing")


def test_a_card_that_fails_is_left_off_the_home_page_with_its_reason(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    require_stones()
    octet = octet_entry()
    broken = replace(octet, presentation=replace(octet.presentation, svg=broken_picture))
    with registered(monkeypatch, "octet", broken), caplog.at_level(logging.WARNING, logger="plunder.web"):
        page = client.get("/")
        again = client.get("/")
        ids = [c["id"] for c in home_cards()]
    assert page.status_code == again.status_code == 200
    assert 'id="game-octet"' not in page.text
    assert ids == [g for g in game_ids() if g != "octet"] and "stones" in ids
    for game_id in ids:
        assert f'id="game-{game_id}"' in page.text
    said = [r.getMessage() for r in caplog.records if "octet" in r.getMessage()]
    # said once, however often the page is asked for
    assert said == ["game 'octet' left off the home page: its card failed: RuntimeError: the picture's font is missing"]
