"""A hint says how sure it is: an interval from enough samples, "a guess" from too few."""

import io
import random

from rich.console import Console

import plunder
from plunder.agents import make_agent
from plunder.agents.confidence import alike, judged, plural
from plunder.agents.mcts import SURE_VISITS
from plunder.terminal import PlaySession


def test_plural_counts_one_and_many() -> None:
    assert plural(1, "visit") == "1 visit" and plural(2, "visit") == "2 visits" and plural(0, "trial") == "0 trials"


def test_an_estimate_from_few_samples_is_called_a_guess() -> None:
    assert judged(1.0, 0.0, 1, "visit", 30) == "a guess: +1.00 from only 1 visit"
    # 100 samples of spread 0.5: two standard errors are 2 * 0.5 / 10
    assert judged(0.25, 0.5, 100, "trial", 8) == "+0.25 ± 0.10 from 100 trials"


def test_playouts_all_about_alike_are_said_to_be_a_playouts_value() -> None:
    # an interval that would print as ± 0.00 is said as what it is: the playouts' value (issue 41)
    assert alike(-0.42, 0.0, 66, "greedy") == "-0.42, the value greedy's playouts after it reach (66 trials, all about the same)"
    assert alike(-0.42, 0.01, 66, "greedy") is not None  # ± 0.0025 prints as 0.00
    assert alike(-0.42, 0.05, 66, "greedy") is None and alike(0.5, 0.0, 1, "greedy") is None


def test_a_tree_search_spread_thin_gives_guesses_not_certainties() -> None:
    # 40 simulations over Hubs' hundreds of first segments: one visit a move at most
    state = plunder.load_game("hubs").new_initial_state()
    rng = random.Random(1)
    while state.placing:  # type: ignore[attr-defined]
        state = state.apply(rng.choice(state.legal_actions()))
    agent = make_agent("mcts:sims=40,eval=greedy,depth=2", state.game)
    rows = agent.analyse(state, random.Random(0))  # type: ignore[attr-defined]
    assert all(detail.startswith("a guess: ") for _, detail in rows)
    assert SURE_VISITS > 1 and not any("1 visits" in detail for _, detail in rows)


def test_the_hubs_hint_searches_its_shortlist_and_gives_intervals() -> None:
    game = plunder.load_game("hubs", preset="small")
    out = io.StringIO()
    session = PlaySession(game, [None, make_agent("greedy", game)], 3, Console(file=out, width=80), input)
    greedy, rng = make_agent("greedy", game), random.Random(0)
    while session.state.placing:  # type: ignore[attr-defined]
        session.push(greedy.choose(session.state, rng))
    session.hint()
    said = out.getvalue()
    assert "Hint (mcts:root=greedy" in said and "-1 losing .. +1 winning" in said
    assert " ± " in said and " trials" in said and "visits" not in said
