"""A game's own web files (``Client.assets``: its pages' scripts and styles), served under
``/assets/{game}/{file}`` with the same rules as ``/static`` (no path outside the folder), and
the site's icon at ``/favicon.ico``, where browsers look for it."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.staticfiles import StaticFiles

from ..core.registry import entry, game_ids
from .templating import STATIC_DIR

#: each game's file server, made at its first request
_SERVERS: dict[str, StaticFiles] = {}


async def asset(request: Request) -> Response:
    """``GET /assets/{game}/{path}``: one of the game's web files, or a 404."""
    game_id = request.path_params["game"]
    server = _SERVERS.get(game_id)
    if server is None:
        folder = entry(game_id).client.assets if game_id in game_ids() else None
        if folder is None:
            raise HTTPException(404, "There is no such file here.")
        server = _SERVERS[game_id] = StaticFiles(directory=str(folder))
    return await server.get_response(request.path_params["path"], request.scope)


async def favicon(request: Request) -> Response:
    """``GET /favicon.ico``: the site's icon (an SVG; the pages link it too), for a browser or
    tool that asks the conventional address rather than the page's link."""
    return FileResponse(STATIC_DIR / "favicon.svg", media_type="image/svg+xml")


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [Route("/assets/{game}/{path:path}", asset, name="assets"),
                           Route("/favicon.ico", favicon, name="favicon")]
