"""Board files as untrusted input: limits, field types, labels, the file path, records (PP-1..PP-3)."""

import inspect
import json
import os
from pathlib import Path
from typing import Any

import pytest

import plunder
from plunder.games.pillage import planar
from plunder.games.pillage.board import MAX_BOXES, MAX_COORDINATE, MAX_DENOMINATOR, MAX_DOTS
from plunder.games.pillage.contents import MAX_SCORE, MAX_VALUE, content_short, content_text, parse_content, parse_legend
from plunder.games.pillage.rules import PillageGame


def square_file(rows: int, cols: int, **extra: Any) -> dict[str, Any]:
    """A rows x cols square board as a board file (dots in reading order)."""
    dots = [[c, r] for r in range(rows + 1) for c in range(cols + 1)]
    w = cols + 1
    boxes = [[r * w + c, r * w + c + 1, (r + 1) * w + c + 1, (r + 1) * w + c] for r in range(rows) for c in range(cols)]
    return {"dots": dots, "boxes": boxes, **extra}


def inline(data: str | dict[str, Any]) -> str:
    return "json:" + (data if isinstance(data, str) else json.dumps(data))


def refused(data: str | dict[str, Any], words: str) -> None:
    with pytest.raises(plunder.ParameterError, match=words):
        PillageGame.load(board=inline(data))


