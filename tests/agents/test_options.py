"""Agent options are Params: checked by the same resolve as game parameters, listed by ``plunder list``."""

import re

import pytest
from click.testing import CliRunner

import plunder
from plunder.agents import agent_factories, make_agent
from plunder.cli import main


def test_option_errors_read_like_parameter_errors() -> None:
    game = plunder.load_game("pirates")
    with pytest.raises(plunder.ParameterError) as param:
        plunder.load_game("pirates", ties="sometimes")
    with pytest.raises(plunder.ParameterError) as option:
        make_agent("greedy:caution=lots", game)
    assert str(param.value).startswith("pirates parameter ties='sometimes' is not allowed: ")
    assert str(option.value) == "agent greedy option caution='lots' is not allowed: 'lots' is not a number"
    with pytest.raises(plunder.ParameterError, match="agent greedy option caution='11' is not allowed: 11 is above"):
        make_agent("greedy:caution=11", game)


@pytest.mark.parametrize("game_id", plunder.game_ids())
def test_every_option_default_is_accepted(game_id: str) -> None:
    """Each agent builds from its declared defaults, and from each default given explicitly."""
    game = plunder.load_game(game_id)
    for name, factory in agent_factories(game).items():
        assert factory.help
        spec = name + (":" + ",".join(f"{p.name}={p.default}" for p in factory.params) if factory.params else "")
        assert make_agent(spec, game).name == spec


def test_list_shows_every_agents_options_with_defaults_and_help() -> None:
    out = CliRunner().invoke(main, ["list"], env={"COLUMNS": "300"}).output
    generic, games = out.split("pillage —")
    assert "mcts" in generic and "mcts" not in games.replace("mcts:", "").replace("mcts's", "")
    assert re.search(r"\n +seconds +none +also stop after this many seconds a move", generic)
    assert "(moves then depend on the machine: not reproducible)" in generic
    profiteer = games[games.index("profiteer —"):]
    assert re.search(r"\n +war +2\.2 +what a war is worth, in cards", profiteer)  # greedy's
    assert re.search(r"\n +war +2 +what a war is worth, in cards", profiteer)  # profit's
    assert "level hard: mcts:root=profit,sims=200; takes mcts's options" in profiteer


def test_a_cut_budget_shrinks_the_counts_and_starts_the_exact_search_later() -> None:
    from plunder.agents import scaled_spec
    from plunder.core.registry import load_game

    pillage, hubs = load_game("pillage"), load_game("hubs")
    # a sixty-fourth: six halvings, so the solver takes over six lines later
    spec, words = scaled_spec("hard", pillage, 1 / 64)
    assert spec == "hard:sims=109,nodes=1562,endgame=16"
    assert words == ("109 of its 7,000 simulations and 1,562 of its 100,000 positions, "
                     "with its exact search from 16 moves before the end instead of 22")
    make_agent(spec, pillage)  # a spec the agent accepts
    # options given keep their place; a solver from 3 lines left never goes below 0
    assert scaled_spec("hard:endgame=3", pillage, 1 / 16)[0] == "hard:endgame=0,sims=437,nodes=6250"
    # an agent with no exact search has only its simulations cut; a whole budget cuts nothing
    assert scaled_spec("hard", hubs, 0.5)[1] == "48 of its 96 simulations"
    assert scaled_spec("hard", pillage, 1.0) == ("hard", "")


def test_a_cut_budget_names_the_simulations_searched_on_a_big_board() -> None:
    from plunder.agents import scaled_spec
    from plunder.core.registry import load_game

    # on 5x5 (60 lines) hard searches 7,000 x 40 / 60 simulations a move, and half of 3,500 so
    big = load_game("pillage", "big")
    for spec in ("hard", "pillage-hard"):
        cut, words = scaled_spec(spec, big, 0.5)
        assert cut == f"{spec}:sims=3500,nodes=50000,endgame=21"
        assert words.startswith("2,333 of its 4,666 simulations and 50,000 of its 100,000 positions")
