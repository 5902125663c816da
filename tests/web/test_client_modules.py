"""A game's own browser code lives in its package (``Client.module``), the shared page code
names no game, and the state message carries the fields of the legal moves a game's module
builds its choices from (``Presentation.legal_fields``: Crossroads' offers) beside their texts."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Iterator

import pytest
from starlette.testclient import TestClient

from plunder.core.game import CHANCE, State
from plunder.core.record import Move
from plunder.core.registry import entry, game_ids, load_game
from plunder.games.crossroads.actions import Offer
from plunder.games.crossroads.board import cell_name, owner
from plunder.games.crossroads.rules import CrossroadsState
from plunder.web.app import create_app
from plunder.web.table import LEGAL_CAP, Table
from plunder.web.viewers import Viewer

from .test_bounds import row_of
from .test_play_server import new_game

WEB = Path(__file__).parents[2] / "src" / "plunder" / "web"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app over a fresh SQLite file, its AI in a thread."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plunder.db'}", ai_workers=0)) as c:
        yield c


def test_the_shared_page_code_names_no_game() -> None:
    # every game's own controls are in its module: the shared scripts and templates (comments
    # included) know none by name
    names = {name for game_id in game_ids() for name in (game_id, load_game(game_id).title)}
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) + r")\b", re.IGNORECASE)
    files = sorted((WEB / "static").glob("*.js")) + sorted((WEB / "templates").glob("*.html"))
    assert len(files) >= 5
    named = [f"{f.name}:{n}: {line.strip()}" for f in files for n, line in enumerate(f.read_text().splitlines(), 1)
             if pattern.search(line)]
    assert named == []


@pytest.mark.parametrize("game", ["hubs", "crossroads"])
def test_a_game_with_its_own_module_has_the_page_import_it(client: TestClient, game: str) -> None:
    module = entry(game).client.module
    assert module == "client.js"
    game_id = new_game(client, game, **{"seat.0": "me", "seat.1": "hotseat"})
    page = client.get(f"/play/{game_id}").text
    assert f'data-module="/assets/{game}/{module}"' in page
    script = client.get(f"/assets/{game}/{module}")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "export function update" in script.text


def test_a_game_without_a_module_has_none_on_its_page(client: TestClient) -> None:
    game_id = new_game(client, "pirates", **{"seat.0": "me"})
    assert "data-module" not in client.get(f"/play/{game_id}").text


def to_first_relayed_offer(seed: int) -> list[Move]:
    """The moves of a four-player Crossroads game between random players up to the first
    position where the player to move may make an offer through another player's city."""
    game = load_game("crossroads", players=4)
    rng = random.Random(seed)
    state: State = game.new_initial_state()
    moves: list[Move] = []
    while not any(isinstance(a, Offer) and a.relays for a in state.legal_actions()):
        assert not state.is_terminal() and len(moves) < 3000
        if state.current_player == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        moves.append(Move(None if state.current_player == CHANCE else state.current_player,
                          game.action_to_text(state, action)))
        state = state.apply(action)
    return moves


def test_a_crossroads_state_message_carries_each_offers_fields() -> None:
    game = load_game("crossroads", players=4)
    table = Table(row_of(game, to_first_relayed_offer(0)))
    message = table.view(Viewer("t"))
    legal, fields = message["legal"], message["legal_fields"]
    assert message["your_turn"] and len(fields) == len(legal) <= LEGAL_CAP
    state = table.state
    assert isinstance(state, CrossroadsState)
    offers = relayed = 0
    for text, got in zip(legal, fields):
        action = game.parse_action(state, text)
        if not isinstance(action, Offer):
            assert got is None or got == {"kind": text}  # pass: its kind and nothing else
            continue
        offers += 1
        relayed += bool(action.relays)
        # the fields are the offer: its text is made of them alone, and they name who owns
        # the partner's city and each relay's
        via = " via " + ",".join(f"{c}={f}" for c, f in zip(got["route"], got["fees"])) if got["route"] else ""
        assert f"offer {got['from']}-{got['to']}{via} gold {got['mine']}/{got['theirs']}" == text
        assert got["kind"] == "offer" and got["from"] == cell_name(action.a)
        assert got["partner"] == owner(state.board[action.b]) != state.current_player
        assert got["route_seats"] == [owner(state.board[r]) for r in action.relays]
    assert offers >= 1 and relayed >= 1
    # a viewer whose turn it is not is sent no fields, as no moves
    assert table.view(Viewer(None))["legal_fields"] == []
