"""Golden records kept as data: they must replay to their stored results, and replaying
the same seed and agents must still produce them move for move (so a rules or agent change
that alters play shows up here)."""

from pathlib import Path

import pytest

import plunder

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_record_replays(path: Path) -> None:
    record = plunder.Record.from_json(path.read_text())
    final = plunder.replay(record)
    assert final.is_terminal()
    assert final.returns() == record.returns and final.scores() == record.scores


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_record_is_reproduced_from_its_seed(path: Path) -> None:
    record = plunder.Record.from_json(path.read_text())
    game = plunder.load_game(record.game, **record.params)
    assert plunder.play(game, record.players, seed=record.seed) == record


def test_there_are_golden_records() -> None:
    assert len(RECORDS) >= 4
