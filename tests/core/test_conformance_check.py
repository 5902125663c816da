"""The conformance check itself must catch broken games."""

import itertools
from dataclasses import dataclass, replace

import pytest

import plunder
from plunder.core.conformance import (TAMPERED_RECORDS, ConformanceError, check_game, check_tamper, random_record,
                                      Snapshot, tamper_positions)
from plunder.games.pillage.actions import PillageCodec
from plunder.games.pillage.rules import PillageGame
from tests.core.counter import (Add, CounterGame, CounterState, CountingRefusalsGame, MutatingCounterGame)


class NoRoundTrip(PillageGame):
    def action_to_text(self, state, action):  # type: ignore[no-untyped-def]
        return "a1-b1"


class AnyValue(PillageCodec):
    """A codec that takes any value for an action (as Pillage's NamedTuple actions once let a
    plain tuple pass for a line)."""

    def is_action(self, state, value):  # type: ignore[no-untyped-def]
        return True


class Gullible(PillageGame):
    @property
    def codec(self) -> PillageCodec:
        return AnyValue(self.actions)


class NeverEnds(PillageGame):
    @property
    def max_game_length(self) -> int:
        return 3


def build(cls):  # type: ignore[no-untyped-def]
    base = plunder.load_game("pillage", board="square:2x2", contents="unit")
    return cls(base.values, base.params)


def test_text_that_does_not_round_trip_is_caught() -> None:
    with pytest.raises(ConformanceError, match="parse back|share the text"):
        check_game(build(NoRoundTrip), playthroughs=2)


def test_a_codec_taking_a_plain_tuple_for_an_action_is_caught() -> None:
    with pytest.raises(ConformanceError, match="taken for the plain tuple"):
        check_game(build(Gullible), playthroughs=1)


def test_actions_are_typed_values_with_one_codec_in_every_game() -> None:
    # one notation: every game's actions go through its codec, the same errors everywhere
    for game_id in plunder.game_ids():
        game = plunder.load_game(game_id)
        state = game.new_initial_state()
        action = state.legal_actions()[0]
        assert game.codec.is_action(state, action) and not game.codec.is_action(state, ("x", 1))
        assert game.codec.parse(state, game.codec.text(state, action)) == action
        with pytest.raises(plunder.InvalidActionError):
            game.parse_action(state, "x" * 201)
        with pytest.raises(plunder.InvalidActionError):
            game.parse_action(state, "\x00 no action \x00")


def test_game_longer_than_its_bound_is_caught() -> None:
    with pytest.raises(ConformanceError, match="did not end"):
        check_game(build(NeverEnds), playthroughs=2)


def test_a_sound_game_passes() -> None:
    report = check_game(build(PillageGame), playthroughs=5)
    assert report.games == 5 and report.actions_applied > 0


class Lenient(PillageGame):
    """Reads any text it does not know as its first legal action: a record tampered with still replays."""

    def parse_action(self, state, text):  # type: ignore[no-untyped-def]
        try:
            return super().parse_action(state, text)
        except plunder.InvalidActionError:
            return state.legal_actions()[0]


