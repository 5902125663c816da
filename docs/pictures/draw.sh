#!/usr/bin/env bash
# Redraws the PNG pictures in this folder: one game of each title played by the computer,
# drawn mid-game with `plunder render --png`. Run from anywhere with plunder installed.
set -euo pipefail
cd "$(dirname "$0")"
records=$(mktemp -d)
trap 'rm -rf "$records"' EXIT
draw() {  # game, players, seed, moves before the picture, then any play options
    local game=$1 players=$2 seed=$3 at=$4
    shift 4
    plunder play "$game" --players "$players" --seed "$seed" --record "$records/$game.json" "$@" </dev/null >/dev/null
    plunder render "$records/$game.json" --at "$at" --png "$game.png"
}
draw pillage greedy,random 3 28
draw pirates greedy 7 110
draw hubs greedy,random 2 18 --preset small
draw profiteer hard 4 52
draw crossroads greedy,always-fair,greedy,random 5 105
