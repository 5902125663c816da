"""The HTML templates (Jinja2, autoescaped) and the static files' folder.

A game's own pages (its board editor) are templates in the game's web folder
(``Client.assets``), named ``games/<id>/<file>`` (:func:`game_template`); they extend the site's
``base.html`` like every page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound, pass_context
from starlette.datastructures import URL, URLPath
from starlette.requests import Request
from starlette.routing import Router
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


#: most addresses an app keeps worked out (a game's own addresses carry its id: bounded)
MAX_PATHS = 4096


def _path_for(router: Router, name: str, params: tuple[tuple[str, str], ...]) -> URLPath:
    # Starlette tries every route in turn, each failure an exception: a page's two dozen
    # addresses took a third of its rendering; the routes never change while the app runs,
    # so each app's router keeps what it worked out.
    known: dict[tuple[str, tuple[tuple[str, str], ...]], URLPath] = router.__dict__.setdefault("plunder_paths", {})
    path = known.get((name, params))
    if path is None:
        if len(known) >= MAX_PATHS:
            known.clear()
        path = known[(name, params)] = router.url_path_for(name, **dict(params))
    return path


@pass_context
def url_for(context: dict[str, Any], name: str, /, **params: Any) -> URL:
    """``request.url_for`` (what templates call), each route's address worked out once."""
    request: Request = context["request"]
    path = _path_for(request.scope["router"], name, tuple(sorted((k, str(v)) for k, v in params.items())))
    return path.make_absolute_url(base_url=request.base_url)


templates.env.globals["url_for"] = url_for