def test_tampering_is_tried_at_the_first_middle_last_and_chance_moves() -> None:
    game = plunder.load_game("pillage", board="square:2x2", contents="random")
    record = random_record(game, 3)
    chances = [i for i, m in enumerate(record.moves) if m.by is None]
    last = len(record.moves) - 1
    assert tamper_positions(record) == sorted({0, last // 2, last, chances[0], chances[len(chances) // 2], chances[-1]})
    check_tamper(game, record)  # a sound game refuses each at its index


def test_a_game_that_reads_tampered_text_is_caught() -> None:
    game = build(Lenient)
    with pytest.raises(ConformanceError, match="move 0 tampered with .unreadable text."):
        check_tamper(game, random_record(game, 1))


def test_a_chance_move_not_drawn_from_the_seed_must_be_refused() -> None:
    game = plunder.load_game("pillage", board="square:2x2", contents="random")
    record = random_record(game, 5)
    check_tamper(game, record)
    # a record whose chance is free is only checked for legality: no other outcome is tried
    free = replace(record, chance="free", seed=None)
    check_tamper(game, free)


def test_a_sound_counter_game_passes() -> None:
    report = check_game(CounterGame.load(), playthroughs=20)
    assert report.games == 20 and report.illegal_refused > 0
    assert report.records_replayed == 20 and report.records_tampered == TAMPERED_RECORDS


def test_a_game_whose_apply_changes_the_state_it_was_applied_to_is_caught() -> None:
    # the state is compared with its pickled copy, not with itself
    with pytest.raises(ConformanceError, match=r"counter {}: applying '\+1' changed the state it was applied to"):
        check_game(MutatingCounterGame.load(), playthroughs=2)


def test_a_refused_action_that_changes_the_state_is_caught() -> None:
    with pytest.raises(ConformanceError, match=r"the refused action Add\(amount=\d\) changed the state it was applied to"):
        check_game(CountingRefusalsGame.load(), playthroughs=5)


def test_a_snapshot_is_independent_of_the_state_it_took() -> None:
    game = CounterGame.load()
    state = game.new_initial_state().apply_text("+2")
    taken = Snapshot(game, state)
    fresh = taken.fresh()
    assert fresh == state and fresh is not state and not taken.differs(state)
    assert isinstance(fresh, CounterState) and fresh.added is not state.added
    state.added.append(1)  # what a careless game might do
    again = taken.fresh()
    assert taken.differs(state) and not taken.differs(fresh) and isinstance(again, CounterState) and again.added == [2]


class Unpicklable(CounterGame):
    """A game pickle cannot write, held by each of its states (an AI worker could not receive them)."""

    def __reduce__(self) -> tuple:
        raise TypeError("this game cannot be pickled")


def test_a_state_that_cannot_be_pickled_is_caught() -> None:
    with pytest.raises(ConformanceError, match="the state cannot be pickled .TypeError: this game cannot be pickled"):
        check_game(Unpicklable.load(), playthroughs=1)


class ForgetfulState(CounterState):
    """Equal to nothing but itself: a copy of it never compares equal."""

    def __eq__(self, other: object) -> bool:
        return other is self

    __hash__ = object.__hash__


class Forgetful(CounterGame):
    """Its states are unequal to their copies: no snapshot could show a state unchanged."""

    def new_initial_state(self) -> CounterState:
        return ForgetfulState(self, [])


def test_a_state_unequal_to_its_own_copy_is_caught() -> None:
    with pytest.raises(ConformanceError, match="does not equal its own pickled copy"):
        check_game(Forgetful.load(), playthroughs=1)


@dataclass(frozen=True)
class NumberedState(CounterState):
    """A counter state carrying the number of its game."""

    number: int = 0

    def _apply(self, action: Add) -> CounterState:
        return NumberedState(self.game, self.added + [action.amount], self.number)


class Renumbering(CounterGame):
    """Numbers each game it starts: a record's replay starts from another state than its play
    did, and ends in another, though every move and the returns agree."""

    made = itertools.count()

    def new_initial_state(self) -> CounterState:
        return NumberedState(self, [], next(self.made))


def test_a_record_replaying_to_another_final_state_than_play_reached_is_caught() -> None:
    with pytest.raises(ConformanceError, match="record 0 replays to another final state than its play reached"):
        check_game(Renumbering.load(), playthroughs=1)


class Unreplayable(CounterGame):
    """Starts every other game with Player 2 to move: a record of one game does not replay."""

    made = itertools.count()

    def new_initial_state(self) -> CounterState:
        return CounterState(self, [0] * (next(self.made) % 2))


def test_a_record_that_does_not_replay_is_a_conformance_error() -> None:
    with pytest.raises(ConformanceError, match="record 0 of random play does not replay: move 0 .* recorded as by 1 but Player 1 is to act"):
        check_game(Unreplayable.load(), playthroughs=1)


class TwoMutatesState(CounterState):
    """Changes the state it was applied to only when adding 2."""

    def _apply(self, action: Add) -> CounterState:
        if action == Add(2):
            self.added.append(0)
        return TwoMutatesState(self.game, [n for n in self.added if n] + [action.amount])


class TwoMutates(CounterGame):
    """Its ``+2`` changes the state it was applied to; its ``+1`` does not."""

    def new_initial_state(self) -> CounterState:
        return TwoMutatesState(self, [])


def test_the_action_that_changed_the_state_is_named_among_those_applied() -> None:
    # every legal action is applied before the state is compared: the failure names the culprit
    with pytest.raises(ConformanceError, match=r"applying '\+2' changed the state it was applied to at count 0"):
        check_game(TwoMutates.load(), playthroughs=1)


class NothingState(CounterState):
    """Its ``apply`` changes nothing and gives nothing back."""

    def _apply(self, action: Add) -> CounterState:
        return None  # type: ignore[return-value]


class GivesNothing(CounterGame):
    """A game whose ``apply`` returns None."""

    def new_initial_state(self) -> CounterState:
        return NothingState(self, [])


def test_an_apply_that_gives_no_state_is_caught() -> None:
    with pytest.raises(ConformanceError, match=r"applying '\+1' gave a NoneType, not a state at count 0"):
        check_game(GivesNothing.load(), playthroughs=1)
