"""Game records: one JSON format for every game, played and replayed exactly.

A record holds the format version, game id and parameters, the seed, the seats'
agent names, every action in canonical text (chance outcomes included, marked with
``"by": "chance"``) and the result. :func:`replay` re-applies every action through
the rules, so a tampered record is refused at its first bad action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import PlunderError, RecordError
from .game import CHANCE, Game, State
from .registry import load_game

FORMAT = "plunder-record"
VERSION = 1


@dataclass(frozen=True)
class Move:
    """One action of a record: who took it (seat or ``None`` for chance) and its text."""

    by: int | None
    action: str


@dataclass
class Record:
    """A whole game, ready to save as JSON and to replay."""

    game: str
    params: dict[str, str]
    seed: int | None
    players: list[str]
    moves: list[Move] = field(default_factory=list)
    returns: list[float] | None = None
    scores: list[float] | None = None

    def to_json(self) -> str:
        """The record as JSON text: one line per field and per move, so diffs read well."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "params": self.params,
            "seed": self.seed,
            "players": self.players,
            "moves": [{"by": "chance" if m.by is None else m.by, "action": m.action} for m in self.moves],
            "result": None if self.returns is None else {"returns": self.returns, "scores": self.scores},
        }
        fields = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items() if k != "moves"]
        moves = ",\n".join(f"  {json.dumps(m)}" for m in data["moves"])
        fields.insert(6, f' "moves": [\n{moves}\n ]' if moves else ' "moves": []')
        return "{\n" + ",\n".join(fields) + "\n}\n"

    @classmethod
    def from_json(cls, text: str) -> "Record":
        """Read a record; malformed JSON or fields raise :class:`RecordError` saying which."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise RecordError("record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"record format must be {FORMAT!r}, got {data.get('format')!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"record version {data.get('version')!r} is not supported (expected {VERSION})")
        for key, kind in (("game", str), ("params", dict), ("players", list), ("moves", list)):
            if not isinstance(data.get(key), kind):
                raise RecordError(f"record field {key!r} is missing or not a {kind.__name__}")
        seed = data.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise RecordError("record field 'seed' must be a whole number or null")
        moves = []
        for i, m in enumerate(data["moves"]):
            if not isinstance(m, dict) or not isinstance(m.get("action"), str):
                raise RecordError(f"record move {i} must be an object with a text 'action'", index=i)
            by = m.get("by")
            if by == "chance":
                by = None
            elif not isinstance(by, int) or isinstance(by, bool):
                raise RecordError(f"record move {i} has bad 'by' {by!r} (a seat number or \"chance\")", index=i)
            moves.append(Move(by, m["action"]))
        result = data.get("result")
        returns = scores = None
        if result is not None:
            if not isinstance(result, dict):
                raise RecordError("record field 'result' must be an object or null")
            returns, scores = result.get("returns"), result.get("scores")
        params = {str(k): str(v) for k, v in data["params"].items()}
        return cls(data["game"], params, seed, [str(p) for p in data["players"]], moves, returns, scores)


def replay(record: Record, game: Game | None = None) -> State:
    """Re-apply every move of ``record`` and return the final state.

    Raises :class:`RecordError` naming the first move that is not legal, that was
    made by the wrong seat, or a result that does not match.
    """
    if game is None:
        try:
            game = load_game(record.game, **record.params)
        except PlunderError as exc:
            raise RecordError(f"record's game cannot be loaded: {exc}") from None
    state = game.new_initial_state()
    for i, move in enumerate(record.moves):
        if state.is_terminal():
            raise RecordError(f"move {i} {move.action!r}: the game was already over", index=i)
        mover = None if state.current_player == CHANCE else state.current_player
        if mover != move.by:
            who = "chance" if mover is None else game.seat_name(mover)
            raise RecordError(f"move {i} {move.action!r}: recorded as by {move.by!r} but {who} is to act", index=i)
        try:
            state = state.apply_text(move.action)
        except PlunderError as exc:
            raise RecordError(f"move {i} {move.action!r} does not replay: {exc}", index=i) from None
    if record.returns is not None:
        if not state.is_terminal():
            raise RecordError("record claims a result but its moves do not finish the game")
        if [float(x) for x in record.returns] != [float(x) for x in state.returns()]:
            raise RecordError(f"record result {record.returns} does not match the replayed {state.returns()}")
        if record.scores is not None and [float(x) for x in record.scores] != [float(x) for x in state.scores()]:
            raise RecordError(f"record scores {record.scores} do not match the replayed {state.scores()}")
    return state
