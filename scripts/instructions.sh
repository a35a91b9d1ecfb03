#!/usr/bin/env bash
# Instructions each warsim binary spends on fixed work (valgrind's callgrind, one thread): the
# steady measure for a change to the fast loops, where time moves by 5-10% with code layout
# between sittings. Every work is listed, not just the one a change is for: the loops share a
# function, and an edit to one can change another's register allocation (results/
# 2026-11-25-register-pressure; a call added to the game loop once cost the general path's rule
# sets 2-4.5%, results/2026-11-27-loop-skips). Counts repeat to a few parts in ten thousand.
#
# Usage: scripts/instructions.sh [BINARY...]
#   BINARY   warsim binaries to compare (default: target/release/warsim, built first); the
#            table shows each one's count and the ratio of the last to the first.
# Needs valgrind (Debian: apt-get install valgrind). A binary built for AVX-512
# (-C target-cpu=native on Zen 4) stops with SIGILL under valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind > /dev/null; then
  echo "error: scripts/instructions.sh needs valgrind (Debian: apt-get install valgrind)" >&2
  exit 2
fi
# shellcheck source=scripts/binaries.sh
. scripts/binaries.sh
compared_binaries "scripts/instructions.sh [BINARY...]" "$@"

# The "no watch" rows: `--at-cap larger-pile` with WARSIM_NO_CYCLE_SKIP set plays every round,
# unwatched (without it, warsim watches those games too, to skip the laps of their loops). No
# other row is changed by it.
export WARSIM_NO_CYCLE_SKIP=1

# label | warsim run flags (one thread and quiet are added)
watched="2p 4x52=208 cards, 1,000 games"
unwatched="2p 4x52=208 cards, no watch"
works=(
  "classic 2p 52 cards, 20,000 games|--games 20000"
  "2p 4x26=104 cards, 2,000 games|--games 2000 --ranks 26"
  "$watched|--games 1000 --ranks 52"
  "$unwatched|--games 1000 --ranks 52 --at-cap larger-pile"
  "4p 52 cards, 3,000 games|--games 3000 --players 4"
  "war-simulator 2p, 5,000 games|--games 5000 --rules war-simulator"
  "war-simulator 4p, 3,000 games|--games 3000 --rules war-simulator --players 4"
  # The general path (rule sets the fast loops do not play): the game loop round by round.
  "shuffled pickup 2p, 2,000 games|--games 2000 --pickup shuffled"
  "unshuffled heap 208 cards, 300 games|--games 300 --ranks 52 --spoils heap-unshuffled"
)

out=$(mktemp)
trap 'rm -f "$out"' EXIT
header=$(printf '%-36s' work)
for b in "${!bins[@]}"; do header+=$(printf ' %12s' "Minstr b$b"); done
[ ${#bins[@]} -gt 1 ] && header+=$(printf ' %10s' "last/b0")
for b in "${!bins[@]}"; do echo "binary $b: ${bins[$b]}"; done
echo "$header"
declare -A counts
for work in "${works[@]}"; do
  IFS='|' read -r label flags <<< "$work"
  line=$(printf '%-36s' "$label")
  for b in "${!bins[@]}"; do
    # shellcheck disable=SC2086 # flags are words
    valgrind --tool=callgrind --callgrind-out-file="$out" "${bins[$b]}" run -q --threads 1 \
      $flags > /dev/null 2>&1
    counts[$label,$b]=$(sed -n 's/^summary: *//p' "$out")
    line+=$(awk -v n="${counts[$label,$b]}" 'BEGIN { printf " %12.2f", n / 1e6 }')
  done
  if [ ${#bins[@]} -gt 1 ]; then
    last=$((${#bins[@]} - 1))
    line+=$(awk -v a="${counts[$label,$last]}" -v c="${counts[$label,0]}" \
      'BEGIN { printf " %10.4f", a / c }')
  fi
  echo "$line"
done
line=$(printf '%-36s' "the watch's cost, 208 cards")
for b in "${!bins[@]}"; do
  line+=$(awk -v w="${counts[$watched,$b]}" -v n="${counts[$unwatched,$b]}" \
    'BEGIN { printf " %11.4fx", w / n }')
done
echo "$line"
