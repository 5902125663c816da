"""Cross-check: unit square boards play exactly like OpenSpiel's dots_and_boxes."""

import random

import pytest

import plunder
from plunder.games.pillage.openspiel_bridge import from_openspiel, to_openspiel
from plunder.games.pillage.rules import PillageGame

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("rows, cols, games", [(1, 1, 200), (2, 2, 800), (2, 3, 800), (3, 3, 1000), (4, 4, 400)])
def test_same_line_order_same_margin(rows: int, cols: int, games: int) -> None:
    ours = PillageGame.load(board=f"square:{rows}x{cols}", contents="unit")
    theirs = pyspiel.load_game("dots_and_boxes", {"num_rows": rows, "num_cols": cols, "utility_margin": True})
    rng = random.Random(rows * 100 + cols)
    for _ in range(games):
        s, t = ours.new_initial_state(), theirs.new_initial_state()
        order = list(range(ours.num_edges))
        rng.shuffle(order)
        for e in order:
            assert s.current_player == t.current_player()  # whose turn agrees at every line
            s = s.apply(ours.lines[e])
            t.apply_action(to_openspiel(ours, e))
            assert from_openspiel(ours, to_openspiel(ours, e)) == e
        assert t.is_terminal() and s.is_terminal()
        a, b = s.scores()
        assert a - b == t.returns()[0]


def test_the_line_table_is_built_once_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12: the table from OpenSpiel ids to lines was rebuilt on every call."""
    from plunder.games.pillage import openspiel_bridge

    ours = PillageGame.load(board="square:2x2", contents="unit")
    calls = []
    real = openspiel_bridge.to_openspiel

    def counted(game, edge):  # type: ignore[no-untyped-def]
        calls.append(edge)
        return real(game, edge)

    monkeypatch.setattr(openspiel_bridge, "to_openspiel", counted)
    for action in range(ours.num_edges):
        assert to_openspiel(ours, from_openspiel(ours, action)) == action
    assert len(calls) == ours.num_edges  # the first call built the table; the rest looked it up
