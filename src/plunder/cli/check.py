"""``plunder check GAME``: Plunder's game-independent checks on an installed game, by its id.

For the game's default parameters and each preset it runs the conformance check
(:func:`plunder.core.conformance.check_game`), a record's round trip (a game played, saved as
JSON to a file, read back and replayed to the state play reached), and, where the game offers
an observation and the libraries are installed, PettingZoo's ``api_test``, ``seed_test`` and ``render_test``, Gymnasium's
``check_env`` and OpenSpiel's ``random_sim_test``; then a web smoke test (the web app
in-process: the home page, the game's new-game form, a few moves of a hotseat game of each
parameter set). One line per check, ``pass``, ``FAIL`` or ``skip`` with what it saw or why; the
command exits with status 1 when a check failed.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import random
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import click

from ..core.conformance import check_game
from ..core.errors import one_line
from ..core.game import Game
from ..core.record import read_record, replay
from ..core.registry import GameEntry, entry
from ..match import play_out
from ..web.app import create_app

#: what a check ends with: ``pass``, ``FAIL`` or ``skip``
PASS, FAIL, SKIP = "pass", "FAIL", "skip"
#: longest reason a line quotes (a library's assertion can be long)
MAX_REASON_CHARS = 300
#: moves the web smoke test plays in each game it starts
WEB_MOVES = 6
#: the libraries of the interop checks: check name -> (import name, the pip requirement)
LIBRARIES = {"pettingzoo": ("pettingzoo", "pettingzoo"), "gymnasium": ("gymnasium", "gymnasium"),
             "openspiel": ("pyspiel", "open-spiel")}


@dataclass(frozen=True)
class Outcome:
    """One check's verdict on one parameter set, and what it saw or why it failed or was skipped."""

    check: str
    label: str
    verdict: str
    reason: str

    def line(self) -> str:
        """``pass  conformance  quick: 50 games, ...``."""
        return f"{self.verdict:<4}  {self.check:<11}  {self.label}: {self.reason}"


class Skipped(Exception):
    """A check that cannot run here; the message says why."""


@click.command("check")
@click.argument("game_id", metavar="GAME")
@click.option("--games", type=click.IntRange(1, 10_000), default=50, show_default=True,
              help="random games the conformance check plays for each parameter set")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True,
              help="seed of the random games and records")
def check_cmd(game_id: str, games: int, seed: int) -> None:
    """Run Plunder's game-independent tests on installed game GAME, for every preset."""
    found = entry(game_id)
    outcomes = []
    for outcome in run_checks(found, games, seed):
        click.echo(outcome.line())
        outcomes.append(outcome)
    counts = {verdict: sum(o.verdict == verdict for o in outcomes) for verdict in (PASS, FAIL, SKIP)}
    click.echo(f"{game_id}: {counts[PASS]} passed, {counts[FAIL]} failed, {counts[SKIP]} skipped")
    if counts[FAIL]:
        raise click.exceptions.Exit(1)


@dataclass(frozen=True)
class ParameterSet:
    """The game with one preset (``preset`` None: its defaults), and how the lines call it."""

    label: str
    preset: str | None
    game: Game


def parameter_sets(found: GameEntry[Any, Any]) -> list[ParameterSet]:
    """The game with each preset, and with its defaults (``defaults``) unless a preset has the
    very same parameters."""
    cls = found.game_class
    sets = [ParameterSet(name, name, cls.load(name)) for name in cls.presets]
    default = cls.load()
    if all(s.game.params != default.params for s in sets):
        sets.insert(0, ParameterSet("defaults", None, default))
    return sets


def run_checks(found: GameEntry[Any, Any], games: int, seed: int) -> Iterator[Outcome]:
    """Every check on every parameter set of the game, as each ends."""
    sets = parameter_sets(found)
    for each in sets:  # each lambda runs at once, inside _run, while the loop's names still hold it
        yield _run("conformance", each.label, lambda: _conformance(each.game, games, seed))
        yield _run("record", each.label, lambda: _record(each.game, seed))
        for check, run in (("pettingzoo", _pettingzoo), ("gymnasium", _gymnasium), ("openspiel", _openspiel)):
            yield _run(check, each.label, lambda: _interop(found, check, run, each))
    yield from _web(found, sets)


def _run(check: str, label: str, run: Callable[[], str]) -> Outcome:
    """``run()`` as one check: what it says on success, the reason it raised otherwise. The
    libraries' own chatter (PettingZoo prints as it tests) and advice (warnings) are left out."""
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            said = run()
    except Skipped as why:
        return Outcome(check, label, SKIP, str(why))
    except Exception as exc:  # a game may break in any way: each check says how, the others still run
        return Outcome(check, label, FAIL, one_line(exc, MAX_REASON_CHARS))
    return Outcome(check, label, PASS, said)



def _conformance(game: Game, games: int, seed: int) -> str:
    report = check_game(game, playthroughs=games, seed=seed, full_checks=min(games, 3))
    return (f"{report.games} games, {report.states} states, {report.actions_applied} actions applied, "
            f"{report.illegal_refused} illegal ones refused, {report.records_replayed} records replayed, "
            f"{report.records_tampered} tampered with and refused")


def _record(game: Game, seed: int) -> str:
    """A game of random play saved as a JSON file, read back (the game found by the record's id
    and parameters) and replayed to the state play reached."""
    record, final = play_out(game, ["random"] * game.num_players, seed)
    with tempfile.TemporaryDirectory(prefix="plunder-check-") as folder:
        path = Path(folder) / "game.json"
        path.write_text(record.to_json(), encoding="utf-8")
        again = read_record(str(path))
    if again != record:
        raise AssertionError("the record read back from its file differs from the one saved")
    replayed = replay(again)
    if replayed != final:
        raise AssertionError(f"the record replays to {replayed.summary()}, but play reached {final.summary()}")
    return f"{len(record.moves)} moves saved, read back and replayed to the final state"


