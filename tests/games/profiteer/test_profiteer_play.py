"""Agents, the rich table and the move descriptions."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rich.console import Console

import plunder
from plunder import ParameterError
from plunder.agents import make_agent
from plunder.core.registry import entry
from plunder.match import agent_rng
from plunder.games.profiteer.agents import GreedyAgent, balance_choice
from plunder.games.profiteer.cards import parse_card, parse_cards
from plunder.games.profiteer.actions import END, KEEP, Give, Side, Switch
from plunder.games.profiteer.cards import Rank
from plunder.games.profiteer.rules import ProfiteerState
from tests.games.profiteer.profiteer_helpers import deal, game, stacked


def _text(state: ProfiteerState) -> str:
    render = entry("profiteer").presentation.render
    assert render is not None
    console = Console(record=True, width=100, color_system=None)
    console.print(render(state))
    return console.export_text()


def test_greedy_makes_a_war_when_the_sides_are_level() -> None:
    # side A deck: 8S 2C   side B deck: QH 3C   resources: QC KS  (sides level: 0 v 0)
    #   A 8S v B QH: switching A's 8S for QC makes a war
    s = deal(stacked(game(), a="8S 2C", b="QH 3C", res="QC KS"), "8S QH")
    assert GreedyAgent().choose(s, random.Random(0)) == Switch(Side.A, Rank.QUEEN)


def test_greedy_keeps_the_sides_level() -> None:
    # side A has won 6 more cards than B; A 9S v B 4C would make it 8.
    #   no resource equals the 9, so no war: give B the flip with the cheapest card above 9
    s = deal(stacked(game(), a="9S 2C", b="4C 3C", res="10D KS AH", da="5S 5H 6S 6H 7S 7H"), "9S 4C")
    assert GreedyAgent().choose(s, random.Random(0)) == Switch(Side.B, Rank.TEN)
    # when B is the one ahead, letting A win already levels: pass
    s = deal(stacked(game(), a="9S 2C", b="4C 3C", res="10D KS AH", db="5S 5H 6S 6H 7S 7H"), "9S 4C")
    assert GreedyAgent().choose(s, random.Random(0)) == KEEP


def test_balance_choice_ends_only_to_lock_in_a_win() -> None:
    # count A 4, B 2; profiteer at 26 with the rest of the pile: gifts would drop below 26
    table: dict[str, Any] = dict(a="9S 8S 2D", b="2C 3C KD", res="4H 5H 6H")
    s = deal(stacked(game(), **table, rest_to_profiteer=True), "9S 2C keep 8S 3C keep 2D KD keep")
    assert s.total() == 46
    assert balance_choice(s) == Give(Rank.FOUR)            # 46 - 2 still wins: go on
    low = stacked(game(target="45"), **table, rest_to_profiteer=True)
    low = deal(low, "9S 2C keep 8S 3C keep 2D KD keep")
    assert balance_choice(low) == END                                # 46 wins, 44 would not
    poor = deal(stacked(game(), **table), "9S 2C keep 8S 3C keep 2D KD keep")
    assert balance_choice(poor) == Give(Rank.FOUR)           # 3 < 26: balancing is the only hope


def test_agent_specs_and_options() -> None:
    g = plunder.load_game("profiteer")
    assert isinstance(make_agent("greedy:war=3,level=0.4", g), GreedyAgent)
    with pytest.raises(ParameterError, match="no option"):
        make_agent("greedy:bogus=1", g)
    with pytest.raises(ParameterError, match="not a number"):
        make_agent("profit:war=lots", g)


@pytest.mark.parametrize("agent", ["greedy", "profit"])
def test_agents_beat_random(agent: str) -> None:
    g = plunder.load_game("profiteer")
    fast_play = entry("profiteer").speed.fast_play
    assert fast_play is not None

    def mean(name: str) -> float:
        agent = make_agent(name, g)
        results = [fast_play(g, [agent], [agent_rng(seed, 0)], seed) for seed in range(150)]
        return sum(r.scores[0] for r in results if r is not None) / 150

    assert mean(agent) > mean("random") + 5


def test_table_shows_both_sides_the_cards_and_the_profiteer() -> None:
    s = deal(stacked(game(), a="8S 2C", b="QH 3C", res="QC KS", da="4D", db="5D 6D"), "8S QH")
    text = _text(s)
    for part in ("Side A", "Side B", "8♠", "Q♥", "Q♣ K♠", "2 cards, target 26", "profiteer to keep the flip or switch"):
        assert part in text, part
    assert "1" in text.split("Side A")[1].split("\n")[0]      # A's deck and discard counts


def test_table_in_a_war() -> None:
    # side A deck: 5S 5D 2C   side B deck: 5H 9C 2D   -> A 5S v B 5H: war, 2 face-up cards at stake
    s = deal(stacked(game(), a="5S 5D 2C", b="5H 9C 2D"), "5S 5H")
    assert "WAR, round 1: 2 face-up cards go to the winner" in _text(s)
    s = deal(s, "5D 9C 2C 2D")
    assert s.last.startswith("war round 1: A 5D v B 9C: side B takes 4 cards; pass 1 counted")
    assert "war round 1: A 5D v B 9C" in _text(s)


def test_table_at_the_count_and_at_the_end() -> None:
    s = deal(stacked(game(), a="9S 8S 2D", b="2C 3C KD", res="4H 5H 6H"), "9S 2C keep 8S 3C keep 2D KD keep")
    assert "Give 2 cards to side B" in _text(s)
    over = deal(s, "end")
    assert "Game over" in _text(over) and "loses with 3 cards" in _text(over)


def test_describe_says_who_wins_and_whether_it_makes_a_war() -> None:
    describe = entry("profiteer").presentation.describe
    assert describe is not None
    s = deal(stacked(game(), a="8S 2C", b="QH 3C", res="QC KS"), "8S QH")
    said = {s.game.action_to_text(s, a): describe(s, a) for a in s.legal_actions()}
    assert said["keep"] == "let it stand: side B wins the flip"
    assert "makes a WAR (Qs tie)" in said["switch A Q"]
    assert said["switch A K"].endswith("side A wins the flip")
    assert said["switch B K"].endswith("side B wins the flip")
    b = deal(stacked(game(), a="9S 8S 2D", b="2C 3C KD", res="4H 5H 6H"), "9S 2C keep 8S 3C keep 2D KD keep")
    assert describe(b, Give(Rank.FOUR)) == "give 4H to side B"
    assert describe(b, END) == "end the game with 3 cards"


def test_str_picture() -> None:
    s = deal(stacked(game(), a="8S 2C", b="QH 3C", res="QC KS"), "8S QH")
    assert "resources: QC KS" in str(s) and "face up QH" in str(s)
    assert parse_cards("QC KS") == s.resources
