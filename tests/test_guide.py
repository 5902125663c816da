"""``plunder rules GAME``: every game's how-to-play fits one 80x24 screen, in plain words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from plunder.cli import main
from plunder.core.registry import entry, game_ids


@pytest.mark.parametrize("game_id", game_ids())
def test_rules_fit_one_screen_without_ruling_ids(game_id: str) -> None:
    result = CliRunner().invoke(main, ["rules", game_id], catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.output.rstrip("\n").split("\n")
    # 24 rows: the text, and the prompt line the command was typed on; inside play, help adds
    # four rows of commands and the next prompt, so the text keeps to 19
    assert 12 <= len(lines) <= 19, len(lines)
    assert max(len(line) for line in lines) <= 80
    assert not re.search(r"\b[A-Z]{2}-\d+\b", result.output), "plain words: no ruling ids"
    assert result.output.rstrip("\n") == entry(game_id).presentation.how_to_play.rstrip("\n")
    assert "win" in result.output.lower()


def test_rules_of_an_unknown_game_lists_the_games() -> None:
    result = CliRunner().invoke(main, ["rules", "chess"])
    assert result.exit_code == 2
    assert "pillage" in result.output


def test_help_in_play_shows_how_to_play(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "pillage", "--preset", "example", "--vs", "random", "--seed", "3",
                                       "--record", str(tmp_path / "game.json")], input="help\nquit\n",
                                catch_exceptions=False)
    assert "Dots and Boxes where every box holds a prize" in result.output
    assert "lists the legal moves" in " ".join(result.output.split())  # the commands follow
