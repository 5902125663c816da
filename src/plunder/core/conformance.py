"""The one conformance check every game and every preset must pass.

:func:`check_game` plays random games through the public API and checks that
they end within ``max_game_length``; that every listed action applies; that chance
outcomes are a distribution; that every action's text round-trips; that applying actions,
and refusing illegal actions and unreadable texts, leave the state unchanged (compared with
an independent copy, a :class:`Snapshot`); that states pickle, as they do to reach an AI
worker; and that the records of those games survive JSON and replay to the final state
their play reached, while a record tampered with at its first, middle and last moves and at
its chance moves (unreadable text, the wrong mover, another chance outcome than the seed
draws) is refused at that move.

Before any game is played it checks the game's entry as the registry does (:func:`check_entry`),
and after, that the games played keep to its declaration (:func:`check_declared`).
"""

from __future__ import annotations

import dataclasses
import math
import pickle
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
    #: records saved as JSON, read back and replayed to the final state their play reached
    records_replayed: int = 0
    #: records tampered with (each at every one of :func:`tamper_positions`) and refused
    records_tampered: int = 0


class ConformanceError(AssertionError):
    """A game broke the API contract; the message says where."""


def _fail(game: Game, state: State, what: str) -> ConformanceError:
    return ConformanceError(f"{game.id} {game.params}: {what} at {state.summary()}")


class Snapshot:
    """An independent copy of what a state is, taken to tell later whether anything done to the
    state changed it: the values of its compared fields (the whole state, for one that is no
    dataclass) pickled and read back.

    Neither the state itself nor a deep copy will do: a game whose ``apply`` changed the state it
    was applied to would be compared with itself (a state's ``__deepcopy__`` returns the state).
    The fields a state is not compared by (a game, caches) are left out, which keeps a snapshot
    cheap enough to take of every state (a tenth of pickling a Pillage state whole)."""

    def __init__(self, game: Game, state: State) -> None:
        self.state = state
        self.names = _compared_fields(state)
        try:
            self.data = pickle.dumps(self._of(state), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # any failure of a game's own pickling is the game's breach
            raise _fail(game, state, f"the state cannot be pickled ({type(exc).__name__}: {exc})") from None
        self.value = pickle.loads(self.data)

    def _of(self, state: State) -> object:
        return state if self.names is None else tuple(getattr(state, name) for name in self.names)

    def differs(self, state: State) -> bool:
        """Whether ``state`` is no longer what this snapshot took."""
        return self._of(state) != self.value

    def fresh(self) -> State:
        """A new state equal to the one taken, as it was then."""
        if self.names is None:
            copy: State = pickle.loads(self.data)
            return copy
        return self.state.evolve(**dict(zip(self.names, pickle.loads(self.data))))


def _compared_fields(state: State) -> tuple[str, ...] | None:
    """The names of the fields ``state`` is compared by; None for a state that is no dataclass."""
    if not dataclasses.is_dataclass(state):
        return None
    return tuple(f.name for f in dataclasses.fields(state) if f.compare)


def check_pickles(game: Game, state: State) -> None:
    """``state`` pickles (as it does to reach an AI worker) and reads back equal to itself."""
    try:
        copy = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception as exc:  # any failure of a game's own pickling is the game's breach
        raise _fail(game, state, f"the state cannot be pickled ({type(exc).__name__}: {exc})") from None
    if copy is state or copy != state:
        raise _fail(game, state, "the state does not equal its own pickled copy")


def _unchanged(game: Game, state: State, before: Snapshot, tried: list[tuple[str, Action]], what: str) -> None:
    """``state`` is still what ``before`` took, though each action of ``tried`` (named by its text)
    was applied to it or refused. Otherwise the failure names the first that changes a fresh
    copy (one comparison per state while all is well; the search only when it is not), or
    ``what`` else was done to the state."""
    if not before.differs(state):
        return
    for text, action in tried:
        copy = before.fresh()
        try:
            copy.apply(action)
        except IllegalActionError:
            pass
        if before.differs(copy):
            what = text
            break
    raise _fail(game, before.fresh(), f"{what} changed the state it was applied to")


def check_state(game: Game, state: State, rng: random.Random, report: ConformanceReport, full: bool,
                before: Snapshot | None = None) -> None:
    """Check one state: listed actions, texts, chance distribution, refusals; and that nothing
    done to it changes it (compared with ``before``, its :class:`Snapshot`, taken here if not given)."""
    if before is None:
        before = Snapshot(game, state)
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
    applied: list[tuple[str, Action]] = []
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
        after = state.apply(action)
        if not isinstance(after, State):
            raise _fail(game, state, f"applying {text!r} gave a {type(after).__name__}, not a state")
        applied.append((f"applying {text!r}", action))
        report.actions_applied += 1
    try:
        game.parse_action(state, "\x00 not an action \x00")
    except InvalidActionError:
        pass
    else:
        raise _fail(game, state, "garbage text was accepted as an action")
    _unchanged(game, state, before, applied, "reading, listing and writing its actions")


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


def _refuse_illegal(game: Game, state: State, before: Snapshot, stale: list, report: ConformanceReport) -> None:
    """Actions legal earlier but not now must raise IllegalActionError and leave ``state`` as
    ``before``, its :class:`Snapshot`, took it."""
    legal = set(state.legal_actions())
    refused: list[tuple[str, Action]] = []
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
        refused.append((f"the refused action {action!r}", action))
    _unchanged(game, state, before, refused, "refusing actions")


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
        check_pickles(game, state)
        stale: list = []
        steps = 0
        while True:
            before = Snapshot(game, state)
            check_state(game, state, rng, report, full=g < full_checks, before=before)
            _refuse_illegal(game, state, before, stale[-6:], report)
            if state.is_terminal():
                break
            if steps >= game.max_game_length:
                raise _fail(game, state, f"game did not end within max_game_length={game.max_game_length}")
            legal = state.legal_actions()
            action = sample_chance(state, rng) if state.current_player == CHANCE else rng.choice(legal)
            stale.extend(legal[:3])
            state, played = state.apply(action), state
            _unchanged(game, played, before, [], f"applying {action!r}")
            steps += 1
        check_pickles(game, state)
        report.games += 1
        report.max_length = max(report.max_length, steps)
    _check_records(game, seed, min(playthroughs, 20), report)
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
    return _random_play(game, seed)[0]


def _random_play(game: Game, seed: int) -> tuple[Record, State]:
    """:func:`random_record`'s record, and the final state its play reached."""
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
    return record, state


def _check_records(game: Game, seed: int, count: int, report: ConformanceReport) -> None:
    """``count`` records of random play survive JSON and replay to the final state their play
    reached; the first :data:`TAMPERED_RECORDS` of those with moves are refused when tampered with."""
    for i in range(count):
        record, played = _random_play(game, seed + i)
        again = Record.from_json(record.to_json(), game)
        if again != record:
            raise ConformanceError(f"{game.id}: record does not survive JSON: {record.to_json()}")
        try:
            final = replay(again, game)
        except RecordError as exc:
            raise ConformanceError(f"{game.id}: record {i} of random play does not replay: {exc}") from None
        if final != played:
            raise ConformanceError(f"{game.id}: record {i} replays to another final state than its play reached "
                                   f"({final.summary()}; play: {played.summary()})")
        report.records_replayed += 1
        if record.moves and report.records_tampered < TAMPERED_RECORDS:
            check_tamper(game, record)
            report.records_tampered += 1


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
