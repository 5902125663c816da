"""Luck versus skill: seeds sorted by who wins them, the spread in words, the clairvoyant beside the agents."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from plunder.cli import main
from plunder.core.registry import load_game
from plunder.lab import clairvoyant
from plunder.lab.luck import KINDS, Luck, gather, sentences
from plunder.lab.measures import pct
from plunder.lab.store import Row, Run, Store


def solo(agent: str, won: list[bool]) -> list[Row]:
    """Games of ``agent`` alone on seeds 0.., won or lost as ``won`` says."""
    return [Row(i, i, [agent], [1.0 if w else -1.0], [30.0 if w else 20.0], {}) for i, w in enumerate(won)]


def test_a_solitaire_s_seeds_fall_into_four_kinds() -> None:
    # seed:       0      1      2      3      4
    weak = [True, False, False, False, False]
    strong = [True, True, False, False, True]
    seer = [True, True, True, False, True]
    luck = Luck("profiteer", 1, {"weak": solo("weak", weak), "strong": solo("strong", strong),
                                 "seer": solo("seer", seer)}, seer="seer")
    assert luck.ranked() == ["weak", "strong"]
    kinds = luck.kinds()
    assert [kinds[k].hits for k in KINDS] == [1, 2, 1, 1]
    words = " ".join(sentences(luck))
    assert "the strongest agent, strong, wins 60%" in words and "the weakest, weak, 20%" in words
    assert "wins 80%" in words and "20% are lost even with foresight" in words
    # the clairvoyant's gap is worded as a bound on what foresight adds to that agent, not as luck
    assert "Foresight adds at most 20 points to the strong agent's win rate" in words
    assert "an upper bound on what foresight adds to that agent" in words
    assert "of what foresight wins" not in words
    # the spread is the chosen agents', and said to be
    assert "among the agents chosen (weak, strong; the spread reflects these agents only, not the game)" in words


def test_the_spread_is_shown_beside_a_strong_and_weak_reference_pair() -> None:
    def row(i: int, first_wins: bool) -> Row:
        return Row(i, i, ["a", "b"] if i % 2 else ["b", "a"], [1.0, -1.0] if first_wins else [-1.0, 1.0],
                   [1.0, 0.0], {})
    rows = [row(i, i % 3 == 0) for i in range(40)]
    strong = [Row(i, i, ["greedy", "random"][::1 - 2 * (i % 2)], [1.0, -1.0][::1 - 2 * (i % 2)], [1.0, 0.0], {})
              for i in range(40)]
    luck = Luck("pillage", 2, {"a": rows, "b": rows}, reference=("greedy", "random", strong, strong))
    words = sentences(luck)
    assert "these agents play alike" in words[0] and "reflects these agents only" in words[0]
    assert words[1] == ("For reference, a strong and a weak agent on the same seeds: greedy wins 100% (±8.8%) and "
                        "random 0% (±8.8%), a spread of 100 points.")


def test_agents_that_play_alike_are_called_alike() -> None:
    def row(i: int, first_wins: bool) -> Row:
        return Row(i, i, ["a", "b"] if i % 2 else ["b", "a"], [1.0, -1.0] if first_wins else [-1.0, 1.0],
                   [1.0, 0.0], {})
    rows = [row(i, i % 3 == 0) for i in range(40)]
    luck = Luck("pillage", 2, {"a": rows, "b": rows})
    assert "these agents play alike" in sentences(luck)[0]


def test_a_solitaire_s_games_are_stored_and_read_back(tmp_path: Path) -> None:
    game = load_game("profiteer", target="30")
    store = Store(tmp_path / "games.sqlite")
    counted: list[int] = []
    first = gather(store, "profiteer", dict(game.params), ["greedy", "profit"], [], 6, 100, progress=counted.append)
    # greedy, profit and the clairvoyant; of the reference pair (profit, random) random alone is new
    assert sum(counted) == 6 * 5 and first.seer == clairvoyant.label(1)
    assert first.reference is not None and first.reference[:2] == ("profit", "random")
    assert [r.seed for r in first.games[first.seer]] == list(range(100, 106))
    again = gather(store, "profiteer", dict(game.params), ["greedy", "profit"], [], 6, 100)
    assert again.games == first.games
    assert len(store.rows(Run("profiteer", dict(game.params), (first.seer,), 100), 6)) == 6


def test_plunder_report_has_the_section_and_its_plot(tmp_path: Path) -> None:
    out = tmp_path / "r"
    result = CliRunner().invoke(main, ["report", "pirates", "--agents", "greedy,random", "--games", "4", "--luck", "3",
                                       "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Luck versus skill among the agents chosen (random, greedy;" in result.output
    assert "on the same 3 seeds" in result.output and "not a legal player" in result.output
    assert "For reference, a strong and a weak agent on the same seeds: greedy:bank=true wins" in result.output
    assert "A clairvoyant (clairvoyant:level=1) that sees" in result.output
    assert (out / "luck.png").is_file()
    plain = CliRunner().invoke(main, ["report", "pirates", "--agents", "greedy", "--games", "2", "--luck", "0",
                                      "--out", str(tmp_path / "p")], catch_exceptions=False)
    assert "Luck versus skill" not in plain.output and not (tmp_path / "p" / "luck.png").exists()


def test_a_share_just_short_of_all_never_reads_all() -> None:
    assert [pct(x) for x in (0.995, 1.0, 0.5, 0.004, 0.0)] == ["99.5%", "100%", "50%", "0.4%", "0%"]
