"""Golden records: stored games that must replay to their stored result."""

from __future__ import annotations

import pathlib

import plunder
import pytest

RECORDS = sorted((pathlib.Path(__file__).parent / "records").glob("*.json"))


def test_there_are_golden_records() -> None:
    assert len(RECORDS) >= 2


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_record_replays_to_its_result(path: pathlib.Path) -> None:
    record = plunder.Record.from_json(path.read_text())
    assert record.returns is not None and record.scores is not None
    final = plunder.replay(record)  # raises if any move or the result disagrees
    assert final.is_terminal()
    assert final.scores() == record.scores


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_same_agents_and_seed_play_the_same_game(path: pathlib.Path) -> None:
    record = plunder.Record.from_json(path.read_text())
    game = plunder.load_game(record.game, **record.params)
    again = plunder.play(game, record.players, seed=record.seed)
    assert again.moves == record.moves and again.returns == record.returns


def test_a_tampered_golden_record_is_refused_at_the_bad_move() -> None:
    record = plunder.Record.from_json(RECORDS[0].read_text())
    index = next(i for i, m in enumerate(record.moves) if m.action.startswith("offer"))
    record.moves[index] = plunder.Move(record.moves[index].by, "offer J10-A1 gold 3/0")
    with pytest.raises(plunder.RecordError) as err:
        plunder.replay(record)
    assert err.value.index == index
