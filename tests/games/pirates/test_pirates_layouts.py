"""Layouts from files and inline (PR-1): read once, stored in the parameter text, limited."""

from __future__ import annotations

from pathlib import Path

import pytest

import plunder
from plunder import ParameterError
from plunder.core.record import Record
from plunder.match import play
from plunder.games.pirates.rules import PiratesGame

# The file's two tiles, written as a player might (offset, unsorted, a comment, "x y"):
#
#      0 1 2 3 4 5        as the game draws the sea: tiles at 1,1 and 3,1
#   0  # # # # # #
#   1  # . . . . #
#   2  # . . . . #
#   3  # # # # # #
LAYOUT_FILE = "# two tiles\n12 10\n10,10   # the western one\n"


def test_a_layout_file_is_stored_inline_so_its_records_replay_without_it(tmp_path: Path) -> None:
    path = tmp_path / "pair.txt"
    path.write_text(LAYOUT_FILE, encoding="utf-8")
    game = plunder.load_game("pirates", layout=f"file:{path}")
    assert game.params["layout"] == "tiles:1,1;3,1"
    record = play(game, ["random"], seed=3)
    path.unlink()
    again = Record.from_json(record.to_json())
    assert again.params["layout"] == "tiles:1,1;3,1"
    assert plunder.replay(again).scores() == record.scores


def test_one_sea_has_one_canonical_text() -> None:
    for text in ("tiles:3,1;1,1", " tiles:1,1; 3,1 ", "tiles:11,21;13,21"):
        assert PiratesGame.load(layout=text).params["layout"] == "tiles:1,1;3,1"
    assert PiratesGame.load(layout=" ring ").params["layout"] == "ring"
    game = PiratesGame.load(turns=" 7 ", goal="0100", seed="+3")
    assert (game.params["turns"], game.params["goal"], game.params["seed"]) == ("7", "100", "3")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/stdin", "/dev/null"])
def test_a_layout_that_is_not_a_regular_file_is_refused_before_reading(device: str) -> None:
    with pytest.raises(ParameterError, match="not a regular file|cannot open"):
        PiratesGame.load(layout=f"file:{device}")


def test_layout_file_limits(tmp_path: Path) -> None:
    with pytest.raises(ParameterError, match="cannot open layout file"):
        PiratesGame.load(layout=f"file:{tmp_path}/missing.txt")
    many = tmp_path / "many.txt"
    many.write_text("".join(f"{2 * i},0\n" for i in range(10_000)), encoding="utf-8")
    with pytest.raises(ParameterError, match="line 25: more than 24 tiles"):
        PiratesGame.load(layout=f"file:{many}")
    big = tmp_path / "big.txt"
    big.write_text("1,1\n" + "#" * 1_000_001, encoding="utf-8")
    with pytest.raises(ParameterError, match="the limit is 1000000"):
        PiratesGame.load(layout=f"file:{big}")
    far = tmp_path / "far.txt"
    far.write_text("1,1\n99999,1\n", encoding="utf-8")
    with pytest.raises(ParameterError, match="line 2: .* at most 4 digits"):
        PiratesGame.load(layout=f"file:{far}")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"1,1\n\xff\n")
    with pytest.raises(ParameterError, match="not UTF-8"):
        PiratesGame.load(layout=f"file:{binary}")


def test_other_parameters_have_limits() -> None:
    with pytest.raises(ParameterError, match="above the maximum"):
        PiratesGame.load(seed=2**63)
    with pytest.raises(ParameterError, match="above the maximum"):
        PiratesGame.load(goal=10**9 + 1)
