"""Cross-check: unit square boards play exactly like OpenSpiel's dots_and_boxes."""

import random

import pytest

import plunder
from plunder.games.pillage.openspiel_bridge import from_openspiel, to_openspiel

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("rows, cols, games", [(1, 1, 200), (2, 2, 800), (2, 3, 800), (3, 3, 1000), (4, 4, 400)])
def test_same_line_order_same_margin(rows: int, cols: int, games: int) -> None:
    ours = plunder.load_game("pillage", board=f"square:{rows}x{cols}", contents="unit")
    theirs = pyspiel.load_game("dots_and_boxes", {"num_rows": rows, "num_cols": cols, "utility_margin": True})
    rng = random.Random(rows * 100 + cols)
    for _ in range(games):
        s, t = ours.new_initial_state(), theirs.new_initial_state()
        order = list(range(ours.E))
        rng.shuffle(order)
        for e in order:
            assert s.current_player == t.current_player()  # whose turn agrees at every line
            s = s.apply(e)
            t.apply_action(to_openspiel(ours, e))
            assert from_openspiel(ours, to_openspiel(ours, e)) == e
        assert t.is_terminal() and s.is_terminal()
        a, b = s.scores()
        assert a - b == t.returns()[0]
