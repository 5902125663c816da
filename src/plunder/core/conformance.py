"""The one conformance check every game and every preset must pass.

:func:`check_game` plays random games through the public API and checks that
they end within ``max_game_length``; that every listed action applies; that chance
outcomes are a distribution; that every action's text round-trips; that illegal
actions and unreadable texts are refused with the state unchanged; and that the
records of those games survive JSON and replay to an equal final state, while a
record tampered with at its first, middle and last moves and at its chance moves (unreadable
text, the wrong mover, another chance outcome than the seed draws) is refused at that move.

Before any game is played it checks the game's entry as the registry does (:func:`check_entry`),
and after, that the games played keep to its declaration (:func:`check_declared`).
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, replace

from .errors import IllegalActionError, InvalidActionError, RecordError
from .game import CHANCE, TERMINAL, Action, Game, State
from . import chance
from .chance import sample_chance
from .record import SEEDED, Move, Record, replay
from .registry import entry, is_game, problems_of


@dataclass
class ConformanceReport:
    """What :func:`check_game` looked at."""

    games: int = 0
    states: int = 0
    actions_applied: int = 0
    illegal_refused: int = 0
    max_length: int = 0


class ConformanceError(AssertionError):
    """A game broke the API contract; the message says where."""


def _fail(game: Game, state: State, what: str) -> ConformanceError:
    return ConformanceError(f"{game.id} {game.params}: {what} at {state.summary()}")


def check_state(game: Game, state: State, rng: random.Random, report: ConformanceReport, full: bool) -> None:
    """Check one state: listed actions, texts, chance distribution, refusals."""
    report.states += 1
    player = state.current_player
    legal = state.legal_actions()
    if player == TERMINAL:
        if legal:
            raise _fail(game, state, "terminal state lists actions")
        if len(state.returns()) != game.num_players:
            raise _fail(game, state, "returns() has the wrong length")
        return
    if not legal:
        raise _fail(game, state, "non-terminal state has no legal action")
    if len(set(legal)) != len(legal):
        raise _fail(game, state, "legal_actions() repeats an action")
    for most in (0, 1, 7):
        if state.legal_head(most) != (legal[:most], len(legal)):
            raise _fail(game, state, f"legal_head({most}) is not the first {most} of legal_actions() and their number")
    if not (player == CHANCE or 0 <= player < game.num_players):
        raise _fail(game, state, f"current_player {player} is not a seat, CHANCE or TERMINAL")
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        if sorted(map(repr, (a for a, _ in outcomes))) != sorted(map(repr, legal)):
            raise _fail(game, state, "chance outcomes differ from legal_actions()")
        total = math.fsum(p for _, p in outcomes)
        if abs(total - 1.0) > 1e-9 or any(p <= 0 for _, p in outcomes):
            raise _fail(game, state, f"chance probabilities sum to {total} or include p <= 0")
    texts = set()
    before = state
    for action in legal if full else rng.sample(legal, min(len(legal), 8)):
        text = game.action_to_text(state, action)
        if text in texts:
            raise _fail(game, state, f"two actions share the text {text!r}")
        texts.add(text)
        if game.parse_action(state, text) != action:
            raise _fail(game, state, f"text {text!r} does not parse back to {action!r}")
        _check_typed(game, state, action, text)
        if state.illegal_reason(action) is not None:
            raise _fail(game, state, f"listed action {text!r} is called illegal")
        state.apply(action)
        report.actions_applied += 1
    if state != before:
        raise _fail(game, state, "applying actions changed the state it was applied to")
    try:
        game.parse_action(state, "\x00 not an action \x00")
    except InvalidActionError:
        pass
    else:
        raise _fail(game, state, "garbage text was accepted as an action")


def _check_typed(game: Game, state: State, action: Action, text: str) -> None:
    """An action is a frozen dataclass its codec knows, unequal to a plain tuple of its fields,
    which the codec does not take for an action (one notation, :mod:`.codec`)."""
    if not (dataclasses.is_dataclass(action) and not isinstance(action, type)
            and getattr(type(action), "__dataclass_params__").frozen):
        raise _fail(game, state, f"action {text!r} is a {type(action).__name__}, not a frozen dataclass")
    if not game.codec.is_action(state, action):
        raise _fail(game, state, f"the codec does not know its own action {text!r}")
    look_alike = dataclasses.astuple(action)
    if look_alike == action or game.codec.is_action(state, look_alike):
        raise _fail(game, state, f"action {text!r} is taken for the plain tuple {look_alike!r}")


def _refuse_illegal(game: Game, state: State, stale: list, report: ConformanceReport) -> None:
    """Actions legal earlier but not now must raise IllegalActionError and leave ``state`` equal."""
    legal = set(state.legal_actions())
    snapshot = state
    for action in stale:
        if action in legal:
            continue
        try:
            state.apply(action)
        except IllegalActionError as exc:
            if not exc.rule:
                raise _fail(game, state, f"illegal-action error names no ruling: {exc}") from None
            report.illegal_refused += 1
        else:
            raise _fail(game, state, f"illegal action {action!r} was accepted")
        if state != snapshot:
            raise _fail(game, state, "a refused action changed the state")


def check_game(game: Game, playthroughs: int = 200, seed: int = 0, full_checks: int = 10) -> ConformanceReport:
    """Run the conformance check on ``game``; raise :class:`ConformanceError` on a breach.

    The first ``full_checks`` playthroughs apply and round-trip every legal action of
    every state; later ones sample a few per state.
    """
    check_entry(game)
    rng = random.Random(seed)
    report = ConformanceReport()
    for g in range(playthroughs):
        state = game.new_initial_state()
        stale: list = []
        steps = 0
        while True:
            check_state(game, state, rng, report, full=g < full_checks)
            _refuse_illegal(game, state, stale[-6:], report)
            if state.is_terminal():
                break
            if steps >= game.max_game_length:
                raise _fail(game, state, f"game did not end within max_game_length={game.max_game_length}")
            legal = state.legal_actions()
            action = sample_chance(state, rng) if state.current_player == CHANCE else rng.choice(legal)
            stale.extend(legal[:3])
            state = state.apply(action)
            steps += 1
        report.games += 1
        report.max_length = max(report.max_length, steps)
    _check_records(game, seed, min(playthroughs, 20))
    check_declared(game, seed, min(playthroughs, 20))
    return report


def check_entry(game: Game) -> None:
    """Raise :class:`ConformanceError` naming every problem that leaves ``game``'s entry out of
    the registry (:func:`~plunder.core.registry.problems_of`), or when ``game`` with its
    parameters has a number of seats outside the range its entry declares. A game class no
    package registers (a test's own) has no entry to check."""
    problems = problems_of(game.id)
    if problems:
        raise ConformanceError(f"{game.id}: its entry is left out: " + "; ".join(problems))
    if not is_game(game.id):
        return
    declared = entry(game.id).declaration
    if game.num_players not in declared.seat_counts:
        raise ConformanceError(f"{game.id} with {game.params} has {game.num_players} seats; its entry declares "
                               f"{declared.seats_text()}")


def check_declared(game: Game, seed: int, count: int) -> None:
    """Raise :class:`ConformanceError` where one of ``count`` random games (seeds from ``seed``,
    played as :func:`random_record` plays them) contradicts what ``game``'s entry declares: a
    chance move in a game declared without chance, or returns that do not sum to zero in one
    declared zero-sum. A game class no package registers has no declaration to hold it to."""
    if not is_game(game.id):
        return
    declared = entry(game.id).declaration
    for i in range(count):
        record = random_record(game, seed + i)
        if not declared.chance and any(move.by is None for move in record.moves):
            raise ConformanceError(f"{game.id}: chance moved in the game of seed {seed + i}, and its entry "
                                   "declares no chance")
        if declared.zero_sum and not math.isclose(sum(record.returns or []), 0.0, abs_tol=1e-9):
            raise ConformanceError(f"{game.id}: the game of seed {seed + i} returned {record.returns}, which do "
                                   "not sum to zero, and its entry declares it zero-sum")


def random_record(game: Game, seed: int) -> Record:
    """A whole game of uniformly random choices, chance drawn from ``seed`` as in real play."""
    rng = random.Random(f"conformance:{seed}")
    record = Record(game.id, dict(game.params), seed, ["random"] * game.num_players)
    draws = chance.stream(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if len(record.moves) > game.max_game_length:
            raise _fail(game, state, f"game did not end within max_game_length={game.max_game_length}")
        if state.current_player == CHANCE:
            action, by = chance.pick(state.chance_outcomes(), draws()), None
        else:
            action, by = rng.choice(state.legal_actions()), state.current_player
        record.moves.append(Move(by, game.action_to_text(state, action)))
        state = state.apply(action)
    record.returns = list(state.returns())
    record.scores = list(state.scores())
    return record


def _check_records(game: Game, seed: int, count: int) -> None:
    for i in range(count):
        record = random_record(game, seed + i)
        again = Record.from_json(record.to_json(), game)
        if again != record:
            raise ConformanceError(f"{game.id}: record does not survive JSON: {record.to_json()}")
        final = replay(again, game)
        if list(final.returns()) != list(record.returns or []):
            raise ConformanceError(f"{game.id}: replayed returns differ from the record")
        if record.moves:
            again_final = replay(Record.from_json(record.to_json(), game), game)
            if again_final != final:
                raise ConformanceError(f"{game.id}: two replays of one record differ")
            if i < TAMPERED_RECORDS:
                check_tamper(game, record)


#: how many of the checked records are also tampered with (each at several positions)
TAMPERED_RECORDS = 3
#: text no game reads as an action
TAMPERED = "\x00tampered\x00"


def tamper_positions(record: Record) -> list[int]:
    """Where :func:`check_tamper` tampers: the first, middle and last moves, and the first, middle and last chance moves."""
    last = len(record.moves) - 1
    chances = [i for i, m in enumerate(record.moves) if m.by is None]
    picks = {0, last // 2, last}
    if chances:
        picks |= {chances[0], chances[len(chances) // 2], chances[-1]}
    return sorted(picks)


def check_tamper(game: Game, record: Record) -> None:
    """Tamper ``record`` at each of :func:`tamper_positions`; replay must refuse each at that move.

    Each position gets unreadable text and the wrong mover; a chance move also gets another
    of its outcomes, which a record whose chance was drawn from its seed must refuse.
    """
    states = [game.new_initial_state()]
    for move in record.moves[:-1]:
        states.append(states[-1].apply_text(move.action))
    for index in tamper_positions(record):
        move, state = record.moves[index], states[index]
        forgeries = {"unreadable text": Move(move.by, TAMPERED),
                     "the wrong mover": Move(0 if move.by is None else None, move.action)}
        if move.by is None and record.chance == SEEDED:
            others = [t for t in (game.action_to_text(state, a) for a in state.legal_actions()) if t != move.action]
            if others:
                forgeries["another chance outcome"] = Move(None, others[0])
        for what, forged in forgeries.items():
            moves = list(record.moves)
            moves[index] = forged
            try:
                replay(replace(record, moves=moves), game)
            except RecordError as exc:
                if exc.index != index:
                    raise ConformanceError(
                        f"{game.id}: move {index} tampered with ({what}) was reported as move {exc.index}: {exc}"
                    ) from None
                continue
            raise ConformanceError(f"{game.id}: a record with move {index} tampered with ({what}) replayed")
