"""The conformance check itself must catch broken games."""

from dataclasses import replace

import pytest

import plunder
from plunder.core.conformance import ConformanceError, check_game, check_tamper, random_record, tamper_positions
from plunder.games.pillage.actions import PillageCodec
from plunder.games.pillage.rules import PillageGame


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
