"""Golden records: saved games that must replay through the rules to their stored result."""

import json
from pathlib import Path

import pytest

import plunder
from plunder.core.errors import RecordError
from plunder.core.record import Record, replay
from plunder.match import play

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


def test_there_are_golden_records() -> None:
    assert RECORDS


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_record_replays_to_its_stored_result(path: Path) -> None:
    record = Record.from_json(path.read_text(encoding="utf-8"))
    assert record.game == "hubs" and record.returns is not None and record.scores is not None
    final = replay(record)  # raises if any move is illegal or the result differs
    assert final.is_terminal()
    assert final.scores() == record.scores and final.returns() == record.returns


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_the_same_agents_and_seed_play_the_record_again(path: Path) -> None:
    record = Record.from_json(path.read_text(encoding="utf-8"))
    game = plunder.load_game("hubs", **record.params)
    assert play(game, record.players, seed=record.seed) == record


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_doctored_score_is_refused(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match="scores"):
        replay(Record.from_json(json.dumps(data)))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_repeated_segment_is_refused_at_its_move(path: Path) -> None:
    record = Record.from_json(path.read_text(encoding="utf-8"))
    # Draw the first segment of the match a second time, in place of the second one.
    segs = [k for k, m in enumerate(record.moves) if m.action.startswith("seg")]
    record.moves[segs[1]] = type(record.moves[0])(record.moves[segs[1]].by, record.moves[segs[0]].action)
    with pytest.raises(RecordError, match=r"HB-2") as info:
        replay(record)
    assert info.value.index == segs[1]
