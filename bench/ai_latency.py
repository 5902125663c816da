"""How long a level makes a player wait: CPU per move over whole games, per game and level.

Run: .venv/bin/python bench/ai_latency.py [--games 6] [--levels hard] [--only pillage]
     [--variant pillage:board=square:5x5] [--no-presets] [--opponent greedy] [--seed 3000000]

Every game's default variant and every preset it declares (``Game.presets``: the parameter
sets the CLI and the browser's new-game form offer; a preset with the default's parameters is
measured once, under its name), plus any ``--variant GAME:KEY=VALUE,...``, is played whole,
``--games`` times per level, the level in one seat (seats alternating game by game, the other
seats ``--opponent``), exactly as people meet it: the agent is built once per game by
:func:`plunder.agents.make_agent` from the level's name (the spec the game's ``ENTRY.levels``
gives it) and decides with :func:`plunder.match.decision_rng`, as the web server does; chance is
drawn from the game's seed as :func:`plunder.play` does; before the first game each game's
``ENTRY.strength.warm`` runs, and the compiled MCTS tree is loaded
(:func:`plunder.agents.tree.warm`), as in the server's workers at start. ``PLUNDER_PURE=1`` in the
environment measures without compiled kernels. Every decision of the level is timed in
CPU time of this process (``time.process_time``), moves with one legal action included (a
player waits for those too). Prints per game and level the number of moves and the CPU ms per
move at the 50th, 95th percentile and the maximum, and the load average before and after.
The target (issue 38): ``hard`` at most 1,000 ms at the 95th percentile on every default variant
and every preset of every game.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import plunder
from plunder.agents import make_agent
from plunder.agents import tree
from plunder.core import chance
from plunder.core.errors import ParameterError
from plunder.core.game import CHANCE, Game, State
from plunder.core.registry import entry, game_ids
from plunder.match import decision_rng


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by the nearest rank."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def play_timed(game: Game, specs: list[str], seed: int) -> tuple[State, list[list[float]]]:
    """One whole game with ``specs`` in seat order, as people meet the agents (built once per
    game, deciding with :func:`decision_rng`; chance drawn from ``seed`` as :func:`plunder.play`
    draws it): the final state and, per seat, the CPU seconds of each of its decisions."""
    agents = [make_agent(spec, game) for spec in specs]
    draws = chance.stream(seed)
    state = game.new_initial_state()
    times: list[list[float]] = [[] for _ in specs]
    ply = 0
    while not state.is_terminal():
        player = state.current_player
        if player == CHANCE:
            action = chance.pick(state.chance_outcomes(), draws())
        else:
            rng = decision_rng(seed, player, ply)
            start = time.process_time()
            action = agents[player].choose(state, rng)
            times[player].append(time.process_time() - start)
        state = state.apply(action)
        ply += 1
    return state, times


def opponent_for(game: Game, opponent: str) -> str:
    """``opponent`` if ``game`` has that agent, else ``random`` (every game has it)."""
    try:
        make_agent(opponent, game)
    except ParameterError:
        return "random"
    return opponent


def move_times(game: Game, level: str, opponent: str, seat: int, seed: int) -> list[float]:
    """CPU seconds of each decision of ``level`` (in ``seat``) in one game with ``seed``."""
    specs = [level if s == seat else opponent for s in range(game.num_players)]
    return play_timed(game, specs, seed)[1][seat]


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def parse_variant(text: str) -> tuple[str, dict[str, str]]:
    """``GAME:KEY=VALUE,KEY=VALUE`` -> (game id, params)."""
    gid, _, rest = text.partition(":")
    params = dict(p.split("=", 1) for p in rest.split(",") if p) if rest else {}
    return gid, params


def declared_variants(gid: str, presets: bool) -> list[tuple[str, dict[str, str]]]:
    """(label, params) of ``gid``'s default variant and, with ``presets``, of each preset it
    declares, by the game's own declaration; parameter sets equal in canonical form once."""
    cls = entry(gid).game_class
    named: dict[tuple[tuple[str, str], ...], tuple[str, dict[str, str]]] = {}
    default = cls.load()
    named[tuple(sorted(default.params.items()))] = (f"{gid} (default)", {})
    for name, params in (cls.presets.items() if presets else ()):
        key = tuple(sorted(cls.load(name).params.items()))
        label, _ = named.get(key, ("", {}))
        if name != "default":
            named[key] = (f"{label}, {name}" if label else f"{gid} {name}", dict(params))
    return list(named.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per game variant and level")
    parser.add_argument("--levels", default="hard", help="comma-separated levels (or agent specs)")
    parser.add_argument("--only", default="", help="comma-separated game ids (default: every game)")
    parser.add_argument("--variant", action="append", default=[], metavar="GAME:KEY=VALUE,...",
                        help="a further variant to measure (repeatable)")
    parser.add_argument("--no-defaults", action="store_true", help="measure only the --variant ones")
    parser.add_argument("--no-presets", action="store_true", help="default variants only, no declared presets")
    parser.add_argument("--opponent", default="greedy",
                        help="the agent in the other seats (random in a game without it)")
    parser.add_argument("--seed", type=int, default=3_000_000)
    args = parser.parse_args()
    only = [g for g in args.only.split(",") if g]
    variants: list[tuple[str, str, dict[str, str]]] = []
    if not args.no_defaults:
        for gid in game_ids():
            if not only or gid in only:
                variants += [(gid, label, params) for label, params in declared_variants(gid, not args.no_presets)]
    for text in args.variant:
        gid, params = parse_variant(text)
        variants.append((gid, text, params))
    # as the web server's AI workers do at start (plunder.web.thinking.warm): compile or load
    # what the searches need first, the compiled MCTS tree included
    for gid in dict.fromkeys(gid for gid, _, _ in variants):
        prepare = entry(gid).strength.warm
        if prepare is not None:
            prepare()
        if entry(gid).strength.compiled is not None:
            tree.warm(plunder.load_game(gid))
    pure = os.environ.get("PLUNDER_PURE", "") not in ("", "0")
    print(f"load average before: {load()}; "
          f"{args.games} games per row, opponent {args.opponent}, seeds {args.seed}+; CPU ms per move; "
          f"compiled kernels {'off (PLUNDER_PURE)' if pure else 'on where installed'}")
    print(f"{'game':34} {'level':8} {'against':8} {'moves':>5} {'p50':>7} {'p95':>7} {'max':>7} {'mean':>7}")
    for gid, label, params in variants:
        game = plunder.load_game(gid, **params)
        opponent = opponent_for(game, args.opponent)
        for level in args.levels.split(","):
            times: list[float] = []
            for g in range(args.games):
                times += move_times(game, level, opponent, g % game.num_players, args.seed + g)
            ms = [t * 1000 for t in times]
            print(f"{label:34} {level:8} {opponent:8} {len(ms):5} {percentile(ms, 50):7.0f} {percentile(ms, 95):7.0f} "
                  f"{max(ms):7.0f} {statistics.mean(ms):7.0f}", flush=True)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
