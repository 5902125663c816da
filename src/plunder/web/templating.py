"""The HTML templates (Jinja2, autoescaped) and the static files' folder."""

from __future__ import annotations

from pathlib import Path

from starlette.templating import Jinja2Templates

from ..core.svg import SEAT

HERE = Path(__file__).parent
#: CSS, JavaScript and icons served under ``/static``
STATIC_DIR = HERE / "static"

#: every page's template; autoescaping is on for ``.html``, so no game text can inject markup
templates = Jinja2Templates(directory=str(HERE / "templates"))
#: the seats' colours as the pictures draw them, for the page's seat list
templates.env.globals["seat_colours"] = SEAT
