#!/usr/bin/env bash
# Instruction counts (callgrind) of two warsim binaries on the same runs: OLD NEW.
# Usage: instructions.sh OLD_BINARY NEW_BINARY
set -euo pipefail
old=$1 new=$2
runs=(
  "classic|--games 3000"
  "war-card-game|--rules war-card-game --games 3000"
  "classic shuffled pickup|--pickup shuffled --games 3000"
  "classic 4 players|--players 4 --games 1000"
  "war-simulator|--rules war-simulator --games 1000"
  "game-of-war|--rules game-of-war --games 1000"
  "classic with --csv|--games 3000 --csv /dev/null"
)
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-26s %15s %15s %8s\n' run old new new/old
for entry in "${runs[@]}"; do
  label=${entry%%|*}; args=${entry#*|}
  # shellcheck disable=SC2086
  a=$(count "$old" run -q --threads 1 --seed 3 $args)
  # shellcheck disable=SC2086
  b=$(count "$new" run -q --threads 1 --seed 3 $args)
  printf '%-26s %15s %15s %8s\n' "$label" "$a" "$b" "$(echo "scale=4; $b / $a" | bc)"
done
