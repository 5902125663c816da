"""The HTML templates (Jinja2, autoescaped) and the static files' folder.

A game's own pages (its board editor) are templates in the game's web folder
(``Client.assets``), named ``games/<id>/<file>`` (:func:`game_template`); they extend the site's
``base.html`` like every page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound
from starlette.templating import Jinja2Templates

from ..core.registry import entry, game_ids
from ..core.svg import SEAT

HERE = Path(__file__).parent
#: CSS, JavaScript and icons served under ``/static``
STATIC_DIR = HERE / "static"


def game_template(game_id: str, name: str) -> str:
    """The template name of a game's own page ``name`` (``games/<id>/editor.html``)."""
    return f"games/{game_id}/{name}"


class GameTemplates(BaseLoader):
    """Loads ``games/<id>/<file>`` from the web folder the game offers, nothing else."""

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        """The template's text, file name and up-to-date check (Jinja's loader protocol)."""
        parts = template.split("/")
        if len(parts) != 3 or parts[0] != "games" or parts[1] not in game_ids():
            raise TemplateNotFound(template)
        folder = entry(parts[1]).client.assets
        if folder is None:
            raise TemplateNotFound(template)
        return FileSystemLoader(str(folder)).get_source(environment, parts[2])


#: every page's template; autoescaping is on for ``.html``, so no game text can inject markup
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.loader = ChoiceLoader([FileSystemLoader(str(HERE / "templates")), GameTemplates()])
#: the seats' colours as the pictures draw them, for the page's seat list
templates.env.globals["seat_colours"] = SEAT
