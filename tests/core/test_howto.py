"""The how-to sections' positions: :func:`seek` finds the move asked for in seeded games, numbers
it on from where it started, and says so when no game has one."""

from __future__ import annotations

import pytest

from plunder.core.howto import Position, seek, settle
from plunder.core.registry import load_game
from plunder.games.pillage.actions import Line
from plunder.games.pillage.rules import PillageState


def test_seek_finds_the_move_wanted_and_numbers_the_moves_before_it() -> None:
    game = load_game("pillage")
    opening = settle(game.new_initial_state(), 3)
    assert not opening.state.is_chance_node() and opening.shown is not None
    dealt = opening.shown.number
    found = seek(opening, 3, lambda s, a, t: t.owner != s.owner)
    before = found.state
    assert isinstance(before, PillageState) and isinstance(found.move, Line)
    assert before.apply(found.move).owner != before.owner
    assert found.shown is not None and found.shown.number > dealt
    # the same seed finds the same move
    assert seek(opening, 3, lambda s, a, t: t.owner != s.owner) == found


def test_seek_says_when_no_game_has_the_move() -> None:
    game = load_game("pillage", preset="example")
    with pytest.raises(LookupError, match="no wanted move"):
        seek(Position(game.new_initial_state()), 1, lambda s, a, t: False)
