"""The new-game form of each game (``GET /new/{game}``): presets, every parameter with its
allowed choices, and one row per seat (me, hotseat, an open seat for a friend, an AI level).
The seats it offers are the game's declared range (:class:`~plunder.core.declaration.Declaration`):
a row for each seat the game can have, those past the chosen ``players`` hidden.

The form posts to the same address (``POST /new/{game}``, the game routes' handler) with the
fields ``preset``, ``p.<name>``, ``seat.<i>``, ``clock`` and ``rated`` that docs/web.md describes. Nothing here
checks a value: the server's handler loads the game through ``Game.load`` and says what is
wrong.
"""

from __future__ import annotations

import functools
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..core.declaration import PLAYERS_PARAM
from ..core.errors import without_rulings
from ..core.params import Param
from ..core.registry import entry, game_ids
from .clocks import AUTO, DEFAULT, LIVE_PRESETS, NONE, TURN_PRESETS, TimeControl
from .templating import templates

#: the time controls the form offers: (field value, label)
CLOCK_CHOICES = ((AUTO, f"Automatic: {TimeControl.parse(DEFAULT).words} with a seat for a friend, else none"),
                 (NONE, "None (games at this screen only)"),
                 *((t, f"Live: {TimeControl.parse(t).words}") for t in LIVE_PRESETS),
                 *((t, f"Turn-based: {TimeControl.parse(t).words}") for t in TURN_PRESETS))

#: the most example values shown under a field
MAX_EXAMPLES = 3

#: what a seat can be, in the order the form offers them: (field value, label)
SEAT_KINDS = (("me", "Me"), ("hotseat", "Hotseat (me too, on this screen)"), ("open", "Open seat for a friend"),
              ("easy", "AI: easy"), ("medium", "AI: medium"), ("hard", "AI: hard"))


def closed_choices(spec: Param) -> list[str]:
    """The choices of ``spec`` that are values themselves (``true``, ``d6``, ``block``), not
    forms to fill in (``square:RxC``): the ones its parser reads. All of them readable makes
    the field a list to pick from."""
    readable = []
    for choice in spec.choices:
        try:
            spec.parse(choice)
        except ValueError:
            continue
        readable.append(choice)
    return readable


@functools.cache
def form_of(game_id: str) -> dict[str, Any]:
    """What the form shows for ``game_id``: its parameters, presets and seat counts."""
    e = entry(game_id)
    cls = e.game_class
    counts = list(e.declaration.seat_counts)
    # a range wider than one count is chosen by the players parameter, offered as that range
    players_param = PLAYERS_PARAM if len(counts) > 1 and any(p.name == PLAYERS_PARAM for p in cls.param_specs) else None
    params = []
    for spec in cls.param_specs:
        seats = spec.name == players_param
        picks = [str(n) for n in counts] if seats else closed_choices(spec)
        params.append({
            # the label and help in words; the name and the rulings cited for designers, as a tooltip
            "name": spec.name, "default": spec.default, "label": spec.words, "help": without_rulings(spec.help),
            "title": f"{spec.name}: {spec.help}",
            # a closed list is a select (the seat counts are one); otherwise a text field
            # suggesting the readable choices
            "select": picks if seats or (picks and len(picks) == len(spec.choices)) else [],
            # file:PATH is the terminal's: the server never reads its own files for a browser
            "suggest": picks, "forms": [c for c in spec.choices if c not in picks and not c.startswith("file:")],
            # values the presets give it, shown as examples (the forms above are the tooltip's)
            "examples": list(dict.fromkeys(v[spec.name] for v in cls.presets.values()
                                           if v.get(spec.name, spec.default) != spec.default))[:MAX_EXAMPLES],
        })
    defaults = {spec.name: spec.default for spec in cls.param_specs}
    presets = {name: {**defaults, **values} for name, values in cls.presets.items()}
    return {"id": game_id, "title": cls.title, "pitch": e.presentation.pitch, "params": params, "presets": presets,
            "seat_counts": counts, "max_seats": counts[-1], "players_param": players_param}


def seats_shown(form: dict[str, Any], values: dict[str, str]) -> int:
    """How many seat rows the form shows at first: the ``players`` value given, if it is one of
    the game's seat counts, else the most (the page's script follows the field from then on)."""
    counts: list[int] = form["seat_counts"]
    given = values.get(form["players_param"] or "", "").strip()
    return int(given) if given.isdigit() and int(given) in counts else counts[-1]


def default_seat(seat: int) -> str:
    """The seat kind the form starts with: the creator in the first seat, AIs elsewhere."""
    return "me" if seat == 0 else "medium"


def render_form(request: Request, game_id: str, error: str = "", given: dict[str, str] | None = None,
                status_code: int = 200, error_field: str = "") -> Response:
    """The form for ``game_id``; ``error`` says why a submission was refused (beside the field
    ``error_field`` if it names one, else atop the form) and ``given`` holds its fields
    (``preset``, ``p.<name>``, ``seat.<i>``) to show again. The POST handler calls this to
    answer a refused submission."""
    if game_id not in game_ids():
        raise HTTPException(404, f"no game {game_id!r}")
    form = form_of(game_id)
    given = given or {}
    values = {p["name"]: given.get(f"p.{p['name']}", p["default"]) for p in form["params"]}
    seats = [given.get(f"seat.{i}", default_seat(i)) for i in range(form["max_seats"])]
    return templates.TemplateResponse(request, "new.html", {
        "game": form, "seat_kinds": SEAT_KINDS, "values": values, "seats": seats,
        "error_field": error_field,
        "shown": seats_shown(form, values),
        "clock_choices": CLOCK_CHOICES, "clock": given.get("clock", AUTO),
        "preset": given.get("preset", ""), "rated": given.get("rated") == "on", "error": error},
        status_code=status_code)


async def new_game_form(request: Request) -> Response:
    """The form to start a game of ``{game}``."""
    return render_form(request, request.path_params["game"])


#: the routes of this module, mounted by :func:`plunder.web.app.create_app`; the form's POST
#: to the same path is the game routes' handler
routes: list[BaseRoute] = [
    Route("/new/{game}", new_game_form, methods=["GET"], name="new_game"),
]
