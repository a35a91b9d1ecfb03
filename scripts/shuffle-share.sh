#!/usr/bin/env bash
# war-simulator's rounds with and without their shuffles (issue 16): the share of a run's time
# spent in warsim's shuffle (perf's cpu-clock samples, the whole run recorded), and ns/round
# from warsim's own --json in a separate run without perf. The rest of a round is
# ns/round x (1 - the share), set against classic's whole round and against classic's rest.
# The shuffles counted are every call of warsim's pinned shuffle: war-simulator's refills and,
# in both presets, the deal's (about one 52-card shuffle a game). Medians over the runs.
#
# Usage: scripts/shuffle-share.sh [--runs N] [BINARY]
#   --runs N   runs of each work (default 5)
#   BINARY     the warsim binary (default: target/release/warsim, built first)
# Needs perf (Debian: apt-get install linux-perf) and the binary's symbols (release builds keep
# them). Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v perf > /dev/null; then
  echo "error: scripts/shuffle-share.sh needs perf (Debian: apt-get install linux-perf)" >&2
  exit 2
fi
# shellcheck source=scripts/binaries.sh
. scripts/binaries.sh

usage="scripts/shuffle-share.sh [--runs N] [BINARY]"
runs_and_binaries "$usage" "$@"
if [ ${#bins[@]} -ne 1 ]; then
  echo "usage: $usage (one binary)" >&2
  exit 2
fi
bin=${bins[0]}

# label | games timed | games sampled | warsim run flags (one thread and quiet are added)
works=(
  "classic 2p 52 cards|200000|1000000|"
  "war-simulator 2p|200000|400000|--rules war-simulator"
  "war-simulator 4p|100000|200000|--rules war-simulator --players 4"
)

raw=$(mktemp)
json=$(mktemp)
samples=$(mktemp)
trap 'rm -f "$raw" "$json" "$samples"' EXIT
for i in $(seq "$runs"); do
  echo "run $i of $runs" >&2
  for work in "${works[@]}"; do
    IFS='|' read -r label timed sampled flags <<< "$work"
    # shellcheck disable=SC2086 # flags are words
    "$bin" run --games "$timed" --threads 1 -q --json "$json" $flags > /dev/null
    read -r ns _ <<< "$(round_figures "$json")"
    # shellcheck disable=SC2086 # flags are words
    perf record -q -e cpu-clock -o "$samples" -- \
      "$bin" run --games "$sampled" --threads 1 -q $flags > /dev/null 2>&1
    share=$(perf report -i "$samples" --stdio --sort sym 2> /dev/null | awk '
      /Xoshiro256PlusPlus as warsim::engine::random::GameRandom>::shuffle/ {
        gsub(/%/, "", $1); s += $1 }
      END { printf "%.2f", s }')
    echo "$label|$ns|$share" >> "$raw"
  done
done

median() { # LABEL FIELD -> the median of that field over the runs
  awk -F'|' -v l="$1" -v f="$2" '$1 == l { print $f }' "$raw" | spread | awk '{ print $1 }'
}

echo "$(host_line), one thread, medians of $runs runs"
echo "binary: $bin"
printf '%-22s %9s %9s %9s %12s %12s %12s\n' work "ns/round" "shuffles" "rest ns" "x classic" "rest x cl." "rest x rest"
classic_ns=$(median "classic 2p 52 cards" 2)
classic_rest=$(awk -v n="$classic_ns" -v s="$(median "classic 2p 52 cards" 3)" 'BEGIN { print n * (1 - s / 100) }')
for work in "${works[@]}"; do
  IFS='|' read -r label _ _ _ <<< "$work"
  ns=$(median "$label" 2)
  share=$(median "$label" 3)
  awk -v l="$label" -v n="$ns" -v s="$share" -v c="$classic_ns" -v cr="$classic_rest" 'BEGIN {
    rest = n * (1 - s / 100)
    printf "%-22s %9.2f %8.1f%% %9.2f %12.2f %12.2f %12.2f\n", l, n, s, rest, n / c, rest / c, rest / cr }'
done
