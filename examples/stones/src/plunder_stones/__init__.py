"""Last Stone, a take-away game for 2 to 8 players, as a Plunder game installed from outside
Plunder (docs/new-game.md): the example of a game whose seat range is wider than one count,
chosen by its ``players`` parameter. Take 1 to 3 stones a turn; whoever takes the last wins.
It uses only Plunder's public API."""

from __future__ import annotations

from typing import Mapping

from plunder.core.capabilities import Presentation
from plunder.core.declaration import Declaration
from plunder.core.registry import GameEntry
from plunder.core.svg import INK, MUTED, RULE, SEAT, SEAT_FILL, Picture, Shown, legal_texts

from .rules import MAX_PLAYERS, MIN_PLAYERS, StonesGame, StonesState, Take

HOW_TO_PLAY = f"""\
Last Stone: {MIN_PLAYERS} to {MAX_PLAYERS} players round one pile of stones (21 unless set otherwise).

The players take turns in order, Player 1 first. On your turn take 1, 2 or 3
stones from the pile (the most a turn can be set otherwise), never more than
are left.

Whoever takes the last stone wins. The stones each player took are their
score, shown as the game goes, but only the last stone decides.

Moves: take 1, take 2, take 3.
"""

WIDTH = 640.0
MARGIN = 24.0
#: stones drawn a row, and the height of a seat's tally (its text 20 px: on a phone the
#: picture is shrunk to about half)
ROW, TALLY = 20, 40.0
#: the seats' tallies in two columns, so that eight take four lines
COLUMNS = 2


def svg(state: StonesState, shown: Shown | None = None) -> str:
    """The pile as stones, each seat's tally in its colour (the mover's marked), the takes as buttons."""
    game = state.game
    pic = Picture(WIDTH)
    inner = WIDTH - 2 * MARGIN
    pic.text(MARGIN, MARGIN + 18, f"{state.left} of {game.values['pile']} stones left", 20, INK, bold=True)
    y = MARGIN + 32
    step = inner / ROW
    for i in range(state.left):
        row, column = divmod(i, ROW)
        pic.circle(MARGIN + step * (column + 0.5), y + step * (row + 0.5), step * 0.42, "#9a9488", stroke=INK,
                   stroke_width=1)
    y += max(1, -(-state.left // ROW)) * step + 10
    pic.line(MARGIN, y, WIDTH - MARGIN, y, RULE)
    cell = inner / COLUMNS
    for seat, taken in enumerate(state.taken):
        row, column = divmod(seat, COLUMNS)
        x, top = MARGIN + column * cell, y + 8 + row * TALLY
        moving = seat == state.current_player
        pic.rect(x, top, cell - 8, TALLY - 6, SEAT_FILL[seat] if moving else "#ffffff", stroke=SEAT[seat], rx=5,
                 stroke_width=3 if moving else 1)
        mark = "▶ " if moving else "★ " if seat == state.winner else ""
        pic.text(x + 8, top + TALLY - 14, f"{mark}{game.seat_name(seat)}: {taken}", 20, SEAT[seat], bold=moving)
    y += 8 + -(-len(state.taken) // COLUMNS) * TALLY + 8
    x = MARGIN
    for text in legal_texts(state).values():
        x += pic.button(x, y, text.capitalize(), text, size=24) + 12
    y += 52 if legal_texts(state) else 0
    y = pic.caption(state, shown, MARGIN, y, inner)
    pic.height = y + MARGIN
    return pic.document(f"Last Stone, {state.left} left")


def narrate(before: StonesState, action: Take, after: StonesState) -> str:
    """``Player 3 takes 2: 7 left`` / ``Player 3 takes the last 2 and wins``."""
    who = before.game.seat_name(before.mover)
    if after.left == 0:
        return f"{who} takes the last {'stone' if action.count == 1 else f'{action.count}'} and wins"
    return f"{who} takes {action.count}: {after.left} left"


def breakdown(state: StonesState, figures: Mapping[str, float | list[float]]) -> list[str]:
    """Each seat's stones taken, and who took the last (LS-3, LS-4)."""
    lines = [f"{state.game.seat_name(seat)} took {taken} stone{'' if taken == 1 else 's'}"
             for seat, taken in enumerate(state.taken)]
    if state.winner is not None:
        lines.append(f"{state.game.seat_name(state.winner)} took the last stone.")
    return lines


#: what Plunder finds through the ``plunder.games`` entry point (pyproject.toml)
ENTRY: GameEntry[StonesState, Take] = GameEntry(
    game_class=StonesGame,
    declaration=Declaration(min_seats=MIN_PLAYERS, max_seats=MAX_PLAYERS, chance=False, zero_sum=True),
    presentation=Presentation(
        pitch="Last Stone: 2 to 8 players take 1 to 3 stones a turn from one pile; whoever takes the last wins.",
        how_to_play=HOW_TO_PLAY, svg=svg, narrate=narrate, breakdown=breakdown,
    ),
)

__all__ = ["ENTRY", "StonesGame", "StonesState", "Take"]
