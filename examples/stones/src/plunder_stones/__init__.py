"""Last Stone, a take-away game for 2 to 8 players, as a Plunder game installed from outside
Plunder (docs/new-game.md): the example of a game whose seat range is wider than one count,
chosen by its ``players`` parameter. Take 1 to 3 stones a turn; whoever takes the last wins.
It uses only Plunder's public API."""

from __future__ import annotations

from typing import Mapping

from plunder.core.capabilities import Presentation
from plunder.core.declaration import Declaration
from plunder.core.registry import GameEntry
from plunder.core.svg import INK, SEAT, SEAT_FILL, Picture, Shown, called, legal_texts, text_width

from .rules import MAX_PLAYERS, MIN_PLAYERS, StonesGame, StonesState, Take

HOW_TO_PLAY = f"""\
Last Stone: {MIN_PLAYERS} to {MAX_PLAYERS} players round one pile of stones (21 unless set otherwise).

The players take turns in order, Player 1 first, then Player 2 and so on
round the table. On your turn take 1, 2 or 3 stones from the pile (the most
a turn can be set otherwise), never more than are left. You must take at
least one stone: there is no passing.

Whoever takes the last stone wins at once; everyone else loses.

The stones each player took are their score, shown as the game goes, but
only the last stone decides. With two players, leave your rival a multiple
of four stones and the last one is yours; with more, watch who sits after you.

Moves: take 1, take 2, take 3.
"""

#: the width of every Plunder picture; a phone shrinks it to about three fifths, so the
#: words are drawn at 24 px and more to stay readable there
WIDTH = 600.0
MARGIN = 20.0
#: stones drawn a row, and the height of a seat's line
ROW, LINE = 18, 44.0
#: the largest size of a seat's name; a long one (a player's chosen name) is set smaller to fit
NAME_SIZE = 24.0
#: the largest size of a take's button
BUTTON_SIZE = 28.0


def svg(state: StonesState, shown: Shown | None = None) -> str:
    """The pile as stones, a line a seat in its colour with the stones it took (the mover's
    marked, then the winner's), and the takes as buttons."""
    game = state.game
    pic = Picture(WIDTH)
    inner = WIDTH - 2 * MARGIN
    pic.text(MARGIN, MARGIN + 20, f"{state.left} of {game.values['pile']} stones left", 26, INK, bold=True)
    y = MARGIN + 38
    step = inner / ROW
    for i in range(state.left):
        row, column = divmod(i, ROW)
        pic.circle(MARGIN + step * (column + 0.5), y + step * (row + 0.5), step * 0.42, "#9a9488", stroke=INK,
                   stroke_width=1)
    y += max(1, -(-state.left // ROW)) * step + 10
    for seat, taken in enumerate(state.taken):
        marked = seat in (state.current_player, state.winner)
        pic.rect(MARGIN, y, inner, LINE - 6, SEAT_FILL[seat] if marked else "#ffffff", stroke=SEAT[seat], rx=5,
                 stroke_width=3 if marked else 1)
        count = f"{taken} stone{'' if taken == 1 else 's'}"
        pic.text(WIDTH - MARGIN - 10, y + LINE - 15, count, NAME_SIZE, SEAT[seat], anchor="end", bold=marked)
        name = called(("▶ " if seat == state.current_player else "★ " if seat == state.winner else "")
                      + game.seat_name(seat))
        room = inner - 30 - text_width(count, NAME_SIZE)
        size = min(NAME_SIZE, NAME_SIZE * room / text_width(name, NAME_SIZE))
        pic.text(MARGIN + 10, y + LINE - 15, name, size, SEAT[seat], bold=marked, verbatim=True)
        y += LINE
    x, y = MARGIN, y + 6
    takes = list(legal_texts(state).values())
    # as large as a finger wants, smaller where up to six must share the line
    size = min([BUTTON_SIZE, *(BUTTON_SIZE * (inner / len(takes) - 30) / text_width(t, BUTTON_SIZE) for t in takes)])
    for text in takes:
        x += pic.button(x, y, text.capitalize(), text, size=size) + 14
    y += size + 30 if takes else 0
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
