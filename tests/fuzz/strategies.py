"""Hypothesis strategies for untrusted input, and the entry points they are fed to.

Four kinds of input reach Plunder from outside: action text (and action values), game
parameters, board and layout files, and records. Each strategy draws both random input
and valid input mutated (legal action texts, preset parameters, generated boards, records
of real games). Each ``check_*`` function feeds one case to its public entry point and
returns normally when the entry point either succeeded or refused the input with one of
the documented errors (:data:`DOCUMENTED`); anything else escapes as the failure it is.

``tests/fuzz/test_fuzz.py`` runs a few examples of each in the default test run;
``bench/fuzz.py`` runs the same strategies for minutes and counts failures.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from hypothesis import strategies as st

import plunder
from plunder.core import chance
from plunder.core.errors import IllegalActionError, InvalidActionError, ParameterError, RecordError
from plunder.core.game import Game, State
from plunder.core.record import Move, Record
from plunder.core.registry import entry, game_ids

#: the errors a public entry point may raise for bad input (docs/limits.md)
DOCUMENTED = (ParameterError, InvalidActionError, IllegalActionError, RecordError)

#: characters and pieces that have broken parsers before: digits of other scripts, superscripts,
#: a dotless i, controls, a lone surrogate, bidi overrides, long digit runs, JSON's odd numbers
PIECES = [
    "0", "1", "9", "-", "+", ",", ":", "=", "x", "X", ".", "/", " ", "\t", "\n", "\x00", "\x1b[31m",
    "²", "ı", "\u0661", "Ⅻ", "٣", "\ud800", "\u202e", "e", "E", "inf", "nan", "NaN", "Infinity",
    "1e999", "1e-320", "9" * 40, "9" * 5000, "-0", "_", "(", ")", "[", "]", "{", "}", '"', "\\",
    "json:", "file:", "via", "gold", "food", "deal", "dot", "road", "city", "offer", "demand", "sail",
]


# --- games and the positions they reach ----------------------------------------------------------

def presets() -> list[tuple[str, str | None]]:
    """Every (game id, preset) pair, the game's defaults as preset ``None``."""
    return [(gid, name) for gid in game_ids() for name in [None, *entry(gid).game_class.presets]]


#: presets whose games are short, for record fuzzing in the default test run
SMALL = [("pillage", "classic"), ("pillage", "small"), ("hubs", "tiny"), ("profiteer", "short"),
         ("pirates", None), ("crossroads", "2p")]


@functools.cache
def game_of(game_id: str, preset: str | None) -> Game:
    """The game of a preset (loaded once)."""
    return plunder.load_game(game_id, preset=preset)


@functools.cache
def positions(game_id: str, preset: str | None, seed: int, limit: int = 40) -> tuple[State, ...]:
    """The first ``limit`` positions of a random playthrough (chance drawn from ``seed``)."""
    state = game_of(game_id, preset).new_initial_state()
    found = [state]
    while not state.is_terminal() and len(found) < limit:
        state = state.apply(_choice(state.legal_actions(), seed, len(found)))
        found.append(state)
    return tuple(found)


def _choice(options: list[Any], seed: int, step: int) -> Any:
    """The option a random player picks at ``step`` of a game with ``seed`` (no random stream, so
    strategies stay reproducible)."""
    return options[int(chance.uniform(seed, step) * len(options))]


@functools.cache
def game_record(game_id: str, preset: str | None, seed: int) -> str:
    """The JSON record of a whole game of random choices, chance drawn from ``seed`` as in play."""
    game = game_of(game_id, preset)
    record = Record(game.id, dict(game.params), seed, ["random"] * game.num_players)
    state = game.new_initial_state()
    while not state.is_terminal():
        events = sum(m.by is None for m in record.moves)
        if state.is_chance_node():
            action, by = chance.draw(state, seed, events), None
        else:
            action, by = _choice(state.legal_actions(), seed, len(record.moves)), state.current_player
        record.moves.append(Move(by, game.action_to_text(state, action)))
        state = state.apply(action)
    record.returns, record.scores = list(state.returns()), list(state.scores())
    return record.to_json()


# --- text ----------------------------------------------------------------------------------------

