"""The analysis engine names no game: what it needs of one is that game's ``Analysis`` capability."""

from __future__ import annotations

from pathlib import Path

from plunder.core.registry import game_ids
from tests.lab.test_no_game_names import words_in_code

#: the engine's sources
ENGINE = Path(__file__).resolve().parents[2] / "src" / "plunder" / "analysis"


def test_the_engine_names_no_game() -> None:
    sources = sorted(ENGINE.glob("*.py"))
    assert sources, "the engine's sources were found"
    for path in sources:
        for line, text in words_in_code(path.read_text(encoding="utf-8")):
            named = [game for game in game_ids() if game in text.lower()]
            assert not named, f"{path.name}:{line} names {named} in {text!r}"
