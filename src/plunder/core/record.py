"""Game records: one JSON format for every game, played and replayed exactly.

A record holds the format version, game id and canonical parameters, the seed, where
chance came from (``"chance": "seed"`` or ``"free"``), the seats' agent names, every
action in canonical text (chance outcomes included, marked with ``"by": "chance"``) and
the result. :func:`replay` re-applies every action through the rules, and for a seeded
record checks that chance event ``n`` is the outcome ``chance.draw(state, seed, n)``, so a
tampered record is refused at its first bad action. The format is documented in
``docs/records.md``; its limits in ``docs/limits.md``.

Records are untrusted input: :meth:`Record.from_json` reads them through
:func:`plunder.core.files.load_json` (size, depth and number limits) and checks every
field's type, and :func:`read_record` reads a record file within :data:`MAX_RECORD_BYTES`.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from typing import Any

from . import chance as chance_draws
from .errors import PlunderError, RecordError
from .files import MAX_FILE_BYTES, load_json, read_text_file
from .game import CHANCE, MAX_ACTION_CHARS, Game, State
from .params import resolve
from .registry import load_game

FORMAT = "plunder-record"
#: the version :meth:`Record.to_json` writes; version 1 (no ``chance`` field) is still read
VERSION = 2
READABLE_VERSIONS = (1, 2)
#: chance was drawn from the record's seed: event ``n`` is ``chance.draw(state, seed, n)``, checked on replay
SEEDED = "seed"
#: chance was not drawn from the recorded seed (a server that keeps its seed secret, or a
#: version-1 record drawn from a running stream): chance moves are checked for legality only
FREE = "free"
CHANCE_SOURCES = (SEEDED, FREE)

#: largest record, in bytes (an inline board of up to two board files' size, and the moves)
MAX_RECORD_BYTES = 4 * MAX_FILE_BYTES
#: longest player name in a record
MAX_PLAYER_CHARS = 100
#: seeds are whole numbers in ``0..MAX_SEED`` (what ``plunder.match.new_seed`` draws)
MAX_SEED = 2**63 - 1

_FIELDS = {
    1: ("format", "version", "game", "params", "seed", "players", "moves", "result"),
    2: ("format", "version", "game", "params", "seed", "chance", "players", "moves", "result"),
}


@dataclass(frozen=True)
class Move:
    """One action of a record: who took it (seat or ``None`` for chance) and its text."""

    by: int | None
    action: str


@dataclass
class Record:
    """A whole game, ready to save as JSON and to replay.

    ``chance`` is :data:`SEEDED` when every chance move was drawn from ``seed`` (what
    :func:`plunder.play` and terminal play do) and :data:`FREE` otherwise.
    """

    game: str
    params: dict[str, str]
    seed: int | None
    players: list[str]
    moves: list[Move] = field(default_factory=list)
    returns: list[float] | None = None
    scores: list[float] | None = None
    chance: str = SEEDED

    def to_json(self) -> str:
        """The record as JSON text: one line per field and per move, so diffs read well."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "params": self.params,
            "seed": self.seed,
            "chance": self.chance,
            "players": self.players,
            "moves": [{"by": "chance" if m.by is None else m.by, "action": m.action} for m in self.moves],
            "result": None if self.returns is None else {"returns": self.returns, "scores": self.scores},
        }
        fields = [f" {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
                  for k, v in data.items() if k != "moves"]
        moves = ",\n".join(f"  {json.dumps(m, ensure_ascii=False)}" for m in data["moves"])
        fields.insert(7, f' "moves": [\n{moves}\n ]' if moves else ' "moves": []')
        return "{\n" + ",\n".join(fields) + "\n}\n"

    @classmethod
    def from_json(cls, text: str, game: Game | None = None) -> "Record":
        """Read a record; malformed JSON or fields raise :class:`RecordError` saying which.

        Every field's type is checked, the game is loaded (or ``game`` is checked to be the
        record's) so that the parameters become its canonical texts (defaults filled in),
        and the seats, movers and result must fit the game. Whether the moves replay is
        :func:`replay`'s work.
        """
        try:
            data = load_json(text, "record", MAX_RECORD_BYTES)
        except ValueError as exc:
            raise RecordError(str(exc)) from None
        record = _from_data(data)
        if game is None:
            game = _load(record)
        elif record.game != game.id or _canonical(game, record.params) != game.params:
            raise RecordError(f"record is of {record.game} {record.params}, not of the game given ({game})")
        record.params = dict(game.params)
        check_record(record, game)
        return record


def read_record(path: str) -> Record:
    """The record in the file at ``path``: a regular UTF-8 file of at most :data:`MAX_RECORD_BYTES`."""
    try:
        text = read_text_file(path, "record", MAX_RECORD_BYTES)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    return Record.from_json(text)