@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` after one to four edits: insert, delete, replace, repeat a piece, pad, change case."""
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 8)))
        piece = draw(st.sampled_from(PIECES) | st.text(max_size=3))
        op = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "pad", "case"]))
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[j:]
        elif op == "replace":
            text = text[:i] + piece + text[j:]
        elif op == "repeat":
            text = text[:i] + text[i:j] * draw(st.integers(2, 50)) + text[j:]
        elif op == "pad":
            text = piece + text + piece
        else:
            text = text.swapcase()
    return text


def random_text() -> st.SearchStrategy[str]:
    """Text from the pieces and from any characters (lone surrogates included)."""
    return st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=6).map("".join) | st.text(
        st.characters(codec=None, exclude_categories=()), max_size=30)


# --- actions -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ActionCase:
    """Action text (or an action value, when ``value`` is set) at a reachable position."""

    game: str
    preset: str | None
    seed: int
    step: int
    text: str = ""
    value: Any = None

    def state(self) -> State:
        """The position the action is tried at."""
        states = positions(self.game, self.preset, self.seed)
        return states[min(self.step, len(states) - 1)]


@st.composite
def action_texts(draw: st.DrawFn) -> ActionCase:
    """Random text, or a legal action's text mutated, at a position of a random game."""
    game_id, preset = draw(st.sampled_from(presets()))
    seed, step = draw(st.integers(0, 3)), draw(st.integers(0, 39))
    case = ActionCase(game_id, preset, seed, step)
    state = case.state()
    legal = state.legal_actions()
    mutate: bool = draw(st.booleans()) if legal else False
    if mutate:
        text = draw(mutated(state.game.action_to_text(state, draw(st.sampled_from(legal[:50])))))
    else:
        text = draw(random_text())
    return ActionCase(game_id, preset, seed, step, text=text)


def _values() -> st.SearchStrategy[Any]:
    leaves = (st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.integers() | st.floats()
              | st.text(max_size=5) | st.sampled_from(PIECES))
    return _nested(leaves, lambda inner: st.lists(inner, max_size=4).map(tuple))


@st.composite
def action_values(draw: st.DrawFn) -> ActionCase:
    """Malformed action values (tuples, numbers, text, None) passed to ``apply``."""
    game_id, preset = draw(st.sampled_from(presets()))
    case = ActionCase(game_id, preset, draw(st.integers(0, 3)), draw(st.integers(0, 39)))
    legal = case.state().legal_actions()
    value = draw(_values() | (st.sampled_from(legal[:50]).flatmap(_near) if legal else _values()))
    return ActionCase(case.game, case.preset, case.seed, case.step, value=value)


def _near(action: Any) -> st.SearchStrategy[Any]:
    """Values shaped like a legal action but wrong: fields dropped, added, retyped."""
    if isinstance(action, tuple):
        fields = list(action)
        return st.one_of(
            st.just(tuple(fields[:-1])), st.just(tuple(fields) + (0,)),
            st.integers(0, max(0, len(fields) - 1)).flatmap(
                lambda i: _values().map(lambda v: tuple(fields[:i] + [v] + fields[i + 1:]))),
        )
    return _values()


def check_action(case: ActionCase) -> None:
    """``parse_action`` then ``apply`` (or ``apply`` of a value): succeed or a documented error."""
    state = case.state()
    game = state.game
    try:
        if case.value is not None:
            state.apply(case.value)
        else:
            action = game.parse_action(state, case.text)
            state.apply(action)
    except (InvalidActionError, IllegalActionError):
        pass


# --- parameters ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ParamCase:
    """Parameters given to ``load_game``."""

    game: str
    params: tuple[tuple[str, str], ...]


@st.composite
def parameters(draw: st.DrawFn) -> ParamCase:
    """Preset parameters with some values mutated or replaced, sometimes an unknown name."""
    game_id, preset = draw(st.sampled_from(presets()))
    cls = entry(game_id).game_class
    given = dict(cls.presets.get(preset or "", {}))
    names = [spec.name for spec in cls.param_specs]
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(names) | st.text(max_size=6))
        base = given.get(name) or next((s.default for s in cls.param_specs if s.name == name), "")
        given[name] = draw(mutated(base) | random_text())
    return ParamCase(game_id, tuple(sorted(given.items())))


def _play_a_little(game: Game, seed: int, steps: int = 30) -> None:
    """A few random moves, drawing the position and reading the scores: a loaded game must play."""
    state = game.new_initial_state()
    for step in range(steps):
        str(state)
        state.scores()
        if state.is_terminal():
            break
        state = state.apply(_choice(state.legal_actions(), seed, step))
    state.returns()


def check_parameters(case: ParamCase) -> None:
    """``load_game`` succeeds (and the game plays) or raises ``ParameterError``."""
    try:
        game = plunder.load_game(case.game, **dict(case.params))
    except ParameterError:
        return
    _play_a_little(game, 0)


# --- board and layout files ----------------------------------------------------------------------

@dataclass(frozen=True)
class BoardCase:
    """A board file (Pillage) or layout file (Pirates) given as ``file:PATH``."""

    game: str
    text: str


BOARD_KINDS = ["square:1x1", "square:2x2", "square:3x4", "triangle:2x2", "hex:2x2", "octagon:2x2"]


@functools.cache
def board_json(kind: str) -> str:
    """A generated Pillage board written as a board file."""
    from plunder.games.pillage import PillageGame
    from plunder.games.pillage.board_file import BoardFile

    return BoardFile(PillageGame.load(board=kind).board, None, None).to_json()


def _json_values() -> st.SearchStrategy[Any]:
    leaves = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
              | st.sampled_from([10**8, -(10**8), 1e-6, 1e-320, 1e300, 2**63, 0.5, -1]) | st.text(max_size=6))
    return _nested(leaves, lambda inner: st.lists(inner, max_size=3)
                   | st.dictionaries(st.text(max_size=5), inner, max_size=3))


def _nested(leaves: st.SearchStrategy[Any], wrap: Callable[[st.SearchStrategy[Any]], st.SearchStrategy[Any]],
            levels: int = 3) -> st.SearchStrategy[Any]:
    """Leaves, and containers of them nested up to ``levels`` deep."""
    strategy = leaves
    for _ in range(levels):
        strategy = leaves | wrap(strategy)
    return strategy


@st.composite
def mutated_json(draw: st.DrawFn, data: Any, depth: int = 0) -> Any:
    """``data`` with one structural edit somewhere: delete, retype, deepen, scale, duplicate, swap."""
    if isinstance(data, (dict, list)) and data and depth < 6 and draw(st.integers(0, 2)):
        keys = list(data) if isinstance(data, dict) else list(range(len(data)))
        key = draw(st.sampled_from(keys))
        copy: Any = dict(data) if isinstance(data, dict) else list(data)
        copy[key] = draw(mutated_json(data[key], depth + 1))
        return copy
    op = draw(st.sampled_from(["delete", "retype", "deepen", "scale", "duplicate", "swap", "text"]))
    if op == "delete" and isinstance(data, dict) and data:
        return {k: v for k, v in data.items() if k != draw(st.sampled_from(list(data)))}
    if op == "delete" and isinstance(data, list) and data:
        i = draw(st.integers(0, len(data) - 1))
        return data[:i] + data[i + 1:]
    if op == "deepen":
        for _ in range(draw(st.integers(1, 40))):
            data = [data]
        return data
    if op == "scale" and isinstance(data, (int, float)) and not isinstance(data, bool):
        factor = draw(st.sampled_from([10**8, 10**-6, -1, 10**400, 0]))
        return factor if isinstance(data, float) and isinstance(factor, int) and factor > 10**300 else data * factor
    if op == "duplicate" and isinstance(data, list) and data:
        return data + data[: draw(st.integers(1, len(data)))]
    if op == "swap" and isinstance(data, list) and len(data) > 1:
        i, j = draw(st.integers(0, len(data) - 1)), draw(st.integers(0, len(data) - 1))
        data = list(data)
        data[i], data[j] = data[j], data[i]
        return data
    if op == "text" and isinstance(data, str):
        return draw(mutated(data))
    return draw(_json_values())


def _dumps(data: Any) -> str:
    """JSON text of mutated data (floats like 1e400 become ``Infinity``, which readers must refuse)."""
    try:
        return json.dumps(data, ensure_ascii=False)
    except (OverflowError, ValueError):
        return json.dumps(repr(data))


@st.composite
def board_files(draw: st.DrawFn) -> BoardCase:
    """Generated boards (Pillage) and named seas (Pirates) written as files, then mutated."""
    if draw(st.booleans()):
        data = json.loads(board_json(draw(st.sampled_from(BOARD_KINDS))))
        how = draw(st.sampled_from(["json", "text", "none"]))
        if how == "json":
            return BoardCase("pillage", _dumps(draw(mutated_json(data))))
        text = json.dumps(data)
        return BoardCase("pillage", draw(mutated(text)) if how == "text" else text)
    from plunder.games.pirates.sea import SHAPES

    origins = draw(st.sampled_from(sorted(SHAPES.values())))
    text = "\n".join(f"{x},{y}" for x, y in origins) + "\n"
    return BoardCase("pirates", draw(mutated(text)) if draw(st.booleans()) else text)


def check_board_file(case: BoardCase) -> None:
    """``load_game`` with ``file:PATH`` succeeds (and the game plays) or raises ``ParameterError``."""
    name = "board" if case.game == "pillage" else "layout"
    with _temporary(case.text) as path:
        try:
            game = plunder.load_game(case.game, **{name: f"file:{path}"})
        except ParameterError:
            return
    _play_a_little(game, 1)


@contextmanager
def _temporary(text: str) -> Iterator[str]:
    handle, path = tempfile.mkstemp(suffix=".txt")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", errors="surrogatepass") as out:
            out.write(text)
        yield path
    finally:
        os.unlink(path)


# --- records -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RecordCase:
    """A record's JSON text."""

    text: str


@st.composite
def records(draw: st.DrawFn, games: list[tuple[str, str | None]] | None = None) -> RecordCase:
    """Records of real games, mutated: fields deleted or retyped or deepened, moves swapped,
    edited, truncated or moved to another mover, chance moves changed, text edited."""
    game_id, preset = draw(st.sampled_from(games or SMALL))
    text = game_record(game_id, preset, draw(st.integers(0, 2)))
    data = json.loads(text)
    how = draw(st.sampled_from(["json", "moves", "chance", "text", "none"]))
    if how == "json":
        return RecordCase(_dumps(draw(mutated_json(data))))
    if how == "text":
        return RecordCase(draw(mutated(text)))
    moves = data["moves"]
    if how == "chance":
        state_at = [i for i, m in enumerate(moves) if m["by"] == "chance"]
        if state_at:
            i = draw(st.sampled_from(state_at))
            moves[i]["action"] = draw(_chance_outcome(game_id, preset, data, i))
    elif how == "moves" and moves:
        i = draw(st.integers(0, len(moves) - 1))
        op = draw(st.sampled_from(["swap", "edit", "truncate", "by", "drop"]))
        if op == "swap":
            j = draw(st.integers(0, len(moves) - 1))
            moves[i], moves[j] = moves[j], moves[i]
        elif op == "edit":
            moves[i]["action"] = draw(mutated(moves[i]["action"]))
        elif op == "truncate":
            del moves[i:]
            if draw(st.booleans()):
                data["result"] = None
        elif op == "by":
            moves[i]["by"] = draw(st.sampled_from(["chance", 0, 1, 2, -1, "0", None, True]))
        else:
            del moves[i]
    return RecordCase(json.dumps(data, ensure_ascii=False))


def _chance_outcome(game_id: str, preset: str | None, data: dict[str, Any], index: int) -> st.SearchStrategy[str]:
    """Any outcome text of the chance event at move ``index`` of a record's game."""
    game = game_of(game_id, preset)
    state = game.new_initial_state()
    for move in data["moves"][:index]:
        state = state.apply_text(move["action"])
    return st.sampled_from([game.action_to_text(state, a) for a in state.legal_actions()])


def check_record(case: RecordCase) -> None:
    """``Record.from_json`` then ``replay`` (and drawing the final position) or ``RecordError``."""
    try:
        final = plunder.replay(plunder.Record.from_json(case.text))
    except RecordError:
        return
    str(final)


def check_cli_record(case: RecordCase) -> None:
    """``plunder replay`` and ``plunder render`` of a record file: exit 0, or 1 with one line on stderr."""
    from click.testing import CliRunner

    from plunder.cli import main

    with _temporary(case.text) as path:
        for command in ("replay", "render"):
            result = CliRunner().invoke(main, [command, path])
            if isinstance(result.exception, SystemExit) or result.exception is None:
                if result.exit_code not in (0, 1) or (result.exit_code == 1 and len(result.stderr.splitlines()) != 1):
                    raise AssertionError(f"plunder {command} exited {result.exit_code}: {result.output!r}")
                continue
            raise result.exception


#: every entry point: (strategy, check)
ENTRY_POINTS: dict[str, tuple[Callable[[], st.SearchStrategy[Any]], Callable[[Any], None]]] = {
    "parse_action/apply text": (action_texts, check_action),
    "apply value": (action_values, check_action),
    "load_game params": (parameters, check_parameters),
    "load_game board file": (board_files, check_board_file),
    "Record.from_json/replay": (records, check_record),
    "plunder replay/render": (records, check_cli_record),
}


class TooSlow(Exception):
    """An entry point ran past its time bound."""


@contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Raise :class:`TooSlow` inside the block once ``seconds`` of wall time have passed."""

    def alarm(signum: int, frame: Any) -> None:
        raise TooSlow(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    # repeat every half second: an alarm that lands in a garbage-collector callback is swallowed
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
