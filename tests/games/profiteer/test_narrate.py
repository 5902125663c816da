"""Profiteer narration and the end-of-game count, on a scripted game and on played games."""

from __future__ import annotations

from plunder.agents import make_agent
from plunder.games.profiteer import ENTRY
from plunder.games.profiteer.narrate import breakdown, narrate
from plunder.games.profiteer.rules import ProfiteerGame, ProfiteerState

from tests.games.narration import moves, told


HAND = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "2C", "3C"]


def test_a_flip_a_war_and_a_switch() -> None:
    game = ProfiteerGame.load()
    state, said = told(narrate, game.new_initial_state(), *HAND)
    assert said[0] == "You draw AS for your first hand"
    assert said[-1] == "You draw 3C for your first hand; resources drawn; 2C 3C shuffled back into the deck"
    # text step 5b: equal cards are War; the face-down cards go to the profiteer
    state, said = told(narrate, state, "5H", "5D", "keep", "9H", "4D", "2H", "3H")
    assert said == [
        "Side A turns up 5H",
        "Side B turns up 5D; your move: keep, or switch a card for a higher resource",
        "You let the flip stand; War! Both sides flip again (war round 1)",
        "Side A turns up 9H",
        "Side B turns up 4D",
        "Side A's face-down war card 2H goes to you",
        "Side B's face-down war card 3H goes to you; war round 1: A 9H v B 4D: side A takes 4 cards",
    ]
    # text step 4: the card given must outrank the one taken, which goes to the profiteer
    state, said = told(narrate, state, "6C", "8D", "switch A 7")
    assert said[-1] == "You switched side A's 6C for your 7S (6C goes to your pile); A 7S v B 8D: side B takes 2 cards"
    state, said = told(narrate, state, "9C", "9D", "switch B K")
    assert said[-1] == "You switched side B's 9D for your KS (9D goes to your pile); A 9C v B KS: side B takes 2 cards"


def test_every_move_of_played_games_is_told() -> None:
    for preset, seed in (("default", 1), ("short", 2), ("lean", 3), ("war_switch", 4)):
        game = ProfiteerGame.load(preset=preset)
        agent = make_agent("greedy", game)
        for state, action, after in moves(game, [agent], seed):
            said = narrate(state, action, after)
            assert said and "\n" not in said and "PF-" not in said
            state = after
        assert said.endswith("you win" if state.total() >= game.target else "you lose")
        lines = breakdown(state, {})
        assert lines[0].startswith("Your cards: ") and f"= {state.total()} of {game.target} needed" in lines[0]
    assert ENTRY.presentation.narrate is narrate and ENTRY.presentation.breakdown is breakdown
