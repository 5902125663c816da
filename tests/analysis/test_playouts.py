"""Paired playouts: every candidate of a round meets the same luck, and a loss is measured again
on fresh rounds before a move is marked (docs/analysis.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from plunder import load_game, play
from plunder.analysis import value as value_module
from plunder.analysis.value import Task, value_task
from plunder.core.game import State
from plunder.core.registry import entry


class Spy:
    """Plays the first legal move, but draws as many random numbers as it has moves to choose
    from (as a real agent's tie-breaks do), and notes the dice each playout meets."""

    def __init__(self, root: State[Any]) -> None:
        self.root = turn(root)
        self.rolls: list[list[tuple[int, ...]]] = []

    def choose(self, state: Any, rng: random.Random) -> Any:
        legal = state.legal_actions()
        for _ in legal:
            rng.random()
        seen = turn(state)
        # the root's turn goes on after a road, not after "done": its dice are no playout's roll
        if self.rolls and seen != self.root and (not self.rolls[-1] or self.rolls[-1][-1] != seen):
            self.rolls[-1].append(seen)
        return legal[0]


def turn(state: Any) -> tuple[int, ...]:
    """The round, the seat rolling and its dice."""
    return (state.round, state.seat, *state.dice)


def building_position() -> tuple[Any, str]:
    """A position of a five-player game where the mover may end the turn or build a road."""
    game = load_game("crossroads", players="5")
    record = play(game, ["medium"] * 5, seed=5)
    state: Any = game.new_initial_state()
    for move in record.moves:
        if move.by is not None and state.phase.value == "building":
            roads = [a for a in state.legal_actions() if a.text().startswith("road")]
            if len(roads) >= 2:
                return state, "done"
        state = state.apply_text(move.action)
    raise AssertionError("the game has a building turn with two roads to choose from")


def test_every_candidate_of_a_round_meets_the_same_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    state, played = building_position()
    spy = Spy(state)
    monkeypatch.setattr(value_module, "make_agent", lambda spec, game: spy)
    original = value_module.playout

    def noted(*args: Any) -> Any:
        spy.rolls.append([])
        return original(*args)

    monkeypatch.setattr(value_module, "playout", noted)
    task = Task("key", state, played, sims=12, depth=120, playout="spy", seed=0, exact=False)
    found = value_task(task)
    rounds = found.playouts // found.candidates
    assert found.candidates >= 3 and rounds >= 4 and len(spy.rolls) >= found.playouts
    first = spy.rolls[: found.playouts]  # the first look: round by round, each candidate in turn
    for i in range(rounds):
        seen = first[i * found.candidates: (i + 1) * found.candidates]
        # a playout cut after so many actions may stop a roll short of another's: compare the
        # rolls they all reached
        reached = min(len(s) for s in seen)
        assert reached >= 10
        # the candidates' moves differ, so do the spy's draws after them; the dice may not
        assert all(s[:reached] == seen[0][:reached] for s in seen), f"round {i}: the candidates met different dice"


def test_a_loss_is_measured_on_fresh_rounds_and_close_calls_get_more_up_to_the_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the first look is sure of a loss, or its interval straddles a threshold, the move
    played and its best rival are played on over rounds the first look did not use (doubling
    while the interval straddles a threshold), never past the cap."""
    game = load_game("profiteer")
    analysis = entry("profiteer").analysis
    assert analysis is not None
    record = play(game, ["random"] * game.num_players, seed=3)
    drawn: list[int] = []
    original = value_module.round_rngs

    def noted(seed: int, key: str, i: int) -> tuple[random.Random, random.Random]:
        drawn.append(i)
        return original(seed, key, i)

    monkeypatch.setattr(value_module, "round_rngs", noted)
    state = game.new_initial_state()
    looked = grown = 0
    for move in record.moves[:40]:
        if move.by is not None:
            drawn.clear()
            task = Task(f"key{len(move.action)}", state, move.action, sims=24, depth=0, playout="profit", seed=0,
                        exact=False)
            found = value_task(task)
            rounds = max(value_module.MIN_ROUNDS, 24 // found.candidates)
            first = rounds * found.candidates
            fresh = [i for i in drawn if i >= rounds]
            extra = len(set(fresh))
            assert sorted(set(fresh)) == list(range(rounds, rounds + extra))  # fresh rounds, each used once
            assert len(fresh) == 2 * extra  # the rival and the move played
            assert found.playouts == first + len(fresh) <= value_module.ADAPT_CAP * max(24, first)
            gap = found.gap if found.gap is not None else 0.0
            if extra:
                looked += 1
                # played on while straddling a threshold, unless one more doubling (of at most the
                # first look's rounds and the fresh ones) would pass the cap
                doubled = found.playouts + 2 * (rounds + extra)
                assert value_module.settled(analysis, gap, found.error) or doubled > value_module.ADAPT_CAP * max(24, first)
            else:
                assert found.candidates == 1 or value_module.settled(analysis, gap, found.error)
            grown += extra > value_module.CONFIRM_ROUNDS
        state = state.apply_text(move.action)
    assert looked >= 3, "a random player's game has decisions the first look cannot settle"
    assert grown >= 1, "some close call got more rounds than a second look's"


def test_no_more_playouts_where_the_games_bias_alone_straddles_a_threshold() -> None:
    """Pillage's playouts stray from exact losses by up to its ``Analysis.bias``: more rounds
    cannot settle an interval that wide, so its opening decisions get no more than the first and
    second looks, and are unclear unless the estimate clears a threshold by the bias."""
    game = load_game("pillage", board="square:4x4", contents="random")
    analysis = entry("pillage").analysis
    assert analysis is not None and analysis.bias > analysis.blunder - analysis.mistake
    record = play(game, ["random", "random"], seed=2)
    state: Any = game.new_initial_state()
    unsettled = 0
    for move in record.moves:
        if move.by is not None and len(state.open_lines) > 30:
            found = value_task(Task(f"key{len(state.open_lines)}", state, move.action, sims=32, depth=0,
                                    playout="greedy", seed=0, exact=False))
            rounds = max(value_module.MIN_ROUNDS, 32 // found.candidates)
            assert found.playouts <= rounds * found.candidates + 2 * max(value_module.CONFIRM_ROUNDS, rounds)
            gap = found.gap
            assert gap is not None and not found.exact
            if not value_module.settled(analysis, gap, 0.0):
                unsettled += 1
                assert value_module.confident_mark(analysis, gap, found.error) == value_module.UNCLEAR
        state = state.apply_text(move.action)
    assert unsettled >= 3, "an opening's decisions have intervals the bias alone keeps straddling"
