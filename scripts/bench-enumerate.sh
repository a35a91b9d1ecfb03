#!/usr/bin/env bash
# Exhaustive enumeration speed: French bataille on 4 suits × 4 ranks (63,063,000 sequences),
# every deal set, on one and two threads; and, given bataille_cpp's `explore` binary (built
# from legrosbuffle/bataille_cpp with its Makefile), the same half of the deals played by both
# programs on one core, alternating, medians of --runs. Figures are wall-clock seconds of the
# whole process (warsim's report also gives its own time).
#
# Usage: scripts/bench-enumerate.sh [--runs N] [EXPLORE]
# Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
explore=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    -*) echo "usage: scripts/bench-enumerate.sh [--runs N] [EXPLORE]" >&2; exit 2 ;;
    *) explore="$(realpath "$1")"; shift ;;
  esac
done
cargo build --release >&2
warsim="$PWD/target/release/warsim"
bataille=(--suits 4 --ranks 4 --face-down 0 --pickup natural --war-shortage end-game -q)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { # command... -> wall seconds
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "date $(date -u +%F), $(lscpu | sed -n 's/^Model name: *//p') (family $(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/.*: //') model $(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | sed 's/.*: //')), medians of $runs runs"
printf '%-44s %10s %12s %16s\n' "work" "deals" "seconds" "deals/s/thread"
for set in all unordered lex-half; do
  for threads in 1 2; do
    deals=$("$warsim" enumerate "${bataille[@]}" --deals "$set" --json - 2> /dev/null |
      awk -F'[:,]' '/^  "deals"/ { gsub(/ /, "", $2); print $2; exit }')
    s=$(for _ in $(seq "$runs"); do seconds "$warsim" enumerate "${bataille[@]}" --deals "$set" --threads "$threads"; done | median)
    printf '%-44s %10s %12.2f %16.0f\n' "warsim --deals $set --threads $threads" "$deals" "$s" "$(echo "$deals / $s / $threads" | bc -l)"
  done
done
if [ -n "$explore" ]; then
  # explore writes c4v4.txt in its working folder; one core each, alternating.
  cd "$work"
  a=(); b=()
  for _ in $(seq "$runs"); do
    a+=("$(seconds taskset -c 1 "$explore" exhaustive natural 4 4)")
    b+=("$(seconds taskset -c 1 "$warsim" enumerate "${bataille[@]}" --deals lex-half --threads 1)")
  done
  played=$(sed -n 's/.* loops found after \([0-9]*\)\/.*/\1/p' c4v4.txt | tail -1)
  ma=$(printf '%s\n' "${a[@]}" | median); mb=$(printf '%s\n' "${b[@]}" | median)
  printf '%-44s %10s %12.2f %16.0f\n' "bataille_cpp explore exhaustive natural 4 4" "$played" "$ma" "$(echo "$played / $ma" | bc -l)"
  printf '%-44s %10s %12.2f %16.0f\n' "warsim --deals lex-half --threads 1 (pinned)" 31531500 "$mb" "$(echo "31531500 / $mb" | bc -l)"
  echo "bataille_cpp / warsim time: $(echo "$ma / $mb" | bc -l | cut -c1-5)"
fi
