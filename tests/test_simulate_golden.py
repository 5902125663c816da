"""``plunder simulate --json`` and each game's statistics, against golden files.

The golden files in ``tests/golden/`` were written by the code before the statistics left the
game states for the games' observers (``GameEntry.study.observer``): every game must play and count
exactly as it did. ``python -m tests.test_simulate_golden`` writes them again, for a deliberate
change of the rules or of the statistics.
"""

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from plunder.cli import main
from plunder.core.registry import load_game
from plunder.simulate import play_chunk

GOLDEN = Path(__file__).parent / "golden"
SEED = 123
GAMES = 20

#: name -> (game, preset, parameters, agents): every game, its statistics all counted, and
#: Crossroads with four players who trade and quarrel
CASES: dict[str, tuple[str, str | None, dict[str, str], str]] = {
    "pillage_small": ("pillage", "small", {}, "greedy,random"),
    "pirates_classic": ("pirates", None, {}, "greedy,random"),
    "hubs_small": ("hubs", "small", {}, "greedy,random"),
    "profiteer_default": ("profiteer", None, {}, "greedy,profit,random"),
    "profiteer_war_switch": ("profiteer", "war_switch", {}, "random,greedy"),
    "crossroads_4p_trades": ("crossroads", None, {"players": "4"}, "greedy-splitter,tit-for-tat,grudger"),
    "crossroads_4p_fees": ("crossroads", None, {"players": "4"}, "greedy-splitter,random,greedy"),
    "profiteer_short": ("profiteer", "short", {}, "greedy,random"),
    "crossroads_2p": ("crossroads", None, {"players": "2"}, "greedy,random"),
}


def simulated(name: str) -> str:
    """What ``plunder simulate ... --json`` prints for case ``name``."""
    game, preset, params, agents = CASES[name]
    options = (["--preset", preset] if preset else []) + [a for k, v in params.items() for a in ("-p", f"{k}={v}")]
    runs = ["--agents", agents, "--games", str(GAMES), "--seed", str(SEED), "--json"]
    result = CliRunner().invoke(main, ["simulate", game, *options, *runs], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def per_game(name: str) -> str:
    """Every game of case ``name`` (seats, returns, scores, statistics) as JSON lines."""
    game, preset, params, agents = CASES[name]
    rows = play_chunk((game, dict(load_game(game, preset, **params).params), agents.split(","), list(range(GAMES)), SEED))
    return "".join(json.dumps([i, *result], sort_keys=True) + "\n" for i, result in rows)


@pytest.mark.parametrize("name", sorted(CASES))
def test_simulate_json_is_unchanged(name: str) -> None:
    assert simulated(name) == (GOLDEN / f"{name}.json").read_text()


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_game_counts_as_before(name: str) -> None:
    golden = (GOLDEN / f"{name}.games.jsonl").read_text()
    assert per_game(name) == golden
    # the cases count something: a golden file of empty statistics would prove nothing
    assert any(json.loads(line)[4] for line in golden.splitlines())


def write_golden() -> None:
    """Write every golden file again from the code as it is."""
    GOLDEN.mkdir(exist_ok=True)
    for name in CASES:
        (GOLDEN / f"{name}.json").write_text(simulated(name))
        (GOLDEN / f"{name}.games.jsonl").write_text(per_game(name))


if __name__ == "__main__":
    write_golden()
    sys.exit(0)
