"""Records: JSON round trip, exact replay, refusal of tampered or malformed records."""

import json
from pathlib import Path
from typing import Any

import pytest

import plunder
from plunder.core.record import Move


@pytest.fixture
def record() -> plunder.Record:
    game = plunder.load_game("pillage", board="square:2x2", contents="random")
    return plunder.play(game, ["greedy", "random"], seed=7)


def test_record_holds_everything_a_replay_needs(record: plunder.Record) -> None:
    data = json.loads(record.to_json())
    assert data["format"] == "plunder-record" and data["version"] == 2 and data["chance"] == "seed"
    assert data["game"] == "pillage" and data["params"]["board"] == "square:2x2"
    assert data["seed"] == 7 and data["players"] == ["greedy", "random"]
    assert data["moves"][0]["by"] == "chance" and data["moves"][0]["action"].startswith("deal ")
    assert data["result"]["returns"] == record.returns


def test_same_seed_same_game(record: plunder.Record) -> None:
    game = plunder.load_game("pillage", board="square:2x2", contents="random")
    again = plunder.play(game, ["greedy", "random"], seed=7)
    assert again == record
    other = plunder.play(game, ["greedy", "random"], seed=8)
    assert other.moves != record.moves


def test_replay_reaches_the_recorded_result(record: plunder.Record) -> None:
    final = plunder.replay(plunder.Record.from_json(record.to_json()))
    assert final.is_terminal() and final.returns() == record.returns and final.scores() == record.scores


def test_tampered_action_is_named(record: plunder.Record) -> None:
    data = json.loads(record.to_json())
    index = next(i for i, m in enumerate(data["moves"]) if m["by"] != "chance")
    first_line = data["moves"][index]["action"]
    data["moves"][index + 1]["action"] = first_line  # the same line twice
    with pytest.raises(plunder.RecordError, match=rf"move {index + 1} '{first_line}'.*already drawn.*PP-4") as err:
        plunder.replay(plunder.Record.from_json(json.dumps(data)))
    assert err.value.index == index + 1


def test_wrong_mover_is_refused(record: plunder.Record) -> None:
    moves = list(record.moves)
    i, mover = next((i, m.by) for i, m in enumerate(moves) if m.by is not None)
    moves[i] = Move(1 - mover, moves[i].action)
    bad = plunder.Record(record.game, record.params, record.seed, record.players, moves, record.returns, record.scores)
    with pytest.raises(plunder.RecordError, match=f"move {i}.*to act"):
        plunder.replay(bad)


def test_forged_result_is_refused(record: plunder.Record) -> None:
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
        ('{"format": "chess"}', "'format' must be"),
        ('{"format": "plunder-record", "version": 9}', "version 9"),
        ('{"format": "plunder-record", "version": 1, "game": "pillage", "params": {}, "players": [], "moves": [3],'
         ' "seed": 1, "result": null}', "move 0 must be an object"),
        ('{"format": "plunder-record", "version": 1, "game": "pillage", "params": {}, "players": [], "moves": []'
         ', "seed": "x", "result": null}', "seed"),
    ],
)
def test_malformed_records_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(plunder.RecordError, match=words):
        plunder.Record.from_json(text)


def test_record_of_unknown_game_is_refused() -> None:
    bad = plunder.Record("chess", {}, 1, ["a", "b"], [])
    with pytest.raises(plunder.RecordError, match="unknown game 'chess'"):
        plunder.replay(bad)


# --- strict fields (issue 11 items 6, 7, 15) ------------------------------------------------------

def _edited(record: plunder.Record, **changes: Any) -> str:
    """The record's JSON with top-level fields replaced (``None`` values delete the field)."""
    data = json.loads(record.to_json())
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"version": True}, "version True is not supported"),
        ({"seed": True}, "'seed' must be a whole number"),
        ({"seed": -1}, "'seed' must be a whole number"),
        ({"seed": 1.5}, "'seed' must be a whole number"),
        ({"chance": "maybe"}, "'chance' must be one of"),
        ({"chance": None}, "'chance' is missing"),
        ({"players": ["greedy", "random", "random"]}, "names 3 players; pillage .*has 2 seats"),
        ({"players": "greedy"}, "'players' must be a list"),
        ({"players": ["greedy", 7]}, r"players\[1\]' must be non-empty text"),
        ({"players": ["greedy", "\x1b[31mred"]}, "control or unprintable character"),
        ({"params": {"floor": 3}}, "parameter 'floor' must be text"),
        ({"params": []}, "'params' must be an object"),
        ({"params": {"board": "file:/etc/hostname"}}, "names a file"),
        ({"result": {"returns": 5, "scores": [1, 2]}}, "result.returns must be a list of finite numbers"),
        ({"result": {"returns": [1, True], "scores": [1, 2]}}, "result.returns must be a list of finite numbers"),
        ({"result": {"returns": [1, -1, 0], "scores": [1, 2, 3]}}, "result.returns has 3 entries"),
        ({"result": {"returns": [1, -1], "scores": ["a", 2]}}, "result.scores must be a list"),
        ({"result": {"returns": [1, -1]}}, "'result' must be null or an object"),
        ({"result": [1, -1]}, "'result' must be null or an object"),
        ({"moves": [{"by": True, "action": "a1-b1"}]}, "move 0 has bad 'by' True"),
        ({"moves": [{"by": 2, "action": "a1-b1"}]}, "move 0 is by seat 2; seats are 0..1"),
        ({"moves": [{"by": 0, "action": "a1-b1", "note": "x"}]}, "move 0 must be an object with exactly"),
        ({"moves": [{"by": 0, "action": "a" * 1000}]}, "move 0 has 1000 characters; the limit is 200"),
        ({"moves": [{"by": "chance", "action": 5}]}, "move 0 has action 5"),
        ({"comment": "hello"}, "unknown field 'comment'"),
        ({"game": ""}, "'game' must be non-empty text"),
        ({"game": "chess"}, "unknown game 'chess'"),
    ],
)
def test_every_field_is_checked_strictly(record: plunder.Record, changes: dict[str, Any], words: str) -> None:
    with pytest.raises(plunder.RecordError, match=words):
        plunder.Record.from_json(_edited(record, **changes))


