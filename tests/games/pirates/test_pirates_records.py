"""Golden records kept as JSON: they must replay to their stored result."""

from __future__ import annotations

from pathlib import Path

import pytest

import plunder
from plunder.core.record import Record
from plunder.match import play
from plunder.games.pirates.rules import PiratesGame, PiratesState

RECORDS = Path(__file__).parent / "records"


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.json")), ids=lambda p: p.stem)
def test_golden_record_replays_to_its_result(path: Path) -> None:
    record = Record.from_json(path.read_text(encoding="utf-8"))
    final = plunder.replay(record)  # raises RecordError if a move or the result differs
    assert final.is_terminal()
    assert final.scores() == record.scores and final.returns() == record.returns


def test_the_drowning_record_ends_in_a_drowning() -> None:
    record = Record.from_json((RECORDS / "random_classic_drowned.json").read_text(encoding="utf-8"))
    final = plunder.replay(record)
    assert isinstance(final, PiratesState) and final.drowned and final.ship == -1


def test_the_greedy_record_is_what_greedy_still_plays() -> None:
    record = Record.from_json((RECORDS / "greedy_brick_seed1.json").read_text(encoding="utf-8"))
    again = play(PiratesGame.load(**record.params), ["greedy"], seed=record.seed)
    assert again.moves == record.moves


def test_a_changed_result_is_refused() -> None:
    record = Record.from_json((RECORDS / "greedy_brick_seed1.json").read_text(encoding="utf-8"))
    assert record.scores is not None
    record.scores = [record.scores[0] + 1]
    with pytest.raises(plunder.RecordError, match="scores"):
        plunder.replay(record)
