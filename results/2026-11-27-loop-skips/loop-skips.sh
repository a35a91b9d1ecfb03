#!/usr/bin/env bash
# Seconds per run, one thread, of games that loop under `--at-cap larger-pile` (and of games
# that do not), for warsim binaries run alternately in one sitting; medians of the runs.
#
# Usage: results/2026-11-27-loop-skips/loop-skips.sh [--runs N] BINARY...
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/binaries.sh
. scripts/binaries.sh

runs_and_binaries "loop-skips.sh [--runs N] BINARY..." "$@"

# label | games | warsim run flags (one thread, quiet and the JSON summary are added)
works=(
  "1 x 13 cards, larger-pile|20000|--suits 1 --ranks 13 --at-cap larger-pile"
  "classic, seat pickup, larger-pile|20000|--pickup seats --at-cap larger-pile"
  "2 x 5, no face-down, cap 10^6|3000|--suits 2 --ranks 5 --face-down 0 --at-cap larger-pile --max-rounds 1e6"
  "rustwar heap, larger-pile, cap 30000|5000|--pickup alternating --face-down 3 --spoils heap-unshuffled --at-cap larger-pile --max-rounds 30000"
  "208 cards, larger-pile (no loops)|20000|--ranks 52 --at-cap larger-pile"
  "classic|200000|"
  "game-of-war (reshuffles)|200000|--rules game-of-war"
)

raw=$(mktemp)
json=$(mktemp)
trap 'rm -f "$raw" "$json"' EXIT
# Seconds of a run: its games / its games per second.
seconds() { awk -v n="$2" '/"games_per_second"/ { gsub(/[,]/, "", $2); printf "%.4f", n / $2 }' "$1"; }
alternate_works "$raw" "$json" 1 seconds

echo "$(host_line), one thread, medians of $runs runs (seconds a run)"
for b in "${!bins[@]}"; do echo "binary $b: ${bins[$b]}"; done
header=$(printf '%-40s' work)
for b in "${!bins[@]}"; do header+=$(printf ' %10s' "s b$b"); done
header+=$(printf ' %10s' "b0/last")
echo "$header"
for work in "${works[@]}"; do
  IFS='|' read -r label _ _ <<< "$work"
  line=$(printf '%-40s' "$label")
  for b in "${!bins[@]}"; do
    line+=$(awk -F'|' -v l="$label" -v b="$b" '$1 == l && $2 == b { print $3 }' "$raw" | spread |
      awk '{ printf " %10.4f", $1 }')
  done
  first=$(awk -F'|' -v l="$label" '$1 == l && $2 == 0 { print $3 }' "$raw" | spread | awk '{ print $1 }')
  last=$(awk -F'|' -v l="$label" -v b=$((${#bins[@]} - 1)) '$1 == l && $2 == b { print $3 }' "$raw" | spread | awk '{ print $1 }')
  line+=$(awk -v a="$first" -v c="$last" 'BEGIN { printf " %9.2fx", a / c }')
  echo "$line"
done