def test_a_30x30_board_file_loads_with_near_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11.1: loading was quadratic (every pair of lines tested). Count orientation tests
    instead of timing: 30x30 has 1860 lines; all pairs would be ~1.7 million tests."""
    calls = 0
    real = planar.cross

    def counted(o: planar.IntPoint, a: planar.IntPoint, b: planar.IntPoint) -> int:
        nonlocal calls
        calls += 1
        return real(o, a, b)

    monkeypatch.setattr(planar, "cross", counted)
    game = PillageGame.load(board=inline(square_file(30, 30)))
    assert game.board.num_edges == 1860 and game.board.num_boxes == 900
    assert 1860 < calls < 40 * 1860  # counted (the sweep ran), and far from all pairs


def test_every_generated_board_passes_the_full_face_checks() -> None:
    """Generators skip the face checks at load; here each kind goes through them."""
    from plunder.games.pillage.board import build_board, generated

    for spec in ("square:3x4", "triangle:3x3", "hex:3x2", "octagon:3x3", "square:12x12"):
        b = generated(spec)
        again = build_board(spec, b.dots, b.boxes, labels=b.labels)
        assert again.edges == b.edges


@pytest.mark.parametrize(
    "value, words",
    [
        ("1e999999999", "MAX_COORDINATE"),
        (1e-320, "MAX_DENOMINATOR"),
        ("1e-320", "MAX_DENOMINATOR"),
        ("Infinity", "must be a number"),
        ("NaN", "must be a number"),
        (10 ** 7, "MAX_COORDINATE"),
        ("1/0", "divides by zero"),
        ("0.0000001", "MAX_DENOMINATOR"),
        (True, "must be a number, not bool"),
        (None, "must be a number, not NoneType"),
        ("١", "must be a number"),  # an Arabic-Indic digit: not ASCII
    ],
)
def test_coordinates_are_checked_before_any_arithmetic(value: object, words: str) -> None:
    data = square_file(1, 1)
    data["dots"][3] = [value, 1]
    refused(data, words)


def test_huge_json_numbers_and_constants_are_refused_by_the_reader() -> None:
    text = json.dumps(square_file(1, 1)).replace("[1, 1]]", "[1, " + "1" * 400 + "]]", 1)
    refused(text, "400 digits; the limit is 30")
    refused(json.dumps(square_file(1, 1)).replace("[1, 1]]", "[1, Infinity]]", 1), "Infinity")


def test_coordinates_within_the_limits_load_exactly() -> None:
    # a1 b1 at x = -1e6, 1e6; fractions and decimals mix within one denominator
    data: dict[str, Any] = {"dots": [[-MAX_COORDINATE, 0], [MAX_COORDINATE, 0], ["0.5", "1/3"]], "boxes": [[0, 1, 2]]}
    game = PillageGame.load(board=inline(data), contents="unit")
    assert str(game.board.dots[2][1]) == "1/3"
    data["dots"][2] = ["0.000001", "1/7"]  # needs a common denominator of 7 000 000
    refused(data, "MAX_DENOMINATOR")
    assert MAX_DENOMINATOR == 10 ** 6


def test_counts_are_capped_before_the_geometry() -> None:
    refused({"dots": [[i, 0] for i in range(MAX_DOTS + 1)], "boxes": [[0, 1, 2]]}, "MAX_DOTS")
    refused({"dots": [[0, 0], [1, 0], [0, 1]], "boxes": [[0, 1, 2]] * (MAX_BOXES + 1)}, "MAX_BOXES")


@pytest.mark.parametrize(
    "change, words",
    [
        ({"drawn": 5}, "'drawn' list"),
        ({"drawn": [5]}, r"drawn\[0\] must be a pair"),
        ({"drawn": [[0, [1]]]}, "does not exist"),
        ({"dots": "abc"}, "'dots' list"),
        ({"boxes": [{"dots": "0123"}]}, r"boxes\[0\] must list dot indices"),
        ({"boxes": [[0, 1, 3, 2.0]]}, "must be a dot index, not float"),
        ({"boxes": [{"dots": [0, 1, 3, 2], "content": [1]}]}, "content must be text"),
        ({"boxes": [{"dots": [0, 1, 3, 2], "colour": "red"}]}, "unknown field 'colour'"),
        ({"legend": {"food": "5"}}, "whole number, not str"),
        ({"legend": {"food": 5.5}}, "whole number, not float"),
        ({"legend": {"food": True}}, "whole number, not bool"),
        ({"legend": {"food": 10 ** 7}}, "MAX_VALUE"),
        ({"legend": [["food", 5, 1]]}, "'legend' must map"),
        ({"legend": "food:5"}, "'legend' must map"),
        ({"version": True}, "version 1"),
        ({"box": []}, "unknown field 'box'"),
    ],
)
def test_field_types_are_checked(change: dict[str, Any], words: str) -> None:
    refused(dict(square_file(1, 1), **change), words)


def test_dot_labels_are_what_a_player_can_type_back() -> None:
    """Issue 11.11: a label like 'ı1' (dotless i) matched [a-z] ignoring case, so the game's own
    record of a line through it could not be read back."""
    data = square_file(1, 1)
    data["dots"] = [{"x": x, "y": y, "label": lab} for (x, y), lab in zip(data["dots"], ["a1", "ı1", "a2", "b2"])]
    refused(data, "ASCII letters then digits")
    data["dots"][1]["label"] = "\u212a1"  # the Kelvin sign, also equal to k ignoring case
    refused(data, "ASCII letters then digits")
    data["dots"][1]["label"] = "abcdefgh12"
    refused(data, "up to 8")
    data["dots"][1]["label"] = "Zz9"
    game = PillageGame.load(board=inline(data), contents="unit")
    record = plunder.play(game, ["random", "random"], seed=1)
    assert plunder.replay(plunder.Record.from_json(record.to_json())).is_terminal()


def test_legend_and_content_values_are_bounded_so_scores_stay_exact() -> None:
    """Issue 11.10: legend=food:<400 nines> loaded, then the first capture overflowed scores()."""
    with pytest.raises(plunder.ParameterError, match="MAX_VALUE"):
        PillageGame.load(legend="food:" + "9" * 400)
    with pytest.raises(plunder.ParameterError, match="MAX_VALUE"):
        PillageGame.load(legend="food:" + "9" * 5000)
    with pytest.raises(plunder.ParameterError, match="below the minimum"):
        PillageGame.load(floor="-" + "9" * 400)
    refused(square_file(1, 1, boxes=[{"dots": [0, 1, 3, 2], "content": "9" * 40}]), "MAX_VALUE")
    refused(square_file(1, 1, boxes=[{"dots": [0, 1, 3, 2], "content": "-" + "9" * 40 + " food"}]), "MAX_VALUE")
    # 30 boxes of food and 30 of "x1000000 food" could score 30 * 5 * 10**180: refused as a whole
    data = square_file(6, 10)
    data["boxes"] = [{"dots": cycle, "content": ["food", "x1000000 food"][i % 2]} for i, cycle in enumerate(data["boxes"])]
    refused(data, "MAX_SCORE")
    # the largest values the limits allow on the largest generated board still score exactly
    game = PillageGame.load(board="square:12x12", legend=f"food:{MAX_VALUE}", floor=str(-MAX_VALUE))
    assert game.board.num_boxes * (MAX_VALUE + 5 * game.board.num_boxes) < MAX_SCORE


def test_a_content_as_a_number_is_a_pile() -> None:
    game = PillageGame.load(board=inline(square_file(1, 1, boxes=[{"dots": [0, 1, 3, 2], "content": 4}])))
    assert game.fixed is not None and str(game.fixed[0]) == "4"


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/stdin", "/dev/null", "/"])
def test_special_files_are_refused_without_reading(path: str) -> None:
    """Issue 11.4: /dev/zero read until memory ran out; /dev/stdin blocked forever."""
    with pytest.raises(plunder.ParameterError, match="not a regular file|cannot open"):
        PillageGame.load(board=f"file:{path}")


def test_a_fifo_and_an_oversize_file_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(plunder.ParameterError, match="not a regular file"):
        PillageGame.load(board=f"file:{fifo}")
    big = tmp_path / "big.json"
    big.write_text(" " * 2_000_000)
    with pytest.raises(plunder.ParameterError, match="the limit is 1000000"):
        PillageGame.load(board=f"file:{big}")


def test_equal_boards_give_equal_canonical_parameters(tmp_path: Path) -> None:
    """Two differently written files of one board, and their json: forms, store one text."""
    a = square_file(1, 2, legend={"Food": 3})
    b = {"legend": {"food": 3}, "version": 1, "format": "plunder-pillage-board",
         "dots": [{"x": x, "y": f"{y}.0", "label": lab} for (x, y), lab in
                  zip(a["dots"], ["a1", "b1", "c1", "a2", "b2", "c2"])],
         "boxes": [{"dots": cycle} for cycle in a["boxes"]]}
    (tmp_path / "a.json").write_text(json.dumps(a, indent=2))
    (tmp_path / "b.json").write_text(json.dumps(b))
    texts = {PillageGame.load(board=f"file:{tmp_path / name}").params["board"] for name in ("a.json", "b.json")}
    assert len(texts) == 1
    (text,) = texts
    assert text.startswith("json:{") and PillageGame.load(board=text).params["board"] == text
    spelled = [" +-02 Food|armor", "+-2 food/armor"]
    stored = {PillageGame.load(board=inline(square_file(1, 1, legend={"food": 1, "armor": 2}, boxes=[
        {"dots": [0, 1, 3, 2], "content": c}]))).params["board"] for c in spelled}
    assert len(stored) == 1 and '"content":"+-2 food/armor"' in stored.pop()
    assert PillageGame.load(board=" square:3x3 ").params["board"] == "square:3x3"


def test_the_canonical_text_keeps_the_legend_order() -> None:
    """Canonical JSON sorts an object's keys; the legend's kind order is the game's, so it
    travels as [kind, value] pairs."""
    data = square_file(1, 1, legend={"food": 4, "armor": 1}, boxes=[{"dots": [0, 1, 3, 2], "content": "armor"}])
    game = PillageGame.load(board=inline(data))
    again = PillageGame.load(board=game.params["board"])
    assert game.legend.kinds == again.legend.kinds == ("food", "armor")
    assert '"legend":[["food",4],["armor",1]]' in game.params["board"]


def test_the_game_module_never_opens_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11.17: the core reads board=file:PATH once (Param.inline); the rules only parse text."""
    import builtins

    from plunder.games.pillage import rules

    path = tmp_path / "b.json"
    path.write_text(json.dumps(square_file(1, 1)))
    monkeypatch.setattr(builtins, "open", lambda *a, **k: pytest.fail("a game module opened a file"))
    game = PillageGame.load(board=f"file:{path}")
    assert game.params["board"].startswith("json:")
    assert "open(" not in inspect.getsource(rules)


def test_a_bad_board_file_is_named_by_its_path(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(square_file(1, 1, drawn=5)))
    with pytest.raises(plunder.ParameterError, match=rf"board='file:{path}' is not allowed: .*'drawn' list"):
        PillageGame.load(board=f"file:{path}")


def test_a_modifier_has_one_spelling_on_the_board_and_in_words() -> None:
    """Issue 39: the picture's code spells a modifier's operations as its text (the log, the
    rules, the form) does: ``+-2FA`` beside ``+-2 food/armor``, never a second sign such as ±."""
    legend = parse_legend("food:5,weapons:5,armor:5")
    content = parse_content("+-2 food/armor", legend)
    assert content_text(content, legend) == "+-2 food/armor"
    assert content_short(content, legend) == "+-2FA"
