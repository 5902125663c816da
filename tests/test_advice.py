"""Hints in a player's words (plunder.advice): the move to play first, why in game terms, the
next best after it — never an agent's spec or a search's notation."""

from __future__ import annotations

import random
import re

from plunder.advice import advice, chance
from plunder.agents import make_agent
from plunder.core import chance as draws
from plunder.core.agent import Appraiser
from plunder.core.game import State
from plunder.core.registry import entry, load_game

#: what an engine says and a player should not read
JARGON = re.compile(r"mcts|root=|sims=|±|visits|'s move|greedy|profit\b")


def dealt(game_id: str, preset: str | None = None, seed: int = 1) -> State:
    """The first decision of ``game_id`` (chance drawn with ``seed``)."""
    state = load_game(game_id, preset=preset).new_initial_state()
    n = 0
    while state.current_player < 0:
        state = state.apply(draws.draw(state, seed, n))
        n += 1
    return state


def test_a_chance_is_a_share_of_wins() -> None:
    assert (chance(-1.0), chance(0.0), chance(0.34), chance(1.0), chance(3.0)) == (0, 50, 67, 100, 100)


def test_profiteer_hint_names_the_best_valued_move_first_in_words() -> None:
    state = dealt("profiteer")
    hinter = make_agent(entry("profiteer").strength.hint, state.game)
    assert isinstance(hinter, Appraiser)
    judged = hinter.appraise(state, random.Random(3))
    values = [a.value for a in judged]
    assert values == sorted(values, reverse=True), "the moves are not best first"
    lines = advice(hinter, state, random.Random(3))
    legal = {state.game.action_to_text(state, a) for a in state.legal_actions()}
    assert lines[0].startswith("Play ") and lines[0][5:].split(" (")[0] in legal, lines
    assert re.match(r"Why: of \d+ games played out after it you won about \d+%", lines[1]), lines
    assert not any(JARGON.search(line) for line in lines), lines


def test_a_proven_move_tells_the_final_margin() -> None:
    state = dealt("pillage", "example")  # 12 lines: the hard level solves it exactly
    hinter = make_agent("hard", state.game)
    lines = advice(hinter, state, random.Random(1))
    assert lines[0].startswith("Play ")
    assert lines[1].startswith("Why: with best play on both sides you finish ") and "(worked out exactly)" in lines[1]


def test_an_agent_that_only_chooses_is_given_as_the_ai_s_choice() -> None:
    state = dealt("pirates")
    lines = advice(make_agent(entry("pirates").strength.hint, state.game), state, random.Random(1))
    assert lines[0].startswith("Play ") and lines[1] == "Why: it is the move the hard AI would make here."
