"""The board editors of the games that offer one (``Client.editor``,
:class:`plunder.core.capabilities.Editor`): ``/editor/{game}`` serves the game's own page, and
the page asks the game to make lattices, open files and check sketches. Everything the page
sends is untrusted: a sketch is read within the editor's own byte limit and the JSON limits,
and the game's checks run off the event loop.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.capabilities import Editor
from ..core.errors import ParameterError
from ..core.files import load_json
from ..core.registry import entry, game_ids
from .replays import read_capped
from .templating import game_template, templates


def editors() -> list[str]:
    """The ids of the installed games that offer a board editor, in table order."""
    return [g for g in game_ids() if entry(g).client.editor is not None]


def editor_of(game_id: str) -> Editor:
    """The editor of ``game_id``, or a 404 page."""
    found = entry(game_id).client.editor if game_id in game_ids() else None
    if found is None:
        raise HTTPException(404, f"There is no board editor for {game_id[:40]!r}.")
    return found


async def index(request: Request) -> Response:
    """``GET /editor``: the one game's editor, or the list of games that offer one."""
    offered = editors()
    if len(offered) == 1:
        return RedirectResponse(request.url_for("editor_game", game=offered[0]).path, status_code=307)
    if not offered:
        raise HTTPException(404, "No installed game offers a board editor.")
    return templates.TemplateResponse(request, "editors.html", {
        "editors": [{"id": g, "title": entry(g).client.editor.title} for g in offered]})  # type: ignore[union-attr]


async def editor_page(request: Request) -> Response:
    """``GET /editor/{game}``: the game's editor page, opened where the game starts it."""
    game_id = request.path_params["game"]
    editor = editor_of(game_id)
    return templates.TemplateResponse(request, game_template(game_id, editor.template), {
        "game_id": game_id, "title": editor.title, **editor.start()})


async def lattice(request: Request) -> Response:
    """``GET /editor/{game}/lattice?spec=hex:3x4&filled=0``: a generated board as a sketch."""
    editor = editor_of(request.path_params["game"])
    try:
        sketch = editor.lattice(request.query_params.get("spec", "")[:40], request.query_params.get("filled") != "0")
    except ParameterError as exc:
        return JSONResponse({"ok": False, "error": str(exc)}, 400)
    return JSONResponse({"ok": True, "sketch": sketch})


async def open_file(request: Request) -> Response:
    """``POST /editor/{game}/open`` with a saved file's text: the file as a sketch, or why it is refused."""
    editor = editor_of(request.path_params["game"])
    body = await read_capped(request, editor.max_bytes)
    try:
        sketch = await run_in_threadpool(editor.open, body.decode("utf-8"))
    except (ParameterError, UnicodeDecodeError) as exc:
        return JSONResponse({"ok": False, "error": str(exc)}, 400)
    return JSONResponse({"ok": True, "sketch": sketch})


async def check_sketch(request: Request) -> Response:
    """``POST /editor/{game}/check`` with a sketch (and the game's options as query
    parameters): the game's answer, accepted or not, as a normal response."""
    editor = editor_of(request.path_params["game"])
    body = await read_capped(request, editor.max_bytes)
    try:
        sketch: Any = load_json(body.decode("utf-8"), "sketch", editor.max_bytes)
    except (ValueError, UnicodeDecodeError) as exc:
        return JSONResponse({"ok": False, "error": str(exc)}, 400)
    options = {k: v[:40] for k, v in list(request.query_params.items())[:8]}
    answer = await run_in_threadpool(editor.check, sketch, options)
    return JSONResponse(answer)


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`
routes: list[BaseRoute] = [
    Route("/editor", index, name="editor"),
    Route("/editor/{game}", editor_page, name="editor_game"),
    Route("/editor/{game}/lattice", lattice, name="editor_lattice"),
    Route("/editor/{game}/open", open_file, methods=["POST"], name="editor_open"),
    Route("/editor/{game}/check", check_sketch, methods=["POST"], name="editor_check"),
]
