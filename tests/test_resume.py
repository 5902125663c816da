"""Games are saved as they go and resume where they stopped; undo never re-rolls chance."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import plunder
from plunder import load_game
from plunder.agents import make_agent
from plunder.cli import main
from plunder.terminal import PlaySession, invoked_as, save_record

# Small games of each kind, a human in seat 0 and random agents elsewhere.
GAMES = [
    ("pillage", {"board": "square:2x2", "contents": "random"}),
    ("pirates", {"layout": "block", "turns": "3"}),
    ("hubs", {"width": "3", "height": "3", "dots": "6"}),
    ("profiteer", {"max_rounds": "2"}),
    ("crossroads", {"players": "3", "target": "15"}),
]


def _session(game_id: str, params: dict[str, str], seed: int = 7) -> PlaySession:
    game = load_game(game_id, **params)
    seats = [None] + [make_agent("random", game) for _ in range(game.num_players - 1)]

    def never(prompt: str) -> str:
        raise AssertionError("the test drives the session itself")

    return PlaySession(game, seats, seed, Console(file=io.StringIO(), width=80), never)


def _decide(session: PlaySession, k: int) -> list[str]:
    """Play the human's first legal move ``k`` times (agents and chance answering); their texts."""
    played: list[str] = []
    session.advance()
    for _ in range(k):
        if session.state.is_terminal():
            break
        state = session.state
        action = state.legal_actions()[len(played) % len(state.legal_actions())]
        played.append(session.game.action_to_text(state, action))
        session.push(action)
        session.advance()
    return played


@pytest.mark.parametrize("game_id,params", GAMES, ids=[g[0] for g in GAMES])
def test_undo_and_the_same_moves_again_meet_the_same_chance(game_id: str, params: dict[str, str]) -> None:
    session = _session(game_id, params)
    played = _decide(session, 3)
    first = list(session.moves)
    undone = 0
    while session.undo():
        undone += 1
    assert undone >= 1
    for text in played[-undone:] if undone < len(played) else played:
        session.push(session.game.parse_action(session.state, text))
        session.advance()
    # the same cards, flips, dice and deals, and the same agents' replies
    assert session.moves == first


@pytest.mark.parametrize("game_id,params", GAMES, ids=[g[0] for g in GAMES])
def test_a_stopped_game_resumes_where_it_stopped(game_id: str, params: dict[str, str], tmp_path: Path) -> None:
    whole = _session(game_id, params)
    _decide(whole, 4)
    stopped = _session(game_id, params)
    path = tmp_path / "game.json"
    stopped.save = lambda record: save_record(path, record)
    _decide(stopped, 2)
    record = plunder.Record.from_json(path.read_text())
    assert record.moves == stopped.moves and record.returns is None
    game = load_game(game_id, **params)
    seats = [None] + [make_agent("random", game) for _ in range(game.num_players - 1)]
    resumed = PlaySession(game, seats, None, Console(file=io.StringIO()), input, resume=record)
    assert resumed.state == stopped.state
    # the rest of the game goes as it would have without the stop: chance and agents alike
    for _ in range(2):
        if resumed.state.is_terminal():
            break
        resumed.advance()
        if resumed.state.is_terminal():
            break
        text = whole.moves[len(resumed.moves)].action
        resumed.push(resumed.game.parse_action(resumed.state, text))
    resumed.advance()
    assert resumed.moves == whole.moves[: len(resumed.moves)]


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_play_resume_continues_the_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    out = run("play", "pillage", "-p", "board=square:2x2", "--seed", "3", "--record", str(path),
              input="a1-b1\nquit\n").output
    assert f"{invoked_as()} play --resume {path}" in out
    saved = plunder.Record.from_json(path.read_text())
    assert [m.action for m in saved.moves if m.by == 0] == ["a1-b1"]
    out = run("play", "--resume", str(path), input="undo\nundo\nquit\n").output
    # undone back to the first decision: the saved record follows every undo
    assert [m.by for m in plunder.Record.from_json(path.read_text()).moves] == [None] * 4


def test_quitting_at_the_first_prompt_saves_a_resumable_record(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    out = run("play", "profiteer", "--seed", "9", "--record", str(path), input="quit\n").output
    assert f"continue it with: {invoked_as()} play --resume" in out
    record = plunder.Record.from_json(path.read_text())
    assert record.seed == 9 and record.returns is None
    out = run("play", "--resume", str(path), input="quit\n").output
    assert "Profiteer" in out


def test_resume_refuses_a_finished_game_and_options_it_takes_from_the_record(tmp_path: Path) -> None:
    path = tmp_path / "done.json"
    path.write_text(plunder.play(load_game("pillage", preset="small"), ["greedy", "random"], seed=4).to_json())
    done = CliRunner().invoke(main, ["play", "--resume", str(path)])
    assert done.exit_code != 0 and "is over" in done.output
    both = CliRunner().invoke(main, ["play", "--resume", str(path), "--seed", "3"])
    assert both.exit_code != 0 and "--resume takes" in both.output


def test_players_sets_the_number_of_players(tmp_path: Path) -> None:
    out = run("play", "crossroads", "--players", "human,random,random", "--seed", "1", "--record",
              str(tmp_path / "game.json"), input="quit\n").output
    assert "Player 3 (random)" in out


def test_replay_step_walks_forward_and_back_with_the_narration(tmp_path: Path) -> None:
    path = tmp_path / "done.json"
    record = plunder.play(load_game("pirates", layout="block", turns="3"), ["greedy"], seed=4)
    path.write_text(record.to_json())
    out = run("replay", str(path), "--step", input="\nn\np\nlast\nwhat\nq\n").output
    last = len(record.moves)
    told = [line for line in out.splitlines() if line.startswith("Move ")]
    assert [t.split(":")[0] for t in told] == ["Move 0 of %d" % last, "Move 1 of %d" % last, "Move 2 of %d" % last,
                                               "Move 1 of %d" % last] + ["Move %d of %d" % (last, last)] * 2
    assert "Starting booty: " in told[1]  # the game's own words, not the bare move text
    assert "n: next move, p: back" in out and "with score" in out


def test_the_command_suggested_runs_from_where_the_user_stands(tmp_path: Path) -> None:
    script = tmp_path / "bin" / "plunder"
    # the script the PATH finds is the one running: its short name
    assert invoked_as(str(script), str(script)) == "plunder"
    # a script off the PATH (.venv/bin/plunder): the path it was started by, quoted
    assert invoked_as(".venv/bin/plunder", "") == ".venv/bin/plunder"
    assert invoked_as("my venv/bin/plunder", "") == "'my venv/bin/plunder'"
    # started some other way, no plunder on the PATH: this interpreter's -m
    assert invoked_as("/x/pytest", "") == f"{sys.executable} -m plunder"
    out = subprocess.run([sys.executable, "-m", "plunder", "rules", "hubs"], capture_output=True, text=True)
    assert out.returncode == 0 and "Hubs" in out.stdout
