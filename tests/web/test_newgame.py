"""The new-game form: every game's parameters with their choices, its presets, and a seat row
for each seat the game can have, with the field names the POST handler reads."""

from __future__ import annotations

import json
import re

from pathlib import Path

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from plunder.core.registry import entry, game_ids
from plunder.web.app import create_app
from plunder.web.newgame import SEAT_KINDS, closed_choices, form_of, render_form


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    """The app over a fresh SQLite file."""
    return TestClient(create_app(f"sqlite:///{tmp_path_factory.mktemp('web') / 'plunder.db'}"))


@pytest.mark.parametrize("game_id", game_ids())
def test_form_has_every_parameter_preset_and_seat(client: TestClient, game_id: str) -> None:
    page = client.get(f"/new/{game_id}")
    assert page.status_code == 200
    cls = entry(game_id).game_class
    for spec in cls.param_specs:
        assert f'name="p.{spec.name}"' in page.text
    found = re.search(r'<script type="application/json" id="presets">(.*?)</script>', page.text, re.S)
    assert found is not None
    presets = json.loads(found[1])
    assert set(presets) == set(cls.presets)
    for name, values in cls.presets.items():
        for param, value in values.items():
            assert presets[name][param] == value
    seats = entry(game_id).declaration.max_seats
    assert [int(i) for i in re.findall(r'name="seat\.(\d+)"', page.text)] == list(range(seats))
    for value, _ in SEAT_KINDS:
        assert f'<option value="{value}"' in page.text
    assert f'action="/new/{game_id}"' in page.text and 'method="post"' in page.text
    # the server never reads its own files for a browser: no form offers file:PATH
    assert not any(f.startswith("file:") for p in form_of(game_id)["params"] for f in p["forms"])


def test_closed_choices_are_the_readable_ones() -> None:
    board = next(p for p in entry("pillage").game_class.param_specs if p.name == "board")
    assert closed_choices(board) == []  # square:RxC and the rest are forms to fill in
    dice = next(p for p in entry("crossroads").game_class.param_specs if p.name == "dice")
    assert closed_choices(dice) == ["d5", "d6"]
    params = {p["name"]: p for p in form_of("crossroads")["params"]}
    assert params["dice"]["select"] == ["d5", "d6"]  # a closed list is a select
    assert params["players"]["select"] == ["2", "3", "4", "5", "6"]  # the declared seat range


def test_a_refused_submission_is_shown_again_with_its_values(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'plunder.db'}")

    async def refuse(request: Request) -> Response:
        given = {"preset": "", "p.players": "3", "p.target": "abc", "seat.1": "open", "seat.2": "hard"}
        return render_form(request, "crossroads", "crossroads parameter target='abc' is not allowed", given, 400)

    app.router.routes.append(Route("/refused", refuse))
    page = TestClient(app).get("/refused")
    assert page.status_code == 400
    assert "target=&#39;abc&#39; is not allowed" in page.text
    assert 'value="abc"' in page.text
    assert re.search(r'name="seat\.1">.*?<option value="open" selected>', page.text, re.S)
    assert re.search(r'name="seat\.2">.*?<option value="hard" selected>', page.text, re.S)


def test_an_unknown_game_has_no_form(client: TestClient) -> None:
    assert client.get("/new/nosuchgame").status_code == 404


def test_home_page_links_each_game_to_its_form(client: TestClient) -> None:
    page = client.get("/")
    for game_id in game_ids():
        assert f'href="/new/{game_id}"' in page.text
