"""Pillage on unit boards, through the OpenSpiel adapter, plays the same games as OpenSpiel's
own ``dots_and_boxes`` given the same line order (the cross-check of
``tests/games/pillage/test_openspiel.py``, now through ``plunder.interop.openspiel``)."""

from __future__ import annotations

import random

import pyspiel
import pytest

from plunder.games.pillage.openspiel_bridge import to_openspiel
from plunder.interop.openspiel import short_name


@pytest.mark.parametrize(("rows", "cols", "games"), [(1, 1, 20), (2, 2, 100), (2, 3, 100), (3, 3, 100), (4, 4, 30)])
def test_same_line_order_same_game(rows: int, cols: int, games: int) -> None:
    """Line by line, in a random order: the same player to move, the same legal lines (in
    OpenSpiel's numbering), the same end and the same returns. A unit board has one
    doubloon in every box (PP-8) and no chance, and completing a box moves again (PP-4)."""
    ours = pyspiel.load_game(short_name("pillage"), {"board": f"square:{rows}x{cols}", "contents": "unit"})
    theirs = pyspiel.load_game("dots_and_boxes", {"num_rows": rows, "num_cols": cols})
    pillage = ours.plunder
    rng = random.Random(rows * 100 + cols)
    for _ in range(games):
        s, t = ours.new_initial_state(), theirs.new_initial_state()
        order = list(range(pillage.num_edges))
        rng.shuffle(order)
        for edge in order:  # the adapter's index of a line is its edge (docs/interop.md)
            assert s.current_player() == t.current_player()
            assert sorted(to_openspiel(pillage, e) for e in s.legal_actions()) == t.legal_actions()
            s.apply_action(edge)
            t.apply_action(to_openspiel(pillage, edge))
        assert s.is_terminal() and t.is_terminal()
        assert s.returns() == t.returns()
