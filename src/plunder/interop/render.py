"""Pictures of a position for the adapters' render modes: ``ansi``, the terminal's text
picture, and ``rgb_array``, the game's SVG picture (:mod:`plunder.pictures`) rasterised."""

from __future__ import annotations

import io

import numpy as np
import resvg_py
from PIL import Image
from rich.console import Console
from rich.text import Text

from ..core.game import Game, State
from ..core.registry import entry
from ..pictures import svg_of

#: the render modes every adapter offers (``human`` prints the text picture)
RENDER_MODES = ["human", "ansi", "rgb_array"]
#: room for a picture to grow past the starting position's height (a caption, a longer tally)
#: before it is scaled down to fit the frame
HEADROOM = 1.15


def text_picture(state: State, width: int = 100) -> str:
    """``state`` drawn by its game's terminal renderer, as plain text."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False)
    render = entry(state.game.id).presentation.render
    console.print(render(state) if render else Text(str(state)))
    return out.getvalue()


def raster(state: State, zoom: float = 1.0) -> np.ndarray:
    """``state``'s SVG picture rasterised on white at ``zoom`` times its size (``H x W x 3``, ``uint8``)."""
    png = resvg_py.svg_to_bytes(svg_string=svg_of(state), background="#ffffff", zoom=zoom)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.uint8)


class Frames:
    """Frames of one size for every position of a game (video recorders want one shape):
    the starting position's picture sets the width and, with :data:`HEADROOM`, the height;
    a picture is drawn at its own size on white, top left, and scaled down when it would
    not fit."""

    def __init__(self, game: Game) -> None:
        start = raster(game.new_initial_state())
        self.height, self.width = int(start.shape[0] * HEADROOM), start.shape[1]

    def rgb(self, state: State) -> np.ndarray:
        """``state``'s picture as a ``height x width x 3`` ``uint8`` array."""
        picture = raster(state)
        high, wide = picture.shape[:2]
        if high > self.height or wide > self.width:
            picture = raster(state, min(self.height / high, self.width / wide))
            high, wide = min(picture.shape[0], self.height), min(picture.shape[1], self.width)
            picture = picture[:high, :wide]
        frame = np.full((self.height, self.width, 3), 255, dtype=np.uint8)
        frame[:high, :wide] = picture
        return frame


class Renderer:
    """An env's ``render()``: the picture of a position in the env's render mode."""

    def __init__(self, game: Game, render_mode: str | None) -> None:
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode {render_mode!r}: the modes are {RENDER_MODES}")
        self.mode = render_mode
        self.frames = Frames(game) if render_mode == "rgb_array" else None

    def __call__(self, state: State) -> str | np.ndarray | None:
        """The text picture (``ansi``), the frame (``rgb_array``), or ``None`` after printing
        the text picture (``human``) or without a mode."""
        if self.frames is not None:
            return self.frames.rgb(state)
        if self.mode == "human":
            print(text_picture(state), end="")
            return None
        return text_picture(state) if self.mode == "ansi" else None