def _from_data(data: Any) -> Record:
    """A :class:`Record` from parsed JSON, every field's type checked (the game not yet consulted)."""
    if not isinstance(data, dict):
        raise RecordError("record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"record field 'format' must be {FORMAT!r}, got {_shown(data.get('format'))}")
    version = data.get("version")
    if not _is_int(version) or version not in READABLE_VERSIONS:
        raise RecordError(f"record version {_shown(version)} is not supported (this reads {READABLE_VERSIONS})")
    unknown = sorted(set(data) - set(_FIELDS[version]))
    if unknown:
        raise RecordError(f"record has unknown field {_shown(unknown[0])} (version {version} fields: "
                          f"{', '.join(_FIELDS[version])})")
    missing = [k for k in _FIELDS[version] if k not in data]
    if missing:
        raise RecordError(f"record field {missing[0]!r} is missing")
    game = _text(data["game"], "game", 40)
    params = data["params"]
    if not isinstance(params, dict):
        raise RecordError("record field 'params' must be an object of parameter texts")
    for name, value in params.items():
        if not isinstance(value, str):
            raise RecordError(f"record parameter {_shown(name)} must be text, got {_shown(value)}")
        if value.strip().startswith("file:"):
            # a record carries file contents inline; one naming a file would read this machine's files
            raise RecordError(f"record parameter {_shown(name)} names a file ({_shown(value)}); records hold "
                              "the file's content inline")
    seed = data["seed"]
    if seed is not None and not (_is_int(seed) and 0 <= seed <= MAX_SEED):
        raise RecordError(f"record field 'seed' must be a whole number in 0..{MAX_SEED} or null, got {_shown(seed)}")
    # version 1 drew chance from a running stream, which no replay can check: free
    source = data["chance"] if version >= 2 else FREE
    if source not in CHANCE_SOURCES:
        raise RecordError(f"record field 'chance' must be one of {', '.join(map(repr, CHANCE_SOURCES))}, "
                          f"got {_shown(source)}")
    players = data["players"]
    if not isinstance(players, list):
        raise RecordError("record field 'players' must be a list of agent names")
    names = [_text(p, f"players[{i}]", MAX_PLAYER_CHARS) for i, p in enumerate(players)]
    if not isinstance(data["moves"], list):
        raise RecordError("record field 'moves' must be a list")
    moves = [_move(i, m) for i, m in enumerate(data["moves"])]
    returns = scores = None
    result = data["result"]
    if result is not None:
        if not isinstance(result, dict) or set(result) != {"returns", "scores"}:
            raise RecordError("record field 'result' must be null or an object with 'returns' and 'scores'")
        returns = _numbers(result["returns"], "result.returns")
        scores = None if result["scores"] is None else _numbers(result["scores"], "result.scores")
    return Record(game, dict(params), seed, names, moves, returns, scores, source)


def _move(i: int, m: Any) -> Move:
    if not isinstance(m, dict) or set(m) != {"by", "action"}:
        raise RecordError(f"record move {i} must be an object with exactly 'by' and 'action'", index=i)
    action, by = m["action"], m["by"]
    if not isinstance(action, str):
        raise RecordError(f"record move {i} has action {_shown(action)}; it must be text", index=i)
    if len(action) > MAX_ACTION_CHARS:
        raise RecordError(f"record move {i} has {len(action)} characters; the limit is {MAX_ACTION_CHARS}", index=i)
    if by == "chance":
        return Move(None, action)
    if not _is_int(by):
        raise RecordError(f"record move {i} has bad 'by' {_shown(by)} (a seat number or \"chance\")", index=i)
    return Move(by, action)


def check_record(record: Record, game: Game) -> None:
    """Check ``record``'s fields against ``game``: seats, movers, move count, result shape.

    Used by :meth:`Record.from_json` and again by :func:`replay`, since records are also
    built in code.
    """
    n = game.num_players
    if record.game != game.id:
        raise RecordError(f"record is of game {record.game!r}, not {game.id!r}")
    if record.chance not in CHANCE_SOURCES:
        raise RecordError(f"record field 'chance' must be one of {', '.join(map(repr, CHANCE_SOURCES))}, "
                          f"got {_shown(record.chance)}")
    if record.chance == SEEDED and record.seed is None:
        raise RecordError("record says its chance was drawn from the seed, but it has no seed")
    if len(record.players) != n:
        raise RecordError(f"record names {len(record.players)} players; {game.id} with these parameters "
                          f"has {n} seat{'s' * (n != 1)}")
    if len(record.moves) > game.max_game_length:
        raise RecordError(f"record has {len(record.moves)} moves; {game.id} ends within {game.max_game_length}")
    for i, move in enumerate(record.moves):
        if move.by is not None and not (_is_int(move.by) and 0 <= move.by < n):
            raise RecordError(f"record move {i} is by seat {_shown(move.by)}; seats are 0..{n - 1}", index=i)
    for name, values in (("result.returns", record.returns), ("result.scores", record.scores)):
        if values is not None:
            if len(_numbers(values, name)) != n:
                raise RecordError(f"record {name} has {len(values)} entries; {game.id} has {n} seats")
    if record.returns is None and record.scores is not None:
        raise RecordError("record has scores but no returns")


def replay(record: Record, game: Game | None = None) -> State:
    """Re-apply every move of ``record`` and return the final state.

    Raises :class:`RecordError` naming the first move that is not legal, that was made
    by the wrong seat, or (for a seeded record) a chance move that the seed does not
    draw; or a result that does not match.
    """
    if game is None:
        game = _load(record)
    elif record.game == game.id and _canonical(game, record.params) != game.params:
        raise RecordError(f"record parameters {record.params} are not those of the game given ({game})")
    check_record(record, game)
    seeded = record.chance == SEEDED
    events = 0
    state = game.new_initial_state()
    for i, move in enumerate(record.moves):
        if state.is_terminal():
            raise RecordError(f"move {i} {move.action!r}: the game was already over", index=i)
        mover = None if state.current_player == CHANCE else state.current_player
        if mover != move.by:
            who = "chance" if mover is None else game.seat_name(mover)
            raise RecordError(f"move {i} {move.action!r}: recorded as by {move.by!r} but {who} is to act", index=i)
        try:
            action = game.parse_action(state, move.action)
            after = state.apply(action)  # an illegal move is named with its ruling before the seed is asked
            if mover is None and seeded:
                assert record.seed is not None  # check_record refuses a seeded record without a seed
                drawn = chance_draws.draw(state, record.seed, events)
                if drawn != action:
                    raise RecordError(
                        f"move {i} {move.action!r}: chance event {events} of seed {record.seed} draws "
                        f"{game.action_to_text(state, drawn)!r}; this chance move did not come from the seed",
                        index=i,
                    )
            state = after
        except RecordError:
            raise
        except PlunderError as exc:
            raise RecordError(f"move {i} {move.action!r} does not replay: {exc}", index=i) from None
        events += mover is None
    if record.returns is not None:
        if not state.is_terminal():
            raise RecordError("record claims a result but its moves do not finish the game")
        if [float(x) for x in record.returns] != [float(x) for x in state.returns()]:
            raise RecordError(f"record result {record.returns} does not match the replayed {state.returns()}")
        if record.scores is not None and [float(x) for x in record.scores] != [float(x) for x in state.scores()]:
            raise RecordError(f"record scores {record.scores} do not match the replayed {state.scores()}")
    return state


def truncated(record: Record, moves: int) -> Record:
    """``record`` cut after its first ``moves`` moves, without a result (to show a position)."""
    return dataclasses.replace(record, moves=record.moves[:moves], returns=None, scores=None)


def _load(record: Record) -> Game:
    try:
        return load_game(record.game, **record.params)
    except PlunderError as exc:
        raise RecordError(f"record's game cannot be loaded: {exc}") from None


def _canonical(game: Game, params: dict[str, str]) -> dict[str, str]:
    """The canonical texts of ``params`` for ``game``'s kind (defaults filled in)."""
    try:
        return resolve(game.id, game.param_specs, params)[1]
    except PlunderError as exc:
        raise RecordError(f"record's game cannot be loaded: {exc}") from None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    """A whole number a float holds exactly, or a finite float (what returns and scores are)."""
    if isinstance(value, float):
        return math.isfinite(value)
    return _is_int(value) and abs(value) <= 2**53


def _text(value: Any, name: str, limit: int) -> str:
    """A short printable text field (shown at the terminal, so no control characters)."""
    if not isinstance(value, str) or not value:
        raise RecordError(f"record field {name!r} must be non-empty text, got {_shown(value)}")
    if len(value) > limit:
        raise RecordError(f"record field {name!r} has {len(value)} characters; the limit is {limit}")
    if not value.isprintable():
        raise RecordError(f"record field {name!r} holds a control or unprintable character: {_shown(value)}")
    return value


def _numbers(values: Any, name: str) -> list[float]:
    """A list of finite numbers (whole numbers or decimals; not booleans)."""
    if not isinstance(values, list) or not all(_is_number(x) for x in values):
        raise RecordError(f"record {name} must be a list of finite numbers, got {_shown(values)}")
    return values


def _shown(value: Any) -> str:
    """``repr`` of a value from a record, cut short (records are untrusted and may be huge)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
