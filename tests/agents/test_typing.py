"""Agents are typed by the state they take: mypy refuses one game's agent for another's states.

A snippet of two small games' states and agents is checked by mypy; each line marked
``# refused`` must be reported, and no other line. The snippet imports only the core's agent
and capability modules, so mypy reads a few modules, not the whole package.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

SNIPPET = '''
import random
from typing import Any, Sequence

from plunder.agents.random_agent import RandomAgent
from plunder.core.agent import Agent, AgentFactory, AgentOptions, Evaluator
from plunder.core.capabilities import Strength
from plunder.core.game import Game, State


class RedState(State[int]):
    pass


class BlueState(State[int]):
    pass


class RedAgent:
    name = "red"

    def choose(self, state: RedState, rng: random.Random) -> int:
        return 0


class RedEvaluator:
    batch = 1

    def evaluate(self, states: Sequence[RedState], rng: random.Random) -> list[Sequence[float]]:
        return [[0.0] for _ in states]


def make_red(game: Game[Any], options: AgentOptions) -> RedAgent:
    return RedAgent()


def red_evaluator(game: Game[Any], rollouts: int, playout: str) -> Evaluator[RedState]:
    return RedEvaluator()


RED = AgentFactory(make_red, "red")
red_agent: Agent[RedState] = RedAgent()
any_agent: Agent[RedState] = RandomAgent()
red_strength: Strength[RedState, int] = Strength(agents={"red": RED}, evaluator=red_evaluator)
blue_agent: Agent[BlueState] = RedAgent()  # refused
blue_strength: Strength[BlueState, int] = Strength(agents={"red": RED})  # refused
blue_evaluator: Strength[BlueState, int] = Strength(evaluator=red_evaluator)  # refused


def play_blue(state: BlueState) -> int:
    return RedAgent().choose(state, random.Random())  # refused
'''


def test_an_agent_of_one_games_state_is_refused_for_anothers(tmp_path: Path) -> None:
    source = tmp_path / "snippet.py"
    source.write_text(textwrap.dedent(SNIPPET), encoding="utf-8")
    out, err, status = api.run([str(source), "--cache-dir", str(tmp_path / "cache"), "--no-error-summary"])
    lines = source.read_text(encoding="utf-8").splitlines()
    refused = {i + 1 for i, line in enumerate(lines) if line.endswith("# refused")}
    reported = {int(m.group(1)) for m in re.finditer(r"snippet\.py:(\d+): error", out)}
    assert len(refused) == 4
    assert reported == refused, f"mypy said:\n{out}{err}"
    assert status == 1
