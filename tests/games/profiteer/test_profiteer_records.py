"""Golden records: games kept as JSON data must replay to their stored results."""

from __future__ import annotations

from pathlib import Path

import pytest

import plunder
from plunder import Record, RecordError
from plunder.core.record import Move
from plunder.games.profiteer.cards import parse_card

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


def test_there_are_golden_records() -> None:
    assert RECORDS


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record_replays_to_its_result(path: Path) -> None:
    record = Record.from_json(path.read_text(encoding="utf-8"))
    assert record.game == "profiteer" and record.returns is not None
    final = plunder.replay(record)
    assert final.is_terminal()
    assert final.returns() == record.returns and final.scores() == record.scores
    # the stored outcome is the one the rules give: a win is exactly target cards or more
    target = int(record.params["target"])
    assert (final.scores()[0] >= target) == (record.returns == [1.0])


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_changed_card_in_a_golden_record_is_refused(path: Path) -> None:
    record = Record.from_json(path.read_text(encoding="utf-8"))
    # the first flip of side A: the 11th chance move, after the ten-card hand
    index = 10
    moves = list(record.moves)
    # the highest card of the hand is a resource, so it cannot be in side A's deck (PF-9)
    top = max((m.action for m in moves[:index]), key=parse_card)
    moves[index] = Move(None, top)
    bad = Record(record.game, record.params, record.seed, record.players, moves, record.returns, record.scores)
    with pytest.raises(RecordError) as err:
        plunder.replay(bad)
    assert err.value.index == index and "PF-9" in str(err.value)
