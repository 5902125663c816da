"""Words a player reads: counts in the right number, ruling ids left to the API."""

import plunder
from plunder.core.errors import without_rulings
from plunder.core.words import plural
from plunder.games.hubs.narrate import breakdown
from plunder.games.hubs.rules import HubsGame, HubsState
from plunder.games.hubs.stats import HubsObserver


def test_plural_agrees_with_the_count() -> None:
    assert plural(1, "point") == "1 point" and plural(0, "point") == "0 points"
    assert plural(1, "box", "boxes") == "1 box" and plural(2, "box", "boxes") == "2 boxes"


def test_without_rulings_drops_every_cited_id() -> None:
    assert without_rulings("the piles are unequal (PF-6)") == "the piles are unequal"
    assert without_rulings("the last pass is over (PF-8, max_rounds); go on (PP-5 amended)") == \
        "the last pass is over; go on"


def test_a_round_of_one_segment_is_told_in_the_singular() -> None:
    # a . b    two dots, one segment a-b: each dot then has one, and no segment is left (HB-5)
    game = HubsGame.load(preset=None, width=3, height=2, dots=2)
    state, observer = game.new_initial_state(), HubsObserver(game)
    for text in ["dot 0,0", "dot 2,0", "seg a-b", "dot 0,0", "dot 2,0", "seg a-b"]:
        action = game.parse_action(state, text)
        before, state = state, state.apply(action)
        observer.see(before, action, state)
    assert isinstance(state, HubsState) and state.is_terminal()
    assert "(1 segment, at most 1 at a dot" in breakdown(state, observer.breakdown_figures(state))[0]


def test_the_pirates_breakdown_counts_one_standoff_in_the_singular() -> None:
    from plunder.match import breakdown_of

    game = plunder.load_game("pirates")
    # the standoffs are the game's observer's count, shown every move of the game
    assert "1 standoff;" in breakdown_of(game, plunder.play(game, ["greedy"], seed=8).moves)[-1]
