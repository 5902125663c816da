"""``plunder play`` tells every move in the game's words, ends with the score taken apart, and
refuses moves in one plain sentence (the full message with ``--verbose``)."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner
from rich.console import Console

from plunder import load_game
from plunder.agents import make_agent
from plunder.cli import main
from plunder.core.registry import entry
from plunder.match import breakdown_of
from plunder.terminal import PlaySession

# Each game with a human in seat 0 (who plays the first legal move) and random agents elsewhere;
# what the narration of that game always says, and the first words of its breakdown.
GAMES = [
    ("pillage", {"board": "square:2x2", "contents": "random"}, "Box 4 of 4 holds", "Final values: "),
    ("pirates", {"layout": "block", "turns": "3"}, "Starting booty: ", "Ship x crew: "),
    ("hubs", {"width": "3", "height": "3", "dots": "6"}, "placed dot a at", "Round 1: "),
    ("profiteer", {"max_rounds": "2"}, "Side A turns up", "Your cards: "),
    ("crossroads", {"players": "3", "target": "15"}, "for a first city", "Player 1: "),
]


@pytest.mark.parametrize("game_id,params,told,first", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_is_told_and_taken_apart(game_id: str, params: dict[str, str], told: str, first: str) -> None:
    game = load_game(game_id, **params)
    out = io.StringIO()
    console = Console(file=out, width=80)
    seats = [None] + [make_agent("random", game) for _ in range(game.num_players - 1)]
    session: PlaySession

    def first_legal(prompt: str) -> str:
        state = session.state
        return game.action_to_text(state, state.legal_actions()[0])

    session = PlaySession(game, seats, 11, console, first_legal)
    session.run()
    text = out.getvalue()
    assert session.state.is_terminal()
    assert told in text
    lines = breakdown_of(game, session.moves)
    assert lines[0].startswith(first)
    assert all(" ".join(line.split()) in " ".join(text.split()) for line in lines)
    # every move of the human and of the agents is told on a line of its own
    narrate = entry(game_id).presentation.narrate
    assert narrate is not None
    flat = " ".join(text.split())
    for before, move, after in zip(session.states, session.moves, session.states[1:]):
        if move.by is not None:
            said = narrate(before, game.parse_action(before, move.action), after)
            assert " ".join(said.split()) in flat


def test_refusals_are_plain_unless_verbose() -> None:
    args = ["play", "pillage", "-p", "board=square:1x1", "-p", "contents=unit", "--vs", "human", "--seed", "5",
            "--record", "/dev/null"]
    plain = CliRunner().invoke(main, args, input="a1-b1\na1-b1\nbogus\nquit\n", catch_exceptions=False).output
    assert "Player 1 drew a1-b1" in plain
    assert "Line a1-b1 is already drawn." in plain and "PP-4" not in plain and "ply" not in plain
    assert "Type a move like a1-a2, or 'moves' to list them." in plain
    verbose = CliRunner().invoke(main, [*args, "--verbose"], input="a1-b1\na1-b1\nquit\n", catch_exceptions=False)
    assert "illegal action 'a1-b1' at pillage" in verbose.output and "(PP-4)" in verbose.output


def test_a_long_run_of_chance_takes_two_rows() -> None:
    # a 4x4 board deals 16 boxes before the first line: the last deals are told, the rest counted
    out = CliRunner().invoke(main, ["play", "pillage", "--vs", "human", "--seed", "5", "--record", "/dev/null"],
                             input="quit\n", catch_exceptions=False).output
    lines = out.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("("))  # told under the board
    told = lines[first:first + 2]
    assert told[0].startswith("(") and " earlier draws) " in told[0] and "Box 16 of 16 holds" in " ".join(told)


def test_a_word_that_is_no_move_is_refused_as_unreadable_not_as_a_commodity() -> None:
    # a one-commodity legend keeps the old reason short enough to have been shown: "'bogus' is
    # not a commodity of the legend food=5" misled a player who typed no commodity at all
    args = ["play", "pillage", "-p", "board=square:1x1", "-p", "contents=unit", "-p", "legend=food:5",
            "--vs", "human", "--seed", "5", "--record", "/dev/null"]
    out = CliRunner().invoke(main, args, input="bogus\nfood\nquit\n", catch_exceptions=False).output
    assert "commodity" not in out
    assert out.count("Type a move like a1-a2, or 'moves' to list them.") == 2