def _interop(found: GameEntry[Any, Any], check: str, run: Callable[[ParameterSet], str], each: ParameterSet) -> str:
    """``run(each)`` where the game offers an observation and ``check``'s library is installed."""
    if found.learning.observation is None:
        raise Skipped("the game offers no observation (Learning.observation)")
    module, requirement = LIBRARIES[check]
    if importlib.util.find_spec(module) is None:
        raise Skipped(f"{module} is not installed (pip install {requirement})")
    return run(each)


def _interop_module(name: str) -> Any:
    """The adapter module ``plunder.interop.<name>``, imported only once its library is known to
    be installed (each needs an optional library, which a module-level import would demand)."""
    return importlib.import_module(f"plunder.interop.{name}")


def _pettingzoo(each: ParameterSet) -> str:
    tests = importlib.import_module("pettingzoo.test")
    make = _interop_module("pettingzoo").env
    tests.api_test(make(each.game.id, preset=each.preset), num_cycles=20)
    tests.seed_test(lambda: make(each.game.id, preset=each.preset), num_cycles=20)
    with contextlib.redirect_stdout(io.StringIO()):  # the human mode prints its picture
        tests.render_test(lambda render_mode: make(each.game.id, render_mode=render_mode, preset=each.preset))
    return "api_test, seed_test and render_test passed"


def _gymnasium(each: ParameterSet) -> str:
    checker = importlib.import_module("gymnasium.utils.env_checker")
    env = _interop_module("gymnasium").PlunderEnv(each.game.id, preset=each.preset)
    checker.check_env(env, skip_render_check=True)
    others = "" if each.game.num_players == 1 else " (from the first seat, the others played by random)"
    return f"check_env passed{others}"


def _openspiel(each: ParameterSet) -> str:
    pyspiel = importlib.import_module("pyspiel")
    short_name = _interop_module("openspiel").short_name(each.game.id)
    if short_name not in pyspiel.registered_names():
        raise Skipped(f"{each.game.id} was installed after OpenSpiel's adapter registered the games")
    params = {} if each.preset is None else {"preset": each.preset}
    pyspiel.random_sim_test(pyspiel.load_game(short_name, params), num_sims=1, serialize=True, verbose=False)
    return "random_sim_test passed, serialization included"


def _web(found: GameEntry[Any, Any], sets: list[ParameterSet]) -> Iterator[Outcome]:
    """The web app in-process over a throwaway database: its home page and the game's form,
    then a few moves of a hotseat game of each parameter set."""
    game_id = found.game_class.id
    try:  # the test client needs httpx2, which only the dev extra installs
        testclient = importlib.import_module("starlette.testclient")
    except ImportError as exc:
        yield Outcome("web", "all", SKIP, f"starlette's test client needs httpx2 ({one_line(exc, MAX_REASON_CHARS)}; pip install httpx2)")
        return
    with tempfile.TemporaryDirectory(prefix="plunder-check-") as folder:
        with testclient.TestClient(create_app(f"sqlite:///{Path(folder) / 'plunder.db'}", ai_workers=0)) as client:
            yield _run("web", "pages", lambda: _pages(client, game_id))
            for each in sets:
                yield _run("web", each.label, lambda: _web_game(client, each))


def _pages(client: Any, game_id: str) -> str:
    home = client.get("/")
    if home.status_code != 200 or f'href="/new/{game_id}"' not in home.text:
        raise AssertionError(f"the home page (status {home.status_code}) does not offer a new game of {game_id}")
    form = client.get(f"/new/{game_id}")
    if form.status_code != 200 or f'action="/new/{game_id}"' not in form.text:
        raise AssertionError(f"the new-game form /new/{game_id} did not come (status {form.status_code})")
    return "the home page offers the game and its new-game form comes"


def _web_game(client: Any, each: ParameterSet) -> str:
    """A hotseat game of ``each`` started through the form, and a few moves of it over the WebSocket."""
    game = each.game
    fields = {"preset": each.preset or "", **{f"seat.{seat}": "hotseat" if seat else "me" for seat in range(game.num_players)}}
    made = client.post(f"/new/{game.id}", data=fields, follow_redirects=False)
    if made.status_code != 303:
        raise AssertionError(f"the new-game form refused a game (status {made.status_code})")
    table = str(made.headers["location"]).rsplit("/", 1)[1]
    page = client.get(f"/play/{table}")
    if page.status_code != 200:
        raise AssertionError(f"the game page /play/{table} did not come (status {page.status_code})")
    rng = random.Random(0)
    moves = 0
    with client.websocket_connect(f"/ws/{table}") as ws:
        message = _state(ws)
        while moves < WEB_MOVES and not message["over"]:
            if not message["legal"]:
                raise AssertionError(f"no legal move offered at ply {message['ply']} of a hotseat game")
            ws.send_json({"type": "act", "action": rng.choice(message["legal"]), "ply": message["ply"]})
            after = _state(ws)
            if after["ply"] <= message["ply"]:
                raise AssertionError(f"a move at ply {message['ply']} was not taken")
            message, moves = after, moves + 1
    over = ", the game over" if message["over"] else ""
    return f"a hotseat game started from the form, its page shown and {moves} moves played{over}"


def _state(ws: Any) -> dict[str, Any]:
    """The next position the server sends (an error is the check's failure)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message.get("type") == "state":
            return message
        if message.get("type") == "error":
            raise AssertionError(f"the server refused: {message.get('detail') or message.get('message')}")
