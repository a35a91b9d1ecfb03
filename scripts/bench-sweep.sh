#!/usr/bin/env bash
# Throughput of `warsim sweep` against the same games played as separate `warsim run`s:
# 40 cells (--players 2..6 × --ranks 6..13, 4 suits) of GAMES games each, alternating the two
# ways in one sitting; prints the median wall time of each and their ratio (issue 14 asks for
# the sweep at >= 90% of the separate runs' games/s).
#
# Usage: scripts/bench-sweep.sh [--runs N] [--games G] [--threads T]
#   --runs N     alternations; medians are reported (default 5)
#   --games G    games per cell (default 100000)
#   --threads T  worker threads of both (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
games=100000
threads=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    *) echo "usage: scripts/bench-sweep.sh [--runs N] [--games G] [--threads T]" >&2; exit 2 ;;
  esac
done
cargo build --release >&2
warsim=target/release/warsim

now() { date +%s.%N; }
separate() {
  for players in 2 3 4 5 6; do
    for ranks in 6 7 8 9 10 11 12 13; do
      "$warsim" run -q --games "$games" --threads "$threads" --players "$players" --ranks "$ranks" > /dev/null
    done
  done
}
together() {
  "$warsim" sweep -q --games "$games" --threads "$threads" --players 2..6 --ranks 6..13 > /dev/null
}

sweep_times=()
run_times=()
for _ in $(seq "$runs"); do
  start=$(now); together; sweep_times+=("$(echo "$(now) - $start" | bc)")
  start=$(now); separate; run_times+=("$(echo "$(now) - $start" | bc)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
sweep_median=$(median "${sweep_times[@]}")
run_median=$(median "${run_times[@]}")
total=$((40 * games))
echo "cpu:              $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || echo no AVX-512)"
echo "cells x games:    40 x $games, threads $threads, $runs alternations"
echo "sweep (median):   $sweep_median s   $(echo "$total / $sweep_median" | bc) games/s   [${sweep_times[*]}]"
echo "40 runs (median): $run_median s   $(echo "$total / $run_median" | bc) games/s   [${run_times[*]}]"
echo "sweep / runs games/s: $(echo "scale=3; $run_median / $sweep_median" | bc)"
