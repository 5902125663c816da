"""How long Crossroads trading move lists get over real games, with every route (CR-7 amended) listed.

For each trading turn of games between the agents (random included, so odd boards come
up) it counts the offers listed, the routes per trading pair, and what the list would
hold if only the fewest-relay routes counted (the rule before CR-7 was amended).

    .venv/bin/python bench/crossroads_moves.py --games 40 --players 4
"""

from __future__ import annotations

import argparse
import statistics

import plunder
from plunder.agents import make_agent
from plunder.core import chance
from plunder.games.crossroads.rules import CrossroadsState, Phase, splits
from plunder.match import agent_rng

AGENTS = ["random", "greedy", "always-fair", "greedy-splitter", "tit-for-tat", "grudger"]


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    game = plunder.load_game("crossroads", players=args.players)
    listed: list[int] = []
    shortest: list[int] = []
    routes: list[int] = []
    for seed in range(args.games):
        seats = [AGENTS[(seed + i) % len(AGENTS)] for i in range(args.players)]
        agents = [make_agent(name, game) for name in seats]
        rngs = [agent_rng(seed, i) for i in range(args.players)]
        draws = chance.stream(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            assert isinstance(state, CrossroadsState)
            player = state.current_player
            if player == plunder.CHANCE:
                state = state.apply(chance.pick(state.chance_outcomes(), draws()))
                continue
            if state.phase is Phase.TRADE:
                pairs: dict[tuple[int, int], list[tuple[int, ...]]] = {}
                for a, b, relays in state.trade_pairs(state.seat):
                    pairs.setdefault((a, b), []).append(relays)
                listed.append(len(state.legal_actions()))
                fewest = [[r for r in rs if len(r) == len(rs[0])] for rs in pairs.values()]
                shortest.append(1 + sum(len(splits(2 + len(r))) for rs in fewest for r in rs))
                routes += [len(rs) for rs in pairs.values()]
            state = state.apply(agents[player].choose(state, rngs[player]))
    listed.sort()
    print(f"{args.games} games, {args.players} players, {len(listed)} trading turns")
    print(f"offers listed: mean {statistics.mean(listed):.2f}, 99th percentile {listed[int(0.99 * len(listed))]},"
          f" max {listed[-1]}")
    print(f"fewest-relay routes only: mean {statistics.mean(shortest):.2f}, max {max(shortest)}")
    print(f"routes per trading pair: mean {statistics.mean(routes):.3f}, max {max(routes)},"
          f" pairs with more than one {sum(1 for r in routes if r > 1)} of {len(routes)}")


if __name__ == "__main__":
    main()
