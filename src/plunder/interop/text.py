"""The text picture of a position, as the terminal shows it, for adapters' ``ansi`` render mode."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from ..core.game import State
from ..core.registry import entry


def text_picture(state: State, width: int = 100) -> str:
    """``state`` drawn by its game's terminal renderer, as plain text."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False)
    render = entry(state.game.id).render
    console.print(render(state) if render else Text(str(state)))
    return out.getvalue()
