"""The pages that need no game: the home page lists the five games with their pictures, each
game's how-to-play page reads its guide, and an unknown page is a plain 404 page."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest
from starlette.testclient import TestClient

from plunder.core.registry import entry, game_ids
from plunder.web.app import create_app
from plunder.web.pages import showcase


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    """The app over a fresh SQLite file."""
    db = tmp_path_factory.mktemp("web") / "plunder.db"
    return TestClient(create_app(f"sqlite:///{db}"))


def test_home_lists_every_game_with_its_picture(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    for game_id in game_ids():
        assert f'id="game-{game_id}"' in page.text
        assert entry(game_id).game_class.title in page.text
        assert f'href="/rules/{game_id}"' in page.text
    assert page.text.count("<svg") == len(game_ids())


@pytest.mark.parametrize("game_id", game_ids())
def test_showcase_is_a_well_formed_picture_of_a_game_under_way(game_id: str) -> None:
    root = ElementTree.fromstring(showcase(game_id))
    assert root.tag.endswith("svg")


@pytest.mark.parametrize("game_id", game_ids())
def test_rules_page_shows_how_to_play(client: TestClient, game_id: str) -> None:
    page = client.get(f"/rules/{game_id}")
    assert page.status_code == 200
    first_line = entry(game_id).presentation.how_to_play.splitlines()[0]
    assert first_line.split(":")[0] in page.text


@pytest.mark.parametrize("game_id", game_ids())
def test_rules_page_is_the_games_sections_with_pictures_or_its_text(client: TestClient, game_id: str) -> None:
    """A game offering how-to sections gets them, each picture drawn by its own renderer and
    well formed; a game without them (a plugin) gets its one-screen text."""
    page = client.get(f"/rules/{game_id}").text
    hook = entry(game_id).presentation.how_to_web
    if hook is None:
        assert '<pre class="rules">' in page and "<svg" not in page
        return
    sections = hook()
    assert page.count('<section class="howto-section">') == len(sections)
    pictures = sum(0 if s.position is None else 1 if s.position.move is None else 2 for s in sections)
    assert pictures >= 5 and page.count("<svg") == pictures
    for s in sections:
        assert s.heading in page
    for svg in page.split("<svg")[1:]:
        ElementTree.fromstring("<svg" + svg.split("</svg>")[0] + "</svg>")
    assert '<pre class="rules">' not in page


def test_unknown_pages_are_plain_404_pages(client: TestClient) -> None:
    for path in ("/rules/chess", "/nowhere"):
        page = client.get(path)
        assert page.status_code == 404
        assert "Traceback" not in page.text
        assert "Not found" in page.text


def test_static_stylesheet_is_served(client: TestClient) -> None:
    assert client.get("/static/style.css").status_code == 200