@pytest.mark.parametrize(
    "text, words",
    [
        ("[" * 100 + "]" * 100, "nests 100 levels deep; the limit is 32"),
        ('{"format": "plunder-record", "version": ' + "9" * 5000 + "}", "number of 5000 digits; the limit is 30"),
        ('{"format": "plunder-record", "version": NaN}', "NaN is not a number"),
        ('{"format": "plunder-record", "version": 1e999}', "out of range"),
        (" " * 4_000_001, "4000001 characters; the limit is 4000000"),
    ],
)
def test_json_limits_are_enforced_before_parsing(text: str, words: str) -> None:
    with pytest.raises(plunder.RecordError, match=words):
        plunder.Record.from_json(text)


def test_replay_checks_a_result_built_in_code(record: plunder.Record) -> None:
    # item 7: "returns": 5 used to escape as a TypeError
    bad = plunder.Record(record.game, record.params, record.seed, record.players, record.moves, 5, None)  # type: ignore[arg-type]
    with pytest.raises(plunder.RecordError, match="result.returns must be a list"):
        plunder.replay(bad)


def test_parameters_are_stored_as_their_canonical_texts(record: plunder.Record) -> None:
    # item 15: " 3 " is 3, stored "3"; parameters left out are filled with the defaults
    read = plunder.Record.from_json(_edited(record, params={"board": " square:2x2 ", "contents": "random",
                                                            "floor": " +3 "}))
    game = plunder.load_game("pillage", board="square:2x2", contents="random", floor="3")
    assert read.params == game.params and read.params["floor"] == "3" and read.params["legend"] == "auto"


def test_record_files_are_read_within_limits(tmp_path: Path, record: plunder.Record) -> None:
    from plunder.core.record import read_record

    good = tmp_path / "good.json"
    good.write_text(record.to_json())
    assert read_record(str(good)) == record
    latin = tmp_path / "latin.json"
    latin.write_bytes(record.to_json().replace('"random"', '"caf\u00e9"').encode("latin-1"))
    with pytest.raises(plunder.RecordError, match="not UTF-8 text"):
        read_record(str(latin))
    with pytest.raises(plunder.RecordError, match="not a regular file"):
        read_record("/dev/zero")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 4_000_001)
    with pytest.raises(plunder.RecordError, match="4000001 bytes; the limit is 4000000"):
        read_record(str(big))


# --- chance drawn from the seed ---------------------------------------------------------------------

def _other_outcome(record: plunder.Record) -> tuple[int, str]:
    """The index of the first chance move with another possible outcome, and that outcome's text."""
    game = plunder.load_game(record.game, **record.params)
    state = game.new_initial_state()
    for i, move in enumerate(record.moves):
        if move.by is None:
            others = [game.action_to_text(state, a) for a in state.legal_actions()]
            others = [t for t in others if t != move.action]
            if others:
                return i, others[0]
        state = state.apply_text(move.action)
    raise AssertionError("no chance move with a choice")


def test_a_chance_move_the_seed_does_not_draw_is_named(record: plunder.Record) -> None:
    i, other = _other_outcome(record)
    moves = list(record.moves)
    moves[i] = Move(None, other)
    forged = plunder.Record(record.game, record.params, record.seed, record.players, moves)
    with pytest.raises(plunder.RecordError, match=rf"move {i} '{other}': chance event {i} of seed 7 draws "
                                                  r"'.*'; this chance move did not come from the seed") as err:
        plunder.replay(forged)
    assert err.value.index == i
    # the same moves under another seed are refused too, at the first chance event
    with pytest.raises(plunder.RecordError, match="did not come from the seed"):
        plunder.replay(plunder.Record(record.game, record.params, 8, record.players, record.moves))


def test_free_chance_is_checked_for_legality_only(record: plunder.Record) -> None:
    i, other = _other_outcome(record)
    moves = list(record.moves[: i + 1])
    moves[i] = Move(None, other)
    free = plunder.Record(record.game, record.params, None, record.players, moves, chance="free")
    again = plunder.Record.from_json(free.to_json())
    assert again == free and plunder.replay(again).summary()
    with pytest.raises(plunder.RecordError, match="drawn from the seed, but it has no seed"):
        plunder.replay(plunder.Record(record.game, record.params, None, record.players, moves))


def test_version_1_records_are_read_as_free_chance(record: plunder.Record) -> None:
    data = json.loads(record.to_json())
    data["version"] = 1
    del data["chance"]
    i, other = _other_outcome(record)
    data["moves"] = data["moves"][: i + 1]
    data["moves"][i]["action"] = other
    data["result"] = None
    old = plunder.Record.from_json(json.dumps(data))
    assert old.chance == "free"
    plunder.replay(old)  # drawn from a running stream: legal, but not checked against the seed
    data["chance"] = "seed"
    with pytest.raises(plunder.RecordError, match="unknown field 'chance'"):
        plunder.Record.from_json(json.dumps(data))
