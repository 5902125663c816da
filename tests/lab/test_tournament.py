"""``plunder tournament``: every mix of seats, win shares split on ties, and the replicator dynamics."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from plunder.cli import main
from plunder.lab.store import Row
from plunder.lab.tournament import Table, fitness, mixes, replicator, round_robin, standing, win_shares, words


def game(seats: list[str], returns: list[float]) -> Row:
    return Row(0, 0, seats, returns, [0.0] * len(seats), {})


def test_a_tie_at_the_top_splits_the_win() -> None:
    assert win_shares(game(["a", "b", "c"], [1.0, -1.0, -1.0])) == [1.0, 0.0, 0.0]
    assert win_shares(game(["a", "b", "c"], [0.0, 0.0, -1.0])) == [0.5, 0.5, 0.0]


def test_every_mix_of_seats_is_played_once() -> None:
    assert len(mixes(["a", "b", "c", "d"], 3)) == 20  # multisets: C(4 + 3 - 1, 3)
    assert mixes(["a", "b"], 2) == [("a", "a"), ("a", "b"), ("b", "b")]


def dominance() -> list[Table]:
    """Two players: hawk beats dove every time; a mirror match is a coin flip."""
    return [Table(("hawk", "hawk"), [game(["hawk", "hawk"], [1.0, -1.0]), game(["hawk", "hawk"], [-1.0, 1.0])]),
            Table(("hawk", "dove"), [game(["hawk", "dove"], [1.0, -1.0]), game(["dove", "hawk"], [-1.0, 1.0])]),
            Table(("dove", "dove"), [game(["dove", "dove"], [1.0, -1.0]), game(["dove", "dove"], [-1.0, 1.0])])]


def test_fitness_is_the_win_share_against_a_drawn_opponent() -> None:
    tables = dominance()
    assert fitness(tables, ["hawk", "dove"], [0.5, 0.5]) == pytest.approx([0.75, 0.25])
    assert round_robin(tables, ["hawk", "dove"]) == pytest.approx({"hawk": 0.75, "dove": 0.25})


def test_the_dominant_agent_takes_over_and_shares_stay_a_distribution() -> None:
    history = replicator(dominance(), ["hawk", "dove"], 30)
    assert history[0] == [0.5, 0.5] and len(history) == 31
    assert all(sum(h) == pytest.approx(1.0) for h in history)
    assert [h[0] for h in history] == sorted(h[0] for h in history)  # hawk's share only grows
    assert history[-1][0] > 0.99


def close_call(edge: int, games: int = 40) -> list[Table]:
    """Two players: in ``games`` games between them "sharp" wins ``games // 2 + edge``; mirror
    matches are coin flips."""
    def between(a: str, b: str, a_wins: int) -> list[Row]:
        return [game([a, b], [1.0, -1.0] if i < a_wins else [-1.0, 1.0]) for i in range(games)]
    return [Table(("sharp", "sharp"), between("sharp", "sharp", games // 2)),
            Table(("sharp", "dull"), between("sharp", "dull", games // 2 + edge)),
            Table(("dull", "dull"), between("dull", "dull", games // 2))]


def test_the_replicator_verdict_comes_with_its_bootstrap_support_and_ranges() -> None:
    agents = ["sharp", "dull"]
    # one game in forty more: the sample cannot tell who takes over
    close = standing(close_call(1), agents, 200)
    said = words(close, agents)
    assert close.resampled.resamples == 200 and 0.3 < close.resampled.support < 0.95
    assert "sharp takes over, in" in said[1] and "bootstrap resamples of the games (not settled" in said[1]
    lo, hi = close.resampled.final["sharp"]
    assert lo < 0.05 and hi > 0.95  # the final share may be anything: its range says so
    assert "sharp 100% (" in said[1] and "95% bootstrap range" in said[0]
    # thirty games in forty: every resample agrees
    clear = standing(close_call(10), agents, 200)
    assert clear.resampled.support == 1.0 and "(settled)" in words(clear, agents)[1]


def test_plunder_tournament_writes_its_tables_and_plot_and_resumes(tmp_path: Path) -> None:
    args = ["tournament", "crossroads", "--agents", "always-fair,grudger", "--players", "2", "--games", "1",
            "--generations", "5", "--out", str(tmp_path / "t")]
    first = CliRunner().invoke(main, args, catch_exceptions=False)
    assert first.exit_code == 0, first.output
    assert "2 players: 3 mixes of seats, 6 games" in first.output  # 1 game rounded up to 2: both seats
    assert "after 5 generations" in first.output
    text = (tmp_path / "t" / "tournament.md").read_text(encoding="utf-8")
    assert "| always-fair, grudger | 2 |" in text
    assert (tmp_path / "t" / "replicator.png").read_bytes().startswith(b"\x89PNG")
    assert CliRunner().invoke(main, args, catch_exceptions=False).output == first.output
    bad = CliRunner().invoke(main, ["tournament", "pillage", "--agents", "greedy", "--players", "3",
                                    "--out", str(tmp_path / "p")])
    assert bad.exit_code == 1 and "pillage is played by 2 players, not 3" in bad.output
