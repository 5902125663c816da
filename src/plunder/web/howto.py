"""A game's how-to page: its sections (:attr:`Presentation.how_to_web`) with their positions
drawn by the game's own SVG renderer -- a position alone, or before and after a move captioned
with the game's narration. A game that offers no sections shows its one-screen text."""

from __future__ import annotations

import functools
from typing import Any

from markupsafe import Markup

from ..core.registry import entry
from ..core.svg import Shown
from ..pictures import svg_of


@functools.cache
def howto_sections(game_id: str) -> list[dict[str, Any]]:
    """The sections of ``game_id``'s how-to page, each a heading, paragraphs and pictures
    (``caption`` and ``svg``); empty when the game offers none."""
    presentation = entry(game_id).presentation
    if presentation.how_to_web is None:
        return []
    out = []
    for section in presentation.how_to_web():
        pictures = []
        shown = section.position
        if shown is not None and shown.move is None:
            pictures.append({"caption": "", "svg": Markup(svg_of(shown.state, shown.shown))})
        elif shown is not None and shown.move is not None:
            state, move = shown.state, shown.move
            after = state.apply(move)
            text = state.game.action_to_text(state, move)
            told = presentation.narrate(state, move, after) if presentation.narrate else ""
            number = shown.shown.number + 1 if shown.shown else 1
            pictures.append({"caption": "Before", "svg": Markup(svg_of(state, shown.shown))})
            pictures.append({"caption": f"After: {told or text}",
                             "svg": Markup(svg_of(after, Shown(number, text, told)))})
        out.append({"heading": section.heading, "paragraphs": list(section.paragraphs), "pictures": pictures})
    return out
