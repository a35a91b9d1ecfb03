#!/usr/bin/env bash
# A sweep of many short cells on a busy machine (a shared cluster node, a container given less
# CPU than it sees): wall time of `warsim sweep --face-down 0..255 --ranks 10..20 --games G`
# (2,816 cells) with no files, with a per-game CSV, with a Parquet file and with a state, while
# K processes spin on the cores (--busy K), and the same sweep on the machine left idle. Each
# binary in turn, in one sitting; medians over the runs, and each binary's against the first's.
#
# Usage: scripts/busy-sweep.sh [--runs N] [--busy K] [--games G] [BINARY...]
#   --runs N    runs of each work on each binary (default 5)
#   --busy K    processes spinning while the busy works run (default: one per core)
#   --games G   games per cell (default 100)
#   BINARY      warsim binaries to compare (default: target/release/warsim, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/binaries.sh
. scripts/binaries.sh

usage="scripts/busy-sweep.sh [--runs N] [--busy K] [--games G] [BINARY...]"
busy=$(nproc)
games=100
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --busy) busy="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
runs_and_binaries "$usage" "${args[@]}"

# label | warsim sweep flags added to the grid's (files go to a scratch folder)
works=(
  "no files|"
  "per-game CSV|--games-csv games.csv"
  "Parquet|--parquet games.parquet"
  "state|--state state.json"
)

scratch=$(mktemp -d)
spinners=()
stop_spinning() {
  if [ ${#spinners[@]} -gt 0 ]; then kill "${spinners[@]}" 2> /dev/null || true; fi
  spinners=()
}
trap 'stop_spinning; rm -rf "$scratch"' EXIT
raw="$scratch/raw"
for b in "${!bins[@]}"; do bins[b]=$(realpath "${bins[$b]}"); done

# time_works LOAD: every work on every binary once, appending "LOAD|label|binary|seconds".
time_works() {
  local load=$1 work label flags b start
  for work in "${works[@]}"; do
    IFS='|' read -r label flags <<< "$work"
    for b in "${!bins[@]}"; do
      rm -f "$scratch"/games.* "$scratch"/state.json
      start=$(date +%s.%N)
      # shellcheck disable=SC2086 # flags are words
      (cd "$scratch" && "${bins[$b]}" sweep --face-down 0..255 --ranks 10..20 \
        --games "$games" -q $flags > /dev/null)
      echo "$load|$label|$b|$(echo "$(date +%s.%N) - $start" | bc)" >> "$raw"
    done
  done
}

for i in $(seq "$runs"); do
  echo "run $i of $runs" >&2
  time_works idle
  for _ in $(seq "$busy"); do
    sh -c 'while :; do :; done' &
    spinners+=($!)
  done
  time_works busy
  stop_spinning
done

host_line
echo "2,816 cells x $games games, $busy spinning processes in the busy works, $runs runs"
echo "load | work | binary | median s (lowest, highest) | x the first binary's median"
for load in idle busy; do
  for work in "${works[@]}"; do
    label=${work%%|*}
    first=""
    for b in "${!bins[@]}"; do
      read -r median low high <<< "$(awk -F'|' -v l="$load" -v w="$label" -v b="$b" \
        '$1 == l && $2 == w && $3 == b { print $4 }' "$raw" | spread)"
      [ -z "$first" ] && first=$median
      awk -v l="$load" -v w="$label" -v b="${bins[$b]}" -v m="$median" -v lo="$low" \
        -v hi="$high" -v f="$first" \
        'BEGIN { printf "%s | %s | %s | %.3f (%.3f, %.3f) | %.3f\n", l, w, b, m, lo, hi, m / f }'
    done
  done
done
