"""Records: JSON round trip, exact replay, refusal of tampered or malformed records."""

import json

import pytest

import plunder
from plunder.core.record import Move


@pytest.fixture
def record() -> plunder.Record:
    game = plunder.load_game("pillage", board="square:2x2", contents="random")
    return plunder.play(game, ["greedy", "random"], seed=7)


def test_record_holds_everything_a_replay_needs(record) -> None:
    data = json.loads(record.to_json())
    assert data["format"] == "plunder-record" and data["version"] == 1
    assert data["game"] == "pillage" and data["params"]["board"] == "square:2x2"
    assert data["seed"] == 7 and data["players"] == ["greedy", "random"]
    assert data["moves"][0]["by"] == "chance" and data["moves"][0]["action"].startswith("deal ")
    assert data["result"]["returns"] == record.returns


def test_same_seed_same_game(record) -> None:
    game = plunder.load_game("pillage", board="square:2x2", contents="random")
    again = plunder.play(game, ["greedy", "random"], seed=7)
    assert again == record
    other = plunder.play(game, ["greedy", "random"], seed=8)
    assert other.moves != record.moves


def test_replay_reaches_the_recorded_result(record) -> None:
    final = plunder.replay(plunder.Record.from_json(record.to_json()))
    assert final.is_terminal() and final.returns() == record.returns and final.scores() == record.scores


def test_tampered_action_is_named(record) -> None:
    data = json.loads(record.to_json())
    index = next(i for i, m in enumerate(data["moves"]) if m["by"] != "chance")
    first_line = data["moves"][index]["action"]
    data["moves"][index + 1]["action"] = first_line  # the same line twice
    with pytest.raises(plunder.RecordError, match=rf"move {index + 1} '{first_line}'.*already drawn.*PP-4") as err:
        plunder.replay(plunder.Record.from_json(json.dumps(data)))
    assert err.value.index == index + 1


def test_wrong_mover_is_refused(record) -> None:
    moves = list(record.moves)
    i = next(i for i, m in enumerate(moves) if m.by is not None)
    moves[i] = Move(1 - moves[i].by, moves[i].action)
    bad = plunder.Record(record.game, record.params, record.seed, record.players, moves, record.returns, record.scores)
    with pytest.raises(plunder.RecordError, match=f"move {i}.*to act"):
        plunder.replay(bad)


def test_forged_result_is_refused(record) -> None:
    forged = plunder.Record(record.game, record.params, record.seed, record.players, record.moves,
                            [-x for x in record.returns or []] or [1.0, -1.0], record.scores)
    if forged.returns == record.returns:
        pytest.skip("a tie cannot be forged by negation")
    with pytest.raises(plunder.RecordError, match="does not match"):
        plunder.replay(forged)


@pytest.mark.parametrize(
    "text, words",
    [
        ("[]", "JSON object"),
        ("{", "not valid JSON"),
        ('{"format": "chess"}', "format must be"),
        ('{"format": "plunder-record", "version": 9}', "version 9"),
        ('{"format": "plunder-record", "version": 1, "game": "pillage", "params": {}, "players": [], "moves": [3]}',
         "move 0 must be an object"),
        ('{"format": "plunder-record", "version": 1, "game": "pillage", "params": {}, "players": [], "moves": []'
         ', "seed": "x"}', "seed"),
    ],
)
def test_malformed_records_say_what_is_wrong(text, words) -> None:
    with pytest.raises(plunder.RecordError, match=words):
        plunder.Record.from_json(text)


def test_record_of_unknown_game_is_refused() -> None:
    bad = plunder.Record("chess", {}, 1, ["a", "b"], [])
    with pytest.raises(plunder.RecordError, match="unknown game 'chess'"):
        plunder.replay(bad)
